#include "job/target_choice.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "job/job_context.h"
#include "job/side_build.h"
#include "job/workspace.h"
#include "select/input.h"

namespace cobench::job {

namespace {

/// Every head target the selection saw, whatever became of it.
std::set<std::string> head_names(const select::Selection& s) {
  std::set<std::string> names(s.unreached.begin(), s.unreached.end());
  names.insert(s.narrowed_out.begin(), s.narrowed_out.end());
  for (const auto* list : {&s.selected, &s.dropped})
    for (const auto& t : *list) names.insert(t.target);
  return names;
}

std::string narrowed_phrase(const select::Narrowing& n) {
  return n.targets.empty() ? "" : fmt::format(", narrowed by {} '{}'", n.targets_origin, n.targets);
}

std::string reason_for(const select::Selection& s, size_t total) {
  if (s.all_reason)
    return fmt::format("all {} benchmark targets ({}){}", s.selected.size(), *s.all_reason, narrowed_phrase(s.narrowing));
  // How far the change reaches, whatever was narrowed away by hand: "13 of 49 ..., narrowed to 1 by --target".
  std::string reason = fmt::format("{} of {} benchmark targets reach the change", select::reached_count(s), total);
  if (!s.narrowing.targets.empty())
    reason += fmt::format(", narrowed to {} by {} '{}'", s.selected.size() + s.dropped.size(),
                          s.narrowing.targets_origin, s.narrowing.targets);
  if (!s.dropped.empty())
    reason += fmt::format("; {} measured, {} dropped by max_targets {} (ranked by {})", s.selected.size(),
                          s.dropped.size(), s.max_targets, s.ranking);
  return reason;
}

}  // namespace

select::Selection select_on_head(const JobContext& job, const SideBuild& head) {
  const config::Config& settings = job.settings;
  select::SelectionInput in = select::head_input(job.workspace.worktree(Side::Head), job.revs.base_sha,
                                                 job.revs.head_sha, job.workspace.worktree(Side::Head),
                                                 head.settings.build_dir, head.targets);
  in.base_tree = job.workspace.worktree(Side::Base);
  in.source_dir = settings.build.source_dir;
  in.config = settings.select;
  in.narrowing = job.decided.narrowing;
  in.all = job.options.all || settings.run.layout_probe;  // the probe's diff is empty: every (narrowed) target is measured
  if (settings.run.layout_probe) in.all_why = "--layout-probe (one commit against itself)";
  return select::select_targets(in);
}

std::optional<std::string> nothing_to_measure(const select::Selection& s, const std::filesystem::path& head_build_dir) {
  if (!s.selected.empty()) return std::nullopt;
  const size_t total = head_names(s).size();
  if (total == 0) {
    std::string hint;
    if (const auto off = cmake::benchmark_options_off(head_build_dir); !off.empty())
      hint = fmt::format("; the project's cache has {} off: --cmake-arg=-D{}=ON builds them",
                         fmt::join(off, ", "), off.front());
    throw InputError("no benchmark targets found (no executable links Google Benchmark)" + hint);
  }
  if (s.narrowed_out.size() == total)
    throw InputError(fmt::format("{} '{}' matches none of the {} benchmark targets", s.narrowing.targets_origin,
                                 s.narrowing.targets, total));
  if (!s.narrowed_out_reached.empty() && !s.none_reason)
    return fmt::format("no benchmark left to measure: the change reaches {} of {} benchmark targets, all narrowed away "
                       "by {} '{}': {}",
                       s.narrowed_out_reached.size(), total, s.narrowing.targets_origin, s.narrowing.targets,
                       fmt::join(s.narrowed_out_reached, ", "));
  const std::string headline = "no benchmark reaches this change";
  std::string why = s.none_reason.value_or(headline);
  if (why.rfind(headline, 0) != 0) why = headline + ": " + why;
  if (!s.ignored.empty()) {
    std::string paths;
    for (const auto& path : s.ignored) paths += (paths.empty() ? "" : ", ") + path;
    why += " (" + paths + ")";
  }
  return why;
}

TargetChoice choose_targets(const std::vector<cmake::BenchmarkTarget>& base, const select::Selection& selection) {
  std::set<std::string> base_names;
  for (const auto& t : base) base_names.insert(t.name);
  TargetChoice choice;
  for (const auto& name : select::selected_names(selection))
    (base_names.count(name) ? choice.both : choice.head_only).push_back(name);
  const auto on_head = head_names(selection);
  const auto regex = select::target_regex(selection.narrowing);
  for (const auto& name : base_names)
    if (!on_head.count(name) && (!regex || std::regex_search(name, *regex))) choice.base_only.push_back(name);
  choice.reason = selection.none_reason ? *selection.none_reason : reason_for(selection, on_head.size());
  choice.selection = select::to_json(selection);
  choice.selection["mode"] = selection.all_reason ? "all" : "diff";
  // The report shows all_reason / none_reason itself; a third line would repeat it.
  if (!selection.all_reason && !selection.none_reason) choice.selection["reason"] = choice.reason;
  return choice;
}

namespace {

bool reached(const select::Selection& s, const std::string& name) {
  auto in = [&](const std::vector<select::SelectedTarget>& list) {
    return std::any_of(list.begin(), list.end(), [&](const auto& t) { return t.target == name && !t.reason_chain.empty(); });
  };
  return in(s.selected) || in(s.dropped);
}

}  // namespace

bool TargetChoice::empty() const {
  return both.size() == layout_controls.size() && head_only.empty() && base_only.empty();
}

void keep_shard(TargetChoice& choice, const config::Shard& shard, const std::vector<cmake::BenchmarkTarget>& base,
                const std::vector<cmake::BenchmarkTarget>& head, const plan::CostHistory& history,
                const std::vector<std::string>& named_controls) {
  auto bytes_of = [](const std::vector<cmake::BenchmarkTarget>& side, const std::string& name) -> std::uintmax_t {
    auto it = std::find_if(side.begin(), side.end(), [&](const auto& t) { return t.name == name; });
    return it == side.end() ? 0 : plan::source_bytes(*it);
  };
  auto named = [&](const std::string& name) {
    return std::find(named_controls.begin(), named_controls.end(), name) != named_controls.end();
  };
  std::vector<plan::Candidate> candidates;
  for (const auto* list : {&choice.both, &choice.head_only})
    for (const auto& name : *list)
      if (!named(name)) candidates.push_back({name, bytes_of(head, name)});
  for (const auto& name : choice.base_only) candidates.push_back({name, bytes_of(base, name)});
  choice.shard = plan::split_into_shards(candidates, history, shard.index, shard.count);
  const auto mine = choice.shard->targets_of(shard.index);
  auto keep_mine = [&](std::vector<std::string>& list) {
    std::erase_if(list, [&](const std::string& name) {
      return !named(name) && std::find(mine.begin(), mine.end(), name) == mine.end();
    });
  };
  keep_mine(choice.both);
  keep_mine(choice.head_only);
  keep_mine(choice.base_only);
}

void add_layout_controls(TargetChoice& choice, const std::vector<cmake::BenchmarkTarget>& base,
                         const select::Selection& selection, const std::vector<std::string>& named,
                         const std::string& origin) {
  auto on_base = [&](const std::string& name) {
    return std::find_if(base.begin(), base.end(), [&](const auto& t) { return t.name == name; });
  };
  if (named.size() == 1 && named.front() == "none") return;  // asked for no layout control
  std::vector<std::string> controls = named;
  for (const auto& name : named) {
    if (on_base(name) == base.end())
      throw InputError(fmt::format("{}: no benchmark target '{}' on the base side", origin, name));
    if (reached(selection, name))
      throw InputError(fmt::format("{}: the diff reaches '{}'; a control must be a target the change leaves alone",
                                   origin, name));
  }
  if (controls.empty()) {
    const cmake::BenchmarkTarget* cheapest = nullptr;
    for (const auto& name : selection.unreached) {
      auto it = on_base(name);
      if (it == base.end()) continue;
      if (!cheapest || plan::source_bytes(*it) < plan::source_bytes(*cheapest)) cheapest = &*it;
    }
    if (cheapest) controls.push_back(cheapest->name);
  }
  for (const auto& name : controls) {
    choice.layout_controls.push_back(name);
    if (std::find(choice.both.begin(), choice.both.end(), name) == choice.both.end()) choice.both.push_back(name);
  }
}

std::vector<std::string> with_filter(std::vector<std::string> bench_args, const select::Narrowing& narrowing) {
  if (!narrowing.filter.empty()) bench_args.push_back("--benchmark_filter=" + narrowing.filter);
  return bench_args;
}

void check_filter_matches(const select::Narrowing& narrowing, const TargetChoice& choice,
                          run::GoogleBenchmarkRunner& runner, const run::SideContext& head) {
  if (narrowing.filter.empty()) return;
  std::vector<std::string> measured;
  for (const auto& unit : runner.prepare(head)) {
    const auto& controls = choice.layout_controls;
    if (std::find(controls.begin(), controls.end(), unit.name) != controls.end()) continue;
    const auto names = runner.listed(unit);
    if (!names || !names->empty()) return;  // it matches (or the runs will say why the binary fails)
    measured.push_back(unit.name);
  }
  if (measured.empty()) return;
  throw InputError(fmt::format("{} '{}' matches no benchmark of {} (Google Benchmark's --benchmark_list_tests under "
                               "the filter): nothing would be measured",
                               narrowing.filter_origin, narrowing.filter, fmt::join(measured, ", ")));
}

}  // namespace cobench::job
