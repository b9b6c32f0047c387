#include "select/include_graph.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace cobench::select {

namespace fs = std::filesystem;

std::vector<std::string> Closure::chain_to(int i) const {
  std::vector<std::string> chain;
  for (; i >= 0; i = nodes[i].parent) chain.push_back(nodes[i].path);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

namespace {

std::string normal(const fs::path& p) {
  std::string s = p.lexically_normal().generic_string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::string parent_dir(const std::string& abs) {
  size_t slash = abs.rfind('/');
  return slash == std::string::npos ? std::string() : abs.substr(0, slash);
}

std::string written(const IncludeDirective& d) {
  if (d.macro) return d.spelling;
  return d.angled ? "<" + d.spelling + ">" : "\"" + d.spelling + "\"";
}

/// One stat per path per graph: headers are probed in every include directory.
template <class Test>
bool cached_stat(std::unordered_map<std::string, bool>& cache, const std::string& abs, Test test) {
  auto [it, inserted] = cache.try_emplace(abs, false);
  if (inserted) {
    std::error_code ec;
    it->second = test(abs, ec);
  }
  return it->second;
}

}  // namespace

IncludeGraph::IncludeGraph(const fs::path& root) {
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(fs::absolute(root), ec);
  root_ = normal(ec ? fs::absolute(root) : canonical);
}

std::string IncludeGraph::absolute(const fs::path& p) const {
  if (p.is_relative()) return normal(fs::path(root_) / p);
  // Paths under a symlinked spelling of the root (e.g. /tmp links) still count.
  std::string s = normal(p);
  if (in_tree(s)) return s;
  std::error_code ec;
  fs::path canonical = fs::weakly_canonical(p, ec);
  return ec ? s : normal(canonical);
}

bool IncludeGraph::in_tree(const std::string& abs) const {
  return abs.size() > root_.size() && abs.compare(0, root_.size(), root_) == 0 && abs[root_.size()] == '/';
}

std::string IncludeGraph::relative(const std::string& abs) const { return abs.substr(root_.size() + 1); }

std::string IncludeGraph::display(const fs::path& p) const {
  std::string abs = absolute(p);
  return in_tree(abs) ? relative(abs) : abs;
}

bool IncludeGraph::is_file(const std::string& abs) {
  return cached_stat(files_, abs, [](const fs::path& p, std::error_code& ec) { return fs::is_regular_file(p, ec); });
}

bool IncludeGraph::is_dir(const std::string& abs) {
  return cached_stat(dirs_, abs, [](const fs::path& p, std::error_code& ec) { return fs::is_directory(p, ec); });
}

const std::vector<IncludeDirective>& IncludeGraph::directives(const std::string& abs) {
  auto [it, inserted] = directives_.try_emplace(abs);
  if (inserted) {
    // An unreadable file simply includes nothing; it still counts as reached.
    std::ifstream in(abs, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    it->second = scan_includes(text.str());
  }
  return it->second;
}

int IncludeGraph::context_for(const std::vector<fs::path>& include_dirs) {
  std::vector<std::string> dirs;
  std::string key;
  for (const auto& d : include_dirs) {
    dirs.push_back(absolute(d));
    key += dirs.back();
    key += '\n';
  }
  auto [it, inserted] = context_ids_.try_emplace(key, static_cast<int>(contexts_.size()));
  if (inserted) contexts_.push_back(std::move(dirs));
  return it->second;
}

// A missing header counts as unresolved (rather than a system header) when its
// first folder exists next to the includer or in an in-tree include directory:
// <Eigen/Foo> with an Eigen/ folder in the tree is a broken include, <vector> is not.
bool IncludeGraph::looks_local(int context, const std::string& from_dir, const IncludeDirective& d) {
  size_t slash = d.spelling.find('/');
  if (slash == std::string::npos) return !d.angled;
  std::string first = d.spelling.substr(0, slash);
  if (!d.angled && is_dir(normal(fs::path(from_dir) / first))) return true;
  for (const auto& dir : contexts_[context])
    if ((dir == root_ || in_tree(dir)) && is_dir(normal(fs::path(dir) / first))) return true;
  return false;
}

IncludeGraph::Resolution IncludeGraph::resolve_uncached(int context, const std::string& from_dir,
                                                        const IncludeDirective& d) {
  if (d.macro) return {Kind::Unresolved, {}};
  std::vector<const std::string*> search;
  if (!d.angled) search.push_back(&from_dir);
  for (const auto& dir : contexts_[context]) search.push_back(&dir);
  for (const std::string* dir : search) {
    std::string candidate = normal(fs::path(*dir) / d.spelling);
    if (!is_file(candidate)) continue;
    if (in_tree(candidate)) return {Kind::InRepo, candidate};
    return {Kind::External, {}};
  }
  return {looks_local(context, from_dir, d) ? Kind::Unresolved : Kind::External, {}};
}

const IncludeGraph::Resolution& IncludeGraph::resolve(int context, const std::string& from_dir,
                                                      const IncludeDirective& d) {
  std::string key = std::to_string(context);
  key += d.angled ? '<' : '"';
  // Only quoted includes depend on the includer's folder.
  if (!d.angled) key += from_dir;
  key += '\n';
  key += d.spelling;
  auto it = resolutions_.find(key);
  if (it == resolutions_.end()) it = resolutions_.emplace(key, resolve_uncached(context, from_dir, d)).first;
  return it->second;
}

Closure IncludeGraph::closure(const std::vector<fs::path>& sources, const std::vector<fs::path>& include_dirs) {
  int context = context_for(include_dirs);
  Closure out;
  std::vector<std::string> abs_nodes;
  auto visit = [&](const std::string& abs, int parent) {
    std::string rel = relative(abs);
    if (out.index.count(rel)) return;
    out.index.emplace(rel, static_cast<int>(out.nodes.size()));
    out.nodes.push_back({rel, parent, parent < 0 ? 0 : out.nodes[parent].hops + 1});
    abs_nodes.push_back(abs);
  };
  for (const auto& source : sources) {
    std::string abs = absolute(source);
    if (in_tree(abs)) visit(abs, -1);
  }
  for (size_t i = 0; i < abs_nodes.size(); ++i) {
    std::string from = abs_nodes[i];  // copy: abs_nodes grows while we iterate
    std::string from_dir = parent_dir(from);
    for (const auto& d : directives(from)) {
      const Resolution& r = resolve(context, from_dir, d);
      if (r.kind == Kind::InRepo)
        visit(r.abs, static_cast<int>(i));
      else if (r.kind == Kind::Unresolved)
        out.unresolved.push_back({out.nodes[i].path, d.line, written(d)});
    }
  }
  return out;
}

}  // namespace cobench::select
