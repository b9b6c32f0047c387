// `cobench select`: configure the head, read its benchmark targets from the
// CMake File API, and show which of them the diff from the merge base reaches.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cmake/cmake.h"
#include "cli/commands.h"
#include "cli/settings_flags.h"
#include "config/config.h"
#include "core/errors.h"
#include "formats/json_text.h"
#include "git/git.h"
#include "host/environment.h"
#include "job/job_folder.h"
#include "job/target_choice.h"
#include "job/workspace.h"
#include "select/input.h"
#include "report/escape.h"
#include "select/select.h"
#include "job/settings_step.h"

namespace cobench::cli {
namespace {

namespace fs = std::filesystem;

/// What only this command names; every setting is in SettingFlags.
struct SelectFlags {
  std::string repo, base, head = "HEAD", format = "text", work_dir, config;
  bool all = false;
};

bool needs_base_tree(const std::vector<git::ChangedFile>& changes) {
  for (const auto& c : changes)
    if (c.status == 'D' || c.status == 'R') return true;
  return false;
}

std::string either_pattern(const std::vector<std::string>& patterns) {
  std::string out;
  for (const auto& p : patterns) out += (out.empty() ? "(" : "|(") + p + ")";
  return out;
}

int run_select(const SelectFlags& f, const SettingFlags& flags) {
  if (f.format != "text" && f.format != "json")
    throw InputError(fmt::format("--format: expected text or json, got '{}'", f.format));
  const fs::path repo = git::toplevel(f.repo.empty() ? fs::current_path() : fs::path(f.repo));
  const auto env = host::environment_map();
  const config::Config settings = flags.layer(find_config_file(f.config, repo), env);
  host::withhold_credentials(settings.run.pass_env);  // CMake runs the project's code: no credential for it
  const std::string& source_dir = settings.build.source_dir;

  const job::Revisions revs = job::resolve_revisions(repo, f.head, f.base, env);
  const std::string& head_sha = revs.head_sha;
  const std::string& base_sha = revs.base_sha;
  // Which commits the answer is about, as `run` says it: on stderr, so that stdout stays the answer.
  std::fputs(report::sanitize_text(job::describe(revs), false).c_str(), stderr);

  const fs::path work = f.work_dir.empty() ? repo / ".cobench" : fs::absolute(f.work_dir);
  if (f.work_dir.empty()) git::ensure_ignored(repo, ".cobench/");
  // The checked-out HEAD with no tracked changes is the head tree itself, which
  // saves a checkout (and lets configure reuse its build folder); anything else
  // gets a detached worktree, so uncommitted edits never leak into the answer.
  std::optional<job::JobFolder> folder;  // the worktrees and their build folder, gone with this select
  std::optional<git::Worktree> head_tree, base_tree;
  const bool in_place = git::is_clean_checkout_of(repo, head_sha);
  if (!in_place || (needs_base_tree(git::diff_name_status(repo, base_sha, head_sha)) && !f.all))
    folder.emplace(repo, work, "select-");
  if (!in_place) head_tree.emplace(repo, folder->path() / "head", head_sha);
  const fs::path head_path = in_place ? repo : head_tree->path();

  const run::RunnerKind& runner = job::runner_of(settings);
  if (!runner.recognises)
    throw InputError(fmt::format("{}: {} benchmarks are not CMake targets; select reads the include graph of CMake "
                                 "targets", settings.origin("run.runner").describe("run.runner"), runner.framework));
  cmake::BuildSettings build;
  build.source_dir = source_dir.empty() ? head_path : head_path / source_dir;
  if (!fs::is_directory(build.source_dir))
    throw InputError(fmt::format("{}: no folder '{}' in {}", settings.origin("build.source_dir").describe("build.source_dir"),
                                 source_dir, f.head));
  // A build folder is bound to the source folder it was configured from: the
  // repository's is kept for the next select, a worktree's (a new path each
  // time) goes with it.
  build.build_dir = in_place ? work / "select" / "build-repo" : folder->path() / "build";
  build.cmake_args = settings.build.cmake_args;
  build.build_type = settings.build.build_type;
  build.log_path = work / "select" / "configure.log";
  cmake::configure(build);
  select::SelectionInput in = select::head_input(repo, base_sha, head_sha, head_path, build.build_dir,
                                                 cmake::discover_targets(build.build_dir, either_pattern(settings.build.targets), runner.recognises));
  in.config = settings.select;
  in.source_dir = source_dir;
  in.all = f.all;
  in.narrowing = select::narrowing_of(settings);
  if (needs_base_tree(in.changes) && !f.all) {
    base_tree.emplace(repo, folder->path() / "base", base_sha);
    in.base_tree = base_tree->path();
  }

  select::Selection selection = select::select_targets(in);
  std::string out = f.format == "json" ? formats::dump_json(select::to_json(selection), 2) + "\n" : report::sanitize_text(select::to_text(selection), false);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  select::enforce_strict_layout(selection);
  job::nothing_to_measure(selection, build.build_dir);  // no targets, or --target matching none: exit 2 as `run` does
  return kExitOk;
}

}  // namespace

Subcommand add_select(CLI::App& root) {
  auto flags = std::make_shared<SelectFlags>();
  auto& f = *flags;
  Subcommand sub;
  auto* app = root.add_subcommand("select", "Show which benchmark targets the diff from the merge base can reach");
  sub.app = app;
  app->add_option("--repo", f.repo, "repository (default: the current directory's)");
  app->add_option("--base", f.base, "base revision; compared at its merge base with head (default: from CI "
                                    "variables, origin/HEAD, main, master)");
  app->add_option("--head", f.head, "head revision (default HEAD)");
  app->add_flag("--all", f.all, "select every benchmark target");
  app->add_option("--format", f.format, "text or json (default text)");
  app->add_option("--work-dir", f.work_dir, "worktrees and the build folder go under <work-dir>/select "
                                            "(default <repo>/.cobench)");
  app->add_option("--config", f.config, "settings file (default <repo>/cobench.toml when present)");
  auto settings = std::make_shared<SettingFlags>(
      app, std::initializer_list<std::string_view>{"build.source_dir", "select.max_targets", "select.targets",
                                                   "run.filter", "select.strict_layout", "build.cmake_args",
                                                   "run.pass_env"});
  sub.run = [flags, settings]() -> int { return run_select(*flags, *settings); };
  return sub;
}

}  // namespace cobench::cli
