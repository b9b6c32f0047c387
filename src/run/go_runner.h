#pragma once
// Go benchmarks (`cobench run --runner go`): one unit per package that has
// Benchmark functions, each run being `go test -run '^$' -bench ... -benchmem
// -count=1 PKG` in the side's worktree, pinned like every other run.
#include <string>
#include <vector>

#include "run/gbench_runner.h"
#include "run/runner.h"

namespace cobench::run {

/// The `go test` arguments of one run: -run '^$', the user's bench args
/// (with -bench=. added when they name no -bench), -benchmem, -count=1, PKG.
std::vector<std::string> go_test_argv(const std::string& package, const std::vector<std::string>& bench_args);

/// True when Go source text declares a `func BenchmarkXxx(b *testing.B)`.
bool declares_go_benchmark(const std::string& source);

/// The Runner for Go packages; `settings.bench_args` go to `go test`.
class GoRunner : public Runner {
 public:
  explicit GoRunner(ProcessSettings settings);
  /// Packages from `go list ./...` whose test files declare benchmarks.
  std::vector<Unit> prepare(const SideContext& side) override;
  /// One `go test` of one package; its text output is parsed with formats::parse_go_bench.
  RunRecord run_once(const Unit& unit, Side side, const std::string& sha, int run_index,
                    const RunScope& scope) override;

 private:
  ProcessSettings settings_;
};

}  // namespace cobench::run
