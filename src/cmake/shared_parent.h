#pragma once
// The shared parent library ([build] shared_parent, issue 12): for benchmarks
// that link a compiled library, the library's translation units the diff
// leaves alone are linked once, from the base build, into one shared library,
// and each side's benchmark executables are relinked with that side's changed
// units plus that one library. Code nobody changed then lies at the same
// addresses on both sides, where two separate static links move it.
#include <filesystem>
#include <string>
#include <vector>

namespace cobench::cmake {

/// One compiled source of a library target.
struct LibraryUnit {
  std::filesystem::path source;  ///< absolute
  /// How it is compiled (language, flags, defines, include folders, standard,
  /// sysroot), with the build's own source and build folders written as
  /// <source> and <build>, so the two sides compare equal when they compile it alike.
  std::string compile;
};

/// A library target of one configured build, as the construction needs it.
struct LibraryTarget {
  std::string name;
  std::vector<LibraryUnit> units;                   ///< in the reply's order
  std::vector<std::filesystem::path> include_dirs;  ///< of every compile group, absolute, in command-line order
};

/// Reads the library `name` from the File API reply of `build_dir`. Throws
/// InputError when there is no such target, when it is not a static or shared
/// library, or when it is compiled in a way that defeats the construction
/// (not position-independent, -fno-semantic-interposition, non-default
/// visibility, LTO), saying why.
LibraryTarget read_library(const std::filesystem::path& build_dir, const std::string& name);

/// One side of the construction.
struct ParentSide {
  std::filesystem::path build_dir;                     ///< configured and built
  std::vector<std::filesystem::path> changed_sources;  ///< the library's units this side's executables get
};

/// What to link and relink.
struct ParentRequest {
  std::string library;                   ///< the library target
  std::vector<std::string> executables;  ///< benchmark targets; those that do not link the library are left as built
  ParentSide base;                       ///< the parent library holds its units minus its changed ones
  ParentSide head;
  std::filesystem::path parent_dir;      ///< lib<library>.so goes here
  std::filesystem::path log_path;        ///< every command of the construction and its output
  std::vector<std::string> environment;  ///< the benchmarks' ("KEY=VALUE"): the library must resolve under it
};

/// What was built.
struct SharedParent {
  std::filesystem::path library;      ///< <parent_dir>/lib<library>.so; empty when nothing links the library
  std::string sha256;                 ///< of that file, which every relinked executable resolves
  std::vector<std::string> relinked;  ///< executables relinked on both sides, by name
};

/// Links the parent library from the base build's objects of the units not in
/// base.changed_sources; relinks every executable that links the library, on
/// each side, from its File API link fragments with the library replaced by
/// the side's changed objects plus the parent library (found through an RPATH
/// to parent_dir, which LD_LIBRARY_PATH cannot override); then checks with
/// ldd that each relinked executable resolves that one file. Throws InputError
/// when an executable's link defeats the construction (-Bsymbolic, LTO) or
/// links the library on one side only; InfraError naming the command, its
/// status and its output tail when a link fails, or naming the file an
/// executable resolves instead.
SharedParent build_shared_parent(const ParentRequest& request);

}  // namespace cobench::cmake
