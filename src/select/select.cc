#include "select/select.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <span>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "core/errors.h"
#include "select/classify.h"
#include "select/layout.h"

namespace cobench::select {

namespace fs = std::filesystem;

namespace {

/// What `run` prints before exiting 0 with nothing to measure.
constexpr const char* kNoneReached = "no benchmark reaches this change";

/// Changed paths on one side of the diff, with how each changed.
using ChangeMap = std::map<std::string, std::string>;

struct Changes {
  ChangeMap head;  ///< paths that exist on the head side
  ChangeMap base;  ///< paths that only exist on the base side (deleted, renamed away)
};

std::string describe_status(const git::ChangedFile& c) {
  switch (c.status) {
    case 'A': return "added";
    case 'D': return "deleted";
    case 'R': return "renamed from " + c.old_path;
    case 'C': return "copied from " + c.old_path;
    case 'T': return "type changed";
    default: return "modified";
  }
}

/// The same target as seen from another checkout (base tree) of the same repo.
cmake::BenchmarkTarget rerooted(const cmake::BenchmarkTarget& t, const IncludeGraph& from, const fs::path& to) {
  auto move = [&](const fs::path& p) {
    std::string rel = from.display(p);
    return fs::path(rel).is_relative() ? to / rel : fs::path(rel);
  };
  cmake::BenchmarkTarget out = t;
  for (auto& s : out.sources) s = move(s);
  for (auto& d : out.include_dirs) d = move(d);
  for (auto& library : out.libraries) {
    for (auto& s : library.sources) s = move(s);
    for (auto& d : library.include_dirs) d = move(d);
  }
  return out;
}

/// How close a target is to the change; a smaller Reach is measured first.
struct Reach {
  int hops = -1;
  int changed = 0;
  std::vector<std::string> chain;
  std::string change;
  std::string via_library;  ///< the linked library whose sources the chain starts from; "" for the target's own
};

/// Adds what `closure` (of the target's own sources, or of a library's it links: `library`) reaches.
void accumulate(const Closure& closure, const ChangeMap& changes, Reach& reach, std::set<std::string>& seen,
                const std::string& library = {}) {
  for (const auto& [path, status] : changes) {
    auto it = closure.index.find(path);
    if (it == closure.index.end()) continue;
    if (seen.insert(path).second) ++reach.changed;
    int hops = closure.nodes[it->second].hops;
    if (reach.hops < 0 || hops < reach.hops) {
      reach.hops = hops;
      reach.chain = closure.chain_to(it->second);
      reach.change = status;
      reach.via_library = library;
    }
  }
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class Selector {
 public:
  explicit Selector(const SelectionInput& in) : in_(in), head_(in.head_tree) {}

  Selection run() {
    out_.narrowing = in_.narrowing;
    out_.max_targets = in_.config.max_targets;
    out_.strict_layout = in_.config.strict_layout;
    narrow();
    Changes changes = classify();
    if (in_.all) out_.all_reason = in_.all_why;
    if (out_.all_reason) {
      for (const auto* t : targets_) out_.selected.push_back(entry(*t, {}));
      out_.narrowed_out_reached = out_.narrowed_out;  // everything is reached
    } else if (changes.head.empty() && changes.base.empty()) {
      out_.none_reason = std::string(kNoneReached) +
                         (in_.changes.empty() ? ": base and head are identical" : ": only ignored paths changed");
      for (const auto* t : targets_) out_.unreached.push_back(t->name);
    } else {
      reach(changes);
    }
    annotate_layout();
    return std::move(out_);
  }

 private:
  void narrow() {
    auto regex = target_regex(in_.narrowing);
    for (const auto& t : in_.targets) {
      if (regex && !std::regex_search(t.name, *regex)) {
        out_.narrowed_out.push_back(t.name);
        narrowed_.push_back(&t);
      } else {
        targets_.push_back(&t);
      }
    }
    std::sort(targets_.begin(), targets_.end(), [](auto* a, auto* b) { return a->name < b->name; });
  }

  Changes classify() {
    ClassifyContext context;
    for (const auto& p : in_.cmake_inputs) context.cmake_inputs.push_back(head_.display(p));
    context.source_dir = in_.source_dir;
    context.select = &in_.config;
    Changes changes;
    auto consider = [&](const std::string& path, std::string status, ChangeMap& side) {
      ChangeClass c = classify_change(path, context);
      if (c.kind == ChangeClass::All && !out_.all_reason) out_.all_reason = c.reason;
      if (c.kind == ChangeClass::Ignored) out_.ignored.push_back(path);
      if (c.kind == ChangeClass::Code) side.emplace(path, std::move(status));
    };
    for (const auto& c : in_.changes) {
      if (c.status == 'D') {
        consider(c.path, "deleted", changes.base);
        continue;
      }
      consider(c.path, describe_status(c), changes.head);
      if (c.status == 'R') consider(c.old_path, "renamed to " + c.path, changes.base);
    }
    return changes;
  }

  void reach(const Changes& changes) {
    std::optional<IncludeGraph> base;
    if (!changes.base.empty()) {
      if (!in_.base_tree.empty())
        base.emplace(in_.base_tree);
      else
        out_.notes.push_back("deleted or renamed files not traced: no base checkout");
    }
    std::vector<std::pair<Reach, const cmake::BenchmarkTarget*>> reached;
    std::set<std::tuple<std::string, int, std::string>> unresolved;
    // A target is reached through its own sources and through those of every library it links,
    // each closure with its own include folders.
    auto reach_of = [&](const cmake::BenchmarkTarget& t, bool note_unresolved) {
      Reach r;
      std::set<std::string> seen;
      auto add = [&](IncludeGraph& graph, const auto& compiled, const ChangeMap& changed, const std::string& library) {
        Closure closure = graph.closure(compiled.sources, compiled.include_dirs);
        if (note_unresolved && &graph == &head_)
          for (const auto& u : closure.unresolved) unresolved.emplace(u.file, u.line, u.include);
        accumulate(closure, changed, r, seen, library);
      };
      add(head_, t, changes.head, "");
      for (const auto& library : t.libraries) add(head_, library, changes.head, library.name);
      if (base) {
        const cmake::BenchmarkTarget old = rerooted(t, head_, base->root());
        add(*base, old, changes.base, "");
        for (const auto& library : old.libraries) add(*base, library, changes.base, library.name);
      }
      return r;
    };
    for (const auto* t : targets_) {
      Reach r = reach_of(*t, /*note_unresolved=*/true);
      if (r.hops < 0)
        out_.unreached.push_back(t->name);
      else
        reached.emplace_back(std::move(r), t);
    }
    // Narrowing by hand must not hide how far the change reaches: the narrowed-away targets are traced too.
    for (const auto* t : narrowed_)
      if (reach_of(*t, /*note_unresolved=*/false).hops >= 0) out_.narrowed_out_reached.push_back(t->name);
    std::sort(out_.narrowed_out_reached.begin(), out_.narrowed_out_reached.end());
    for (const auto& [file, line, include] : unresolved) out_.unresolved.push_back({file, line, include});
    // Closest first: fewest hops, then fewest changed files reached, then name.
    std::sort(reached.begin(), reached.end(), [](const auto& a, const auto& b) {
      return std::tie(a.first.hops, a.first.changed, a.second->name) <
             std::tie(b.first.hops, b.first.changed, b.second->name);
    });
    size_t cap = in_.config.max_targets > 0 ? static_cast<size_t>(in_.config.max_targets) : reached.size();
    for (size_t i = 0; i < reached.size(); ++i)
      (i < cap ? out_.selected : out_.dropped).push_back(entry(*reached[i].second, reached[i].first));
    for (auto& dropped : out_.dropped) dropped.drop_reason = hops_drop_reason(dropped, out_.selected.back(), cap);
    if (reached.empty() && out_.narrowed_out_reached.empty()) out_.none_reason = kNoneReached;
  }

  /// Why the cap kept `last` (the farthest kept target) and not `dropped`.
  static std::string hops_drop_reason(const SelectedTarget& dropped, const SelectedTarget& last, size_t cap) {
    auto distance = [](const SelectedTarget& t) {
      return fmt::format("{} include hop{}, {} changed file{}", t.hops, t.hops == 1 ? "" : "s", t.changed_reached,
                         t.changed_reached == 1 ? "" : "s");
    };
    if (dropped.hops == last.hops && dropped.changed_reached == last.changed_reached)
      return fmt::format("cap of {}: as close as the farthest kept target {} ({}); kept by name order, not by "
                         "evidence (--reach ranks by execution)",
                         cap, last.target, distance(dropped));
    return fmt::format("cap of {}: farther from the change ({}) than every kept target (at most {})", cap,
                       distance(dropped), distance(last));
  }

  SelectedTarget entry(const cmake::BenchmarkTarget& t, const Reach& r) {
    SelectedTarget s;
    s.target = t.name;
    for (const auto& src : t.sources) s.sources.push_back(head_.display(src));
    s.reason_chain = r.chain;
    s.change = r.change;
    s.via_library = r.via_library;
    s.changed_reached = r.changed;
    s.hops = r.hops;
    return s;
  }

  /// Layout warnings and family counts of every reached target's sources (the
  /// dropped ones too: ranking by reach may keep them), then the offenders among the selected.
  void annotate_layout() {
    std::map<std::string, std::pair<std::string, int>> counted;  // per source: one read for targets sharing it
    for (auto* list : {&out_.selected, &out_.dropped})
      for (auto& s : *list) {
        const auto& target =
            *std::find_if(targets_.begin(), targets_.end(), [&](auto* t) { return t->name == s.target; });
        s.source_families.assign(target->sources.size(), 0);
        for (size_t i = 0; i < target->sources.size(); ++i) {
          const std::string& rel = s.sources[i];
          auto it = counted.find(rel);
          if (it == counted.end()) {
            FamilyCount count = count_families(read_text(target->sources[i]));
            it = counted.emplace(rel, std::pair{layout_warning(rel, count), static_cast<int>(count.families.size())}).first;
          }
          if (!it->second.first.empty()) s.layout_warnings.push_back(it->second.first);
          s.source_families[i] = it->second.second;
        }
      }
    collect_layout_offenders(out_);
  }

  const SelectionInput& in_;
  IncludeGraph head_;
  std::vector<const cmake::BenchmarkTarget*> targets_;
  std::vector<const cmake::BenchmarkTarget*> narrowed_;  ///< excluded by the target regex
  Selection out_;
};

}  // namespace

Selection select_targets(const SelectionInput& input) { return Selector(input).run(); }

std::string describe(const Execution& e) {
  switch (e.status) {
    case Execution::Status::Executes:
      return fmt::format("executes the change ({} of {} instance{})", e.executing, e.instances,
                         e.instances == 1 ? "" : "s");
    case Execution::Status::DoesNot:
      return fmt::format("does not execute the change ({} instance{} ran none of its lines)", e.instances,
                         e.instances == 1 ? "" : "s");
    case Execution::Status::Unknown: break;
  }
  return "reach unknown" + (e.why_unknown.empty() ? "" : " (" + e.why_unknown + ")");
}

namespace {

int rank_of(Execution::Status status) {
  switch (status) {
    case Execution::Status::Executes: return 0;
    case Execution::Status::Unknown: return 1;
    case Execution::Status::DoesNot: return 2;
  }
  return 1;
}

/// A cost that sorts unknown costs last.
double sortable_cost(const Execution& e) { return e.cost_seconds < 0 ? 1e300 : e.cost_seconds; }

std::string cost_text(const Execution& e) {
  return e.cost_seconds < 0 ? "cost unknown" : fmt::format("{:.2f} s coverage run", e.cost_seconds);
}

std::string execution_drop_reason(const SelectedTarget& dropped, const SelectedTarget& last, int cap) {
  const Execution& d = *dropped.execution;
  const Execution& k = *last.execution;
  if (rank_of(d.status) > rank_of(k.status))
    return fmt::format("cap of {}: {}; the kept targets rank before it ({} {})", cap, describe(d),
                       k.status == Execution::Status::Executes ? "the last kept one" : "the last kept one's",
                       k.status == Execution::Status::Executes ? describe(k) : "reach is unknown");
  return fmt::format("cap of {}: {}, {}; cheaper ones of the same reach fill the cap (the last kept: {})", cap,
                     describe(d), cost_text(d), cost_text(k));
}

}  // namespace

void cap_by_execution(Selection& selection, const std::map<std::string, Execution>& evidence,
                      const std::string& source) {
  std::vector<SelectedTarget> reached = std::move(selection.selected);
  reached.insert(reached.end(), std::make_move_iterator(selection.dropped.begin()),
                 std::make_move_iterator(selection.dropped.end()));
  selection.selected.clear();
  selection.dropped.clear();
  for (auto& target : reached) {
    auto it = evidence.find(target.target);
    target.execution = it != evidence.end() ? it->second : Execution{Execution::Status::Unknown, 0, 0, -1, "no coverage"};
    target.drop_reason.clear();
  }
  std::stable_sort(reached.begin(), reached.end(), [](const SelectedTarget& a, const SelectedTarget& b) {
    return std::make_tuple(rank_of(a.execution->status), sortable_cost(*a.execution), a.hops, a.target) <
           std::make_tuple(rank_of(b.execution->status), sortable_cost(*b.execution), b.hops, b.target);
  });
  const size_t cap = selection.max_targets > 0 ? static_cast<size_t>(selection.max_targets) : reached.size();
  for (size_t i = 0; i < reached.size(); ++i) (i < cap ? selection.selected : selection.dropped).push_back(reached[i]);
  for (auto& dropped : selection.dropped)
    dropped.drop_reason = execution_drop_reason(dropped, selection.selected.back(), selection.max_targets);
  selection.ranking = "reach, then cost (" + source + ")";
  collect_layout_offenders(selection);
}

void collect_layout_offenders(Selection& selection) {
  selection.layout_offenders.clear();
  for (const auto& target : selection.selected)
    for (size_t i = 0; i < target.sources.size() && i < target.source_families.size(); ++i) {
      const std::string& source = target.sources[i];
      const auto& seen = selection.layout_offenders;
      const bool listed =
          std::any_of(seen.begin(), seen.end(), [&](const LayoutOffender& o) { return o.source == source; });
      if (target.source_families[i] > 1 && !listed)
        selection.layout_offenders.push_back({source, target.source_families[i]});
    }
}

size_t reached_count(const Selection& s) {
  if (s.all_reason) return s.selected.size() + s.narrowed_out.size();
  return s.selected.size() + s.dropped.size() + s.narrowed_out_reached.size();
}

std::vector<std::string> selected_names(const Selection& selection) {
  std::vector<std::string> names;
  for (const auto& s : selection.selected) names.push_back(s.target);
  return names;
}

namespace {

/// "a.cc, b.cc": the offenders' sources for a message.
std::string source_list(std::span<const LayoutOffender> offenders) {
  std::string out;
  for (const auto& offender : offenders) out += (out.empty() ? "" : ", ") + offender.source;
  return out;
}

}  // namespace

std::string layout_summary(const Selection& s) {
  if (s.layout_offenders.empty()) return "";
  const auto [fewest, most] = std::minmax_element(
      s.layout_offenders.begin(), s.layout_offenders.end(),
      [](const LayoutOffender& a, const LayoutOffender& b) { return a.families < b.families; });
  const auto shown = std::min<size_t>(s.layout_offenders.size(), 3);
  std::string files = source_list(std::span(s.layout_offenders).first(shown));
  if (s.layout_offenders.size() > shown) files += ", ...";
  const std::string range = fewest->families == most->families
                                ? std::to_string(most->families)
                                : fmt::format("{} to {}", fewest->families, most->families);
  return fmt::format("{} selected source{} register{} several benchmark families in one translation unit ({} per "
                     "file: {}): a delta between families of one file can be code layout; `cobench run "
                     "--layout-probe` measures this project's layout floor",
                     s.layout_offenders.size(), s.layout_offenders.size() == 1 ? "" : "s",
                     s.layout_offenders.size() == 1 ? "s" : "", range, files);
}

void enforce_strict_layout(const Selection& selection) {
  if (!selection.strict_layout || selection.layout_offenders.empty()) return;
  throw InputError(fmt::format("strict_layout: refusing to measure sources that register several benchmark "
                               "families in one translation unit: {} (split them, one family per file)",
                               source_list(selection.layout_offenders)));
}

}  // namespace cobench::select
