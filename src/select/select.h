#pragma once
// Which benchmark targets a diff can reach, over the include graph (issue 4).
// `run` calls select_targets() between target discovery and the build;
// `cobench select` shows the same Selection as text or JSON.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cmake/cmake.h"
#include "config/config.h"
#include "git/git.h"
#include "select/include_graph.h"
#include "select/narrowing.h"

namespace cobench::select {

/// Everything selection looks at.
struct SelectionInput {
  std::filesystem::path head_tree;  ///< checkout the targets were configured from
  std::filesystem::path base_tree;  ///< merge-base checkout: includers of deleted/renamed files; may be empty
  std::vector<git::ChangedFile> changes;         ///< base -> head, repo-relative
  std::vector<cmake::BenchmarkTarget> targets;   ///< from the head's File API
  std::vector<std::filesystem::path> cmake_inputs;  ///< the project's own CMake files (absolute or repo-relative)
  std::string source_dir;                        ///< CMake project folder, repo-relative ("" = root)
  config::SelectConfig config;
  Narrowing narrowing;
  bool all = false;                              ///< --all: every (narrowed) target, no graph
  std::string all_why = "--all";                 ///< what asked for all, for the report
};

/// What the reach pass found for a reached target: whether its benchmark
/// instances execute the changed lines, and what its coverage run cost.
struct Execution {
  enum class Status { Executes, Unknown, DoesNot };
  Status status = Status::Unknown;
  int instances = 0;              ///< instances run under coverage
  int executing = 0;              ///< of those, the ones that executed a changed line
  double cost_seconds = -1;       ///< wall time of its instances' coverage runs; < 0 when not known
  std::string why_unknown;        ///< Unknown: why ("coverage build failed: ...")
};

/// "executes the change (1 of 4 instances)", "does not execute the change (4 instances)", "reach unknown (...)".
std::string describe(const Execution& execution);

/// A target with why it was (or would have been) selected.
struct SelectedTarget {
  std::string target;
  std::vector<std::string> sources;        ///< repo-relative where inside the tree
  std::vector<std::string> reason_chain;   ///< source → ... → changed file; empty when all were selected
  std::string via_library;                 ///< the linked library target whose source starts the chain; "" for its own
  std::string change;                      ///< how the chain's last file changed: "modified", "deleted", ...
  int changed_reached = 0;                 ///< changed files in the target's include closure
  int hops = -1;                           ///< include edges from a source to the nearest changed file
  std::vector<std::string> layout_warnings;  ///< one per source registering several families
  std::optional<Execution> execution;        ///< what the reach pass found, when the cap was ranked by it
  std::string drop_reason;                   ///< dropped by the cap: why this one and not a kept one
  std::vector<int> source_families;          ///< families each source registers (parallel to sources)
};

/// A selected source that registers several benchmark families.
struct LayoutOffender {
  std::string source;  ///< relative to the repository
  int families = 0;
};

/// The answer: selected, dropped by the cap, unreached, and what could not be followed.
struct Selection {
  std::vector<SelectedTarget> selected;    ///< in measuring order: closest first (by name when all)
  std::vector<SelectedTarget> dropped;     ///< reached but over the cap
  std::vector<std::string> unreached;
  std::vector<std::string> narrowed_out;   ///< excluded by the target regex
  std::vector<std::string> narrowed_out_reached;  ///< of those, the ones the change reaches (include graph)
  std::vector<UnresolvedInclude> unresolved;  ///< in the closures of the narrowed targets
  std::optional<std::string> all_reason;   ///< why everything was selected
  std::optional<std::string> none_reason;  ///< why nothing was
  std::vector<std::string> ignored;        ///< changed paths matching [select] ignore
  std::vector<std::string> notes;          ///< anything selection could not check
  std::vector<LayoutOffender> layout_offenders;  ///< selected sources with several families (strict_layout)
  Narrowing narrowing;
  int max_targets = 0;
  bool strict_layout = false;
  std::string ranking = "include hops";       ///< how the cap chose: "include hops", or by reach (see cap_by_execution)
};

/// Maps the changes to targets. Throws InputError for a bad target regex.
Selection select_targets(const SelectionInput& input);

/// Re-applies the cap to the reached targets (selected and dropped) ranked
/// by what the reach pass found: targets whose instances execute the change
/// first, then those whose reach is unknown, then those that do not; within
/// each, the cheapest coverage run first, then fewest hops, then name. Every
/// dropped target gets its drop_reason; `source` says where the evidence came
/// from ("base coverage, reach index .cobench/reach/SHA.json"). Targets
/// without evidence count as Unknown.
void cap_by_execution(Selection& selection, const std::map<std::string, Execution>& evidence,
                      const std::string& source);

/// Recomputes layout_offenders from the selected targets.
void collect_layout_offenders(Selection& selection);

/// How many targets the change reaches (include graph), narrowed away or not.
size_t reached_count(const Selection& selection);

/// Names of the selected targets, in order.
std::vector<std::string> selected_names(const Selection& selection);

/// With strict_layout, throws InputError naming the sources that register
/// several families; otherwise does nothing.
void enforce_strict_layout(const Selection& selection);

/// One line for the whole job about sources with several benchmark families
/// (how many, how many families at most, where to measure the floor); "" when none.
std::string layout_summary(const Selection& selection);

/// The JSON document of `cobench select --format json`.
nlohmann::json to_json(const Selection& selection);

/// The human report: one line per selected target with its include chain.
std::string to_text(const Selection& selection);

}  // namespace cobench::select
