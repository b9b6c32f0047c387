// Flags cobench adds to a project's build: where they land among the user's
// CMake arguments, and the probe's forced-include header.
#include <gtest/gtest.h>

#include "cmake/compile_flags.h"
#include "core/errors.h"
#include "support/testing.h"

namespace cobench::cmake {
namespace {

using Args = std::vector<std::string>;

TEST(CompileFlags, WithoutTheUsersOwnFlagsTheyGoIntoTheInitVariables) {
  const Args args = with_flags({"-DFOO=1"}, {{"-a", "-b"}, {"-Wl,-x"}});
  EXPECT_EQ(args, (Args{"-DFOO=1", "-DCMAKE_C_FLAGS_INIT=-a -b", "-DCMAKE_CXX_FLAGS_INIT=-a -b",
                        "-DCMAKE_EXE_LINKER_FLAGS_INIT=-Wl,-x", "-DCMAKE_SHARED_LINKER_FLAGS_INIT=-Wl,-x",
                        "-DCMAKE_MODULE_LINKER_FLAGS_INIT=-Wl,-x"}));
}

TEST(CompileFlags, TheUsersOwnFlagsAreExtendedNotReplaced) {
  // An _INIT value is ignored once the user sets the variable itself.
  const Args args = with_flags({"-DCMAKE_CXX_FLAGS=-O1 -g", "-DCMAKE_C_FLAGS:STRING=", "-DCMAKE_CXX_FLAGS_RELEASE=-O3"},
                               {{"-a"}, {}});
  EXPECT_EQ(args, (Args{"-DCMAKE_CXX_FLAGS=-O1 -g -a", "-DCMAKE_C_FLAGS:STRING=-a", "-DCMAKE_CXX_FLAGS_RELEASE=-O3"}));
}

// `--layout-probe --layout-stable` without the user's own CMAKE_CXX_FLAGS: the
// probe's pad used to come as a second -DCMAKE_CXX_FLAGS_INIT, which replaced
// the first, so the probed side was built without the layout-stable flags (on
// Eigen: BM_VecAdd read 2x, all of it the missing alignment).
TEST(CompileFlags, FlagsAddedTwiceJoinInOneInitVariable) {
  const Args args = with_flags(with_flags({"-DFOO=1"}, {{"-a"}, {}}), {{"-include", "p.h"}, {}});
  EXPECT_EQ(args, (Args{"-DFOO=1", "-DCMAKE_C_FLAGS_INIT=-a -include p.h", "-DCMAKE_CXX_FLAGS_INIT=-a -include p.h"}));
  // A user's own _INIT value is extended the same way.
  EXPECT_EQ(with_flags({"-DCMAKE_CXX_FLAGS_INIT:STRING=-O1"}, {{"-a"}, {}}),
            (Args{"-DCMAKE_CXX_FLAGS_INIT:STRING=-O1 -a", "-DCMAKE_C_FLAGS_INIT=-a"}));
}

TEST(CompileFlags, NothingToAddLeavesTheArgumentsAlone) {
  EXPECT_EQ(with_flags({"-DX=1"}, {}), (Args{"-DX=1"}));
  EXPECT_TRUE(CompileFlags{}.empty());
}

TEST(CompileFlags, LayoutStableAlignsEveryFunctionInItsOwnSection) {
  const auto flags = layout_stable_flags();
  EXPECT_EQ(flags.compile, (Args{"-ffunction-sections", "-falign-functions=64", "-falign-loops=32"}));
}

TEST(CompileFlags, TheProbeWritesAnUnusedFunctionOfTheGivenSizeAndIncludesIt) {
  cobench::testing::TempDir dir;
  const auto header = dir / "probe/pad.h";
  const auto flags = layout_probe_flags(header, 96);
  EXPECT_EQ(flags.compile, (Args{"-include", header.string()}));
  const std::string text = cobench::testing::read_text(header);
  EXPECT_NE(text.find(".skip 96"), std::string::npos) << text;
  EXPECT_NE(text.find("static void cobench_layout_probe_pad"), std::string::npos) << text;
  // It compiles as C and as C++, twice in one program without a clash.
  cobench::testing::write_file(dir / "a.c", "int a(void) { return 1; }\n");
  cobench::testing::write_file(dir / "b.cc", "extern \"C\" int a(void);\nint main() { return a() - 1; }\n");
  cobench::testing::run_checked({"cc", "-c", "-include", header.string(), (dir / "a.c").string(), "-o",
                                 (dir / "a.o").string()});
  cobench::testing::run_checked({"c++", "-include", header.string(), (dir / "b.cc").string(), (dir / "a.o").string(),
                                 "-o", (dir / "prog").string()});
  cobench::testing::run_checked({(dir / "prog").string()});
}

TEST(CompileFlags, APathWithSpacesIsQuotedAndOneWithAQuoteRefused) {
  cobench::testing::TempDir dir;
  EXPECT_EQ(layout_probe_flags(dir / "with space/pad.h").compile.back(), "\"" + (dir / "with space/pad.h").string() + "\"");
  EXPECT_THROW(layout_probe_flags(dir / "with\"quote/pad.h"), InputError);
}

/// The address of `symbol` in the executable `program` (nm), 0 when absent.
unsigned long address_of(const std::filesystem::path& program, const std::string& symbol) {
  const std::string symbols = cobench::testing::run_checked({"nm", program.string()}).out;
  for (size_t at = symbols.find(" " + symbol + "\n"); at != std::string::npos;) {
    const size_t start = symbols.rfind('\n', at) + 1;
    return std::stoul(symbols.substr(start, symbols.find(' ', start) - start), nullptr, 16);
  }
  return 0;
}

TEST(CompileFlags, TheLayoutShiftMovesEveryFunctionLinkedAfterItByExactlyItsSize) {
  cobench::testing::TempDir dir;
  const auto source = dir / "layout-2/shift.s";
  const auto flags = layout_shift_flags(source, 48);
  EXPECT_TRUE(flags.compile.empty()) << "a link flag only: every object compiles as in the first layout";
  EXPECT_EQ(flags.link, (Args{source.string()}));
  const std::string text = cobench::testing::read_text(source);
  EXPECT_NE(text.find(".skip 48"), std::string::npos) << text;
  // The same object linked without and with the shift, as the driver does for CMake's link line
  // (its flags before the objects), also under --gc-sections, which would drop an unreferenced pad.
  cobench::testing::write_file(dir / "main.cc", "__attribute__((noinline)) int work(int x) { return x * 3; }\n"
                                                "int main(int argc, char**) { return work(argc) == 3 ? 0 : 1; }\n");
  cobench::testing::run_checked({"c++", "-O2", "-c", (dir / "main.cc").string(), "-o", (dir / "main.o").string()});
  cobench::testing::run_checked({"c++", (dir / "main.o").string(), "-o", (dir / "first").string()});
  for (const char* extra : {"-Wl,--as-needed", "-Wl,--gc-sections"}) {
    cobench::testing::run_checked(
        {"c++", extra, flags.link.front(), (dir / "main.o").string(), "-o", (dir / "moved").string()});
    cobench::testing::run_checked({(dir / "moved").string()});
    // (main itself is in .text.startup, which the linker places before all .text: it stays.)
    EXPECT_EQ(address_of(dir / "moved", "_Z4worki") - address_of(dir / "first", "_Z4worki"), 48u) << extra;
  }
}

}  // namespace
}  // namespace cobench::cmake
