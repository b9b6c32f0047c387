// Which of a library's translation units a diff recompiles, on each side.
#include "select/changed_units.h"

#include <gtest/gtest.h>

#include "support/testing.h"

namespace cobench::select {
namespace {

using cobench::testing::TempDir;
using cobench::testing::write_file;

TEST(ChangedPaths, EachSideSeesThePathsThatExistThere) {
  const std::vector<git::ChangedFile> changes = {{'M', "lib/m.h", ""},    {'A', "lib/new.h", ""},
                                                 {'D', "lib/gone.h", ""}, {'R', "lib/to.h", "lib/from.h"},
                                                 {'C', "lib/copy.h", "lib/original.h"}, {'T', "lib/link.h", ""}};
  EXPECT_EQ(changed_paths(changes, false),
            (std::set<std::string>{"lib/m.h", "lib/new.h", "lib/to.h", "lib/copy.h", "lib/link.h"}));
  EXPECT_EQ(changed_paths(changes, true), (std::set<std::string>{"lib/m.h", "lib/gone.h", "lib/from.h", "lib/link.h"}));
}

TEST(UnitsReaching, AUnitIsReachedByItsSourceOrAnythingItIncludes) {
  TempDir dir;
  write_file(dir / "lib/a.cc", "#include \"detail.h\"\n");
  write_file(dir / "lib/detail.h", "#include <lib/api.h>\n");
  write_file(dir / "include/lib/api.h", "");
  write_file(dir / "lib/b.cc", "#include <lib/api.h>\n");
  write_file(dir / "lib/c.cc", "#include <vector>\n");
  const std::vector<std::filesystem::path> sources = {dir / "lib/a.cc", dir / "lib/b.cc", dir / "lib/c.cc"};
  const std::vector<std::filesystem::path> include_dirs = {dir / "include"};

  auto units = units_reaching(dir.path(), sources, include_dirs, {"include/lib/api.h"});
  ASSERT_EQ(units.size(), 3u);
  EXPECT_EQ(units[0].path, "lib/a.cc");
  EXPECT_EQ(units[0].chain, (std::vector<std::string>{"lib/a.cc", "lib/detail.h", "include/lib/api.h"}));
  EXPECT_EQ(units[1].chain, (std::vector<std::string>{"lib/b.cc", "include/lib/api.h"}));
  EXPECT_TRUE(units[2].chain.empty()) << "c.cc includes nothing that changed";

  units = units_reaching(dir.path(), sources, include_dirs, {"lib/c.cc"});
  EXPECT_TRUE(units[0].chain.empty());
  EXPECT_TRUE(units[1].chain.empty());
  EXPECT_EQ(units[2].chain, std::vector<std::string>{"lib/c.cc"}) << "a changed source reaches itself";

  units = units_reaching(dir.path(), sources, include_dirs, {"docs/notes.md"});
  for (const auto& unit : units) EXPECT_TRUE(unit.chain.empty()) << unit.path;
}

}  // namespace
}  // namespace cobench::select
