#include "select/include_graph.h"

#include <gtest/gtest.h>

#include "fixtures.h"
#include "support/testing.h"

namespace cobench::select {
namespace {

using cobench::testing::TempDir;
using cobench::testing::write_file;

std::vector<std::string> paths(const Closure& c) {
  std::vector<std::string> out;
  for (const auto& n : c.nodes) out.push_back(n.path);
  return out;
}

TEST(IncludeGraph, QuotedFirstRelativeThenIncludeDirsInOrder) {
  TempDir dir;
  write_file(dir / "bench/b.cc", "#include \"local.h\"\n#include <lib.h>\n");
  write_file(dir / "bench/local.h", "");
  write_file(dir / "inc1/local.h", "");  // shadowed by the includer's folder
  write_file(dir / "inc1/lib.h", "");
  write_file(dir / "inc2/lib.h", "");    // shadowed by inc1
  IncludeGraph g(dir.path());
  Closure c = g.closure({dir / "bench/b.cc"}, {dir / "inc1", dir / "inc2"});
  EXPECT_EQ(paths(c), (std::vector<std::string>{"bench/b.cc", "bench/local.h", "inc1/lib.h"}));
  Closure swapped = g.closure({dir / "bench/b.cc"}, {dir / "inc2", dir / "inc1"});
  EXPECT_EQ(paths(swapped)[2], "inc2/lib.h");
}

TEST(IncludeGraph, AngledIgnoresTheIncludersFolder) {
  TempDir dir;
  write_file(dir / "src/a.cc", "#include <b.h>\n");
  write_file(dir / "src/b.h", "");
  IncludeGraph g(dir.path());
  EXPECT_EQ(g.closure({dir / "src/a.cc"}, {}).nodes.size(), 1u);
}

TEST(IncludeGraph, ExtensionlessHeadersAndParentIncludeDir) {
  // Eigen's layout: benchmarks/ is the project, its targets include "..".
  TempDir dir;
  write_file(dir / "benchmarks/Core/bench_gemm.cpp", "#include <Eigen/Core>\n#include <benchmark/benchmark.h>\n");
  write_file(dir / "Eigen/Core", "#include \"src/Core/Matrix.h\"\n#include <vector>\n");
  write_file(dir / "Eigen/src/Core/Matrix.h", "#include \"../plugins/Block.h\"\n");
  write_file(dir / "Eigen/src/plugins/Block.h", "#include \"../Core/Matrix.h\"\n");  // a cycle
  IncludeGraph g(dir.path());
  Closure c = g.closure({dir / "benchmarks/Core/bench_gemm.cpp"}, {dir / "benchmarks/.."});
  EXPECT_EQ(paths(c), (std::vector<std::string>{"benchmarks/Core/bench_gemm.cpp", "Eigen/Core",
                                                 "Eigen/src/Core/Matrix.h", "Eigen/src/plugins/Block.h"}));
  EXPECT_EQ(c.chain_to(3), paths(c));
  EXPECT_EQ(c.nodes[3].hops, 3);
  EXPECT_TRUE(c.unresolved.empty()) << "system headers are leaves, not unresolved";
}

TEST(IncludeGraph, OutsideTheTreeIsALeaf) {
  TempDir outside;
  write_file(outside / "ext/ext.h", "#include \"never_followed.h\"\n");
  TempDir dir;
  write_file(dir / "a.cc", "#include <ext.h>\n");
  IncludeGraph g(dir.path());
  Closure c = g.closure({dir / "a.cc"}, {outside / "ext"});
  EXPECT_EQ(c.nodes.size(), 1u);
  EXPECT_TRUE(c.unresolved.empty());
}

TEST(IncludeGraph, MacroAndMissingIncludesAreUnresolved) {
  TempDir dir;
  write_file(dir / "lib/x.h", "");
  write_file(dir / "a.cc", "#include PLATFORM_HEADER\n#include \"missing.h\"\n#include <lib/gone.h>\n#include <map>\n");
  IncludeGraph g(dir.path());
  Closure c = g.closure({dir / "a.cc"}, {dir.path()});
  ASSERT_EQ(c.unresolved.size(), 3u);
  EXPECT_EQ(c.unresolved[0].file, "a.cc");
  EXPECT_EQ(c.unresolved[0].line, 1);
  EXPECT_EQ(c.unresolved[0].include, "PLATFORM_HEADER");
  EXPECT_EQ(c.unresolved[1].include, "\"missing.h\"");
  EXPECT_EQ(c.unresolved[2].include, "<lib/gone.h>");
  EXPECT_EQ(c.unresolved[2].line, 3);
}

TEST(IncludeGraph, ChainIsShortest) {
  TempDir dir;
  write_file(dir / "a.cc", "#include \"long1.h\"\n#include \"short.h\"\n");
  write_file(dir / "long1.h", "#include \"long2.h\"\n");
  write_file(dir / "long2.h", "#include \"target.h\"\n");
  write_file(dir / "short.h", "#include \"target.h\"\n");
  write_file(dir / "target.h", "");
  IncludeGraph g(dir.path());
  Closure c = g.closure({dir / "a.cc"}, {});
  EXPECT_EQ(c.chain_to(c.index.at("target.h")), (std::vector<std::string>{"a.cc", "short.h", "target.h"}));
}

}  // namespace
}  // namespace cobench::select
