// Progress lines: one updating line on a terminal, one line per round in CI logs.
#include "run/progress.h"

#include <pty.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <gtest/gtest.h>

namespace cobench::run {
namespace {

// Captures everything a Progress writes.
class Capture {
 public:
  Capture() : file_(open_memstream(&data_, &size_)) {}
  ~Capture() {
    std::fclose(file_);
    std::free(data_);
  }
  std::FILE* file() { return file_; }
  std::string text() {
    std::fflush(file_);
    return std::string(data_, size_);
  }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  std::FILE* file_;
};

ProgressState state(std::string target, int round, int base, int head, int undecided, double elapsed,
                    double eta) {
  return ProgressState{std::move(target), round, base, head, undecided, elapsed, eta};
}

TEST(Progress, FormatsEveryField) {
  EXPECT_EQ(format_progress(state("bench_sort", 3, 6, 5, 2, 12.4, 40)),
            "bench_sort: round 3, runs 6 base / 5 head, 2 undecided, 0:12 elapsed, ETA 0:40");
  EXPECT_EQ(format_progress(state("t", 1, 0, 0, 0, 0, -1)), "t: round 1, runs 0 base / 0 head, 0 undecided, 0:00 elapsed");
}

TEST(Progress, Clock) {
  EXPECT_EQ(format_clock(0), "0:00");
  EXPECT_EQ(format_clock(7.4), "0:07");
  EXPECT_EQ(format_clock(59.6), "1:00");
  EXPECT_EQ(format_clock(750), "12:30");
  EXPECT_EQ(format_clock(3723), "1:02:03");
  EXPECT_EQ(format_clock(-5), "0:00");
}

TEST(Progress, TerminalRewritesOneLine) {
  Capture out;
  Progress p(out.file(), true);
  p.update(state("a", 1, 1, 0, 3, 1, -1));
  p.update(state("a", 1, 1, 1, 3, 2, 10));
  p.finish();
  EXPECT_EQ(out.text(),
            "\ra: round 1, runs 1 base / 0 head, 3 undecided, 0:01 elapsed\x1b[K"
            "\ra: round 1, runs 1 base / 1 head, 3 undecided, 0:02 elapsed, ETA 0:10\x1b[K\n");
}

TEST(Progress, TerminalMessageClearsTheLineFirstAndTheNextUpdateRedraws) {
  Capture out;
  Progress p(out.file(), true);
  p.update(state("a", 2, 4, 4, 1, 5, -1));
  p.message("head crashed (SIGSEGV) in run 3");
  p.update(state("a", 2, 4, 5, 1, 6, -1));
  p.finish();
  p.finish();  // idempotent: no second newline
  EXPECT_EQ(out.text(),
            "\ra: round 2, runs 4 base / 4 head, 1 undecided, 0:05 elapsed\x1b[K"
            "\r\x1b[Khead crashed (SIGSEGV) in run 3\n"
            "\ra: round 2, runs 4 base / 5 head, 1 undecided, 0:06 elapsed\x1b[K\n");
}

TEST(Progress, PlainOutputPrintsOneLinePerRoundAndTarget) {
  Capture out;
  Progress p(out.file(), false);
  p.update(state("a", 1, 1, 0, 3, 1, -1));
  p.update(state("a", 1, 1, 1, 3, 2, -1));  // same round: silent
  p.update(state("b", 1, 1, 0, 3, 3, -1));  // another target: a line
  p.update(state("a", 2, 3, 3, 1, 4, 8));
  p.message("note");
  p.finish();
  std::string text = out.text();
  EXPECT_EQ(text,
            "a: round 1, runs 1 base / 0 head, 3 undecided, 0:01 elapsed\n"
            "b: round 1, runs 1 base / 0 head, 3 undecided, 0:03 elapsed\n"
            "a: round 2, runs 3 base / 3 head, 1 undecided, 0:04 elapsed, ETA 0:08\n"
            "note\n");
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
}

TEST(Progress, ARegularFileIsNotATerminal) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  Progress p = Progress::for_stream(file);
  p.update(state("a", 1, 1, 0, 1, 0, -1));
  p.update(state("a", 1, 2, 0, 1, 0, -1));
  p.finish();
  std::rewind(file);
  char buffer[256] = {};
  size_t n = std::fread(buffer, 1, sizeof buffer - 1, file);
  std::fclose(file);
  EXPECT_EQ(std::string(buffer, n), "a: round 1, runs 1 base / 0 head, 1 undecided, 0:00 elapsed\n");
}

// What a Progress made by for_stream() writes to a pseudo-terminal under `term`.
std::string written_to_terminal(const char* term) {
  int master = -1, slave = -1;
  if (openpty(&master, &slave, nullptr, nullptr, nullptr) != 0) return "no pty";
  std::string saved = std::getenv("TERM") ? std::getenv("TERM") : "";
  setenv("TERM", term, 1);
  std::FILE* out = fdopen(slave, "w");
  Progress p = Progress::for_stream(out);
  p.update(state("a", 1, 1, 0, 1, 0, -1));
  p.finish();
  std::fclose(out);
  saved.empty() ? unsetenv("TERM") : setenv("TERM", saved.c_str(), 1);
  char buffer[512] = {};
  ssize_t n = read(master, buffer, sizeof buffer - 1);
  close(master);
  return std::string(buffer, n > 0 ? static_cast<size_t>(n) : 0);
}

TEST(Progress, ATerminalGetsTheUpdatingLineUnlessItIsDumb) {
  std::string live = written_to_terminal("xterm");
  if (live == "no pty") GTEST_SKIP() << "no pseudo-terminals here";
  EXPECT_EQ(live.find('\r'), 0u) << live;
  EXPECT_NE(live.find("\x1b[K"), std::string::npos) << live;
  std::string dumb = written_to_terminal("dumb");
  EXPECT_EQ(dumb.find('\x1b'), std::string::npos) << dumb;
  EXPECT_NE(dumb.find("a: round 1"), std::string::npos) << dumb;
}

}  // namespace
}  // namespace cobench::run
