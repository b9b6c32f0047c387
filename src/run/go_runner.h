#pragma once
// Go benchmarks (`cobench run --runner go`): one unit per package that has
// Benchmark functions, each run being `go test -run '^$' -bench ... -benchmem
// -count=1 PKG` in the side's worktree, pinned like every other run.
#include <memory>
#include <string>
#include <vector>

#include "run/runner_kinds.h"

namespace cobench::run {

/// The `go test` arguments of one run: -run '^$', the user's bench args
/// (with -bench=. added when they name no -bench), -benchmem, -count=1, PKG.
std::vector<std::string> go_test_argv(const std::string& package, const std::vector<std::string>& bench_args);

/// True when Go source text declares a `func BenchmarkXxx(b *testing.B)`.
bool declares_go_benchmark(const std::string& source);

/// Makes the Go runner (run::runner_kinds' row).
std::unique_ptr<Runner> make_go(const RunnerSetup& setup);

}  // namespace cobench::run
