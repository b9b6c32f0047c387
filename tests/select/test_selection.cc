#include "select/select.h"

#include <cstdlib>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "fixtures.h"
#include "support/testing.h"

namespace cobench::select {
namespace {

using cobench::testing::TempDir;
using cobench::testing::write_file;
using select::testing::make_target;
using Names = std::vector<std::string>;

/// bench_a reaches common.h in 1 hop, bench_b in 2, bench_c in 3.
class SelectionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(head / "include/lib/common.h", "#pragma once\n");
    write_file(head / "include/lib/leaf_a.h", "#include \"common.h\"\n");
    write_file(head / "include/lib/leaf_b.h", "#include <lib/common.h>\n");
    write_file(head / "include/lib/mid.h", "#include <lib/leaf_b.h>\n");
    write_file(head / "include/lib/leaf_c.h", "#include \"mid.h\"\n");
    write_file(head / "bench/a.cc",
               "#include <lib/leaf_a.h>\n#include <lib/common.h>\n/* #include <lib/leaf_c.h> */\n"
               "// #include <lib/mid.h>\nBENCHMARK(BM_A);\n");
    write_file(head / "bench/b.cc", "#include <lib/leaf_b.h>\n#include BENCH_CONFIG\nBENCHMARK(BM_B);\n");
    write_file(head / "bench/c.cc", "#include <lib/leaf_c.h>\nBENCHMARK(BM_C);\n");
    write_file(head / "bench/CMakeLists.txt", "add_executable(bench_a a.cc)\n");
  }

  SelectionInput input(std::vector<git::ChangedFile> changes) {
    SelectionInput in;
    in.head_tree = head.path();
    in.changes = std::move(changes);
    for (const char* name : {"a", "b", "c"})
      in.targets.push_back(make_target(head.path(), std::string("bench_") + name, {std::string("bench/") + name + ".cc"},
                                       {"include"}));
    in.cmake_inputs = {head / "bench/CMakeLists.txt"};
    in.source_dir = "bench";
    return in;
  }

  static Names names(const std::vector<SelectedTarget>& targets) {
    Names out;
    for (const auto& t : targets) out.push_back(t.target);
    return out;
  }

  TempDir head;
};

TEST_F(SelectionTest, LeafHeaderReachesOneTarget) {
  Selection s = select_targets(input({{'M', "include/lib/leaf_a.h", ""}}));
  ASSERT_EQ(names(s.selected), Names{"bench_a"});
  EXPECT_EQ(s.selected[0].reason_chain, (Names{"bench/a.cc", "include/lib/leaf_a.h"}));
  EXPECT_EQ(s.selected[0].change, "modified");
  EXPECT_EQ(s.selected[0].hops, 1);
  EXPECT_EQ(s.selected[0].changed_reached, 1);
  EXPECT_EQ(s.unreached, (Names{"bench_b", "bench_c"}));
  EXPECT_FALSE(s.all_reason);
  EXPECT_FALSE(s.none_reason);
  std::string text = to_text(s);
  EXPECT_NE(text.find("bench_a: bench/a.cc → include/lib/leaf_a.h (modified)"), std::string::npos) << text;
}

TEST_F(SelectionTest, WidelyIncludedHeaderIsCappedKeepingTheClosest) {
  SelectionInput in = input({{'M', "include/lib/common.h", ""}});
  in.config.max_targets = 2;
  Selection s = select_targets(in);
  EXPECT_EQ(names(s.selected), (Names{"bench_a", "bench_b"}));
  ASSERT_EQ(names(s.dropped), Names{"bench_c"});
  EXPECT_EQ(s.dropped[0].hops, 4);
  EXPECT_EQ(s.dropped[0].reason_chain,
            (Names{"bench/c.cc", "include/lib/leaf_c.h", "include/lib/mid.h", "include/lib/leaf_b.h",
                   "include/lib/common.h"}));
  EXPECT_TRUE(s.unreached.empty());
  nlohmann::json j = to_json(s);
  EXPECT_EQ(j["dropped"][0]["target"], "bench_c");
  EXPECT_EQ(j["selected"][1]["reason_chain"].size(), 3u);
}

TEST_F(SelectionTest, TiesGoToFewerChangedFilesThenName) {
  SelectionInput in = input({{'M', "include/lib/leaf_a.h", ""}, {'M', "include/lib/leaf_b.h", ""},
                             {'M', "include/lib/common.h", ""}});
  in.config.max_targets = 1;
  Selection s = select_targets(in);
  // bench_a: 2 changed at 1 hop; bench_b: 2 changed (leaf_b, common) at 1 hop -> name decides.
  EXPECT_EQ(names(s.selected), Names{"bench_a"});
  EXPECT_EQ(s.selected[0].changed_reached, 2);
  EXPECT_EQ(names(s.dropped), (Names{"bench_b", "bench_c"}));
}

TEST_F(SelectionTest, IncludeInsideACommentDoesNotCount) {
  Selection s = select_targets(input({{'M', "include/lib/leaf_c.h", ""}}));
  EXPECT_EQ(names(s.selected), Names{"bench_c"});
  s = select_targets(input({{'M', "include/lib/mid.h", ""}}));
  EXPECT_EQ(names(s.selected), Names{"bench_c"}) << "a.cc mentions mid.h only in a comment";
}

TEST_F(SelectionTest, MacroIncludeIsReportedUnresolved) {
  Selection s = select_targets(input({{'M', "include/lib/leaf_b.h", ""}}));
  ASSERT_EQ(s.unresolved.size(), 1u);
  EXPECT_EQ(s.unresolved[0].file, "bench/b.cc");
  EXPECT_EQ(s.unresolved[0].line, 2);
  EXPECT_EQ(s.unresolved[0].include, "BENCH_CONFIG");
  EXPECT_NE(to_text(s).find("bench/b.cc:2: BENCH_CONFIG"), std::string::npos);
  EXPECT_EQ(to_json(s)["unresolved"][0]["include"], "BENCH_CONFIG");
}

TEST_F(SelectionTest, DeletedHeaderReachesItsBaseSideIncluders) {
  TempDir base;
  for (const char* f : {"include/lib/common.h", "include/lib/leaf_a.h", "bench/a.cc", "bench/b.cc", "bench/c.cc"})
    write_file(base / f, cobench::testing::read_text(head / f));
  write_file(base / "include/lib/old.h", "");
  // Only included under a guard that is off, so head still builds without it.
  write_file(base / "bench/b.cc", "#ifdef OLD\n#include <lib/old.h>\n#endif\n");
  write_file(head / "bench/b.cc", "#ifdef OLD\n#include <lib/old.h>\n#endif\n");
  SelectionInput in = input({{'D', "include/lib/old.h", ""}});
  in.base_tree = base.path();
  Selection s = select_targets(in);
  ASSERT_EQ(names(s.selected), Names{"bench_b"});
  EXPECT_EQ(s.selected[0].reason_chain, (Names{"bench/b.cc", "include/lib/old.h"}));
  EXPECT_EQ(s.selected[0].change, "deleted");

  in.base_tree.clear();
  s = select_targets(in);
  EXPECT_TRUE(s.selected.empty());
  ASSERT_EQ(s.notes.size(), 1u) << "an untraced deletion must be said, not dropped silently";
}

TEST_F(SelectionTest, RenamedHeaderReachesBothSides) {
  TempDir base;
  write_file(base / "include/lib/old_name.h", "");
  write_file(base / "bench/a.cc", "#include <lib/old_name.h>\n");
  write_file(head / "include/lib/new_name.h", "");
  write_file(head / "bench/c.cc", "#include \"../include/lib/new_name.h\"\n");
  SelectionInput in = input({{'R', "include/lib/new_name.h", "include/lib/old_name.h"}});
  in.base_tree = base.path();
  Selection s = select_targets(in);
  ASSERT_EQ(names(s.selected), (Names{"bench_a", "bench_c"}));
  EXPECT_EQ(s.selected[0].change, "renamed to include/lib/new_name.h");
  EXPECT_EQ(s.selected[1].change, "renamed from include/lib/old_name.h");
  EXPECT_EQ(s.selected[1].reason_chain, (Names{"bench/c.cc", "include/lib/new_name.h"}));
}

TEST_F(SelectionTest, CMakeChangeSelectsAll) {
  Selection s = select_targets(input({{'M', "bench/CMakeLists.txt", ""}, {'M', "include/lib/leaf_a.h", ""}}));
  EXPECT_EQ(names(s.selected), (Names{"bench_a", "bench_b", "bench_c"}));
  ASSERT_TRUE(s.all_reason);
  EXPECT_NE(s.all_reason->find("bench/CMakeLists.txt"), std::string::npos);
  EXPECT_TRUE(s.dropped.empty());
  EXPECT_EQ(to_json(s)["all_reason"], *s.all_reason);

  SelectionInput guessed = input({{'A', "bench/cmake/new.cmake", ""}});
  guessed.cmake_inputs.clear();  // no File API reply: judged by name and folder
  EXPECT_TRUE(select_targets(guessed).all_reason);
  SelectionInput outside = input({{'M', "tests/CMakeLists.txt", ""}});
  EXPECT_FALSE(select_targets(outside).all_reason) << "not an input of the benchmark project";
}

TEST_F(SelectionTest, ConfigAndAlwaysAllGlobsSelectAll) {
  EXPECT_TRUE(select_targets(input({{'M', "cobench.toml", ""}})).all_reason);
  SelectionInput in = input({{'M', "third_party/blas/gemm.f", ""}});
  in.config.always_all = {"third_party/blas/**"};
  Selection s = select_targets(in);
  ASSERT_TRUE(s.all_reason);
  EXPECT_NE(s.all_reason->find("always_all"), std::string::npos);
}

TEST_F(SelectionTest, DocsOnlyChangeSelectsNothing) {
  Selection s = select_targets(input({{'M', "docs/guide.txt", ""}, {'A', "include/lib/README.md", ""}}));
  EXPECT_TRUE(s.selected.empty());
  ASSERT_TRUE(s.none_reason);
  EXPECT_EQ(s.ignored, (Names{"docs/guide.txt", "include/lib/README.md"}));
  EXPECT_TRUE(to_json(s)["all_reason"].is_null());
  EXPECT_EQ(*s.none_reason, "no benchmark reaches this change: only ignored paths changed");
  EXPECT_EQ(to_text(s).rfind("no benchmark reaches this change", 0), 0u) << to_text(s);

  Selection unrelated = select_targets(input({{'M', "tools/script.py", ""}}));
  ASSERT_TRUE(unrelated.none_reason);
  EXPECT_EQ(*unrelated.none_reason, "no benchmark reaches this change");
}

TEST_F(SelectionTest, StrictLayoutRefusesSeveralFamiliesPerSource) {
  write_file(head / "bench/a.cc", "#include <lib/leaf_a.h>\nBENCHMARK(BM_A<float>);\nBENCHMARK(BM_A<double>);\n");
  SelectionInput in = input({{'M', "include/lib/common.h", ""}});
  Selection relaxed = select_targets(in);
  ASSERT_EQ(relaxed.selected[0].target, "bench_a");
  ASSERT_EQ(relaxed.selected[0].layout_warnings.size(), 1u);
  EXPECT_TRUE(relaxed.selected[1].layout_warnings.empty());
  EXPECT_NO_THROW(enforce_strict_layout(relaxed));

  in.config.strict_layout = true;
  Selection strict = select_targets(in);
  try {
    enforce_strict_layout(strict);
    FAIL() << "strict layout accepted two families";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bench/a.cc"), std::string::npos) << e.what();
  }
}

TEST_F(SelectionTest, EnvironmentNarrowsTargetsAndFilter) {
  ASSERT_EQ(setenv("COBENCH_TARGETS", "_[bc]$", 1), 0);
  ASSERT_EQ(setenv("COBENCH_FILTER", "BM_B", 1), 0);
  SelectionInput in = input({{'M', "include/lib/common.h", ""}});
  config::Config settings;
  config::apply_environment(settings, {{"COBENCH_TARGETS", std::getenv("COBENCH_TARGETS")},
                                       {"COBENCH_FILTER", std::getenv("COBENCH_FILTER")}});
  in.narrowing = narrowing_of(settings);
  unsetenv("COBENCH_TARGETS");
  unsetenv("COBENCH_FILTER");
  in.config.max_targets = 1;
  Selection s = select_targets(in);
  EXPECT_EQ(names(s.selected), Names{"bench_b"});
  EXPECT_EQ(names(s.dropped), Names{"bench_c"});
  EXPECT_EQ(s.narrowed_out, Names{"bench_a"});
  EXPECT_EQ(to_json(s)["filter"], "BM_B");
}

TEST_F(SelectionTest, TextCountsNarrowedOutTargetsInTheTotal) {
  SelectionInput in = input({{'M', "include/lib/leaf_c.h", ""}});
  config::Config settings;
  config::set(settings, "select.targets", {"^bench_c$"}, {config::Origin::Kind::Flag, "--target"});
  in.narrowing = narrowing_of(settings);
  Selection s = select_targets(in);
  EXPECT_EQ(names(s.selected), Names{"bench_c"});
  const std::string text = to_text(s);
  EXPECT_EQ(text.rfind("selected 1 of 3 benchmark targets (max 20):\n", 0), 0u) << text;
  EXPECT_NE(text.find("narrowed out by --target '^bench_c$': bench_a, bench_b\n"), std::string::npos) << text;
}

TEST_F(SelectionTest, NarrowedAwayTargetsAreStillTracedAndCounted) {
  // common.h reaches all three; --target keeps one: the other two are reached, and said to be.
  SelectionInput in = input({{'M', "include/lib/common.h", ""}});
  config::Config settings;
  config::set(settings, "select.targets", {"^bench_c$"}, {config::Origin::Kind::Flag, "--target"});
  in.narrowing = narrowing_of(settings);
  Selection s = select_targets(in);
  EXPECT_EQ(names(s.selected), Names{"bench_c"});
  EXPECT_EQ(s.narrowed_out_reached, (Names{"bench_a", "bench_b"}));
  EXPECT_EQ(reached_count(s), 3u);
  const std::string text = to_text(s);
  EXPECT_NE(text.find("3 of 3 benchmark targets reach the change (2 of them narrowed away)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("reached but narrowed away by --target '^bench_c$' (2): bench_a, bench_b\n"), std::string::npos)
      << text;
  EXPECT_EQ(to_json(s)["reached"], 3);
  EXPECT_EQ(to_json(s)["target_regex_origin"], "--target");

  // A change only the narrowed-away targets reach: nothing narrowed away is unreached by mistake.
  Selection leaf = select_targets([&] {
    SelectionInput other = input({{'M', "include/lib/leaf_a.h", ""}});
    other.narrowing = in.narrowing;
    return other;
  }());
  EXPECT_TRUE(leaf.selected.empty());
  EXPECT_EQ(leaf.narrowed_out_reached, Names{"bench_a"});
  EXPECT_FALSE(leaf.none_reason) << "the change does reach a benchmark";
}

TEST_F(SelectionTest, EveryDroppedTargetSaysWhyAndATieSaysItWasTheName) {
  SelectionInput in = input({{'M', "include/lib/common.h", ""}});
  in.config.max_targets = 1;
  Selection s = select_targets(in);
  ASSERT_EQ(names(s.dropped), (Names{"bench_b", "bench_c"}));
  EXPECT_EQ(s.dropped[0].drop_reason,
            "cap of 1: farther from the change (2 include hops, 1 changed file) than every kept target (at most 1 "
            "include hop, 1 changed file)");
  EXPECT_EQ(to_json(s)["dropped"][1]["drop_reason"].get<std::string>().rfind("cap of 1: farther", 0), 0u);
  EXPECT_NE(to_text(s).find("    dropped: cap of 1: farther from the change"), std::string::npos) << to_text(s);

  // leaf_a.h and leaf_b.h: bench_a and bench_b both at one hop with one changed file; the name decides, and says so.
  SelectionInput tie = input({{'M', "include/lib/leaf_a.h", ""}, {'M', "include/lib/leaf_b.h", ""}});
  tie.config.max_targets = 1;
  Selection t = select_targets(tie);
  ASSERT_EQ(names(t.selected), Names{"bench_a"});
  ASSERT_FALSE(t.dropped.empty());
  EXPECT_EQ(t.dropped[0].target, "bench_b");
  EXPECT_NE(t.dropped[0].drop_reason.find("as close as the farthest kept target bench_a"), std::string::npos)
      << t.dropped[0].drop_reason;
  EXPECT_NE(t.dropped[0].drop_reason.find("kept by name order"), std::string::npos);
}

TEST_F(SelectionTest, TheCapRankedByExecutionKeepsWhatRunsTheChangeThenTheCheapest) {
  SelectionInput in = input({{'M', "include/lib/common.h", ""}});
  in.config.max_targets = 2;
  Selection s = select_targets(in);  // by hops: bench_a, bench_b kept; bench_c dropped
  using Status = Execution::Status;
  cap_by_execution(s,
                   {{"bench_a", {Status::DoesNot, 3, 0, 0.1, ""}},
                    {"bench_b", {Status::Executes, 2, 1, 5.0, ""}},
                    {"bench_c", {Status::Executes, 1, 1, 0.5, ""}}},
                   "base coverage, reach index x.json");
  EXPECT_EQ(names(s.selected), (Names{"bench_c", "bench_b"})) << "executing first, the cheaper first";
  ASSERT_EQ(names(s.dropped), Names{"bench_a"});
  EXPECT_EQ(s.dropped[0].drop_reason,
            "cap of 2: does not execute the change (3 instances ran none of its lines); the kept targets rank before "
            "it (the last kept one executes the change (1 of 2 instances))");
  EXPECT_EQ(s.ranking, "reach, then cost (base coverage, reach index x.json)");
  const auto json = to_json(s);
  EXPECT_EQ(json["selected"][0]["execution"]["status"], "executes");
  EXPECT_EQ(json["selected"][0]["execution"]["cost_seconds"], 0.5);
  EXPECT_EQ(json["dropped"][0]["execution"]["status"], "does_not_execute");

  // Same reach: the cost decides and the reason names both costs; no evidence counts as unknown.
  Selection same = select_targets(in);
  cap_by_execution(same, {{"bench_a", {Status::Executes, 1, 1, 9.0, ""}}, {"bench_b", {Status::Executes, 1, 1, 1.0, ""}}},
                   "index");
  EXPECT_EQ(names(same.selected), (Names{"bench_b", "bench_a"}));
  ASSERT_EQ(names(same.dropped), Names{"bench_c"});
  EXPECT_EQ(same.dropped[0].execution->status, Status::Unknown);
  EXPECT_NE(same.dropped[0].drop_reason.find("reach unknown (no coverage)"), std::string::npos)
      << same.dropped[0].drop_reason;
  Selection cost = select_targets(in);
  cap_by_execution(cost,
                   {{"bench_a", {Status::Executes, 1, 1, 9.0, ""}},
                    {"bench_b", {Status::Executes, 1, 1, 1.0, ""}},
                    {"bench_c", {Status::Executes, 1, 1, 2.0, ""}}},
                   "index");
  ASSERT_EQ(names(cost.dropped), Names{"bench_a"});
  EXPECT_EQ(cost.dropped[0].drop_reason,
            "cap of 2: executes the change (1 of 1 instance), 9.00 s coverage run; cheaper ones of the same reach "
            "fill the cap (the last kept: 2.00 s coverage run)");
}

TEST_F(SelectionTest, AllIgnoresSelection) {
  SelectionInput in = input({{'M', "docs/x.txt", ""}});
  in.all = true;
  in.config.max_targets = 1;
  Selection s = select_targets(in);
  EXPECT_EQ(names(s.selected), (Names{"bench_a", "bench_b", "bench_c"}));
  EXPECT_EQ(*s.all_reason, "--all");
}

}  // namespace
}  // namespace cobench::select
