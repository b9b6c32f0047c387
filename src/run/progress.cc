#include "run/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

namespace cobench::run {

std::string format_clock(double seconds) {
  long total = seconds > 0 ? std::lround(seconds) : 0;
  long h = total / 3600, m = total / 60 % 60, s = total % 60;
  if (h > 0) return fmt::format("{}:{:02}:{:02}", h, m, s);
  return fmt::format("{}:{:02}", m, s);
}

std::string format_progress(const ProgressState& state) {
  std::string line = fmt::format("{}: round {}, runs {} base / {} head, {} undecided, {} elapsed", state.target,
                                 state.round, state.runs_base, state.runs_head, state.undecided,
                                 format_clock(state.elapsed_seconds));
  if (state.eta_seconds >= 0) line += ", ETA " + format_clock(state.eta_seconds);
  return line;
}

namespace {

// A line wider than the terminal wraps, and \r then only rewinds its last row.
std::string fit_terminal(std::FILE* out, std::string line) {
  struct winsize size{};
  if (::ioctl(::fileno(out), TIOCGWINSZ, &size) == 0 && size.ws_col > 1 && line.size() >= size.ws_col)
    line.resize(size.ws_col - 1);
  return line;
}

}  // namespace

Progress::Progress(std::FILE* out, bool tty) : out_(out), tty_(tty) {}

Progress Progress::for_stream(std::FILE* out) {
  // A dumb terminal (Emacs shell, some CI consoles) shows the escape codes instead of obeying them.
  const char* term = std::getenv("TERM");
  bool dumb = term && std::string_view(term) == "dumb";
  return Progress(out, ::isatty(::fileno(out)) == 1 && !dumb);
}

void Progress::update(const ProgressState& state) {
  if (tty_) {
    // \x1b[K erases what a longer previous line left to the right.
    std::fprintf(out_, "\r%s\x1b[K", fit_terminal(out_, format_progress(state)).c_str());
    line_open_ = true;
  } else {
    // CI logs get one line per round and target, not one per run.
    std::string key = fmt::format("{}\n{}", state.target, state.round);
    if (key == last_key_) return;
    last_key_ = key;
    std::fprintf(out_, "%s\n", format_progress(state).c_str());
  }
  std::fflush(out_);
}

void Progress::message(const std::string& text) {
  if (line_open_) std::fputs("\r\x1b[K", out_);
  line_open_ = false;
  std::fprintf(out_, "%s\n", text.c_str());
  std::fflush(out_);
}

void Progress::finish() {
  if (line_open_) std::fputc('\n', out_);
  line_open_ = false;
  std::fflush(out_);
}

}  // namespace cobench::run
