#pragma once
// `cobench merge`: the shards of one job (`cobench run --shard I/N`), each a
// whole interleaved job with its own control, joined into one report. Every
// row stays as its shard judged it, against that shard's own control.
#include <filesystem>
#include <vector>

#include "report/report.h"
#include "results/log.h"

namespace cobench::aggregate {

/// One shard's report folder and its results.jsonl.
struct ShardFolder {
  std::filesystem::path folder;  ///< as given on the command line
  results::ResultsFile results;
};

/// The shards' rows, targets and controls (named by shard) in one report,
/// with per-shard host facts under `shards` and a note when they ran on
/// different hosts. A shard missing from `shards` leaves its targets as
/// failures (not measured). Failed-run logs are named relative to `out_dir`.
/// Throws InputError naming the folder when the folders are not shards of one
/// job: not sharded, other revisions, another count or split, a part twice.
report::Report merge_shards(const std::vector<ShardFolder>& shards, const std::filesystem::path& out_dir);

}  // namespace cobench::aggregate
