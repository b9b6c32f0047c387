#pragma once
// Catch2 benchmarks (`cobench run --runner catch2`): CMake executables whose
// sources include Catch2 and use BENCHMARK / BENCHMARK_ADVANCED, run like
// Google Benchmark programs (one pinned process per run, output to a file per
// run), through Catch2's XML reporter without its bootstrap analysis: one
// sample per benchmark per run, the mean of its samples, in wall time (the
// only clock Catch2 has). Catch2 names benchmarks in prose inside test cases
// (and their sections), so a row is "<test case> / [<section> / ...] <benchmark>".
#include <map>
#include <memory>
#include <string>

#include "cmake/cmake.h"
#include "run/runner_kinds.h"

namespace cobench::run {

/// A target whose sources include a Catch2 header (v2's catch2/catch.hpp,
/// v3's catch2/...) or that links Catch2's library, and that uses BENCHMARK
/// or BENCHMARK_ADVANCED: a test program without benchmarks is not one.
bool recognises_catch2(const cmake::TargetFacts& facts);

/// A test case name as one Catch2 command-line test spec that matches it
/// exactly: `\` before each of `\ , [ ] " * ~` (Catch2's escape).
std::string catch2_test_spec(const std::string& test_case);

/// The samples of one Catch2 XML report: "<test case> / <benchmark>" (with
/// the sections between them, "<test case> / <section> / <benchmark>") -> the
/// mean in ns (real_ns); a benchmark that threw is that row's error; failed
/// test cases (assertions beside the benchmarks) are named in the record's
/// detail. Fills `test_cases` (row name -> its test case) when given. Throws
/// InputError naming `source` when the text is not Catch2's XML.
void read_catch2_samples(const std::string& xml_text, const std::string& source, RunRecord& record,
                         std::map<std::string, std::string>* test_cases = nullptr);

/// Makes the Catch2 runner (run::runner_kinds' row).
std::unique_ptr<Runner> make_catch2(const RunnerSetup& setup);

}  // namespace cobench::run
