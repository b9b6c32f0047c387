// `cobench merge DIR... --out DIR`: the report folders of a sharded job's
// shards (`cobench run --shard I/N`) joined into one report set.
#include <filesystem>
#include <memory>
#include <vector>

#include "cli/commands.h"
#include "cli/settings_flags.h"
#include "job/pipeline.h"

namespace cobench::cli {
namespace {

/// What only this command names; the gate settings are in GateFlags.
struct MergeFlags {
  std::vector<std::string> folders;
  std::string out;
};

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
    return job::merge_shard_reports(folders, flags->out, job::gate_policy(gate->layer()));
  };
  return sub;
}

}  // namespace cobench::cli
