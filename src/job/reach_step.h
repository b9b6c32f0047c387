#pragma once
// The reach pass of `cobench run --reach`, between selection and measuring:
// which benchmark instances execute the change. The head's selected targets
// are built a third time with --coverage and each instance runs once (lines
// the diff added); the base's coverage comes from the reach index of the base
// commit, built on the first job that needs it (lines the diff removed, and
// the ranking of targets when the cap binds).
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "config/config.h"
#include "reach/index.h"
#include "reach/reach.h"
#include "results/log.h"
#include "select/select.h"

namespace cobench::job {

struct Revisions;
class Workspace;
struct JobContext;
struct SideBuild;

/// One job's reach pass.
class ReachStep {
 public:
  /// Reads the diff's changed lines (in the files selection counts as code)
  /// and looks for the gcov of the head's compiler. The coverage runs take the
  /// job's benchmark arguments (its filter included); `say` shows progress lines.
  ReachStep(const JobContext& job, const SideBuild& head, std::function<void(const std::string&)> say);

  /// When the cap binds, re-ranks the reached targets (selected and dropped)
  /// by whether the base's coverage touches the changed hunks, then by the
  /// cost of their coverage runs (select::cap_by_execution). Without gcov the
  /// include-hop ranking stays and method() says why.
  void rank(select::Selection& selection);

  /// Each instance's reach for `targets`, one record per target.
  std::vector<results::ReachRecord> find(const std::vector<std::string>& targets);

  /// What the coverage runs from now on ask before each step (the time
  /// budget's rule for this phase): "" to go on, else why they stop.
  void bound_by(std::function<std::string()> stop) { stop_ = std::move(stop); }

  /// How reach was found and what the coverage pass cost, for the reports.
  std::string method() const;

 private:
  const reach::TargetCoverage* base_coverage(const std::string& target);
  void ensure_base(const std::vector<std::string>& targets);
  reach::PassSettings pass_settings(bool head_side) const;

  const config::Config& settings_;
  cmake::Recognises recognises_;     ///< the job's framework's programs (DecidedSettings::runner)
  const Workspace& workspace_;
  const SideBuild& head_;
  std::string base_sha_;
  std::filesystem::path index_dir_;
  std::filesystem::path log_dir_;
  std::vector<std::string> bench_args_;
  std::function<void(const std::string&)> say_;
  std::function<std::string()> stop_;
  reach::ChangedCode changes_;
  std::string compiler_;             ///< "GNU 12.2.0"
  reach::CoverageTool tool_;
  std::optional<reach::ReachIndex> index_;
  /// Base coverage the time budget cut short: used by this job, kept out of
  /// the index; a later pass that completes a target takes it out of here.
  std::map<std::string, reach::TargetCoverage> cut_short_;
  std::set<std::string> head_cut_short_;  ///< targets whose head coverage the time budget cut short
  int index_built_ = 0;               ///< targets whose base coverage this job ran
  double base_seconds_ = 0, head_seconds_ = 0;
  bool ranked_ = false;
};

}  // namespace cobench::job
