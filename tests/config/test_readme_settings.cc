// The README's settings table is where users look a key up: every key of the
// key table must be in it, so a new setting cannot ship undocumented.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "config/keys.h"

namespace cobench::config {
namespace {

TEST(ReadmeSettings, EveryKeyOfEverySectionIsInTheSettingsTable) {
  std::ifstream in(COBENCH_README);
  ASSERT_TRUE(in) << COBENCH_README;
  std::stringstream text;
  text << in.rdbuf();
  const std::string readme = text.str();
  const auto table = readme.find("| setting | `cobench.toml` | environment | flag |");
  ASSERT_NE(table, std::string::npos) << "no settings table in the README";
  const std::string rows = readme.substr(table, readme.find("\n\n", table) - table);
  int keys = 0;
  for (const char* section : {"build", "run", "budget", "select"})
    for (const auto key : section_keys(section)) {
      ++keys;
      const std::string name = std::string(section) + "." + std::string(key);
      EXPECT_NE(rows.find("`" + name + "`"), std::string::npos) << name << " is missing from the settings table";
    }
  EXPECT_GT(keys, 20);
}

}  // namespace
}  // namespace cobench::config
