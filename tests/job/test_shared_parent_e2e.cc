// `cobench run --shared-parent` end to end on the bundled example
// (examples/shared_parent): both sides' executables load one library file,
// whose SHA-256 the report records, each links its own side's touched.cc, and
// only the routine the head made 2x slower is a regression.
#include <filesystem>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/sha256.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

namespace fs = std::filesystem;

/// The example in a fresh repository: base as it is, head with head.patch applied.
struct ExampleRepo {
  TempDir dir;
  GitRepo repo{dir / "repo"};
  std::string base;

  ExampleRepo() {
    fs::copy(fs::path(COBENCH_SOURCE_DIR) / "examples/shared_parent", repo.path(),
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
    base = repo.commit("base");
    run_checked({"git", "apply", "head.patch"}, repo.path());
    repo.commit("head: touched computes the checksum twice");
  }

  /// `cobench run` of base..head with every target, few runs, CPU time.
  process::Result run(const std::vector<std::string>& extra) const {
    std::vector<std::string> args = {"run", "--repo", repo.path().string(), "--base", base, "--all", "--metric",
                                     "cpu_time", "--min-runs", "6", "--max-runs", "10", "--alloc-runs", "0",
                                     "--bench-arg=--benchmark_min_time=0.02"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cobench(args);
  }
};

/// The single job folder a --keep run left.
fs::path kept_job(const fs::path& work) {
  std::vector<fs::path> jobs;
  for (const auto& entry : fs::directory_iterator(work))
    if (entry.path().filename().string().starts_with("job-")) jobs.push_back(entry.path());
  return jobs.size() == 1 ? jobs.front() : fs::path();
}

/// Whether `nm` lists `symbol` in `file` with the type letter `type` ("T" defined, "U" undefined).
bool has_symbol(const fs::path& file, const std::string& symbol, const std::string& type) {
  std::istringstream lines(run_checked({"nm", file.string()}).out);
  for (std::string line; std::getline(lines, line);)
    if (line.ends_with(" " + type + " " + symbol)) return true;
  return false;
}

TEST(SharedParentRun, BothSidesLoadOneLibraryAndOnlyTheChangedRoutineRegresses) {
  ExampleRepo example;
  const auto result = example.run({"--shared-parent", "routines", "--keep"});
  ASSERT_TRUE(result.ok()) << explain(result);
  const fs::path job = kept_job(example.repo.path() / ".cobench");
  ASSERT_FALSE(job.empty()) << explain(result);
  const fs::path library = job / "parent/libroutines.so";
  ASSERT_TRUE(fs::exists(library)) << explain(result);
  const std::string sha = sha256_file(library);

  const auto report = nlohmann::json::parse(read_text(example.repo.path() / ".cobench/report/report.json"));
  const auto& parent = report.at("settings").at("shared_parent");
  EXPECT_EQ(parent.at("target"), "routines");
  EXPECT_EQ(parent.at("library"), library.string());
  EXPECT_EQ(parent.at("sha256"), sha);
  EXPECT_EQ(parent.at("changed_units"), nlohmann::json::array({"src/touched.cc"}));
  EXPECT_NE(read_text(example.repo.path() / ".cobench/report/report.md").find(sha), std::string::npos);
  // One code layout, and the reports say why rather than nothing.
  EXPECT_EQ(report.at("layout_rule").get<std::string>().rfind("one code layout: ", 0), 0u) << report.at("layout_rule");
  EXPECT_NE(
      result.out.find("shared parent: " + library.string() + " (sha256 " + sha + ") from base, 1 of 2 units shared"),
      std::string::npos)
      << result.out;

  for (const char* side : {"base", "head"}) {
    for (const char* target : {"bench_touched", "bench_untouched"}) {
      SCOPED_TRACE(std::string(side) + " " + target);
      const fs::path exe = job / side / "build" / target;
      const std::string dynamic = run_checked({"readelf", "-d", exe.string()}).out;
      EXPECT_NE(dynamic.find("Shared library: [libroutines.so]"), std::string::npos) << dynamic;
      EXPECT_NE(dynamic.find("Library rpath: [" + (job / "parent").string() + "]"), std::string::npos) << dynamic;
      const std::string loaded = run_checked({"ldd", exe.string()}).out;
      EXPECT_NE(loaded.find("libroutines.so => " + library.string() + " ("), std::string::npos) << loaded;
      EXPECT_TRUE(has_symbol(exe, "_ZN8routines7touchedEPKjm", "T")) << "the side's touched.cc is linked in";
      EXPECT_TRUE(has_symbol(exe, "_ZN8routines9untouchedEPKjm", "U")) << "untouched comes from the parent";
    }
  }
  EXPECT_EQ(sha256_file(library), sha) << "the library is the one that was measured";

  std::map<std::string, std::string> verdicts;
  for (const auto& row : report.at("benchmarks"))  // the machine control reruns a measured benchmark's name
    if (!row.value("is_control", false)) verdicts[row.at("name")] = row.at("verdict");
  SCOPED_TRACE(result.out);
  EXPECT_EQ(verdicts["BM_Touched/4096"], "regression");
  ASSERT_TRUE(verdicts.count("BM_Untouched/4096"));
  EXPECT_NE(verdicts["BM_Untouched/4096"], "regression");
}

TEST(SharedParentRun, ALibraryCompiledWithoutInterpositionIsRefused) {
  ExampleRepo example;
  const auto result =
      example.run({"--shared-parent", "routines", "--cmake-arg=-DCMAKE_CXX_FLAGS=-fno-semantic-interposition"});
  EXPECT_EQ(result.exit_code, 2) << explain(result);
  EXPECT_NE(result.err.find("--shared-parent: 'routines' is compiled with -fno-semantic-interposition, which lets "
                            "the compiler bind the library's calls"),
            std::string::npos)
      << result.err;
  EXPECT_FALSE(fs::exists(example.repo.path() / ".cobench/report/results.jsonl")) << "nothing was measured";
  EXPECT_EQ(result.err.find("building "), std::string::npos) << "refused before anything was built:\n" << result.err;
}

TEST(SharedParentRun, AMisspeltLibraryIsRefusedBeforeAnythingIsBuiltNamingTheLibrariesThereAre) {
  ExampleRepo example;
  const auto result = example.run({"--shared-parent", "routine"});
  EXPECT_EQ(result.exit_code, 2) << explain(result);
  EXPECT_NE(result.err.find("--shared-parent: no CMake target named 'routine' (the project's static and shared "
                            "libraries: routines)"),
            std::string::npos)
      << result.err;
  EXPECT_EQ(result.err.find("building "), std::string::npos) << "refused before anything was built:\n" << result.err;
  EXPECT_EQ(result.err.find("configuring base"), std::string::npos) << result.err;
}

}  // namespace
}  // namespace cobench::testing
