#include "cli/settings_flags.h"

#include <fmt/format.h>

#include "core/errors.h"
#include "git/git.h"
#include "host/environment.h"

namespace cobench::cli {

ConfigFile find_config_file(const std::string& explicit_path, const std::filesystem::path& start) {
  if (!explicit_path.empty()) return {explicit_path, true};
  std::filesystem::path folder = start;
  try {
    folder = git::toplevel(start);
  } catch (const InputError&) {
    // Outside a repository (`cobench compare` on downloaded files): the folder itself.
  } catch (const InfraError&) {
  }
  return {folder / "cobench.toml", false};
}

SettingFlags::SettingFlags(CLI::App* app, std::initializer_list<std::string_view> keys) {
  for (std::string_view key : keys) {
    auto flag = std::make_unique<Flag>();
    for (const config::KeyInfo& info : config::keys())
      if (info.key == key) flag->info = &info;
    if (!flag->info || flag->info->flag.empty()) throw std::logic_error(fmt::format("no flag for setting {}", key));
    const std::string name(flag->info->flag);
    const std::string help(flag->info->help);
    if (flag->info->is_switch && flag->info->negatable)  // "--x,!--no-x": CLI11 stores false for the second
      flag->option = app->add_flag(name + ",!--no-" + name.substr(2), flag->on, help);
    else if (flag->info->is_switch)
      flag->option = app->add_flag(name, flag->on, help);
    else if (flag->info->repeatable)
      flag->option = app->add_option(name, flag->values, help)->allow_extra_args(false);
    else  // given twice, the last one wins, as in most Unix tools (CI templates append to a user's flags)
      flag->option = app->add_option(name, flag->value, help)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    flags_.push_back(std::move(flag));
  }
}

config::Config SettingFlags::layer(const ConfigFile& file, const std::map<std::string, std::string>& env) const {
  config::Config settings = config::load_file(file.path, file.required);
  config::apply_environment(settings, env);
  for (const auto& flag : flags_) {
    if (flag->option->count() == 0) continue;
    const config::Origin origin{config::Origin::Kind::Flag, std::string(flag->info->flag)};
    std::vector<std::string> values = flag->info->is_switch ? std::vector<std::string>{flag->on ? "true" : "false"}
                                      : flag->info->repeatable ? flag->values
                                                               : std::vector<std::string>{flag->value};
    config::set(settings, flag->info->key, values, origin);
  }
  config::validate(settings);
  return settings;
}

GateFlags::GateFlags(CLI::App* app) : settings_(app, {"budget.gate", "budget.fail_on_inconclusive"}) {
  app->add_option("--config", config_, "settings file (default: cobench.toml of the current repository)");
}

config::Config GateFlags::layer() const {
  return settings_.layer(find_config_file(config_, std::filesystem::current_path()), host::environment_map());
}

}  // namespace cobench::cli
