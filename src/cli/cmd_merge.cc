// `cobench merge DIR... --out DIR`: the report folders of a sharded job's
// shards (`cobench run --shard I/N`) joined into one report set.
#include <filesystem>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/settings_flags.h"
#include "core/errors.h"
#include "job/output_dir.h"
#include "job/pipeline.h"
#include "job/report_step.h"
#include "results/log.h"
#include "aggregate/merge.h"

namespace cobench::cli {
namespace {

/// What only this command names; the gate settings are in GateFlags.
struct MergeFlags {
  std::vector<std::string> folders;
  std::string out;
};

namespace fs = std::filesystem;

bool same_folder(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::weakly_canonical(fs::absolute(a), ec) == fs::weakly_canonical(fs::absolute(b), ec);
}

/// Joins the shards' report folders into one report set in `out_dir` (none of
/// them); the gate's exit code, 3 when a shard is missing or a target measured
/// nothing. Throws InputError when the folders are not shards of one job.
int merge_shard_reports(const std::vector<fs::path>& folders, const fs::path& out_dir, const verdict::GatePolicy& gate) {
  std::vector<aggregate::ShardFolder> shards;
  for (const auto& folder : folders) {
    if (same_folder(folder, out_dir))
      throw InputError(fmt::format("--out {}: is the shard folder {}; write the merged reports to a folder of their own",
                                   out_dir.string(), folder.string()));
    const fs::path results = folder / "results.jsonl";
    std::error_code ec;
    if (!fs::is_regular_file(results, ec))
      throw InputError(fmt::format("{}: no results.jsonl: not the --out folder of a `cobench run --shard`", folder.string()));
    shards.push_back({folder, results::read_results(results)});
  }
  const job::OutputDir output(out_dir, "--out", false);  // locked; files cobench did not write stay untouched
  return job::finish_report(aggregate::merge_shards(shards, out_dir), out_dir, gate);
}

}  // namespace

Subcommand add_merge(CLI::App& root) {
  auto flags = std::make_shared<MergeFlags>();
  Subcommand sub;
  auto* app = root.add_subcommand("merge", "Join the report folders of a sharded job's shards (cobench run --shard "
                                           "I/N --out DIR) into one report set, each row judged against its own "
                                           "shard's control");
  sub.app = app;
  app->add_option("folders", flags->folders, "the shards' report folders (their --out)")->required();
  app->add_option("--out", flags->out, "folder for the merged report.json/.md/.xml/.html (none of the shards')")
      ->required();
  auto gate = std::make_shared<GateFlags>(app);
  sub.run = [flags, gate]() -> int {
    const std::vector<std::filesystem::path> folders(flags->folders.begin(), flags->folders.end());
    return merge_shard_reports(folders, flags->out, job::gate_policy(gate->layer()));
  };
  return sub;
}

}  // namespace cobench::cli
