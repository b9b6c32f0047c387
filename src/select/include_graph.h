#pragma once
// The include graph over one source tree, resolved the way a compiler with a
// target's include directories would, and include closures over it with one
// shortest include chain per reached file.
#include <filesystem>
#include <string>
#include <unordered_map>
#include <vector>

#include "select/include_scanner.h"

namespace cobench::select {

/// An include that could not be followed: a macro include or a missing file.
struct UnresolvedInclude {
  std::string file;     ///< repo-relative path of the including file
  int line = 0;
  std::string include;  ///< as written, with its delimiters: "x.h", <x/y.h>, MACRO
};

/// A file reached from a target's sources, with how it was first reached.
struct ClosureNode {
  std::string path;  ///< repo-relative
  int parent = -1;   ///< index of the includer in Closure::nodes; -1 for a source
  int hops = 0;      ///< include edges from the nearest source
};

/// Every repo file a set of sources includes, transitively, in BFS order.
struct Closure {
  std::vector<ClosureNode> nodes;
  std::unordered_map<std::string, int> index;  ///< repo-relative path -> node
  std::vector<UnresolvedInclude> unresolved;

  /// Paths from a source down to node `i`: one shortest include chain.
  std::vector<std::string> chain_to(int i) const;
};

/// Scans files lazily and caches directives and resolutions, so that many
/// targets sharing include directories cost one pass over the tree.
class IncludeGraph {
 public:
  /// `root`: the tree whose files count; includes resolving outside it are leaves.
  explicit IncludeGraph(const std::filesystem::path& root);

  /// The closure of `sources` (absolute, or relative to the root) with the
  /// target's include directories, in command-line order.
  Closure closure(const std::vector<std::filesystem::path>& sources,
                  const std::vector<std::filesystem::path>& include_dirs);

  /// The canonical root every repo-relative path is relative to.
  const std::string& root() const { return root_; }

  /// `p` relative to the root when inside the tree, else absolute.
  std::string display(const std::filesystem::path& p) const;

  /// Number of distinct files read so far (for the perf benchmark).
  size_t files_scanned() const { return directives_.size(); }

 private:
  enum class Kind { InRepo, External, Unresolved };
  struct Resolution {
    Kind kind;
    std::string abs;  ///< for InRepo
  };

  const std::vector<IncludeDirective>& directives(const std::string& abs);
  const Resolution& resolve(int context, const std::string& from_dir, const IncludeDirective& d);
  Resolution resolve_uncached(int context, const std::string& from_dir, const IncludeDirective& d);
  bool looks_local(int context, const std::string& from_dir, const IncludeDirective& d);
  int context_for(const std::vector<std::filesystem::path>& include_dirs);
  bool is_file(const std::string& abs);
  bool is_dir(const std::string& abs);
  bool in_tree(const std::string& abs) const;
  std::string relative(const std::string& abs) const;
  std::string absolute(const std::filesystem::path& p) const;

  std::string root_;
  std::vector<std::vector<std::string>> contexts_;
  std::unordered_map<std::string, int> context_ids_;
  std::unordered_map<std::string, std::vector<IncludeDirective>> directives_;
  std::unordered_map<std::string, Resolution> resolutions_;
  std::unordered_map<std::string, bool> files_;
  std::unordered_map<std::string, bool> dirs_;
};

}  // namespace cobench::select
