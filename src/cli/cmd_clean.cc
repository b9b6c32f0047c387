// `cobench clean`: removes the job folders no running job holds — those kept
// with --keep, and those of killed jobs (after stopping what they left
// running) — and nothing else: not the reports, not the reach index, not a
// folder without cobench's marker.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli/commands.h"
#include "git/git.h"
#include "job/job_folder.h"

namespace cobench::cli {
namespace {

struct CleanFlags {
  std::string repo, work_dir;
  bool dry_run = false;
};

}  // namespace

Subcommand add_clean(CLI::App& root) {
  auto flags = std::make_shared<CleanFlags>();
  Subcommand sub;
  sub.app = root.add_subcommand(
      "clean", "Remove the job folders no running job holds from the work dir: those kept with --keep and those of "
               "killed jobs (whose leftover processes are stopped first). Prints each folder; nothing else is "
               "touched");
  sub.app->add_option("--repo", flags->repo, "repository (default: the current directory's)");
  sub.app->add_option("--work-dir", flags->work_dir, "the work dir the jobs used (default <repo>/.cobench)");
  sub.app->add_flag("--dry-run", flags->dry_run, "only list what would be removed");
  sub.run = [flags]() -> int {
    const std::filesystem::path repo =
        git::toplevel(flags->repo.empty() ? std::filesystem::current_path() : std::filesystem::path(flags->repo));
    const std::filesystem::path work =
        std::filesystem::absolute(flags->work_dir.empty() ? repo / ".cobench" : std::filesystem::path(flags->work_dir));
    const auto lines = job::clean_work_dir(repo, work, flags->dry_run);
    for (const auto& line : lines) std::printf("%s\n", line.c_str());
    if (lines.empty()) std::printf("nothing to clean in %s\n", work.string().c_str());
    return 0;
  };
  return sub;
}

}  // namespace cobench::cli
