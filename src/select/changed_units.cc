#include "select/changed_units.h"

#include "select/include_graph.h"

namespace cobench::select {

std::set<std::string> changed_paths(const std::vector<git::ChangedFile>& changes, bool base_side) {
  std::set<std::string> out;
  for (const auto& change : changes) {
    switch (change.status) {
      case 'A':
      case 'C':  // a copy's source is unchanged on the base
        if (!base_side) out.insert(change.path);
        break;
      case 'D':
        if (base_side) out.insert(change.path);
        break;
      case 'R':
        out.insert(base_side ? change.old_path : change.path);
        break;
      default:  // M, T: the path exists on both sides
        out.insert(change.path);
    }
  }
  return out;
}

std::vector<UnitReach> units_reaching(const std::filesystem::path& tree,
                                      const std::vector<std::filesystem::path>& sources,
                                      const std::vector<std::filesystem::path>& include_dirs,
                                      const std::set<std::string>& changed) {
  IncludeGraph graph(tree);
  std::vector<UnitReach> out;
  for (const auto& source : sources) {
    // One closure per unit: its chain must start at its own source.
    const Closure closure = graph.closure({source}, include_dirs);
    UnitReach unit{graph.display(source), {}};
    for (const auto& node : closure.nodes)  // BFS order: the first changed node is the closest
      if (changed.count(node.path)) {
        unit.chain = closure.chain_to(closure.index.at(node.path));
        break;
      }
    out.push_back(std::move(unit));
  }
  return out;
}

}  // namespace cobench::select
