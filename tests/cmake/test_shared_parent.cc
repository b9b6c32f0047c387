// The shared parent construction on the bundled example (examples/shared_parent),
// configured and built for real: what it refuses before linking anything, and
// that both sides' executables load one library and link their own side's
// changed unit.
#include "cmake/shared_parent.h"

#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "support/input_error.h"

#include "cmake/cmake.h"
#include "cmake/file_api.h"
#include "core/errors.h"
#include "core/sha256.h"
#include "support/testing.h"

namespace cobench::cmake {
namespace {

namespace fs = std::filesystem;
using cobench::testing::run_checked;
using cobench::testing::TempDir;

const std::string kPic = "-DCMAKE_POSITION_INDEPENDENT_CODE=ON";

/// The example as the base (as it is) and the head (head.patch applied) under `root`.
void write_sides(const fs::path& root) {
  const fs::path example = fs::path(COBENCH_SOURCE_DIR) / "examples/shared_parent";
  for (const char* side : {"base", "head"}) fs::copy(example, root / side, fs::copy_options::recursive);
  run_checked({"git", "apply", "head.patch"}, root / "head");
}

/// Settings for the side `name` under `root`.
BuildSettings side(const fs::path& root, const std::string& name, std::vector<std::string> cmake_args) {
  BuildSettings s;
  s.source_dir = root / name;
  s.build_dir = root / ("build-" + name);
  s.log_path = root / (name + ".log");
  s.cmake_args = std::move(cmake_args);
  s.jobs = 2;
  return s;
}

using testing::input_error_of;

/// A request to build the parent of `root`'s two sides, `touched.cc` changed.
ParentRequest request_for(const fs::path& root) {
  ParentRequest request;
  request.library = "routines";
  request.executables = {"bench_touched", "bench_untouched"};
  request.base = {root / "build-base", {root / "base/src/touched.cc"}};
  request.head = {root / "build-head", {root / "head/src/touched.cc"}};
  request.parent_dir = root / "parent";
  request.log_path = root / "parent.log";
  request.environment = {"PATH=/usr/bin:/bin"};
  return request;
}

/// The line `nm` prints for `symbol` in `file` ("" when absent).
std::string nm_line(const fs::path& file, const std::string& symbol, const std::vector<std::string>& options = {}) {
  std::vector<std::string> argv = {"nm"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back(file.string());
  std::istringstream lines(run_checked(argv).out);
  for (std::string line; std::getline(lines, line);)
    if (line.ends_with(" " + symbol)) return line;
  return {};
}

constexpr const char* kTouched = "_ZN8routines7touchedEPKjm";
constexpr const char* kUntouched = "_ZN8routines9untouchedEPKjm";

TEST(FileApi, CommandWordsSplitAndUnquoteLikeAShell) {
  using file_api::command_words;
  EXPECT_EQ(command_words("-O3 -DNDEBUG"), (std::vector<std::string>{"-O3", "-DNDEBUG"}));
  EXPECT_EQ(command_words("  \"/a b/libx.a\"\t-Wl,-rpath,'/c d' "),
            (std::vector<std::string>{"/a b/libx.a", "-Wl,-rpath,/c d"}));
  EXPECT_EQ(command_words(R"(-DX=\"y\" "a\\b\c" '' x\ y)"),
            (std::vector<std::string>{"-DX=\"y\"", "a\\b\\c", "", "x y"}));
  EXPECT_TRUE(command_words("").empty());
}

TEST(SharedParent, ReadsTheLibrarysUnitsAndHowTheSidesCompileThem) {
  TempDir tmp;
  write_sides(tmp.path());
  const BuildSettings base = side(tmp.path(), "base", {kPic}), head = side(tmp.path(), "head", {kPic});
  configure(base);
  configure(head);
  const LibraryTarget library = read_library(base.build_dir, "routines");
  EXPECT_EQ(library.name, "routines");
  ASSERT_EQ(library.units.size(), 2u);
  EXPECT_EQ(library.units[0].source, tmp / "base/src/touched.cc");
  EXPECT_EQ(library.units[1].source, tmp / "base/src/untouched.cc");
  EXPECT_EQ(library.include_dirs, std::vector<fs::path>{tmp / "base/include"});
  const std::string& compile = library.units[0].compile;
  EXPECT_NE(compile.find("-fPIC"), std::string::npos) << compile;
  EXPECT_NE(compile.find("-I<source>/include"), std::string::npos) << compile;
  EXPECT_EQ(compile.find(tmp.path().string()), std::string::npos) << "no side's own folder: " << compile;
  EXPECT_EQ(read_library(head.build_dir, "routines").units[1].compile, library.units[1].compile)
      << "both sides compile untouched.cc alike";

  EXPECT_EQ(input_error_of([&] { read_library(base.build_dir, "bench_touched"); }),
            "'bench_touched' is not a static or shared library (its type is EXECUTABLE)");
  EXPECT_EQ(input_error_of([&] { read_library(base.build_dir, "nope"); }),
            "no CMake target named 'nope' (the project's static and shared libraries: routines)")
      << "the libraries it has, not a build folder the job removes";
}

TEST(SharedParent, RefusesWhatDefeatsInterpositionBeforeLinkingAnything) {
  TempDir tmp;
  write_sides(tmp.path());
  BuildSettings base = side(tmp.path(), "base", {kPic, "-DCMAKE_CXX_FLAGS=-fno-semantic-interposition"});
  configure(base);
  std::string error = input_error_of([&] { read_library(base.build_dir, "routines"); });
  EXPECT_EQ(error.rfind("'routines' is compiled with -fno-semantic-interposition, which lets the compiler bind the "
                        "library's calls",
                        0),
            0u)
      << error;
  EXPECT_NE(error.find("needs symbol interposition"), std::string::npos) << error;

  base.cmake_args = {kPic, "-DCMAKE_CXX_FLAGS=", "-DCMAKE_CXX_VISIBILITY_PRESET=hidden"};
  configure(base);
  error = input_error_of([&] { read_library(base.build_dir, "routines"); });
  EXPECT_EQ(error.rfind("'routines' is compiled with -fvisibility=hidden, which keeps", 0), 0u) << error;

  base.cmake_args = {kPic, "-UCMAKE_CXX_VISIBILITY_PRESET", "-DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON"};
  configure(base);
  error = input_error_of([&] { read_library(base.build_dir, "routines"); });
  EXPECT_EQ(error.rfind("'routines' is compiled with -flto", 0), 0u) << error;

  base.cmake_args = {"-DCMAKE_POSITION_INDEPENDENT_CODE=OFF", "-UCMAKE_INTERPROCEDURAL_OPTIMIZATION"};
  configure(base);
  error = input_error_of([&] { read_library(base.build_dir, "routines"); });
  EXPECT_EQ(error.rfind("'routines' is compiled without -fPIC, which the objects of a shared library need", 0), 0u)
      << error;

  // -Bsymbolic in an executable's link: refused while planning, before the parent or any relink.
  base.cmake_args = {kPic, "-DCMAKE_EXE_LINKER_FLAGS=-Wl,-Bsymbolic"};
  configure(base);
  configure(side(tmp.path(), "head", base.cmake_args));
  error = input_error_of([&] { build_shared_parent(request_for(tmp.path())); });
  EXPECT_EQ(error.rfind("'bench_touched' is linked with -Wl,-Bsymbolic, which binds a shared library's references "
                        "to its own definitions",
                        0),
            0u)
      << error;
  EXPECT_FALSE(fs::exists(tmp / "parent")) << "nothing linked";
}

TEST(SharedParent, BothSidesLoadOneLibraryAndLinkTheirOwnChangedUnit) {
  TempDir tmp;
  write_sides(tmp.path());
  for (const char* name : {"base", "head"}) {
    const BuildSettings settings = side(tmp.path(), name, {kPic});
    configure(settings);
    build_targets(settings, {"bench_touched", "bench_untouched"});
  }
  const SharedParent parent = build_shared_parent(request_for(tmp.path()));
  EXPECT_EQ(parent.library, tmp / "parent/libroutines.so");
  EXPECT_EQ(parent.relinked, (std::vector<std::string>{"bench_touched", "bench_untouched"}));
  EXPECT_EQ(parent.sha256, sha256_file(parent.library));
  // The parent holds the unchanged unit only; the changed one comes from each side's executable.
  EXPECT_NE(nm_line(parent.library, kUntouched, {"-D", "--defined-only"}), "");
  EXPECT_EQ(nm_line(parent.library, kTouched, {"-D"}), "");

  std::map<std::string, std::string> touched_sizes;
  for (const char* name : {"base", "head"}) {
    for (const char* target : {"bench_touched", "bench_untouched"}) {
      SCOPED_TRACE(std::string(name) + " " + target);
      const fs::path exe = tmp / ("build-" + std::string(name)) / target;
      const std::string dynamic = run_checked({"readelf", "-d", exe.string()}).out;
      EXPECT_NE(dynamic.find("Shared library: [libroutines.so]"), std::string::npos) << dynamic;
      EXPECT_NE(dynamic.find("Library rpath: [" + (tmp / "parent").string() + "]"), std::string::npos) << dynamic;
      const std::string loaded = run_checked({"ldd", exe.string()}).out;
      EXPECT_NE(loaded.find("libroutines.so => " + parent.library.string() + " ("), std::string::npos) << loaded;
      EXPECT_EQ(nm_line(exe, kUntouched), std::string(17, ' ') + "U " + kUntouched) << "untouched comes from the parent";
      const std::string touched = nm_line(exe, kTouched, {"-S", "--defined-only"});
      EXPECT_NE(touched.find(" T "), std::string::npos) << "the side's own touched.cc is linked in: " << touched;
      touched_sizes[name] = touched.substr(17, 16);
      run_checked({exe.string(), "--benchmark_list_tests=true"});
    }
  }
  EXPECT_NE(touched_sizes["base"], touched_sizes["head"]) << "each side links its own version of touched.cc";
}

}  // namespace
}  // namespace cobench::cmake
