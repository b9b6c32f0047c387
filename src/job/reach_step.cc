#include "job/reach_step.h"

#include <chrono>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/clock.h"
#include "git/git.h"
#include "host/environment.h"
#include "job/side_build.h"
#include "job/workspace.h"
#include "select/classify.h"
#include "job/settings_step.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;

verdict::ChangeReach unknown(int changed_lines, std::string why) {
  return {verdict::ChangeReach::Status::Unknown, changed_lines, 0, std::move(why)};
}

/// The instances of one target's coverage, by name.
std::map<std::string, const reach::InstanceCoverage*> by_name(const reach::TargetCoverage* coverage) {
  std::map<std::string, const reach::InstanceCoverage*> out;
  if (coverage)
    for (const auto& instance : coverage->instances) out[instance.name] = &instance;
  return out;
}

/// One side's coverage of an instance, or why there is none.
reach::SideCoverage side_of(const char* side, const reach::TargetCoverage* target,
                            const std::map<std::string, const reach::InstanceCoverage*>& instances,
                            const std::string& name) {
  if (!target) return {nullptr, fmt::format("no {} coverage", side)};
  if (!target->failure.empty()) return {nullptr, fmt::format("{}: {}", side, target->failure)};
  auto it = instances.find(name);
  if (it == instances.end()) return {nullptr, fmt::format("{}: not among the benchmarks its coverage build lists", side)};
  if (!it->second->failure.empty()) return {nullptr, fmt::format("{}: {}", side, it->second->failure)};
  return {it->second, ""};
}

/// Why a target's coverage that ran no changed hunk is not a "does not": the
/// time budget cut it short (its last instances say how), or a run failed.
std::string why_incomplete(const reach::TargetCoverage& coverage) {
  if (coverage.stopped && !coverage.instances.empty()) return coverage.instances.back().failure;
  return "a coverage run failed";
}

}  // namespace

ReachStep::ReachStep(const JobContext& job, const SideBuild& head, std::function<void(const std::string&)> say)
    : settings_(job.settings), recognises_(job.decided.runner.recognises), workspace_(job.workspace), head_(head),
      base_sha_(job.revs.base_sha),
      index_dir_(fs::absolute(settings_.run.reach_index.empty() ? job.work_dir / "reach"
                                                                 : fs::path(settings_.run.reach_index))),
      log_dir_(job.out_dir / "logs"), bench_args_(job.bench_args), say_(std::move(say)) {
  const fs::path head_tree = workspace_.worktree(Side::Head);
  // Code is what selection counts as code: not an ignored path, not a CMake input (those select everything).
  select::ClassifyContext context;
  for (const auto& input : cmake::cmake_input_files(head.settings.build_dir, head_tree))
    context.cmake_inputs.push_back(input.lexically_relative(head_tree).generic_string());
  context.source_dir = settings_.build.source_dir;
  context.select = &settings_.select;
  changes_ = reach::changed_code(git::diff_lines(head_tree, job.revs.base_sha, job.revs.head_sha),
                                 [&](const std::string& path) {
                                   return select::classify_change(path, context).kind == select::ChangeClass::Code;
                                 });
  const cmake::Compiler cxx = cmake::compiler(head.settings.build_dir);
  compiler_ = cxx.id.empty() ? "unknown compiler" : cxx.id + " " + cxx.version;
  tool_ = reach::find_gcov(cxx);
}

reach::PassSettings ReachStep::pass_settings(bool head_side) const {
  const Side side = head_side ? Side::Head : Side::Base;
  reach::PassSettings pass;
  pass.checkout = workspace_.worktree(side);
  pass.build = head_.settings;  // the same flags as the measured builds, in a folder of its own
  pass.build.source_dir =
      settings_.build.source_dir.empty() ? pass.checkout : pass.checkout / settings_.build.source_dir;
  pass.build.build_dir = workspace_.job_dir() / (head_side ? "cov-head" : "cov-base");
  pass.build.log_path = log_dir_ / fmt::format("build-{}-coverage.log", to_string(side));
  pass.target_pattern = fmt::format("{}", fmt::join(settings_.build.targets, "|"));
  pass.recognises = recognises_;
  pass.bench_args = bench_args_;
  pass.run_env = host::benchmark_environment();
  pass.run_timeout = settings_.run.run_timeout;
  pass.gcov = tool_.gcov;
  if (head_side) {  // the head's lines matter only in the files the diff added lines to
    pass.keep_file = [this](const std::string& path) { return changes_.head.count(path) > 0; };
  }
  pass.side = to_string(side);
  pass.progress = say_;
  pass.stop = stop_;
  return pass;
}

void ReachStep::ensure_base(const std::vector<std::string>& targets) {
  if (!index_)
    index_.emplace(index_dir_, base_sha_,
                   reach::IndexKey{compiler_, settings_.build.build_type, settings_.build.source_dir,
                                   settings_.build.cmake_args, bench_args_});
  std::vector<std::string> missing;
  for (const auto& target : targets)
    if (!index_->find(target)) missing.push_back(target);
  if (missing.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  for (auto& coverage : reach::run_coverage_pass(pass_settings(false), missing)) {
    if (coverage.stopped) {
      cut_short_[coverage.target] = std::move(coverage);
      continue;
    }
    cut_short_.erase(coverage.target);
    ++index_built_;
    index_->add(std::move(coverage));
  }
  base_seconds_ += seconds_since(start);
  index_->save();
}

const reach::TargetCoverage* ReachStep::base_coverage(const std::string& target) {
  if (auto it = cut_short_.find(target); it != cut_short_.end()) return &it->second;
  return index_ ? index_->find(target) : nullptr;
}

void ReachStep::rank(select::Selection& selection) {
  if (selection.dropped.empty() || !tool_.unavailable.empty()) return;
  std::vector<std::string> candidates;
  for (const auto* list : {&selection.selected, &selection.dropped})
    for (const auto& target : *list) candidates.push_back(target.target);
  ensure_base(candidates);
  std::map<std::string, select::Execution> evidence;
  for (const auto& name : candidates) {
    const reach::TargetCoverage* coverage = base_coverage(name);
    select::Execution e;
    if (!coverage || !coverage->failure.empty()) {
      e.why_unknown = coverage ? coverage->failure : "no base coverage";
      evidence[name] = e;
      continue;
    }
    bool failed = false;
    for (const auto& instance : coverage->instances) {
      ++e.instances;
      failed |= !instance.failure.empty();
      e.executing += instance.failure.empty() && reach::touches_change(changes_, instance.executed);
    }
    e.cost_seconds = coverage->seconds;
    e.status = e.executing > 0 ? select::Execution::Status::Executes
               : failed        ? select::Execution::Status::Unknown
                               : select::Execution::Status::DoesNot;
    if (e.status == select::Execution::Status::Unknown) e.why_unknown = why_incomplete(*coverage);
    evidence[name] = e;
  }
  select::cap_by_execution(selection, evidence, "base coverage of the changed hunks, reach index " +
                                                    index_->path().string());
  ranked_ = true;
}

std::vector<results::ReachRecord> ReachStep::find(const std::vector<std::string>& targets) {
  std::vector<results::ReachRecord> out;
  const int changed = changes_.count();
  if (!tool_.unavailable.empty()) {
    for (const auto& target : targets) out.push_back({target, unknown(changed, tool_.unavailable), {}});
    return out;
  }
  std::vector<reach::TargetCoverage> head;
  if (!changes_.head.empty()) {
    const auto start = std::chrono::steady_clock::now();
    head = reach::run_coverage_pass(pass_settings(true), targets);
    head_seconds_ += seconds_since(start);
    for (const auto& coverage : head)
      if (coverage.stopped) head_cut_short_.insert(coverage.target);
  }
  if (!changes_.base.empty()) ensure_base(targets);
  for (size_t i = 0; i < targets.size(); ++i) {
    const reach::TargetCoverage* head_target = head.empty() ? nullptr : &head[i];
    const reach::TargetCoverage* base_target = changes_.base.empty() ? nullptr : base_coverage(targets[i]);
    const auto head_instances = by_name(head_target), base_instances = by_name(base_target);
    // The instances are the head's (what is measured), or the base's when only removed lines matter.
    std::set<std::string> names;
    for (const auto& [name, instance] : head_target ? head_instances : base_instances) names.insert(name);
    results::ReachRecord record{targets[i], unknown(changed, ""), {}};
    if (head_target && !head_target->failure.empty()) record.fallback.reason = "head: " + head_target->failure;
    else if (base_target && !base_target->failure.empty()) record.fallback.reason = "base: " + base_target->failure;
    for (const auto& name : names)
      record.instances[name] = reach::instance_reach(changes_, side_of("head", head_target, head_instances, name),
                                                     side_of("base", base_target, base_instances, name));
    out.push_back(std::move(record));
  }
  return out;
}

std::string ReachStep::method() const {
  if (!tool_.unavailable.empty())
    return "unknown for every benchmark: " + tool_.unavailable + "; a binding cap keeps its include-hop ranking";
  std::string text = fmt::format(
      "each benchmark instance run once in its own process (--benchmark_min_time=0.01) from a --coverage build "
      "(the same flags otherwise), gcov's executed lines (a line without code of its own: when its function ran) "
      "against the diff's {} changed line{} of code",
      changes_.count(), changes_.count() == 1 ? "" : "s");
  if (!changes_.head.empty()) text += fmt::format("; the {} added on the head: head coverage build", changes_.head_lines());
  if (!changes_.base.empty() || ranked_) {
    text += fmt::format("; {}: the base's coverage, reach index {} ({} target{} from the index, {} built by this job)",
                        changes_.base.empty() ? "the cap's ranking" : fmt::format("the {} removed from the base", changes_.base_lines()),
                        index_ ? index_->path().string() : index_dir_.string(), index_ ? index_->loaded() : 0,
                        index_ && index_->loaded() == 1 ? "" : "s", index_built_);
    if (index_ && !index_->note().empty()) text += " (" + index_->note() + ")";
  }
  text += fmt::format("; coverage pass {:.0f} s (head {:.0f} s, base {:.0f} s)", head_seconds_ + base_seconds_,
                      head_seconds_, base_seconds_);
  std::set<std::string> cut = head_cut_short_;  // either side's pass, as it stands now
  for (const auto& [target, coverage] : cut_short_) cut.insert(target);
  if (!cut.empty())
    text += fmt::format("; cut short by the time budget for {} target{} ({}): their rows say which instances "
                        "are unknown, and none of it is kept in the reach index",
                        cut.size(), cut.size() == 1 ? "" : "s", fmt::join(cut, ", "));
  return text;
}

}  // namespace cobench::job
