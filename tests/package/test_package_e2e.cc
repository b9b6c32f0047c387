// Issue 15, item 4: cobench as a Debian package. CPack makes the .deb from
// this build tree (as `make package` does from its own); it must hold the
// binary, the allocation preload library, the CI templates, the manual and
// the man page, run from its extracted files, and install with apt on a fresh
// Debian 12 (a chroot made by mmdebstrap) where `man cobench` shows every
// subcommand (issue 25) and `cobench demo` runs to the end with allocation counts.
#include <unistd.h>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "process/process.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kBuild = COBENCH_BUILD_DIR;

/// The tools a test needs that are not on PATH, for its skip message.
std::string missing_tools(std::initializer_list<const char*> tools) {
  std::string missing;
  for (const char* tool : tools) {
    const bool found =
        std::string(tool).find('/') != std::string::npos ? fs::exists(tool) : process::find_on_path(tool).has_value();
    if (!found) missing += std::string(missing.empty() ? "" : ", ") + tool;
  }
  return missing;
}

/// The package, made once for all tests of this file.
class Package : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string missing = missing_tools({CPACK_COMMAND, "dpkg-deb", "dpkg-shlibdeps", "file", "help2man"});
    if (!missing.empty()) {
      skip_reason_ = "cannot make a Debian package without " + missing + " (make deps installs them)";
      return;
    }
    if (!fs::exists(kBuild / "man/cobench.1.gz")) {
      skip_reason_ = "this build tree has no man page: help2man was missing when it was configured (make deps "
                     "installs it; configure again)";
      return;
    }
    folder_ = new TempDir();
    process::Command cpack;
    cpack.argv = {CPACK_COMMAND, "-G", "DEB", "--config", (kBuild / "CPackConfig.cmake").string(), "-B",
                  folder_->path().string()};
    cpack.timeout_seconds = 900;
    cpack.merge_stderr_into_stdout = true;
    cpack_result_ = new process::Result(process::run(cpack));
    for (const auto& entry : fs::directory_iterator(folder_->path()))
      if (entry.path().extension() == ".deb") deb_ = entry.path();
  }
  static void TearDownTestSuite() {
    delete folder_;
    delete cpack_result_;
  }
  void SetUp() override {
    if (!skip_reason_.empty()) GTEST_SKIP() << skip_reason_;
    ASSERT_FALSE(deb_.empty()) << "cpack made no .deb\n" << explain(*cpack_result_);
  }

  static inline std::string skip_reason_;
  static inline TempDir* folder_ = nullptr;
  static inline process::Result* cpack_result_ = nullptr;
  static inline fs::path deb_;
};

TEST_F(Package, HoldsTheBinaryThePreloadLibraryTheCiTemplatesTheManualAndTheManPage) {
  EXPECT_EQ(deb_.filename().string().rfind(std::string("cobench_") + COBENCH_PACKAGE_VERSION + "_", 0), 0u) << deb_;
  const std::string contents = run_checked({"dpkg-deb", "-c", deb_.string()}).out;
  for (const char* file : {"./usr/bin/cobench", "./usr/lib/cobench/libcobench_alloc_preload.so",
                           "./usr/lib/cobench/cobench_machine_control",
                           "./usr/share/cobench/gitlab/cobench.yml", "./usr/share/cobench/github/cobench.yml",
                           "./usr/share/cobench/Dockerfile", "./usr/share/doc/cobench/README.md",
                           "./usr/share/doc/cobench/docs/run.md", "./usr/share/doc/cobench/docs/config.md",
                           "./usr/share/man/man1/cobench.1.gz"})
    EXPECT_NE(contents.find(std::string(file) + "\n"), std::string::npos) << file << " missing from\n" << contents;
  auto field = [&](const char* name) { return run_checked({"dpkg-deb", "-f", deb_.string(), name}).out; };
  EXPECT_EQ(field("Package"), "cobench\n");
  EXPECT_EQ(field("Version"), std::string(COBENCH_PACKAGE_VERSION) + "\n");
  const std::string depends = field("Depends");
  // The last three from dpkg-shlibdeps (the machine control links Google Benchmark).
  for (const char* dependency : {"git", "cmake", "g++ | c++-compiler", "libfmt9", "libstdc++6", "libbenchmark1"})
    EXPECT_NE(depends.find(dependency), std::string::npos) << dependency << " not in Depends: " << depends;
  EXPECT_NE(field("Recommends").find("libbenchmark-dev"), std::string::npos);

  TempDir root;
  run_checked({"dpkg-deb", "-x", deb_.string(), root.path().string()});
  for (const char* ci : {"gitlab/cobench.yml", "github/cobench.yml"})
    EXPECT_EQ(read_text(root / (std::string("usr/share/cobench/") + ci)),
              read_text(fs::path(COBENCH_SOURCE_DIR) / "ci" / ci))
        << ci;
}

// The man page is made from the CLI's own help: every subcommand `cobench --help`
// lists has its section, with that subcommand's flags.
TEST_F(Package, ItsManPageHasASectionForEverySubcommandWithItsFlags) {
  TempDir root;
  run_checked({"dpkg-deb", "-x", deb_.string(), root.path().string()});
  const std::string page = run_checked({"gzip", "-dc", (root / "usr/share/man/man1/cobench.1.gz").string()}).out;
  EXPECT_NE(page.find(".TH COBENCH \"1\""), std::string::npos) << page.substr(0, 300);
  const std::string help = run_checked({COBENCH_EXE, "--help"}).out;
  const std::string listed = help.substr(help.find("Subcommands:"));
  int sections = 0;
  for (const char* name : {"run", "compare", "select", "report", "merge", "demo", "validate", "post"}) {
    ASSERT_NE(listed.find(std::string("\n  ") + name + " "), std::string::npos) << name << " not in --help";
    std::string upper = name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    sections += page.find(".SH \"COBENCH " + upper + "\"") != std::string::npos;
  }
  EXPECT_EQ(sections, 8) << page;
  // A flag of each kind from the sections: run's --time-budget, compare's --vs, post's --github.
  for (const char* flag : {"\\-\\-time\\-budget", "\\-\\-vs", "\\-\\-github", "EXIT STATUS"})
    EXPECT_NE(page.find(flag), std::string::npos) << flag;
}

TEST_F(Package, ItsExtractedFilesRunTheDemo) {
  TempDir root;
  run_checked({"dpkg-deb", "-x", deb_.string(), root.path().string()});
  const fs::path cobench = root / "usr/bin/cobench";
  EXPECT_NE(run_checked({cobench.string(), "--version"}).out.find(COBENCH_PACKAGE_VERSION), std::string::npos);
  process::Command demo;
  demo.argv = {cobench.string(), "demo", "--out", (root / "demo").string()};
  demo.timeout_seconds = 900;
  const auto result = process::run(demo);
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  EXPECT_NE(result.out.find("demo finished"), std::string::npos) << result.out;
  EXPECT_TRUE(fs::is_regular_file(root / "demo/report.json"));
  // The installed binary found the machine control program in ../lib/cobench.
  EXPECT_NE(read_text(root / "demo/report.json").find("machine:cobench_machine_control"), std::string::npos);
}

TEST_F(Package, InstallsWithAptOnAFreshDebian12WhereManCobenchAndTheDemoWork) {
  if (const std::string missing = missing_tools({"mmdebstrap"}); !missing.empty())
    GTEST_SKIP() << "no fresh Debian 12 chroot without mmdebstrap (make deps installs it)";
  if (::geteuid() != 0) GTEST_SKIP() << "mmdebstrap's chroot with mounted /proc needs root";
  TempDir work;
  // Inside the chroot the package is installed as on any Debian 12 machine: apt resolves
  // its Depends and Recommends from the mirror; then the demo runs from /usr/bin.
  const std::string deb_inside = "/tmp/" + deb_.filename().string();
  const std::string marker = "cobench-test: Debian 12 is bootstrapped";
  process::Command strap;
  strap.argv = {"mmdebstrap", "--variant=minbase", "--include=ca-certificates,man-db",
                "--customize-hook=echo '" + marker + "'",
                "--customize-hook=copy-in " + deb_.string() + " /tmp",
                // apt's default outside mmdebstrap, which turns Recommends off in its chroot
                "--customize-hook=chroot \"$1\" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "
                "-o APT::Install-Recommends=true " + deb_inside,
                // What a user types, as the package left it: the page found by man-db's index.
                "--customize-hook=chroot \"$1\" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root MANWIDTH=100 "
                "man -P cat cobench",
                "--customize-hook=chroot \"$1\" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "
                "cobench demo --out /tmp/demo",
                "--customize-hook=copy-out /tmp/demo " + work.path().string(),
                "bookworm", "/dev/null"};
  strap.merge_stderr_into_stdout = true;
  strap.timeout_seconds = 1500;
  const auto result = process::run(strap);
  if (!result.ok() && result.out.find(marker) == std::string::npos)
    GTEST_SKIP() << "could not bootstrap Debian 12 (is the Debian mirror reachable?): "
                 << process::tail_lines(result.out, 5);
  ASSERT_TRUE(result.ok()) << explain(result);
  // `man cobench`: the page, with one section per subcommand and where the manual is.
  for (const char* section : {"COBENCH(1)", "COBENCH RUN", "COBENCH COMPARE", "COBENCH SELECT", "COBENCH REPORT",
                              "COBENCH MERGE", "COBENCH DEMO", "COBENCH VALIDATE", "COBENCH POST", "EXIT STATUS",
                              "/usr/share/doc/cobench/docs/"})
    EXPECT_NE(result.out.find(section), std::string::npos) << section << "\n" << process::tail_lines(result.out, 80);
  EXPECT_NE(result.out.find("demo finished"), std::string::npos) << process::tail_lines(result.out, 40);
  const auto report = nlohmann::json::parse(read_text(work / "demo/report.json"));
  // No build tree in the chroot: only the packaged preload library can have counted (the
  // time budget may cut a target's allocation runs short on a busy machine, never all of them).
  int measured = 0;
  for (const auto& target : report.at("targets")) {
    const std::string status = target.value("alloc_status", "");
    EXPECT_EQ(status.find("libcobench_alloc_preload.so not found"), std::string::npos) << target.dump();
    measured += status.starts_with("measured");
  }
  EXPECT_GE(measured, 1) << report.at("targets").dump();
}

}  // namespace
}  // namespace cobench::testing
