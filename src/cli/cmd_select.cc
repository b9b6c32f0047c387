// `cobench select`: configure the head, read its benchmark targets from the
// CMake File API, and show which of them the diff from the merge base reaches.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cmake/cmake.h"
#include "cli/commands.h"
#include "config/config.h"
#include "core/errors.h"
#include "git/git.h"
#include "process/process.h"
#include "select/input.h"
#include "host/environment.h"
#include "select/select.h"

namespace cobench::cli {
namespace {

namespace fs = std::filesystem;

struct SelectFlags {
  std::string repo, base, head = "HEAD", source_dir, target, filter, format = "text", work_dir, config;
  std::vector<std::string> cmake_args;
  int max_targets = 0;
  bool all = false, strict_layout = false;
};

bool given(CLI::App* app, const std::string& name) { return app->get_option(name)->count() > 0; }

// The checked-out HEAD with no tracked changes is the head tree itself, which
// saves a checkout (and lets configure reuse its build folder); anything else
// gets a detached worktree, so uncommitted edits never leak into the answer.
bool usable_in_place(const fs::path& repo, const std::string& head_sha) {
  if (git::resolve(repo, "HEAD") != head_sha) return false;
  auto status = process::run_capture({"git", "status", "--porcelain", "--untracked-files=no"}, repo);
  if (!status.ok())
    throw InfraError(fmt::format("git status --porcelain in {}: {}", repo.string(), process::describe(status)));
  return status.out.empty();
}

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

int run_select(CLI::App* app, const SelectFlags& f) {
  if (f.format != "text" && f.format != "json")
    throw InputError(fmt::format("--format: expected text or json, got '{}'", f.format));
  const fs::path repo = git::toplevel(f.repo.empty() ? fs::current_path() : fs::path(f.repo));
  const fs::path config_path = f.config.empty() ? repo / "cobench.toml" : fs::path(f.config);
  config::Config cfg = config::load_file(config_path, /*required=*/!f.config.empty());
  cfg.select = select::with_select_flags(cfg.select, given(app, "--max-targets") ? std::optional(f.max_targets) : std::nullopt,
                                         f.strict_layout);
  const std::string source_dir = given(app, "--source-dir") ? f.source_dir : cfg.build.source_dir;
  std::vector<std::string> cmake_args = cfg.build.cmake_args;
  cmake_args.insert(cmake_args.end(), f.cmake_args.begin(), f.cmake_args.end());

  const std::string head_sha = git::resolve(repo, f.head);
  const std::string base_rev = f.base.empty() ? git::default_base(repo, host::environment_map()) : f.base;
  const std::string base_sha = git::merge_base(repo, base_rev, head_sha);

  const select::Narrowing narrowing = select::resolve_narrowing(f.target, f.filter, select::narrowing_environment());

  const fs::path work = f.work_dir.empty() ? repo / ".cobench" : fs::absolute(f.work_dir);
  if (f.work_dir.empty()) git::ensure_ignored(repo, ".cobench/");
  std::optional<git::Worktree> head_tree, base_tree;
  bool in_place = usable_in_place(repo, head_sha);
  if (!in_place) head_tree.emplace(repo, work / "select" / "head", head_sha);
  const fs::path head_path = in_place ? repo : head_tree->path();

  cmake::BuildSettings settings;
  settings.source_dir = source_dir.empty() ? head_path : head_path / source_dir;
  if (!fs::is_directory(settings.source_dir))
    throw InputError(fmt::format("--source-dir: no folder '{}' in {}", source_dir, f.head));
  settings.build_dir = work / "select" / (in_place ? "build-repo" : "build-worktree");
  settings.cmake_args = cmake_args;
  settings.build_type = cfg.build.build_type;
  settings.log_path = work / "select" / "configure.log";
  cmake::configure(settings);
  select::SelectionInput in = select::head_input(repo, base_sha, head_sha, head_path, settings.build_dir,
                                                 cmake::discover_targets(settings.build_dir, either_pattern(cfg.build.targets)));
  in.config = cfg.select;
  in.source_dir = source_dir;
  in.all = f.all;
  in.narrowing = narrowing;
  if (needs_base_tree(in.changes) && !f.all) {
    base_tree.emplace(repo, work / "select" / "base", base_sha);
    in.base_tree = base_tree->path();
  }

  select::Selection selection = select::select_targets(in);
  std::string out = f.format == "json" ? select::to_json(selection).dump(2) + "\n" : select::to_text(selection);
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
  select::enforce_strict_layout(selection);
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
  app->add_option("--source-dir", f.source_dir, "CMake project folder inside the repository (default: root)");
  app->add_option("--max-targets", f.max_targets, "most targets to select, closest first (default 20; 0: no cap)");
  app->add_flag("--all", f.all, "select every benchmark target");
  app->add_option("--target", f.target, "only targets whose name matches this regex (or COBENCH_TARGETS)");
  app->add_option("--filter", f.filter, "benchmark-name regex passed as --benchmark_filter (or COBENCH_FILTER)");
  app->add_flag("--strict-layout", f.strict_layout,
                "exit 2 when a selected source registers several benchmark families");
  app->add_option("--format", f.format, "text or json (default text)");
  app->add_option("--cmake-arg", f.cmake_args, "extra CMake argument (repeatable)")->allow_extra_args(false);
  app->add_option("--work-dir", f.work_dir, "worktrees and the build folder go under <work-dir>/select "
                                            "(default <repo>/.cobench)");
  app->add_option("--config", f.config, "settings file (default <repo>/cobench.toml when present)");
  sub.run = [app, flags]() -> int { return run_select(app, *flags); };
  return sub;
}

}  // namespace cobench::cli
