#include "results/log.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/files.h"
#include "report/report.h"
#include "aggregate/aggregate.h"
#include "support/testing.h"

namespace cobench::results {
namespace {

RunRecord sample_record() {
  RunRecord r;
  r.target = "bench_sort";
  r.side = Side::Head;
  r.sha = "abc";
  r.run = 3;
  r.wall_seconds = 1.25;
  r.samples["BM_sort/64"] = {{"real_ns", 123.5}, {"cpu_ns", 120.0}};
  r.errors["BM_skip"] = "skipped";
  r.log = "logs/bench_sort-head-3.log";
  return r;
}

/// A complete settings line, as `cobench run` writes it.
std::string settings_line() {
  nlohmann::json line = to_json(JobSettings{});
  line["type"] = "settings";
  return line.dump();
}

TEST(ResultsLog, RoundTripsEveryLineType) {
  cobench::testing::TempDir dir;
  ResultsLog log(dir / "out/results.jsonl");
  log.host({{"cpu_model", "x"}});
  JobSettings settings;
  settings.base = "b";
  settings.head = "h";
  log.settings(settings);
  log.run(sample_record());
  RunRecord failed = sample_record();
  failed.run = 4;  // a run is logged once
  failed.status = "SIGSEGV";
  failed.signal = 11;
  failed.samples.clear();
  failed.detail = "killed by SIGSEGV";
  log.run(failed);
  log.stop("bench_sort", "time budget 1 min exhausted");
  log.one_sided({"bench_new", Side::Head, {"BM_new"}});
  log.note("interrupted");
  log.phase({"configure", 1.5});
  log.run_length({"bench_sort", 0.0125, 0.04, 0.1, 0.03});
  log.run_length({"bench_new", 0.05});  // chosen without a known split
  RunLength kept{"bench_fixed", 0.1};
  kept.set_by_benchmarks = true;
  log.run_length(kept);

  auto file = read_results(dir / "out/results.jsonl");
  EXPECT_FALSE(file.truncated);
  EXPECT_EQ(file.host["cpu_model"], "x");
  EXPECT_FALSE(file.host.contains("type"));
  EXPECT_EQ(file.settings.head, "h");
  ASSERT_EQ(file.runs.size(), 2u);
  const auto& r = file.runs[0];
  EXPECT_EQ(r.target, "bench_sort");
  EXPECT_EQ(r.side, Side::Head);
  EXPECT_EQ(r.run, 3);
  EXPECT_DOUBLE_EQ(r.samples.at("BM_sort/64").at("real_ns"), 123.5);
  EXPECT_EQ(r.errors.at("BM_skip"), "skipped");
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(file.runs[1].status, "SIGSEGV");
  EXPECT_EQ(file.runs[1].signal, 11);
  EXPECT_EQ(file.runs[1].detail, "killed by SIGSEGV");
  EXPECT_EQ(file.stops.at("bench_sort"), "time budget 1 min exhausted");
  ASSERT_EQ(file.one_sided.size(), 1u);
  EXPECT_EQ(file.one_sided[0].names, std::vector<std::string>{"BM_new"});
  EXPECT_EQ(file.notes, std::vector<std::string>{"interrupted"});
  ASSERT_EQ(file.phases.size(), 1u);
  EXPECT_EQ(file.phases[0].name, "configure");
  EXPECT_DOUBLE_EQ(file.phases[0].seconds, 1.5);
  ASSERT_EQ(file.run_lengths.size(), 3u);
  EXPECT_FALSE(file.run_lengths.at("bench_sort").set_by_benchmarks);
  EXPECT_EQ(describe(file.run_lengths.at("bench_fixed")),
            "--benchmark_min_time=0.1 kept: every benchmark sets its own iterations or min time");
  EXPECT_EQ(describe(file.run_lengths.at("bench_sort")),
            "--benchmark_min_time=0.0125: noise 4.0% within a process, 10.0% between processes, 0.030 s per process "
            "besides measuring");
  EXPECT_EQ(describe(file.run_lengths.at("bench_new")), "--benchmark_min_time=0.05 (its noise split is not known)");
}

TEST(ResultsLog, ARunLengthOfNoSecondsNamesTheLineAndTheField) {
  cobench::testing::TempDir dir;
  write_file_atomic(dir / "r.jsonl", settings_line() + "\n{\"type\":\"run_length\",\"target\":\"t\",\"min_time\":0}\n");
  try {
    read_results(dir / "r.jsonl");
    ADD_FAILURE() << "a run length of 0 s was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("r.jsonl:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("min_time"), std::string::npos) << e.what();
  }
}

TEST(RunLength, TheShortestIsAnEighthOfTheStartAndNeverUnderTenMilliseconds) {
  EXPECT_DOUBLE_EQ(shortest_run_length(0.1), 0.0125);
  EXPECT_DOUBLE_EQ(shortest_run_length(0.05), 0.01);
  EXPECT_DOUBLE_EQ(shortest_run_length(0.5), 0.0625);
  EXPECT_DOUBLE_EQ(shortest_run_length(0.005), 0.005);  // never longer than where the runs start
}

TEST(ResultsLog, APhaseOfNegativeOrMissingSecondsNamesTheLine) {
  cobench::testing::TempDir dir;
  const std::string start = R"({"type":"host"})" "\n" + settings_line() + "\n";
  for (const char* line : {R"({"type":"phase","name":"build","seconds":-1})", R"({"type":"phase","name":"build"})",
                           R"({"type":"phase","seconds":2})"}) {
    SCOPED_TRACE(line);
    write_file_atomic(dir / "results.jsonl", start + line + "\n" + R"({"type":"note","text":"after"})" "\n");
    try {
      read_results(dir / "results.jsonl");
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("results.jsonl:3"), std::string::npos) << e.what();
    }
  }
}

TEST(ResultsLog, ATruncatedLastLineIsSkipped) {
  cobench::testing::TempDir dir;
  const auto path = dir / "results.jsonl";
  {
    ResultsLog log(path);
    log.settings({});
    log.run(sample_record());
  }
  std::string text = read_file(path);
  std::string cut = to_json(sample_record()).dump();
  write_file_atomic(path, text + cut.substr(0, cut.size() / 2));
  auto file = read_results(path);
  EXPECT_TRUE(file.truncated);
  EXPECT_EQ(file.runs.size(), 1u);
}

TEST(ResultsLog, AMalformedMiddleLineNamesFileAndLine) {
  cobench::testing::TempDir dir;
  const auto path = dir / "results.jsonl";
  write_file_atomic(path, settings_line() + "\n{\"type\":\"run\", oops\n" + to_json(sample_record()).dump() + "\n");
  try {
    read_results(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ":2:"), std::string::npos) << e.what();
  }
}

TEST(ResultsLog, ANumberBeyondDoubleIsAnInputErrorNamingTheLine) {
  // Found by fuzz_results_jsonl: nlohmann's out_of_range escaped as an internal error.
  try {
    parse_results(settings_line() + "\n{\"type\":\"run\",\"wall_seconds\":647.0345e7757}\n{\"type\":\"note\",\"text\":\"x\"}\n",
                  "results.jsonl");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("results.jsonl:2: a number out of range: ", 0), 0u) << e.what();
  }
}

TEST(ResultsLog, ALineNestedTooDeepIsAnInputError) {
  // A host value 100,000 arrays deep overflowed the stack when the report dumped it (crafted input).
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  try {
    parse_results("{\"type\":\"host\",\"cpu\":" + deep + "}\n" + settings_line() + "\n", "results.jsonl");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "results.jsonl:1: arrays and objects nested deeper than 64 levels");
  }
}

TEST(ResultsLog, RunNumbersThatAreNoIntsAreInputErrors) {
  // Found by fuzz_results_jsonl: "run": 1e300 was converted to int by a plain cast (undefined behaviour).
  for (const std::string field : {"\"run\":1e300", "\"run\":0,\"exit_code\":-1e300", "\"run\":0,\"signal\":2.5",
                                  "\"run\":4294967296"}) {
    std::string line = "{\"type\":\"run\",\"target\":\"t\",\"side\":\"head\",\"status\":\"ok\"," + field + "}";
    EXPECT_THROW(parse_results(settings_line() + "\n" + line + "\n", "results.jsonl"), InputError) << line;
  }
}

TEST(ResultsLog, AWrongShapeIsAnInputError) {
  cobench::testing::TempDir dir;
  const auto path = dir / "results.jsonl";
  write_file_atomic(path, settings_line() + "\n{\"type\":\"run\",\"target\":\"t\",\"side\":\"left\",\"run\":0,"
                          "\"status\":\"ok\"}\n");
  EXPECT_THROW(read_results(path), InputError);
  write_file_atomic(path, "[1,2]\n" + settings_line() + "\n");
  EXPECT_THROW(read_results(path), InputError);
}

TEST(ResultsLog, ASettingsLineOfTheWrongShapeNamesFileLineAndField) {
  cobench::testing::TempDir dir;
  const auto path = dir / "results.jsonl";
  write_file_atomic(path, "{\"type\":\"host\"}\n{\"type\":\"settings\",\"base\":\"b\"}\n");
  try {
    read_results(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path.string() + ":2: settings line: $.head: missing");
  }
  nlohmann::json line = to_json(JobSettings{});
  line["type"] = "settings";
  line["metric"] = "wall_time";
  write_file_atomic(path, line.dump() + "\n");
  try {
    read_results(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":1: settings line: $.metric: unknown metric 'wall_time'"), std::string::npos)
        << e.what();
  }
}

TEST(ResultsLog, TheSharedParentIsRecordedAndShownWithTheSettings) {
  cobench::testing::TempDir dir;
  const auto path = dir / "results.jsonl";
  const std::string sha(64, 'a');
  JobSettings settings;
  settings.shared_parent = SharedParent{"routines", "/job/parent/libroutines.so", sha, {"src/touched.cc"}};
  {
    ResultsLog log(path);
    log.settings(settings);
  }
  const auto file = read_results(path);
  ASSERT_TRUE(file.settings.shared_parent.has_value());
  EXPECT_EQ(file.settings.shared_parent->target, "routines");
  EXPECT_EQ(file.settings.shared_parent->library, "/job/parent/libroutines.so");
  EXPECT_EQ(file.settings.shared_parent->sha256, sha);
  EXPECT_EQ(file.settings.shared_parent->changed_units, std::vector<std::string>{"src/touched.cc"});
  const auto report = aggregate::report_of(file, path.string());
  EXPECT_EQ(report.settings.at("shared_parent").at("sha256"), sha);
  EXPECT_NE(report::render_markdown(report).find(sha), std::string::npos) << "the settings block shows the hash";
  EXPECT_FALSE(to_json(JobSettings{}).contains("shared_parent")) << "absent unless one was built";

  nlohmann::json line = to_json(settings);
  line["type"] = "settings";
  line["shared_parent"]["sha256"] = "not a hash";
  write_file_atomic(path, line.dump() + "\n");
  try {
    read_results(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":1: settings line: $.shared_parent.sha256: expected 64 lowercase hex digits"),
              std::string::npos)
        << e.what();
  }
}

TEST(ResultsLog, TwoJobsConcatenatedAreRefusedNamingTheLine) {
  cobench::testing::TempDir dir;
  auto job_file = [&](const std::string& job, const std::string& name) {
    JobSettings settings;
    settings.job = job;
    ResultsLog log(dir / name);
    log.settings(settings);
    log.run(sample_record());
    return read_file(dir / name);
  };
  const std::string first = job_file("aaaa", "a.jsonl"), second = job_file("bbbb", "b.jsonl");
  EXPECT_NE(first.find("\"job\":\"aaaa\""), std::string::npos);  // every run line carries its job
  write_file_atomic(dir / "both.jsonl", first + second);
  try {
    read_results(dir / "both.jsonl");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind((dir / "both.jsonl").string() + ":3: a second settings line (job 'bbbb' "
                                          "after job 'aaaa')", 0),
              0u)
        << e.what();
  }
  // A run line of another job spliced in.
  const std::string foreign_run = second.substr(second.find('\n') + 1);
  write_file_atomic(dir / "spliced.jsonl", first + foreign_run);
  try {
    read_results(dir / "spliced.jsonl");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(":3: a run of job 'bbbb' in the results of job 'aaaa'"), std::string::npos)
        << e.what();
  }
}

TEST(ResultsLog, ASampleThatIsNotAPositiveTimeIsAnErrorNotADroppedSample) {
  cobench::testing::TempDir dir;
  RunRecord negative = sample_record();
  negative.samples["BM_a"]["real_ns"] = -5;
  write_file_atomic(dir / "r.jsonl", settings_line() + "\n" + to_json(negative).dump() + "\n");
  try {
    read_results(dir / "r.jsonl");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("r.jsonl:2: sample BM_a real_ns = -5 is not a positive time"),
              std::string::npos)
        << e.what();
  }
}

TEST(ResultsLog, ANewerSchemaAnUnknownLineTypeAndARepeatedRunAreRefusedNamingTheLine) {
  cobench::testing::TempDir dir;
  nlohmann::json line = to_json(JobSettings{});
  line["type"] = "settings";
  const std::string settings = line.dump();
  line["schema"] = 7;
  auto refusal = [&](const std::string& text) {
    write_file_atomic(dir / "r.jsonl", text);
    try {
      read_results(dir / "r.jsonl");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(refusal(line.dump() + "\n").find("r.jsonl:1: written by a newer cobench (schema 7; this one reads schema 1)"),
            std::string::npos);
  EXPECT_NE(refusal(settings + "\n{\"type\":\"mystery\"}\n").find("r.jsonl:2: unknown line type 'mystery'"),
            std::string::npos);
  const std::string run = to_json(sample_record()).dump();
  EXPECT_NE(refusal(settings + "\n" + run + "\n" + run + "\n").find("r.jsonl:3: run "), std::string::npos);
  EXPECT_NE(refusal(settings + "\n" + run + "\n" + run + "\n").find("logged twice (first on line 2)"),
            std::string::npos);
  RunRecord other_side = sample_record();
  other_side.side = other_side.side == Side::Base ? Side::Head : Side::Base;
  EXPECT_EQ(refusal(settings + "\n" + run + "\n" + to_json(other_side).dump() + "\n"), "accepted");
}

TEST(ResultsLog, RunsOfOtherLayoutsAreKeptApartAndOldRunLinesAreLayoutOne) {
  cobench::testing::TempDir dir;
  JobSettings settings;
  settings.layouts = 2;
  settings.layouts_aligned = true;
  {
    ResultsLog log(dir / "r.jsonl");
    log.settings(settings);
    log.run(sample_record());
    RunRecord moved = sample_record();  // the same target, side and run index, in layout 2: another run
    moved.layout = 2;
    log.run(moved);
  }
  const std::string text = read_file(dir / "r.jsonl");
  EXPECT_EQ(text.find("\"layout\":1"), std::string::npos) << "layout 1 is written as files before layouts were";
  ResultsFile read = read_results(dir / "r.jsonl");
  EXPECT_EQ(read.settings.layouts, 2);
  EXPECT_TRUE(read.settings.layouts_aligned);
  ASSERT_EQ(read.runs.size(), 1u);
  EXPECT_EQ(read.runs[0].layout, 1);
  ASSERT_EQ(read.layout_runs.size(), 1u);
  EXPECT_EQ(read.layout_runs[0].layout, 2);
  EXPECT_EQ(read.layout_runs[0].samples, sample_record().samples);

  // A settings line and a run line as cobench wrote them before layout confirmation.
  nlohmann::json old_settings = to_json(JobSettings{});
  old_settings.erase("layouts");
  old_settings.erase("layouts_aligned");
  old_settings["type"] = "settings";
  RunRecord plain = sample_record();
  plain.errors.clear();
  nlohmann::json old_run = to_json(plain);
  old_run.erase("layout");
  write_file_atomic(dir / "old.jsonl", old_settings.dump() + "\n" + old_run.dump() + "\n");
  const ResultsFile old = read_results(dir / "old.jsonl");
  EXPECT_EQ(old.settings.layouts, 1);
  EXPECT_FALSE(old.settings.layouts_aligned) << "other layouts before layout-stable ones were moved plain builds";
  ASSERT_EQ(old.runs.size(), 1u);
  EXPECT_EQ(old.runs[0].layout, 1);
  EXPECT_TRUE(old.layout_runs.empty());
  EXPECT_EQ(aggregate::report_of(old, "old.jsonl").layout_rule, "");

  nlohmann::json bad = to_json(sample_record());
  bad["layout"] = 4;
  write_file_atomic(dir / "bad.jsonl", old_settings.dump() + "\n" + bad.dump() + "\n");
  try {
    read_results(dir / "bad.jsonl");
    ADD_FAILURE() << "a layout beyond 3 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bad.jsonl:2"), std::string::npos) << e.what();
  }
}

TEST(ResultsLog, AFileWithoutASettingsLineIsRefused) {
  cobench::testing::TempDir dir;
  const auto path = dir / "results.jsonl";
  write_file_atomic(path, to_json(sample_record()).dump() + "\n");
  try {
    read_results(path);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind(path.string() + ": no settings line", 0), 0u) << e.what();
  }
}

TEST(ResultsLog, ANewLogReplacesAnOldOne) {
  cobench::testing::TempDir dir;
  const auto path = dir / "results.jsonl";
  {
    ResultsLog log(path);
    log.settings({});
    log.run(sample_record());
  }
  ResultsLog again(path);
  again.settings({});
  EXPECT_TRUE(read_results(path).runs.empty());
}

TEST(ResultsLog, TheFirstPairsShareIsCarriedAndFilesFromBeforeItReadTheWholeLength) {
  cobench::testing::TempDir dir;
  JobSettings settings;
  settings.run_length = "auto";
  settings.min_time = 0.05;
  settings.first_pairs_share = 0.5;
  {
    ResultsLog log(dir / "r.jsonl");
    log.settings(settings);
  }
  EXPECT_DOUBLE_EQ(read_results(dir / "r.jsonl").settings.first_pairs_share, 0.5);

  nlohmann::json line = to_json(settings);
  line["type"] = "settings";
  line.erase("first_pairs_share");  // as cobench wrote it before: the first pairs measured the whole length
  write_file_atomic(dir / "old.jsonl", line.dump() + "\n");
  EXPECT_DOUBLE_EQ(read_results(dir / "old.jsonl").settings.first_pairs_share, 1.0);

  for (const double share : {0.0, 1.5, -0.5}) {
    line["first_pairs_share"] = share;
    write_file_atomic(dir / "bad.jsonl", line.dump() + "\n");
    try {
      read_results(dir / "bad.jsonl");
      ADD_FAILURE() << share << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("bad.jsonl:1"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("first_pairs_share"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace cobench::results
