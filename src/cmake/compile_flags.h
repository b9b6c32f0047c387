#pragma once
// Compiler and linker flags cobench adds to a project's own, for both sides
// alike (layout-stable builds) or for one side only (the layout probe's
// perturbation). They reach CMake as cache arguments, so the project's
// CMakeLists.txt needs nothing.
#include <filesystem>
#include <string>
#include <vector>

namespace cobench::cmake {

/// Flags for C and C++ compilation and for linking executables and shared libraries.
struct CompileFlags {
  std::vector<std::string> compile;
  std::vector<std::string> link;
  bool empty() const { return compile.empty() && link.empty(); }
};

/// `cmake_args` with `flags` added: appended to the user's own
/// -DCMAKE_<LANG>_FLAGS=... (or _LINKER_FLAGS) when given, else as
/// -DCMAKE_<LANG>_FLAGS_INIT=..., which CMake combines with $CFLAGS/$CXXFLAGS.
std::vector<std::string> with_flags(std::vector<std::string> cmake_args, const CompileFlags& flags);

/// Layout-stable builds: every function in its own section, starting on a
/// 64-byte boundary (loops on 32), so a function the change leaves alone keeps
/// its alignment (cache lines, the decoder's 32-byte windows) when functions
/// before it change size.
CompileFlags layout_stable_flags();

/// The layout probe's perturbation, one side only: every C/C++ translation
/// unit starts with an unused function of `pad_bytes` bytes (a forced-include
/// header written to `header`), which moves all code after it.
CompileFlags layout_probe_flags(const std::filesystem::path& header, int pad_bytes = 160);

/// Layout confirmation's move, both sides alike: `shift_bytes` of unused code
/// in an assembly file written to `source`, which the compiler driver
/// assembles and links ahead of the project's objects into every executable
/// and shared library, so all the project's code after it moves by that much
/// (a multiple of 16 moves it exactly: GCC aligns functions to 16). A link
/// flag only: every object compiles as in the first layout, so the compile
/// cache serves them all and only the links run again.
CompileFlags layout_shift_flags(const std::filesystem::path& source, int shift_bytes);

}  // namespace cobench::cmake
