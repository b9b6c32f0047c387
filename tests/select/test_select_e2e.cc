// `cobench select` on real git repositories with a real CMake + Google
// Benchmark project: configure, File API targets, diff, graph, output.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/testing.h"

namespace cobench::select {
namespace {

using namespace cobench::testing;

/// Three benchmarks under bench/ (its own CMake project) over a header library in include/.
class SelectE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    repo.write("include/lib/common.h", "#pragma once\ninline int common() { return 1; }\n");
    repo.write("include/lib/leaf_a.h", "#pragma once\n#include \"common.h\"\n");
    repo.write("include/lib/old.h", "#pragma once\n");
    std::string cmake =
        "cmake_minimum_required(VERSION 3.16)\nproject(fixture CXX)\nfind_package(benchmark REQUIRED)\n";
    for (const char* name : {"a", "b", "c"}) {
      std::string target = std::string("bench_") + name;
      cmake += "add_executable(" + target + " " + name + ".cc)\ntarget_include_directories(" + target +
               " PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/../include)\ntarget_link_libraries(" + target +
               " PRIVATE benchmark::benchmark benchmark::benchmark_main)\n";
    }
    repo.write("bench/CMakeLists.txt", cmake);
    repo.write("bench/a.cc", "#include <lib/leaf_a.h>\n#include <benchmark/benchmark.h>\n"
                             "static void BM_A(benchmark::State& s) { for (auto _ : s) {} }\nBENCHMARK(BM_A);\n");
    repo.write("bench/b.cc", "#include <lib/common.h>\n#ifdef OLD\n#include <lib/old.h>\n#endif\n"
                             "#include <benchmark/benchmark.h>\n"
                             "static void BM_B(benchmark::State& s) { for (auto _ : s) {} }\nBENCHMARK(BM_B);\n"
                             "static void BM_B2(benchmark::State& s) { for (auto _ : s) {} }\nBENCHMARK(BM_B2);\n");
    repo.write("bench/c.cc", "#include <benchmark/benchmark.h>\n"
                             "static void BM_C(benchmark::State& s) { for (auto _ : s) {} }\nBENCHMARK(BM_C);\n");
    repo.write("docs/guide.md", "# guide\n");
    repo.commit("base");
    repo.git({"checkout", "-q", "-b", "feature"});
  }

  process::Result select(std::vector<std::string> args, std::vector<std::pair<std::string, std::string>> env = {}) {
    std::vector<std::string> argv = {"select", "--base", "main", "--source-dir", "bench", "--work-dir",
                                     (work / "w").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_cobench(argv, repo.path(), env, 300);
  }

  nlohmann::json select_json(std::vector<std::string> args = {},
                             std::vector<std::pair<std::string, std::string>> env = {}) {
    args.push_back("--format");
    args.push_back("json");
    auto r = select(args, env);
    EXPECT_EQ(r.exit_code, 0) << explain(r);
    return nlohmann::json::parse(r.out);
  }

  TempDir dir, work;
  GitRepo repo{dir.path()};
};

TEST_F(SelectE2E, LeafHeaderChangeSelectsItsIncluderWithChain) {
  repo.write("include/lib/leaf_a.h", "#pragma once\n#include \"common.h\"\n// tweak\n");
  repo.commit("tweak leaf");
  auto r = select({});
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  EXPECT_NE(r.out.find("bench_a: bench/a.cc → include/lib/leaf_a.h (modified)"), std::string::npos) << r.out;
  // Which commits the answer is about, as `run` says it, on stderr: stdout stays the answer.
  const std::string base = repo.git({"rev-parse", "main"}), head = repo.git({"rev-parse", "HEAD"});
  EXPECT_NE(r.err.find("base: " + base + " (merge base of main and HEAD)\nhead: " + head + " (HEAD)"),
            std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("merge base"), std::string::npos) << r.out;
  auto j = select_json();
  ASSERT_EQ(j["selected"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["selected"][0]["target"], "bench_a");
  EXPECT_EQ(j["selected"][0]["sources"][0], "bench/a.cc");
  EXPECT_EQ(j["unreached"], (nlohmann::json{"bench_b", "bench_c"}));
  EXPECT_TRUE(j["all_reason"].is_null());
}

TEST_F(SelectE2E, DeletedHeaderAndCapOnAWorktreeHead) {
  repo.remove("include/lib/old.h");
  repo.write("include/lib/common.h", "#pragma once\ninline int common() { return 2; }\n");
  std::string head = repo.commit("delete old, change common");
  repo.git({"checkout", "-q", "main"});  // head is not the checkout: a worktree is used
  auto j = select_json({"--head", head, "--max-targets", "1"});
  ASSERT_EQ(j["selected"].size(), 1u) << j.dump(2);
  EXPECT_EQ(j["selected"][0]["target"], "bench_b");  // common.h at 1 hop, and old.h on the base side
  EXPECT_EQ(j["selected"][0]["changed_reached"], 2);
  ASSERT_EQ(j["dropped"].size(), 1u);
  EXPECT_EQ(j["dropped"][0]["target"], "bench_a");
  EXPECT_EQ(j["selected"][0]["layout_warnings"].size(), 1u) << "b.cc registers BM_B and BM_B2";
  // Again in the same work folder: each select's worktree is a new folder, and
  // a build folder configured from the last one's must not be in the way.
  auto again = select_json({"--head", head, "--max-targets", "0"});
  EXPECT_EQ(again["selected"].size(), 2u) << again.dump(2);
}

TEST_F(SelectE2E, CMakeChangeSelectsAllAndDocsChangeSelectsNone) {
  repo.write("docs/guide.md", "# guide, edited\n");
  repo.commit("docs");
  auto none = select_json();
  EXPECT_TRUE(none["selected"].empty());
  EXPECT_FALSE(none["none_reason"].is_null()) << none.dump(2);
  EXPECT_EQ(none["ignored"][0], "docs/guide.md");

  repo.write("bench/CMakeLists.txt", read_text(repo.path() / "bench/CMakeLists.txt") + "# edited\n");
  repo.commit("cmake");
  auto all = select_json();
  EXPECT_EQ(all["selected"].size(), 3u);
  EXPECT_NE(all["all_reason"].get<std::string>().find("bench/CMakeLists.txt"), std::string::npos);
}

TEST_F(SelectE2E, StrictLayoutEnvNarrowingAndBadInput) {
  repo.write("include/lib/common.h", "#pragma once\ninline int common() { return 3; }\n");
  repo.commit("common");
  auto strict = select({"--strict-layout"});
  EXPECT_EQ(strict.exit_code, 2) << explain(strict);
  EXPECT_NE(strict.err.find("bench/b.cc"), std::string::npos) << strict.err;

  auto narrowed = select_json({}, {{"COBENCH_TARGETS", "bench_a"}, {"COBENCH_FILTER", "BM_A"}});
  ASSERT_EQ(narrowed["selected"].size(), 1u) << narrowed.dump(2);
  EXPECT_EQ(narrowed["selected"][0]["target"], "bench_a");
  EXPECT_EQ(narrowed["narrowed_out"], (nlohmann::json{"bench_b", "bench_c"}));
  EXPECT_EQ(narrowed["filter"], "BM_A");

  auto bad = select({"--target", "bench_("});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--target: bad regex 'bench_('"), std::string::npos) << bad.err;
  EXPECT_EQ(select({"--format", "xml"}).exit_code, 2);

  // A --target that matches no target is an error in `select` as in `run`.
  auto none = select({"--target", "^nothing$"});
  EXPECT_EQ(none.exit_code, 2) << cobench::testing::explain(none);
  EXPECT_NE(none.err.find("--target '^nothing$' matches none of the 3 benchmark targets"), std::string::npos)
      << none.err;
}

TEST(SelectLinkedLibrariesE2E, AChangeToALinkedLibrarysSourcesOrItsPrivateHeadersSelectsTheBenchmark) {
  // A compiled library (a static one, through an object library with a private header folder), one
  // benchmark that links it and one that does not.
  TempDir dir, work;
  GitRepo repo(dir.path());
  repo.write("CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\nproject(engine CXX)\nfind_package(benchmark REQUIRED)\n"
             "add_library(parser OBJECT lib/parser.cc)\n"
             "target_include_directories(parser PRIVATE lib/internal PUBLIC include)\n"
             "add_library(engine STATIC lib/engine.cc)\n"
             "target_include_directories(engine PUBLIC include)\n"
             "target_link_libraries(engine PUBLIC parser)\n"
             "add_executable(bench_engine bench/engine.cc)\n"
             "target_link_libraries(bench_engine PRIVATE engine benchmark::benchmark benchmark::benchmark_main)\n"
             "add_executable(bench_other bench/other.cc)\n"
             "target_link_libraries(bench_other PRIVATE benchmark::benchmark benchmark::benchmark_main)\n");
  repo.write("include/engine.h", "#pragma once\nint run_engine(int);\nint parse(int);\n");
  repo.write("lib/engine.cc", "#include <engine.h>\nint run_engine(int x) { return parse(x) + 1; }\n");
  repo.write("lib/parser.cc", "#include <engine.h>\n#include <detail.h>\nint parse(int x) { return x * kScale; }\n");
  repo.write("lib/internal/detail.h", "#pragma once\nconstexpr int kScale = 2;\n");
  repo.write("bench/engine.cc", "#include <engine.h>\n#include <benchmark/benchmark.h>\n"
                                "static void BM_Engine(benchmark::State& s) { for (auto _ : s) "
                                "benchmark::DoNotOptimize(run_engine(3)); }\nBENCHMARK(BM_Engine);\n");
  repo.write("bench/other.cc", "#include <benchmark/benchmark.h>\n"
                               "static void BM_Other(benchmark::State& s) { for (auto _ : s) {} }\nBENCHMARK(BM_Other);\n");
  repo.commit("base");
  repo.git({"checkout", "-q", "-b", "feature"});
  auto select = [&](const std::string& format) {
    return run_cobench({"select", "--base", "main", "--work-dir", (work / "w").string(), "--format", format},
                       repo.path(), {}, 300);
  };

  // A header only the library's private include folder finds.
  repo.write("lib/internal/detail.h", "#pragma once\nconstexpr int kScale = 3;\n");
  repo.commit("scale");
  auto text = select("text");
  ASSERT_EQ(text.exit_code, 0) << explain(text);
  EXPECT_NE(text.out.find("bench_engine links parser: lib/parser.cc → lib/internal/detail.h (modified)"),
            std::string::npos)
      << text.out;
  auto json = nlohmann::json::parse(select("json").out);
  ASSERT_EQ(json["selected"].size(), 1u) << json.dump(2);
  EXPECT_EQ(json["selected"][0]["target"], "bench_engine");
  EXPECT_EQ(json["selected"][0]["via_library"], "parser");
  EXPECT_EQ(json["selected"][0]["reason_chain"], (nlohmann::json{"lib/parser.cc", "lib/internal/detail.h"}));
  EXPECT_EQ(json["unreached"], (nlohmann::json{"bench_other"}));

  // The library's own source.
  repo.write("lib/engine.cc", "#include <engine.h>\nint run_engine(int x) { return parse(x) + 2; }\n");
  repo.git({"add", "-A"});
  repo.git({"commit", "-q", "--amend", "-m", "engine"});
  json = nlohmann::json::parse(select("json").out);
  ASSERT_EQ(json["selected"].size(), 1u) << json.dump(2);
  EXPECT_EQ(json["selected"][0]["via_library"], "engine") << "the nearest chain: the changed source itself";
  EXPECT_EQ(json["selected"][0]["hops"], 0);
  EXPECT_EQ(json["selected"][0]["changed_reached"], 2);

  // A header the benchmark includes itself, as near as the library's source that includes it too:
  // its own chain, no library named.
  repo.git({"checkout", "-q", "-b", "api", "main"});
  repo.write("include/engine.h", "#pragma once\nint run_engine(int);\nint parse(int);\n// api\n");
  repo.commit("api");
  json = nlohmann::json::parse(select("json").out);
  ASSERT_EQ(json["selected"].size(), 1u) << json.dump(2);
  EXPECT_EQ(json["selected"][0]["reason_chain"], (nlohmann::json{"bench/engine.cc", "include/engine.h"}));
  EXPECT_FALSE(json["selected"][0].contains("via_library")) << json.dump(2);
}

}  // namespace
}  // namespace cobench::select
