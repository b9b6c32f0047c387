#pragma once
// Shared test fixtures: temporary folders, real git repositories, real
// Google Benchmark projects, and running the built cobench binary.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "process/process.h"

namespace cobench::testing {

/// A fresh folder under $TMPDIR, removed afterwards (kept when
/// COBENCH_KEEP_TEST_DIRS is set, for debugging).
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& rel) const { return path_ / rel; }

 private:
  std::filesystem::path path_;
};

/// Writes a file, creating parent folders.
void write_file(const std::filesystem::path& path, std::string_view content);
std::string read_text(const std::filesystem::path& path);

/// Runs argv; fails the current test (ADD_FAILURE) with its output when it
/// does not exit 0. Returns the result either way.
process::Result run_checked(const std::vector<std::string>& argv, const std::filesystem::path& cwd = {});

/// A real git repository with a fixed identity, for end-to-end tests.
class GitRepo {
 public:
  explicit GitRepo(std::filesystem::path dir);  ///< git init -b main
  const std::filesystem::path& path() const { return dir_; }
  void write(const std::string& rel, std::string_view content) const;
  void remove(const std::string& rel) const;
  /// git add -A && git commit; returns the new commit's SHA.
  std::string commit(const std::string& message) const;
  std::string git(const std::vector<std::string>& args) const;  ///< stdout, trimmed

 private:
  std::filesystem::path dir_;
};

/// The CMakeLists.txt of a minimal Google Benchmark project with one
/// executable per entry of `targets` (target name -> source file).
std::string gbench_cmakelists(const std::map<std::string, std::string>& targets);

/// One Google Benchmark target `target` built from `file` (holding `source`),
/// committed as the base, and a head that adds a comment line to `file`: the
/// same code on both sides. Returns the base's SHA.
std::string commit_one_target_and_a_comment(const GitRepo& repo, const std::string& target, const std::string& file,
                                            const std::string& source);

/// A wide change, as a core-header edit is on a real suite: one Google
/// Benchmark target per name in `targets` (bench_<name>, each source a
/// different size), all including common.h, plus bench_ctl, which includes
/// nothing of the repository (the layout control). Commits the base, then a
/// head that edits common.h; returns their SHAs.
struct WideChange {
  std::string base;
  std::string head;
};
WideChange write_wide_change(const GitRepo& repo, const std::vector<std::string>& targets);

/// The cobench binary the tests run: this build's, or the one COBENCH_TEST_EXE
/// names (to see a test fail against an earlier build before a fix).
std::string cobench_exe();

/// Runs the built cobench with args (in cwd, with extra environment).
process::Result run_cobench(const std::vector<std::string>& args, const std::filesystem::path& cwd = {},
                            const std::vector<std::pair<std::string, std::string>>& env = {},
                            double timeout_seconds = 600);

/// Everything a failed command said, for assertion messages.
std::string explain(const process::Result& result);

}  // namespace cobench::testing
