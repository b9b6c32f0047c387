#include "select/select.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

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
  return out;
}

/// How close a target is to the change; a smaller Reach is measured first.
struct Reach {
  int hops = -1;
  int changed = 0;
  std::vector<std::string> chain;
  std::string change;
};

void accumulate(const Closure& closure, const ChangeMap& changes, Reach& reach, std::set<std::string>& seen) {
  for (const auto& [path, status] : changes) {
    auto it = closure.index.find(path);
    if (it == closure.index.end()) continue;
    if (seen.insert(path).second) ++reach.changed;
    int hops = closure.nodes[it->second].hops;
    if (reach.hops < 0 || hops < reach.hops) {
      reach.hops = hops;
      reach.chain = closure.chain_to(it->second);
      reach.change = status;
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
      if (regex && !std::regex_search(t.name, *regex))
        out_.narrowed_out.push_back(t.name);
      else
        targets_.push_back(&t);
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
    for (const auto* t : targets_) {
      Closure closure = head_.closure(t->sources, t->include_dirs);
      for (const auto& u : closure.unresolved) unresolved.emplace(u.file, u.line, u.include);
      Reach r;
      std::set<std::string> seen;
      accumulate(closure, changes.head, r, seen);
      if (base) {
        cmake::BenchmarkTarget old = rerooted(*t, head_, base->root());
        accumulate(base->closure(old.sources, old.include_dirs), changes.base, r, seen);
      }
      if (r.hops < 0)
        out_.unreached.push_back(t->name);
      else
        reached.emplace_back(std::move(r), t);
    }
    for (const auto& [file, line, include] : unresolved) out_.unresolved.push_back({file, line, include});
    // Closest first: fewest hops, then fewest changed files reached, then name.
    std::sort(reached.begin(), reached.end(), [](const auto& a, const auto& b) {
      return std::tie(a.first.hops, a.first.changed, a.second->name) <
             std::tie(b.first.hops, b.first.changed, b.second->name);
    });
    size_t cap = in_.config.max_targets > 0 ? static_cast<size_t>(in_.config.max_targets) : reached.size();
    for (size_t i = 0; i < reached.size(); ++i)
      (i < cap ? out_.selected : out_.dropped).push_back(entry(*reached[i].second, reached[i].first));
    if (reached.empty()) out_.none_reason = kNoneReached;
  }

  SelectedTarget entry(const cmake::BenchmarkTarget& t, const Reach& r) {
    SelectedTarget s;
    s.target = t.name;
    for (const auto& src : t.sources) s.sources.push_back(head_.display(src));
    s.reason_chain = r.chain;
    s.change = r.change;
    s.changed_reached = r.changed;
    s.hops = r.hops;
    return s;
  }

  void annotate_layout() {
    std::map<std::string, std::string> warnings;  // per source: one read for targets sharing it
    for (auto& s : out_.selected) {
      const auto& target = *std::find_if(targets_.begin(), targets_.end(), [&](auto* t) { return t->name == s.target; });
      for (size_t i = 0; i < target->sources.size(); ++i) {
        const std::string& rel = s.sources[i];
        auto it = warnings.find(rel);
        if (it == warnings.end()) {
          FamilyCount count = count_families(read_text(target->sources[i]));
          it = warnings.emplace(rel, layout_warning(rel, count)).first;
          if (count.families.size() > 1) {
            out_.layout_offenders.push_back(rel);
            out_.offender_families.push_back(static_cast<int>(count.families.size()));
          }
        }
        if (!it->second.empty()) s.layout_warnings.push_back(it->second);
      }
    }
  }

  const SelectionInput& in_;
  IncludeGraph head_;
  std::vector<const cmake::BenchmarkTarget*> targets_;
  Selection out_;
};

}  // namespace

Selection select_targets(const SelectionInput& input) { return Selector(input).run(); }

std::vector<std::string> selected_names(const Selection& selection) {
  std::vector<std::string> names;
  for (const auto& s : selection.selected) names.push_back(s.target);
  return names;
}

std::string layout_summary(const Selection& s) {
  if (s.layout_offenders.empty()) return "";
  const auto [fewest, most] = std::minmax_element(s.offender_families.begin(), s.offender_families.end());
  std::string files;
  for (size_t i = 0; i < s.layout_offenders.size() && i < 3; ++i) files += (i ? ", " : "") + s.layout_offenders[i];
  if (s.layout_offenders.size() > 3) files += ", ...";
  const std::string range = *fewest == *most ? std::to_string(*most) : fmt::format("{} to {}", *fewest, *most);
  return fmt::format("{} selected source{} register{} several benchmark families in one translation unit ({} per "
                     "file: {}): a delta between families of one file can be code layout; `cobench run "
                     "--layout-probe` measures this project's layout floor",
                     s.layout_offenders.size(), s.layout_offenders.size() == 1 ? "" : "s",
                     s.layout_offenders.size() == 1 ? "s" : "", range, files);
}

void enforce_strict_layout(const Selection& selection) {
  if (!selection.strict_layout || selection.layout_offenders.empty()) return;
  std::string files;
  for (const auto& f : selection.layout_offenders) files += (files.empty() ? "" : ", ") + f;
  throw InputError(fmt::format("strict_layout: refusing to measure sources that register several benchmark "
                               "families in one translation unit: {} (split them, one family per file)",
                               files));
}

}  // namespace cobench::select
