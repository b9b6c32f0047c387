// The reach index: its file round-trips, a key mismatch rebuilds it, a file
// that is not an index is never overwritten, and line ranges are checked.
#include "reach/index.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "support/testing.h"

namespace cobench::reach {
namespace {

using cobench::testing::read_text;
using cobench::testing::TempDir;
using cobench::testing::write_file;

const std::string kSha = "0123456789abcdef0123456789abcdef01234567";

IndexKey key(const std::string& compiler = "GNU 12.2.0") { return {compiler, "Release", "", {"-DX=1"}, {}}; }

TargetCoverage grid() {
  TargetCoverage t;
  t.target = "bench_grid";
  t.seconds = 0.5;
  t.instances.push_back({"BM_Work/8", {{"include/work.h", {3, 4, 5, 6, 10}}}, "", 0.1});
  t.instances.push_back({"BM_Work/4096", {{"include/work.h", {3, 4, 5, 6, 7, 8, 10}}}, "", 0.4});
  t.instances.push_back({"BM_Crash", {}, "coverage run killed by SIGSEGV: ", 0.0});
  return t;
}

TEST(ReachIndex, SavesAndReadsBackThePerInstanceLines) {
  TempDir tmp;
  {
    ReachIndex index(tmp / "reach", kSha, key());
    EXPECT_EQ(index.find("bench_grid"), nullptr);
    index.add(grid());
    TargetCoverage broken;
    broken.target = "bench_broken";
    broken.failure = "coverage build failed: ...";
    index.add(broken);
    index.save();
  }
  EXPECT_EQ(tmp / "reach" / (kSha + ".json"), ReachIndex(tmp / "reach", kSha, key()).path());
  const std::string text = read_text(tmp / "reach" / (kSha + ".json"));
  EXPECT_NE(text.find("\"format\":\"cobench-reach-index\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"include/work.h\":\"3-8,10\""), std::string::npos) << text;
  ReachIndex again(tmp / "reach", kSha, key());
  EXPECT_EQ(again.loaded(), 2);
  EXPECT_EQ(again.note(), "");
  const TargetCoverage* loaded = again.find("bench_grid");
  ASSERT_NE(loaded, nullptr);
  ASSERT_EQ(loaded->instances.size(), 3u);
  EXPECT_DOUBLE_EQ(loaded->seconds, 0.5);
  for (const auto& instance : loaded->instances) {
    if (instance.name == "BM_Work/4096") {
      EXPECT_EQ(instance.executed.at("include/work.h"), (std::vector<int>{3, 4, 5, 6, 7, 8, 10}));
    } else if (instance.name == "BM_Crash") {
      EXPECT_EQ(instance.failure, "coverage run killed by SIGSEGV: ");
    }
  }
  EXPECT_EQ(again.find("bench_broken")->failure, "coverage build failed: ...");
}

TEST(ReachIndex, OtherSettingsAreNotUsedAndGetReplaced) {
  TempDir tmp;
  ReachIndex first(tmp.path(), kSha, key());
  first.add(grid());
  first.save();
  ReachIndex clang(tmp.path(), kSha, key("Clang 14.0.6"));
  EXPECT_EQ(clang.find("bench_grid"), nullptr);
  EXPECT_NE(clang.note().find("built for other settings"), std::string::npos) << clang.note();
  clang.save();  // replaced by this job's (empty) index: it is ours to replace
  EXPECT_EQ(ReachIndex(tmp.path(), kSha, key("Clang 14.0.6")).note(), "");
}

TEST(ReachIndex, AFileThatIsNotAnIndexIsLeftAlone) {
  TempDir tmp;
  write_file(tmp / (kSha + ".json"), "{\"mine\": true}\n");
  ReachIndex index(tmp.path(), kSha, key());
  EXPECT_NE(index.note().find("is not a cobench reach index; left alone"), std::string::npos) << index.note();
  index.add(grid());
  index.save();
  EXPECT_EQ(read_text(tmp / (kSha + ".json")), "{\"mine\": true}\n");
  write_file(tmp / (kSha + ".json"), "not json");
  EXPECT_NE(ReachIndex(tmp.path(), kSha, key()).note().find("not a readable reach index"), std::string::npos);
}

TEST(ReachIndex, AnIndexOfAnotherVersionIsRebuilt) {
  TempDir tmp;
  // Version 1 counted a line without code inside a function that ran as not run.
  write_file(tmp / (kSha + ".json"),
             "{\"format\": \"cobench-reach-index\", \"version\": 1, \"base\": \"" + kSha + "\", \"targets\": {}}");
  ReachIndex index(tmp.path(), kSha, key());
  EXPECT_EQ(index.find("t"), nullptr);
  EXPECT_NE(index.note().find("a reach index of version 1 (this cobench writes 2); rebuilt"), std::string::npos)
      << index.note();
}

TEST(ReachIndex, ADamagedIndexIsRebuiltNamingTheField) {
  TempDir tmp;
  write_file(tmp / (kSha + ".json"),
             "{\"format\": \"cobench-reach-index\", \"version\": 2, \"base\": \"" + kSha +
                 "\", \"key\": {\"compiler\": \"GNU 12.2.0\", \"build_type\": \"Release\", \"source_dir\": \"\", "
                 "\"cmake_args\": [\"-DX=1\"], \"bench_args\": []}, \"targets\": {\"t\": {\"failure\": \"\", "
                 "\"seconds\": 1, \"instances\": {\"BM\": {\"failure\": \"\", \"seconds\": 1, \"executed\": "
                 "{\"a.h\": \"9-3\"}}}}}}");
  ReachIndex index(tmp.path(), kSha, key());
  EXPECT_EQ(index.find("t"), nullptr);
  EXPECT_NE(index.note().find("damaged"), std::string::npos) << index.note();
  EXPECT_NE(index.note().find("bad line ranges '9-3'"), std::string::npos) << index.note();
}

TEST(LineRanges, RoundTripAndRefuseNonsense) {
  EXPECT_EQ(to_ranges({3, 4, 5, 9, 11, 12}), "3-5,9,11-12");
  EXPECT_EQ(to_ranges({}), "");
  EXPECT_EQ(from_ranges("3-5,9,11-12"), (std::vector<int>{3, 4, 5, 9, 11, 12}));
  EXPECT_TRUE(from_ranges("").empty());
  for (const char* bad : {"x", "3-", "0", "5,4", "3-5,5", "1-99999999999", "2--3"})
    EXPECT_THROW(from_ranges(bad), InputError) << bad;
}

}  // namespace
}  // namespace cobench::reach
