// The fixture's truth by construction: exact head step counts, one family
// per source and target, and a head commit that touches only the headers
// holding the work constants.
#include <regex>

#include <gtest/gtest.h>

#include "core/errors.h"
#include "support/testing.h"
#include "validate/fixture.h"

namespace cobench::validate {
namespace {

namespace fs = std::filesystem;

/// `git ARGS` in `repo`: its output without the last newline.
std::string git(const fs::path& repo, std::vector<std::string> args) {
  args.insert(args.begin(), "git");
  std::string out = cobench::testing::run_checked(args, repo).out;
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

TEST(Fixture, SlowedStepsAreRoundedExactly) {
  EXPECT_EQ(slowed_steps(4000, 3), 4120u);
  EXPECT_EQ(slowed_steps(4000, 5), 4200u);
  EXPECT_EQ(slowed_steps(4000, 10), 4400u);
  EXPECT_EQ(slowed_steps(4000, 20), 4800u);
  EXPECT_EQ(slowed_steps(4000, 50), 6000u);
  EXPECT_EQ(slowed_steps(10, 5), 11u);    // 10.5 rounds up
  EXPECT_EQ(slowed_steps(10, 4), 10u);    // 10.4 rounds down
  EXPECT_EQ(slowed_steps(333, 3), 343u);  // 342.99
}

TEST(Fixture, RowsAreAAThenSlowdownsAscendingThenAllocations) {
  FixtureSpec spec;
  spec.slowdown_percents = {20, 3};
  spec.extra_allocations = 2;
  const Fixture fixture = plan_fixture(spec);
  std::vector<std::string> labels, keys;
  for (const auto& row : fixture.rows) {
    labels.push_back(row.label());
    keys.push_back(row.key());
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"0% (A/A)", "3%", "20%", "+2 allocations per iteration"}));
  EXPECT_EQ(keys, (std::vector<std::string>{"aa", "slowdown_3", "slowdown_20", "allocs_2"}));
  std::vector<int> per_row(fixture.rows.size());
  for (const auto& target : fixture.targets) ++per_row.at(target.row);
  EXPECT_EQ(per_row, (std::vector<int>{5, 1, 1, 1}));  // four A/A benchmarks of different kinds, the layout control
  EXPECT_EQ(fixture.control, "bench_control");
  EXPECT_EQ(fixture.row_of(fixture.control), 0);
  EXPECT_EQ(fixture.row_of("bench_slowdown_20"), 2);
  EXPECT_EQ(fixture.row_of("bench_aa_pointer_chase"), 0);
  EXPECT_EQ(fixture.row_of("bench_unknown"), -1);
}

TEST(Fixture, RefusesKnobsWithoutATruth) {
  FixtureSpec spec;
  spec.extra_allocations = 0;
  EXPECT_THROW(plan_fixture(spec), InputError);
  spec = {};
  spec.slowdown_percents = {5, 5};
  EXPECT_THROW(plan_fixture(spec), InputError);
  spec.slowdown_percents = {0};
  EXPECT_THROW(plan_fixture(spec), InputError);
}

TEST(Fixture, HeadChangesOnlyTheWorkConstants) {
  cobench::testing::TempDir dir;
  const Fixture fixture = write_fixture(dir / "repo", FixtureSpec{});
  const fs::path repo = dir / "repo";
  EXPECT_EQ(git(repo, {"rev-parse", "HEAD"}), fixture.head);
  EXPECT_EQ(git(repo, {"rev-parse", "HEAD~1"}), fixture.base);
  EXPECT_EQ(git(repo, {"diff", "--name-only", fixture.base, fixture.head}),
            "include/fixture/extra_allocations.h\ninclude/fixture/slowdown_10.h\ninclude/fixture/slowdown_20.h\n"
            "include/fixture/slowdown_3.h\ninclude/fixture/slowdown_5.h\ninclude/fixture/slowdown_50.h");
  // Each header changes one number: the base's steps for the head's.
  const std::string diff = git(repo, {"diff", "-U0", fixture.base, fixture.head, "--", "include/fixture/slowdown_10.h"});
  EXPECT_NE(diff.find("-inline constexpr std::uint64_t kSlowdown10Steps = 4000;"), std::string::npos) << diff;
  EXPECT_NE(diff.find("+inline constexpr std::uint64_t kSlowdown10Steps = 4400;"), std::string::npos) << diff;
}

TEST(Fixture, ItsSettingsNameTheLayoutControl) {
  cobench::testing::TempDir dir;
  const Fixture fixture = write_fixture(dir / "repo", FixtureSpec{});
  const std::string toml = cobench::testing::read_text(dir / "repo/cobench.toml");
  EXPECT_NE(toml.find("[run]\ncontrol = [\"bench_control\"]"), std::string::npos) << toml;
  // Unchanged by the head: the control is a target the diff does not reach.
  EXPECT_EQ(git(dir / "repo", {"diff", "--name-only", fixture.base, fixture.head, "--", "cobench.toml",
                               "bench/bench_control.cc"}),
            "");
}

TEST(Fixture, OneBenchmarkFamilyPerSourceAndTarget) {
  cobench::testing::TempDir dir;
  const Fixture fixture = write_fixture(dir / "repo", FixtureSpec{});
  const std::string cmake = cobench::testing::read_text(dir / "repo/CMakeLists.txt");
  const std::regex registration(R"(\bBENCHMARK\((\w+)\))");
  for (const auto& target : fixture.targets) {
    SCOPED_TRACE(target.target);
    EXPECT_NE(cmake.find(target.target), std::string::npos);
    const std::string source = cobench::testing::read_text(dir / ("repo/bench/" + target.target + ".cc"));
    std::vector<std::string> families;
    for (std::sregex_iterator it(source.begin(), source.end(), registration), end; it != end; ++it)
      families.push_back((*it)[1]);
    EXPECT_EQ(families, std::vector<std::string>{target.benchmark});
    EXPECT_NE(source.find("BENCHMARK_MAIN();"), std::string::npos);
  }
}

}  // namespace
}  // namespace cobench::validate
