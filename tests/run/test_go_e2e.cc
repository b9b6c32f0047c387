// `cobench run --runner go`: `go test -bench` per package in both worktrees,
// ns/op as time and -benchmem's allocs/op judged against --allocs-budget.
#include <gtest/gtest.h>

#include <cstdio>

#include <nlohmann/json.hpp>

#include "support/testing.h"

namespace cobench::testing {
namespace {

const nlohmann::json& row(const nlohmann::json& report, const std::string& name) {
  for (const auto& b : report.at("benchmarks"))
    if (b.at("name") == name) return b;
  throw std::runtime_error("no row " + name + " in " + report.dump());
}

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
  auto report = nlohmann::json::parse(read_text(dir / "out/report.json"));
  const auto& encode = row(report, "BenchmarkEncode");
  EXPECT_EQ(encode.at("target"), "example.com/m/codec");
  EXPECT_EQ(encode.at("n_base"), 3);
  EXPECT_EQ(encode.at("verdict"), "regression") << encode.dump();
  EXPECT_DOUBLE_EQ(encode.at("allocs").at("head_median").get<double>() - encode["allocs"]["base_median"].get<double>(), 1);
  EXPECT_EQ(encode["allocs"].at("verdict"), "regression");
  EXPECT_GE(encode.at("bytes").at("head_median").get<double>(), encode["bytes"]["base_median"].get<double>() + 32);
  const auto& control = row(report, "BenchmarkControl");
  EXPECT_EQ(control.at("allocs").at("verdict"), "pass") << control.dump();
  EXPECT_NE(control.at("verdict"), "regression") << control.dump();
  ASSERT_EQ(report.at("targets").size(), 1u);  // the package without benchmarks is not run
  EXPECT_NE(report["targets"][0].at("alloc_status").get<std::string>().find("go test -benchmem"), std::string::npos);
}

}  // namespace
}  // namespace cobench::testing
