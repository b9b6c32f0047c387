#include "cmake/shared_parent.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cmake/cmake.h"
#include "cmake/file_api.h"
#include "cmake/logged_run.h"
#include "core/errors.h"
#include "core/sha256.h"

namespace cobench::cmake {

namespace fs = std::filesystem;
using file_api::Codemodel;
using nlohmann::json;

namespace {

/// A flag that defeats the construction, and why (the rest of "X, which ...").
struct Defeat {
  std::string_view flag;
  std::string_view why;
};

/// Does `word` carry `flag`? -Bsymbolic hides in -Wl,...,-Bsymbolic[-functions];
/// -flto has variants (-flto=auto); -fvisibility= counts unless it is default.
bool carries(std::string_view word, std::string_view flag) {
  if (flag == "-Bsymbolic") return word.find(flag) != std::string_view::npos;
  if (flag == "-fvisibility=") return word.starts_with(flag) && word != "-fvisibility=default";
  if (flag == "-flto") return word == flag || word.starts_with("-flto=");
  return word == flag;
}

constexpr Defeat kLto = {"-flto",
                         "moves code generation to the link, where units are inlined into each other across the "
                         "boundary between the executables and the parent library"};

/// Flags in how the library's units are compiled.
constexpr Defeat kCompileDefeats[] = {
    {"-fno-semantic-interposition",
     "lets the compiler bind the library's calls and data accesses to its own definitions, so the executables' "
     "definitions would not be the ones the parent library uses"},
    {"-fvisibility=",
     "keeps the library's symbols out of its dynamic symbol table, so the executables could not reach the parent "
     "library's functions nor it theirs"},
    kLto,
};

/// Flags in how an executable (or the shared library itself) is linked.
constexpr Defeat kLinkDefeats[] = {
    {"-Bsymbolic",
     "binds a shared library's references to its own definitions at link time, so the executables' definitions "
     "would not be the ones the parent library uses"},
    kLto,
};

/// Throws InputError when one of `words` carries a defeating flag; `what`
/// says how they are used ("'routines' is compiled").
template <size_t N>
void refuse_defeats(const std::vector<std::string>& words, const Defeat (&defeats)[N], const std::string& what) {
  for (const auto& word : words)
    for (const Defeat& defeat : defeats)
      if (carries(word, defeat.flag))
        throw InputError(
            fmt::format("{} with {}, which {}; the shared parent construction needs symbol "
                        "interposition (docs/run.md: \"The shared parent library\")",
                        what, word, defeat.why));
}

/// Every word of a list of File API command fragments, optionally only those of one role.
std::vector<std::string> fragment_words(const json& fragments, std::string_view role = {}) {
  std::vector<std::string> words;
  for (const auto& fragment : fragments) {
    if (!role.empty() && fragment.value("role", "") != role) continue;
    for (auto& word : file_api::command_words(fragment.at("fragment").get<std::string>()))
      words.push_back(std::move(word));
  }
  return words;
}

/// `text` with the build's own folders written as <build> and <source>.
std::string portable(std::string text, const Codemodel& model) {
  // The build folder first: it may lie inside the source folder.
  for (const auto& [root, name] :
       {std::pair{model.build_root.string(), "<build>"}, std::pair{model.source_root.string(), "<source>"}}) {
    for (size_t at = text.find(root); !root.empty() && at != std::string::npos; at = text.find(root, at))
      text.replace(at, root.size(), name);
  }
  return text;
}

/// How a compile group compiles its sources, comparable across the two sides.
std::string compile_signature(const json& group, const Codemodel& model) {
  std::string out = group.value("language", "");
  for (const auto& word : fragment_words(group.value("compileCommandFragments", json::array()))) out += " " + word;
  for (const auto& define : group.value("defines", json::array()))
    out += " -D" + define.at("define").get<std::string>();
  for (const auto& include : group.value("includes", json::array()))
    out += " -I" + include.at("path").get<std::string>();
  if (group.contains("languageStandard"))
    out += " std=" + group.at("languageStandard").at("standard").get<std::string>();
  if (group.contains("sysroot")) out += " --sysroot=" + group.at("sysroot").at("path").get<std::string>();
  return portable(out, model);
}

/// One configured side: its codemodel, generator and compilers.
class Build {
 public:
  explicit Build(fs::path build_dir)
      : dir_(std::move(build_dir)),
        model_(file_api::read_codemodel(dir_)),
        generator_(file_api::cache_value(dir_, "CMAKE_GENERATOR")) {}

  const Codemodel& model() const { return model_; }

  /// The reply of target `name`; InputError when the project has none, naming the libraries it has.
  json target(const std::string& name) const {
    auto target = file_api::read_target(dir_, model_, name);
    if (!target) {
      const auto libraries = library_names();
      throw InputError(fmt::format("no CMake target named '{}' (the project's static and shared libraries: {})", name,
                                   libraries.empty() ? "none" : fmt::format("{}", fmt::join(libraries, ", "))));
    }
    return *target;
  }

  std::vector<std::string> library_names() const {
    std::vector<std::string> out;
    for (const auto& entry : model_.configuration.at("targets")) {
      const std::string name = entry.at("name").get<std::string>();
      const auto target = file_api::read_target(dir_, model_, name);
      if (target && (target->at("type") == "STATIC_LIBRARY" || target->at("type") == "SHARED_LIBRARY"))
        out.push_back(name);
    }
    return out;
  }

  /// Where the generator runs a target's link: relative fragments start there.
  fs::path link_dir(const json& target) const {
    if (generator_.find("Makefiles") == std::string::npos) return model_.build_root;
    return file_api::absolute_from(model_.build_root, target.at("paths").at("build").get<std::string>());
  }

  /// The compiler of `language`, from the toolchains reply.
  std::string compiler(const std::string& language) const {
    const fs::path path = cmake::compiler(dir_, language).path;
    if (path.empty())
      throw InfraError(fmt::format("{}: no {} compiler in the CMake File API reply", file_api::reply_dir(dir_).string(),
                                   language));
    return path.string();
  }

  /// The absolute paths of a target's compiled sources, in the reply's order.
  std::vector<fs::path> compiled_sources(const json& target) const {
    std::vector<fs::path> out;
    for (const auto& source : target.value("sources", json::array()))
      if (source.contains("compileGroupIndex"))  // not headers and other listed files
        out.push_back(file_api::absolute_from(model_.source_root, source.at("path").get<std::string>()));
    return out;
  }

  /// The absolute paths of a target's artifacts (a shared library lists its links too).
  std::vector<fs::path> artifacts(const json& target) const {
    std::vector<fs::path> out;
    for (const auto& artifact : target.value("artifacts", json::array()))
      out.push_back(file_api::absolute_from(model_.build_root, artifact.at("path").get<std::string>()));
    return out;
  }

  /// The object files of `sources` of `target`, from its object folder
  /// (<build>/<dir>/CMakeFiles/<name>.dir, where the Makefile and Ninja
  /// generators put them): each source's object is the one whose path ends
  /// in the most of the source's own path components.
  std::vector<fs::path> objects(const json& target, const std::vector<fs::path>& sources) const {
    const fs::path folder =
        file_api::absolute_from(model_.build_root, target.at("paths").at("build").get<std::string>()) / "CMakeFiles" /
        (target.at("name").get<std::string>() + ".dir");
    std::vector<fs::path> candidates;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec))
      if (it->is_regular_file() && (it->path().extension() == ".o" || it->path().extension() == ".obj"))
        candidates.push_back(it->path());
    std::vector<fs::path> out;
    for (const auto& source : sources) out.push_back(object_of(source, folder, candidates));
    return out;
  }

 private:
  static fs::path object_of(const fs::path& source, const fs::path& folder, const std::vector<fs::path>& candidates) {
    int best = 0;
    std::vector<fs::path> found;
    for (const auto& candidate : candidates) {
      const int score = matching_components(source, candidate.lexically_relative(folder));
      if (score > best) found.clear();
      if (score >= best && score > 0) {
        best = score;
        found.push_back(candidate);
      }
    }
    if (found.size() == 1) return found.front();
    if (found.empty())
      throw InfraError(
          fmt::format("no object file of {} under {} (the shared parent needs the Ninja or Makefile "
                      "generator's object folders)",
                      source.string(), folder.string()));
    std::string names;
    for (const auto& path : found) names += (names.empty() ? "" : ", ") + path.string();
    throw InfraError(fmt::format("several object files could be {}'s: {}", source.string(), names));
  }

  /// Trailing path components `source` and an object's relative path share;
  /// the object's last one is the source's file name plus .o/.obj, or its
  /// stem plus .o/.obj where the generator replaces the extension.
  static int matching_components(const fs::path& source, const fs::path& object) {
    std::vector<std::string> a(source.begin(), source.end()), b(object.begin(), object.end());
    if (a.empty() || b.empty()) return 0;
    const std::string name = fs::path(b.back()).stem().string();
    if (name != a.back() && name != fs::path(a.back()).stem().string()) return 0;
    int score = 1;
    for (size_t i = 2; i <= std::min(a.size(), b.size()) && a[a.size() - i] == b[b.size() - i]; ++i) ++score;
    return score;
  }

  fs::path dir_;
  Codemodel model_;
  std::string generator_;
};

/// One executable's link on one side, with the library's place in it.
struct Link {
  std::vector<std::string> before;  ///< compiler, sysroot, flags
  std::vector<fs::path> objects;    ///< the executable's own
  fs::path output;
  std::vector<std::string> libraries;  ///< library paths and libraries, without the library
  size_t library_at = 0;               ///< where in `libraries` the library was first named
  fs::path cwd;                        ///< where the generator links, which relative fragments start from
};

/// The executable's link with the library's artifact marked, or nullopt when it does not link the library.
std::optional<Link> plan_link(const Build& build, const std::string& executable,
                              const std::vector<fs::path>& library_files) {
  const json target = build.target(executable);
  const json link = target.value("link", json::object());
  const json fragments = link.value("commandFragments", json::array());
  Link out;
  out.cwd = build.link_dir(target);
  bool links_library = false;
  for (const char* role : {"libraryPath", "libraries"}) {
    for (auto& word : fragment_words(fragments, role)) {
      const fs::path resolved = file_api::absolute_from(out.cwd, word);
      if (std::find(library_files.begin(), library_files.end(), resolved) == library_files.end()) {
        out.libraries.push_back(std::move(word));
      } else if (!links_library) {  // a static library may be named again for cycles; the parent once is enough
        out.library_at = out.libraries.size();
        links_library = true;
      }
    }
  }
  if (!links_library) return std::nullopt;
  refuse_defeats(fragment_words(fragments), kLinkDefeats, fmt::format("'{}' is linked", executable));
  out.before.push_back(build.compiler(link.value("language", "CXX")));
  if (link.contains("sysroot")) out.before.push_back("--sysroot=" + link.at("sysroot").at("path").get<std::string>());
  for (auto& word : fragment_words(fragments, "flags")) out.before.push_back(std::move(word));
  out.objects = build.objects(target, build.compiled_sources(target));
  for (const auto& source : target.value("sources", json::array())) {
    // Objects listed as sources: another target's ($<TARGET_OBJECTS:...>) or prebuilt ones.
    const fs::path path = file_api::absolute_from(build.model().source_root, source.at("path").get<std::string>());
    if (!source.contains("compileGroupIndex") && (path.extension() == ".o" || path.extension() == ".obj"))
      out.objects.push_back(path);
  }
  const auto artifacts = build.artifacts(target);
  if (artifacts.empty())
    throw InfraError(fmt::format("{}: '{}' has no artifact", build.model().file.string(), executable));
  out.output = artifacts.front();
  return out;
}

/// Runs a link in `cwd`; InfraError naming what was linked, the command, its status and output tail.
void run_link(const std::vector<std::string>& argv, const fs::path& cwd, const fs::path& log_path,
              const std::string& what) {
  auto result = detail::run_logged(argv, log_path, cwd);
  if (!result.ok())
    throw InfraError(fmt::format("shared parent: linking {} failed ({}): {}\n{}", what, process::describe(result),
                                 process::quote_command_line(argv), detail::indented_tail(result.out, 30)));
}

/// The file `executable` loads for `soname`, as ldd resolves it under `environment`.
fs::path resolved_by_loader(const fs::path& executable, const std::string& soname, const ParentRequest& request) {
  const std::vector<std::string> argv = {"ldd", executable.string()};
  auto result = detail::run_logged(argv, request.log_path, {}, request.environment);
  if (!result.ok())
    throw InfraError(fmt::format("shared parent: ldd failed ({}): {}\n{}", process::describe(result),
                                 process::quote_command_line(argv), detail::indented_tail(result.out, 10)));
  // "\tlibroutines.so => /job/parent/libroutines.so (0x00007f...)"
  const std::string key = soname + " => ";
  for (size_t at = result.out.find(key); at != std::string::npos; at = result.out.find(key, at + 1)) {
    if (at > 0 && result.out[at - 1] != '\t' && result.out[at - 1] != ' ') continue;
    const size_t start = at + key.size();
    const size_t end = result.out.find(" (", start);
    const std::string path = result.out.substr(start, std::min(end, result.out.find('\n', start)) - start);
    if (path == "not found") break;
    return fs::weakly_canonical(path);
  }
  throw InfraError(fmt::format("shared parent: {} does not find {} (ldd: {})", executable.string(), soname,
                               process::tail_lines(result.out, 10)));
}

}  // namespace

LibraryTarget read_library(const fs::path& build_dir, const std::string& name) {
  const Build build(build_dir);
  const json target = build.target(name);
  try {
    const std::string type = target.at("type").get<std::string>();
    if (type != "STATIC_LIBRARY" && type != "SHARED_LIBRARY")
      throw InputError(fmt::format("'{}' is not a static or shared library (its type is {})", name, type));
    const std::string what = fmt::format("'{}' is compiled", name);
    LibraryTarget out;
    out.name = name;
    const json& groups = target.value("compileGroups", json::array());
    for (const auto& group : groups) {
      const auto words = fragment_words(group.value("compileCommandFragments", json::array()));
      refuse_defeats(words, kCompileDefeats, what);
      const std::string language = group.value("language", "");
      if ((language == "C" || language == "CXX") &&
          std::none_of(words.begin(), words.end(), [](const std::string& w) { return w == "-fPIC" || w == "-fpic"; }))
        throw InputError(
            fmt::format("{} without -fPIC, which the objects of a shared library need (cobench "
                        "configures both sides with -DCMAKE_POSITION_INDEPENDENT_CODE=ON; does the "
                        "project turn POSITION_INDEPENDENT_CODE off?)",
                        what));
      for (const auto& include : group.value("includes", json::array())) {
        fs::path dir = file_api::absolute_from(build.model().source_root, include.at("path").get<std::string>());
        if (std::find(out.include_dirs.begin(), out.include_dirs.end(), dir) == out.include_dirs.end())
          out.include_dirs.push_back(std::move(dir));
      }
    }
    for (const auto& source : target.value("sources", json::array())) {
      if (!source.contains("compileGroupIndex")) continue;  // headers and other listed files
      const json& group = groups.at(source.at("compileGroupIndex").get<size_t>());
      out.units.push_back({file_api::absolute_from(build.model().source_root, source.at("path").get<std::string>()),
                           compile_signature(group, build.model())});
    }
    if (out.units.empty()) throw InputError(fmt::format("'{}' compiles no sources", name));
    return out;
  } catch (const json::exception& e) {
    throw InfraError(
        fmt::format("{}: unexpected CMake File API content for '{}': {}", build.model().file.string(), name, e.what()));
  }
}

SharedParent build_shared_parent(const ParentRequest& request) {
  const Build base(request.base.build_dir), head(request.head.build_dir);
  try {
    /// One side as the relinks need it.
    struct Side {
      const Build& build;
      const ParentSide& request;
      json library;
      const char* name;
    };
    const Side sides[] = {{base, request.base, base.target(request.library), "base"},
                          {head, request.head, head.target(request.library), "head"}};
    // Plan every link first: a refusal must come before anything is relinked.
    std::map<std::string, std::array<Link, 2>> links;
    for (const auto& executable : request.executables) {
      auto on_base = plan_link(base, executable, base.artifacts(sides[0].library));
      auto on_head = plan_link(head, executable, head.artifacts(sides[1].library));
      if (on_base.has_value() != on_head.has_value())
        throw InputError(
            fmt::format("'{}' links '{}' on the {} side only", executable, request.library, on_base ? "base" : "head"));
      if (on_base) links.emplace(executable, std::array{std::move(*on_base), std::move(*on_head)});
    }
    SharedParent out;
    if (links.empty()) return out;

    // The parent: the base build's objects of every unit no side recompiles.
    std::vector<fs::path> unchanged;
    for (auto& source : base.compiled_sources(sides[0].library))
      if (std::find(request.base.changed_sources.begin(), request.base.changed_sources.end(), source) ==
          request.base.changed_sources.end())
        unchanged.push_back(std::move(source));
    if (unchanged.empty())
      throw InputError(fmt::format("every unit of '{}' changes, so there is nothing to share", request.library));
    const std::string soname = "lib" + request.library + ".so";
    out.library = request.parent_dir / soname;
    fs::create_directories(request.parent_dir);
    std::string language = "C";
    for (const auto& group : sides[0].library.value("compileGroups", json::array()))
      if (group.value("language", "") == "CXX") language = "CXX";
    std::vector<std::string> argv = {base.compiler(language), "-shared", "-o", out.library.string(),
                                     "-Wl,-soname," + soname};
    if (sides[0].library.at("type") == "SHARED_LIBRARY")  // its own link flags; a static library has none
      for (auto& word : fragment_words(
               sides[0].library.value("link", json::object()).value("commandFragments", json::array()), "flags"))
        argv.push_back(std::move(word));
    for (const auto& object : base.objects(sides[0].library, unchanged)) argv.push_back(object.string());
    run_link(argv, base.model().build_root, request.log_path, "the parent library " + out.library.string());

    // Each executable: its own objects, the side's changed units, then the parent where the library was.
    for (size_t s = 0; s < 2; ++s) {
      const Side& side = sides[s];
      const auto changed_objects = side.build.objects(side.library, side.request.changed_sources);
      for (const auto& [executable, both] : links) {
        const Link& link = both[s];
        std::vector<std::string> relink = link.before;
        // First in the RPATH, before any folder of CMake's own that may hold a library of the same name.
        relink.push_back("-Wl,-rpath," + request.parent_dir.string());
        for (const auto& object : link.objects) relink.push_back(object.string());
        for (const auto& object : changed_objects) relink.push_back(object.string());
        relink.insert(relink.end(), {"-o", link.output.string()});
        for (size_t i = 0; i <= link.libraries.size(); ++i) {
          if (i == link.library_at) relink.push_back(out.library.string());
          if (i < link.libraries.size()) relink.push_back(link.libraries[i]);
        }
        // DT_RPATH, not DT_RUNPATH: LD_LIBRARY_PATH may not put another library first.
        relink.push_back("-Wl,--disable-new-dtags");
        run_link(relink, link.cwd, request.log_path, fmt::format("'{}' ({})", executable, side.name));
      }
    }

    // Both sides must load the very same file.
    const fs::path expected = fs::weakly_canonical(out.library);
    for (const auto& [executable, both] : links) {
      for (const Link& link : both)
        if (const fs::path found = resolved_by_loader(link.output, soname, request); found != expected)
          throw InfraError(fmt::format("shared parent: {} loads {}, not the parent library {}", link.output.string(),
                                       found.string(), expected.string()));
      out.relinked.push_back(executable);
    }
    out.sha256 = sha256_file(out.library);
    return out;
  } catch (const json::exception& e) {
    throw InfraError(fmt::format("shared parent: unexpected CMake File API content: {}", e.what()));
  }
}

}  // namespace cobench::cmake
