#pragma once
// `cobench run`'s flags, declared in one place: the run subcommand parses them
// from the command line, and `cobench validate` parses each of its jobs'
// argument lists with them to refuse a bad one before anything is built.
#include <map>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "cli/settings_flags.h"
#include "job/pipeline.h"

namespace cobench::cli {

/// The flags of `cobench run` on one CLI11 app, and the job they describe.
class RunFlags {
 public:
  /// Declares every flag of `cobench run` on `app`.
  explicit RunFlags(CLI::App* app);

  /// The job the parsed flags describe: the repository (--repo, else the
  /// current directory's), the settings layered over its cobench.toml (or
  /// --config) and `env`'s COBENCH_* variables, and what only the job names.
  /// Throws InputError naming the origin of a bad value.
  job::RunOptions options(const std::map<std::string, std::string>& env) const;

 private:
  std::string head_ = "HEAD", base_, repo_, work_dir_, out_, config_;
  bool keep_ = false, all_ = false;
  std::unique_ptr<SettingFlags> settings_;
};

}  // namespace cobench::cli
