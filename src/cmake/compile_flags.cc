#include "cmake/compile_flags.h"

#include <fstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"

namespace cobench::cmake {

namespace {

/// The argument of `args` that sets cache variable `name` (-DNAME=... or
/// -DNAME:TYPE=...); nullptr when none does.
std::string* setting_of(std::vector<std::string>& args, const std::string& name) {
  const std::string prefix = "-D" + name;
  for (auto& arg : args) {
    if (!arg.starts_with(prefix)) continue;
    const auto rest = std::string_view(arg).substr(prefix.size());
    if (rest.starts_with("=") || (rest.starts_with(":") && rest.find('=') != std::string_view::npos)) return &arg;
  }
  return nullptr;
}

/// Adds `flags` to the cache variable `variable` in `args`: into the user's
/// -DVARIABLE=... or -DVARIABLE:TYPE=... when present (an _INIT value would be
/// ignored then), else into the -DVARIABLE_INIT=... an earlier call added (a
/// second one would replace it: layout-stable flags and the probe's pad
/// together), else as a new -DVARIABLE_INIT=....
void add_to(std::vector<std::string>& args, const std::string& variable, const std::vector<std::string>& flags) {
  if (flags.empty()) return;
  const std::string joined = fmt::format("{}", fmt::join(flags, " "));
  std::string* arg = setting_of(args, variable);
  if (!arg) arg = setting_of(args, variable + "_INIT");
  if (!arg) {
    args.push_back(fmt::format("-D{}_INIT={}", variable, joined));
    return;
  }
  *arg += (arg->back() == '=' ? "" : " ") + joined;
}

/// A file cobench wrote, as one word of a flags string (CMake splits the string
/// at spaces, so a path with spaces is quoted); refuses a path no flag can carry.
std::string path_in_flags(const std::filesystem::path& file) {
  const std::string path = file.string();
  if (path.find_first_of("\"$`\\") != std::string::npos)
    throw InputError(fmt::format("{}: the work folder's path holds a quote, $, ` or \\, which a compiler flag "
                                 "cannot carry; choose another --work-dir", path));
  const bool plain = path.find_first_of(" \t'") == std::string::npos;
  return plain ? path : "\"" + path + "\"";
}

/// Writes `text` to `file` (its folder created); `what` names it in the error.
void write_generated(const std::filesystem::path& file, const std::string& text, const char* what) {
  std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file);
  out << text;
  if (!out.flush()) throw InfraError(fmt::format("{}: cannot write {}", file.string(), what));
}

}  // namespace

std::vector<std::string> with_flags(std::vector<std::string> cmake_args, const CompileFlags& flags) {
  for (const char* language : {"C", "CXX"}) add_to(cmake_args, fmt::format("CMAKE_{}_FLAGS", language), flags.compile);
  for (const char* kind : {"EXE", "SHARED", "MODULE"})
    add_to(cmake_args, fmt::format("CMAKE_{}_LINKER_FLAGS", kind), flags.link);
  return cmake_args;
}

CompileFlags layout_stable_flags() {
  return {{"-ffunction-sections", "-falign-functions=64", "-falign-loops=32"}, {}};
}

CompileFlags layout_probe_flags(const std::filesystem::path& header, int pad_bytes) {
  // `used` keeps a static function nobody calls; static keeps one per unit
  // without clashing at link time. The assembler's .skip makes its size exact.
  write_generated(header,
                  fmt::format("// Written by cobench --layout-probe: an unused function that moves the code after it.\n"
                              "__attribute__((used, noinline)) static void cobench_layout_probe_pad(void) {{\n"
                              "  __asm__ volatile(\".skip {}\");\n"
                              "}}\n",
                              pad_bytes),
                  "the layout probe's header");
  return {{"-include", path_in_flags(header)}, {}};
}

CompileFlags layout_shift_flags(const std::filesystem::path& source, int shift_bytes) {
  // A section of its own marked retain ("R"): --gc-sections would drop an
  // unreferenced .text, and the move with it. No alignment directive: the pad
  // starts where the code before it ends, so the objects after it move by
  // exactly shift_bytes. The empty .note.GNU-stack keeps the stack non-executable.
  write_generated(source,
                  fmt::format("# Written by cobench: layout confirmation moves the code linked after this by {} bytes.\n"
                              "\t.section .text.cobench_layout_shift,\"axR\",@progbits\n"
                              "cobench_layout_shift:\n"
                              "\t.skip {}, 0xcc\n"
                              "\t.section .note.GNU-stack,\"\",@progbits\n",
                              shift_bytes, shift_bytes),
                  "the layout shift's assembly");
  return {{}, {path_in_flags(source)}};
}

}  // namespace cobench::cmake
