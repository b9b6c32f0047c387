#pragma once
// The settings' flags on a subcommand, declared from the one key table, and
// the layering every command uses: defaults < cobench.toml < COBENCH_*
// environment < the flags given on the command line.
#include <filesystem>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "config/config.h"

namespace cobench::cli {

/// Which cobench.toml a command reads.
struct ConfigFile {
  std::filesystem::path path;  ///< the file (may not exist)
  bool required = false;       ///< named with --config: a missing file is an error
};

/// The cobench.toml for a command started in `start`: `explicit_path` when
/// given, else cobench.toml at the top of the repository `start` is in
/// (else in `start` itself, outside any repository).
ConfigFile find_config_file(const std::string& explicit_path, const std::filesystem::path& start);

/// The flags of some settings keys on one subcommand.
class SettingFlags {
 public:
  /// Declares one flag per key (by its table name, "budget.time") on `app`.
  SettingFlags(CLI::App* app, std::initializer_list<std::string_view> keys);

  /// Layers the settings: `file` (when present), then `env`'s COBENCH_*
  /// variables, then the flags given; then validates the whole. Every error
  /// names where its value came from.
  config::Config layer(const ConfigFile& file, const std::map<std::string, std::string>& env) const;

 private:
  struct Flag {
    const config::KeyInfo* info = nullptr;
    CLI::Option* option = nullptr;
    std::string value;                ///< a single-valued flag
    std::vector<std::string> values;  ///< a repeatable flag
    bool on = false;                  ///< a switch
  };
  std::vector<std::unique_ptr<Flag>> flags_;  // stable addresses: CLI11 writes through them
};

/// The flags of a command that judges finished results (`report`, `merge`):
/// --config and the gate's (--gate, --fail-on-inconclusive).
class GateFlags {
 public:
  explicit GateFlags(CLI::App* app);
  /// The settings layered from the cobench.toml of the current directory's repository (or --config).
  config::Config layer() const;

 private:
  std::string config_;
  SettingFlags settings_;
};

}  // namespace cobench::cli
