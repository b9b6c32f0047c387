// `cobench run --runner go`: `go test -bench` per package in both worktrees,
// ns/op as time and -benchmem's allocs/op judged against --allocs-budget.
#include <gtest/gtest.h>

#include <cstdio>

#include <nlohmann/json.hpp>

#include "run_fixture.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

using job::testing::find_row;
using verdict::Verdict;

constexpr std::string_view kCode = "package codec\n\nfunc Encode(n int) []byte { return make([]byte, n) }\n";

std::string bench_test(bool extra_allocation) {
  std::string body = extra_allocation ? "\t\tsink = Encode(64)\n\t\tsinkMore = new([32]byte)\n" : "\t\tsink = Encode(64)\n";
  return "package codec\n\nimport \"testing\"\n\nvar sink []byte\nvar sinkMore *[32]byte\n\n"
         "func BenchmarkEncode(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n" + body + "\t}\n}\n\n"
         "func BenchmarkControl(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tsink = Encode(16)\n\t}\n}\n";
}

TEST(GoRun, HeadAllocatingOnceMoreIsARegressionUnderAZeroBudget) {
  if (process::run_capture({"go", "version"}).outcome != process::Result::Outcome::Exited) {
    std::printf("skipped: `go` is not installed (apt-get install golang-go)\n");
    GTEST_SKIP() << "`go` is not installed";
  }
  TempDir dir;
  GitRepo repo(dir / "repo");
  repo.write("go.mod", "module example.com/m\n\ngo 1.18\n");
  repo.write("codec/codec.go", kCode);
  repo.write("codec/codec_test.go", bench_test(false));
  repo.write("plain/plain.go", "package plain\n\nfunc Id(x int) int { return x }\n");  // no benchmarks: not a unit
  repo.commit("base");
  repo.git({"checkout", "-q", "-b", "feature"});
  repo.write("codec/codec_test.go", bench_test(true));
  repo.commit("head allocates once more per op");

  auto result = run_cobench({"run", "--runner", "go", "--base", "main", "--bench-arg=-bench=.",
                             "--bench-arg=-benchtime=2000x", "--min-runs", "3", "--max-runs", "3", "--allocs-budget",
                             "0", "--out", (dir / "out").string()},
                            repo.path(), {{"GOCACHE", (dir / "gocache").string()}, {"GOFLAGS", "-mod=mod"}});
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const auto report = report::from_json(nlohmann::json::parse(read_text(dir / "out/report.json")));
  const auto* encode = find_row(report, "BenchmarkEncode");
  const auto* control = find_row(report, "BenchmarkControl");
  ASSERT_TRUE(encode && control);
  EXPECT_EQ(encode->target, "example.com/m/codec");
  EXPECT_EQ(encode->base_samples.size(), 3u);
  EXPECT_EQ(encode->verdict, Verdict::Regression) << encode->note;
  ASSERT_TRUE(encode->allocs && encode->bytes);
  EXPECT_DOUBLE_EQ(encode->allocs->head_median - encode->allocs->base_median, 1);
  EXPECT_EQ(encode->allocs->verdict, Verdict::Regression);
  EXPECT_GE(encode->bytes->head_median, encode->bytes->base_median + 32);
  ASSERT_TRUE(control->allocs);
  EXPECT_EQ(control->allocs->verdict, Verdict::Pass);
  EXPECT_NE(control->verdict, Verdict::Regression) << control->note;
  // The package with benchmarks, and the machine control (cobench's own program, whatever the
  // framework); the package without benchmarks is not run.
  ASSERT_EQ(report.targets.size(), 2u);
  EXPECT_EQ(report.targets[1].name, "machine:cobench_machine_control");
  EXPECT_NE(report.targets[0].alloc_status.find("go test -benchmem"), std::string::npos);
}

}  // namespace
}  // namespace cobench::testing
