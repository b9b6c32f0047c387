#include "job/target_choice.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/errors.h"
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
  std::string reason = fmt::format("{} of {} benchmark targets reach the change{}", s.selected.size(), total,
                                   narrowed_phrase(s.narrowing));
  if (!s.dropped.empty()) reason += fmt::format(", {} more dropped by max_targets {}", s.dropped.size(), s.max_targets);
  return reason;
}

}  // namespace

select::Selection select_on_head(const config::Config& settings, bool all, const Revisions& revisions,
                                 const Workspace& workspace, const SideBuild& head) {
  select::SelectionInput in = select::head_input(workspace.worktree(Side::Head), revisions.base_sha,
                                                 revisions.head_sha, workspace.worktree(Side::Head),
                                                 head.settings.build_dir, head.targets);
  in.base_tree = workspace.worktree(Side::Base);
  in.source_dir = settings.build.source_dir;
  in.config = settings.select;
  in.narrowing = select::narrowing_of(settings);
  in.all = all;
  return select::select_targets(in);
}

std::optional<std::string> nothing_to_measure(const select::Selection& s) {
  if (!s.selected.empty()) return std::nullopt;
  const size_t total = head_names(s).size();
  if (total == 0) throw InputError("no benchmark targets found (no executable links Google Benchmark)");
  if (s.narrowed_out.size() == total)
    throw InputError(fmt::format("{} '{}' matches none of the {} benchmark targets", s.narrowing.targets_origin,
                                 s.narrowing.targets, total));
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

std::vector<std::string> with_filter(std::vector<std::string> bench_args, const select::Narrowing& narrowing) {
  if (!narrowing.filter.empty()) bench_args.push_back("--benchmark_filter=" + narrowing.filter);
  return bench_args;
}

}  // namespace cobench::job
