#include "aggregate/merge.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"
#include "aggregate/aggregate.h"

namespace cobench::aggregate {
namespace {

namespace fs = std::filesystem;

std::string label(int index, int count) { return fmt::format("shard {}/{}", index, count); }

/// Refuses folders that are not the shards of one job, naming the folder at fault.
void check_shards(const std::vector<ShardFolder>& shards) {
  if (shards.empty()) throw InputError("merge: give the report folders of a sharded job's shards");
  const ShardFolder& first = shards.front();
  std::map<int, const ShardFolder*> parts;
  for (const auto& shard : shards) {
    const results::JobSettings& s = shard.results.settings;
    const std::string folder = shard.folder.string();
    if (!s.shard) throw InputError(fmt::format("{}: not a shard (its job ran without --shard I/N)", folder));
    const results::JobSettings& f = first.results.settings;
    for (const auto& [side, here, there] : {std::tuple{"base", s.base, f.base}, std::tuple{"head", s.head, f.head}})
      if (here != there)
        throw InputError(fmt::format("{}: another {} ({}; {} has {}): not shards of one job", folder, side, here,
                                     first.folder.string(), there));
    if (s.shard->count != f.shard->count)
      throw InputError(fmt::format("{}: {}, but {} is a part of {}", folder, label(s.shard->index, s.shard->count),
                                   first.folder.string(), f.shard->count));
    auto [it, fresh] = parts.emplace(s.shard->index, &shard);
    if (!fresh)
      throw InputError(fmt::format("{} and {} are both {}", it->second->folder.string(), folder,
                                   label(s.shard->index, s.shard->count)));
    for (const auto& target : s.shard->targets) {
      auto same = std::find_if(f.shard->targets.begin(), f.shard->targets.end(),
                               [&](const auto& t) { return t.target == target.target; });
      if (same == f.shard->targets.end() || same->shard != target.shard || s.shard->targets.size() != f.shard->targets.size())
        throw InputError(fmt::format("{}: splits the selection differently from {} (target {}); give every shard the "
                                     "same --cost-from",
                                     folder, first.folder.string(), target.target));
    }
    // Shards of one job measured and judged alike: a row judged against another budget is not this job's.
    if (auto difference = results::shard_difference(s, f))
      throw InputError(fmt::format("{}: not a shard of the job of {}: they differ in {} (here, there); every shard of "
                                   "one job runs with the same settings",
                                   folder, first.folder.string(), *difference));
  }
}

/// "runner-7 (AMD EPYC 7B13, 2 CPUs)": what tells hosts apart.
std::string host_phrase(const nlohmann::json& host) {
  std::vector<std::string> facts;
  if (host.contains("cpu_model") && host["cpu_model"].is_string()) facts.push_back(host["cpu_model"]);
  if (host.contains("cpu_count") && host["cpu_count"].is_number()) facts.push_back(fmt::format("{} CPUs", host["cpu_count"].dump()));
  const std::string name = host.contains("hostname") && host["hostname"].is_string() ? host["hostname"].get<std::string>()
                                                                                     : "unknown host";
  return facts.empty() ? name : fmt::format("{} ({})", name, fmt::join(facts, ", "));
}

/// One shard's report as it stands alone, its rows and targets marked with its part.
report::Report shard_report(const ShardFolder& shard, const fs::path& out_dir) {
  const results::ShardSplit& split = *shard.results.settings.shard;
  report::Report part = report_of(shard.results, (shard.folder / "results.jsonl").string());
  std::erase(part.notes, results::shard_note(split));  // the merged report says it for all shards
  for (const auto& failure : report::infrastructure_failures(part)) std::erase(part.notes, failure);  // said again below
  for (auto& row : part.benchmarks) {
    row.shard = split.index;
    for (auto& failed : row.failed_runs)
      if (!failed.log.empty())
        failed.log = fs::absolute(shard.folder / failed.log).lexically_relative(fs::absolute(out_dir)).generic_string();
  }
  for (auto& target : part.targets) target.shard = split.index;
  for (auto& control : part.controls) control.name = label(split.index, split.count) + ": " + control.name;
  return part;
}

}  // namespace

report::Report merge_shards(const std::vector<ShardFolder>& shards, const fs::path& out_dir) {
  check_shards(shards);
  std::vector<const ShardFolder*> ordered;
  for (const auto& shard : shards) ordered.push_back(&shard);
  std::sort(ordered.begin(), ordered.end(), [](const auto* a, const auto* b) {
    return a->results.settings.shard->index < b->results.settings.shard->index;
  });
  const results::ShardSplit& split = *ordered.front()->results.settings.shard;

  std::vector<report::Report> parts;
  for (const auto* shard : ordered) parts.push_back(shard_report(*shard, out_dir));
  report::Report out = parts.front();
  out.benchmarks.clear();
  out.added.clear();
  out.removed.clear();
  out.targets.clear();
  out.controls.clear();
  out.notes.clear();
  out.settings["shard"].erase("index");  // the split is every shard's; the part is per shard below

  // A note every shard has is said once; the others are said with their shard.
  std::vector<std::string> notes;
  std::map<std::string, std::vector<int>> by_note;
  for (size_t i = 0; i < parts.size(); ++i)
    for (const auto& note : parts[i].notes) {
      if (!by_note.count(note)) notes.push_back(note);
      by_note[note].push_back(static_cast<int>(i));
    }
  for (const auto& note : notes) {
    const auto& holders = by_note[note];
    if (holders.size() == parts.size()) {
      out.notes.push_back(note);
      continue;
    }
    for (int i : holders)
      out.notes.push_back(label(ordered[static_cast<size_t>(i)]->results.settings.shard->index, split.count) + ": " + note);
  }

  std::set<std::string> hosts;
  nlohmann::json per_shard_hosts = nlohmann::json::object();
  for (size_t i = 0; i < parts.size(); ++i) {
    const results::ShardSplit& own = *ordered[i]->results.settings.shard;
    const report::Report& part = parts[i];
    out.benchmarks.insert(out.benchmarks.end(), part.benchmarks.begin(), part.benchmarks.end());
    out.added.insert(out.added.end(), part.added.begin(), part.added.end());
    out.removed.insert(out.removed.end(), part.removed.begin(), part.removed.end());
    out.targets.insert(out.targets.end(), part.targets.begin(), part.targets.end());
    out.controls.insert(out.controls.end(), part.controls.begin(), part.controls.end());
    if (out.control_rule.empty()) out.control_rule = part.control_rule;  // the rule is one; a shard without controls has none
    out.layout_rule = part.layout_rule;  // one setting in every shard (results::shard_difference)
    out.run_length_rule = part.run_length_rule;  // likewise; each target says its own length
    out.shards.push_back({{"index", own.index},
                          {"count", own.count},
                          {"folder", ordered[i]->folder.string()},
                          {"job", ordered[i]->results.settings.job},
                          {"targets", own.targets_of(own.index)},
                          {"host", part.host}});
    hosts.insert(host_phrase(part.host));
    per_shard_hosts[label(own.index, own.count)] = host_phrase(part.host);
  }
  if (hosts.size() > 1) {
    out.host = per_shard_hosts;  // each shard's own facts are under `shards`
    std::vector<std::string> where;
    for (const auto& [shard, host] : per_shard_hosts.items()) where.push_back(shard + " on " + host.get<std::string>());
    out.notes.insert(out.notes.begin(),
                     fmt::format("the shards ran on different hosts ({}): each ratio comes from one shard's interleaved "
                                 "job on one host, so the ratios stay valid; absolute times are not comparable across "
                                 "shards, and no report shows them as a result",
                                 fmt::join(where, "; ")));
  }

  // A shard that is not here: its targets were not measured, which is never a pass.
  std::set<int> present;
  for (const auto* shard : ordered) present.insert(shard->results.settings.shard->index);
  for (int index = 1; index <= split.count; ++index) {
    if (present.count(index)) continue;
    const auto missing = split.targets_of(index);
    if (missing.empty())
      out.notes.push_back(fmt::format("{} is not among the merged folders (it had no targets)", label(index, split.count)));
    for (const auto& target : missing) {
      report::TargetInfo info{target, {}, "", 0,
                              fmt::format("not measured: {} is not among the merged folders (its job failed, or its "
                                          "folder was not given)",
                                          label(index, split.count))};
      info.shard = index;
      out.targets.push_back(std::move(info));
    }
  }
  const auto failures = report::infrastructure_failures(out);
  out.notes.insert(out.notes.begin(), failures.begin(), failures.end());
  out.notes.push_back(fmt::format("merged from {} of {} shards (split by {})", parts.size(), split.count, split.basis));
  report::sort_rows(out.benchmarks);
  return out;
}

}  // namespace cobench::aggregate
