// The Google Benchmark JSON reader over committed outputs of several
// versions' shapes (tests/data/gbench) and every malformed input.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "formats/formats.h"
#include "formats/json_text.h"

using namespace cobench;
using formats::Entry;
using formats::Output;

static std::string fixture(const std::string& name) { return std::string(COBENCH_TESTDATA_DIR "/gbench/") + name; }
static Output parse_fixture(const std::string& name) {
  return formats::parse_google_benchmark_json(read_file(fixture(name)), name);
}
static const Entry& find(const Output& out, const std::string& name) {
  for (const auto& e : out.entries)
    if (e.name == name) return e;
  throw std::runtime_error("no entry " + name);
}
static std::string error_of(std::string_view text) {
  try {
    formats::parse_google_benchmark_json(text, "in.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(GoogleBenchmark, RealOutputOfDebians171) {
  Output out = parse_fixture("v1_7_1_real.json");
  auto raw = nlohmann::json::parse(read_file(fixture("v1_7_1_real.json")));
  EXPECT_EQ(out.context["num_cpus"], raw["context"]["num_cpus"]);
  ASSERT_EQ(out.entries.size(), 4u);
  EXPECT_EQ(out.entries[0].name, "BM_Sum/8");  // first-seen order
  // Every iteration entry becomes one sample in ns; aggregates are skipped.
  std::map<std::string, std::vector<double>> expected;
  for (const auto& b : raw["benchmarks"])
    if (b["run_type"] == "iteration" && !b.contains("error_occurred"))
      expected[b["run_name"]].push_back(b["real_time"].get<double>() * (b["time_unit"] == "us" ? 1e3 : 1));
  for (const auto& [name, values] : expected) {
    const Entry& e = find(out, name);
    EXPECT_EQ(e.real_ns, values) << name;
    EXPECT_EQ(e.cpu_ns.size(), 3u) << name;
    EXPECT_TRUE(e.error.empty());
    EXPECT_TRUE(e.allocs_per_iter.empty());
  }
  EXPECT_GT(find(out, "BM_Micro/threads:2").real_ns[0], 0.1);  // us scaled up to ns
  const Entry& fails = find(out, "BM_Fails");
  EXPECT_EQ(fails.error, "no input data");
  EXPECT_TRUE(fails.real_ns.empty());
}

TEST(GoogleBenchmark, Version15Shape) {
  Output out = parse_fixture("v1_5_shape.json");
  ASSERT_EQ(out.entries.size(), 2u);  // the BigO fit is neither a sample nor an entry
  const Entry& copy = find(out, "BM_Copy/1024");
  EXPECT_EQ(copy.real_ns, (std::vector<double>{1.5e6, 1.7e6}));
  EXPECT_DOUBLE_EQ(copy.cpu_ns[1], 1.6e6);
  EXPECT_EQ(copy.allocs_per_iter, (std::vector<double>{3, 3}));
  EXPECT_EQ(copy.peak_bytes, (std::vector<double>{2048, 2048}));
  EXPECT_TRUE(copy.bytes_per_iter.empty());  // 1.5 had no total_allocated_bytes
  EXPECT_EQ(find(out, "BM_Broken").error, "file not found");
}

TEST(GoogleBenchmark, Version18ShapeWithSkipsNaNCountersAndHeapTotals) {
  Output out = parse_fixture("v1_8_shape.json");
  const Entry& parse = find(out, "BM_Parse/threads:2");
  EXPECT_EQ(parse.real_ns, (std::vector<double>{2.5e6, 2.7e6}));
  // total_allocated_bytes covers min(16, iterations) iterations of the memory run.
  EXPECT_EQ(parse.bytes_per_iter, (std::vector<double>{163840.0 / 16, 81920.0 / 8}));
  EXPECT_EQ(parse.allocs_per_iter, (std::vector<double>{12.5, 12.5}));
  EXPECT_EQ(find(out, "BM_NeedsGpu").error, "skipped: no GPU on this host");
  EXPECT_EQ(find(out, "BM_Crashy").error, "bad state");
  const Entry& aggregates = find(out, "BM_AggregatesOnly");
  EXPECT_TRUE(aggregates.real_ns.empty());
  EXPECT_NE(aggregates.error.find("only aggregates"), std::string::npos);
}

TEST(GoogleBenchmark, FilesWithoutRunTypeSkipAggregatesByName) {
  Output out = parse_fixture("pre_1_5_no_run_type.json");
  ASSERT_EQ(out.entries.size(), 2u);
  EXPECT_EQ(find(out, "BM_Old").real_ns, (std::vector<double>{120, 125}));
  // No BM_Other exists, so BM_Other_mean is a benchmark of that name; no time_unit means ns.
  EXPECT_EQ(find(out, "BM_Other_mean").real_ns, (std::vector<double>{7}));
}

TEST(GoogleBenchmark, SyntaxErrorsGiveLineAndColumn) {
  EXPECT_EQ(error_of("{\n  \"benchmarks\": [\n    {\"name\": \"a\",, }\n"),
            "in.json: line 3, column 18: syntax error while parsing object key - unexpected ','; expected string literal");
  std::string truncated = error_of("{\"benchmarks\": [\n{\"name\": \"a\"");
  EXPECT_EQ(truncated.rfind("in.json: line 2, column 13: ", 0), 0u) << truncated;
  EXPECT_EQ(error_of("hello"), "in.json: line 1, column 1: syntax error while parsing value - invalid literal; last read: 'h'");
}

TEST(GoogleBenchmark, NamesKeepEveryByteAsTheBinaryWroteIt) {
  // Google Benchmark escapes only \\ " \\b \\f \\n \\r \\t: other bytes come as they are, UTF-8 or not.
  const std::string names[] = {"BM_\xE9t\xE9", "BM_ctl\x01\x1b[2J", "BM_\xF4\x8F\xBE\x80", "BM_ok\xC3\xA9"};
  std::string json = "{\"benchmarks\": [";
  for (const auto& name : names)
    json += "{\"name\": \"" + name + "\", \"run_type\": \"iteration\", \"real_time\": 5, \"cpu_time\": 5},";
  // An escaped code point of the range the reader carries bytes in stays that code point too.
  json += "{\"name\": \"BM_x\\udbff\\udf80\", \"run_type\": \"iteration\", \"real_time\": 5, \"cpu_time\": 5}]}";
  const auto out = formats::parse_google_benchmark_json(json, "in.json");
  ASSERT_EQ(out.entries.size(), 5u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(out.entries[i].name, names[i]);
  EXPECT_EQ(out.entries[4].name, "BM_x\xF4\x8F\xBE\x80");
  // Stored as valid UTF-8, the bytes written as \\xE9; and a syntax error after them still points into the file.
  EXPECT_EQ(formats::dump_json(nlohmann::json(out.entries[0].name)), "\"BM_\\\\xE9t\\\\xE9\"");
  EXPECT_EQ(error_of("{\"benchmarks\": [{\"name\": \"\xE9\xE9\xE9\",, }]}"),
            "in.json: line 1, column 32: syntax error while parsing object key - unexpected ','; expected string literal");
}

TEST(GoogleBenchmark, ShapeErrorsNameFileAndBenchmark) {
  EXPECT_EQ(error_of(""), "in.json: empty file, expected JSON");
  // A time 100,000 arrays deep overflowed the stack when its message dumped it (crafted input).
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  EXPECT_EQ(error_of("{\"benchmarks\": [{\"name\": \"a\", \"real_time\": " + deep + "}]}"),
            "in.json: arrays and objects nested deeper than 64 levels");
  std::string nested_64 = "{\"benchmarks\": [], \"context\": " + std::string(62, '[') + std::string(62, ']') + "}";
  EXPECT_NO_THROW(formats::parse_google_benchmark_json(nested_64, "in.json"));
  EXPECT_EQ(error_of(" \n\t"), "in.json: empty file, expected JSON");
  EXPECT_NE(error_of("{\"context\": {}}").find("in.json: no \"benchmarks\" array"), std::string::npos);
  EXPECT_NE(error_of("[1, 2]").find("in.json: no \"benchmarks\" array"), std::string::npos);
  EXPECT_EQ(error_of("{\"benchmarks\": {}}"), "in.json: \"benchmarks\" is not an array");
  EXPECT_EQ(error_of("{\"benchmarks\": [3]}"), "in.json: benchmarks[0] is not an object");
  EXPECT_EQ(error_of("{\"benchmarks\": [{\"real_time\": 1}]}"), "in.json: benchmarks[0] has no name");
  auto one = [](const std::string& fields) {
    return error_of("{\"benchmarks\": [{\"name\": \"BM_A\", \"run_type\": \"iteration\", " + fields + "}]}");
  };
  EXPECT_EQ(one("\"cpu_time\": 1"), "in.json: benchmark \"BM_A\": no real_time");
  EXPECT_EQ(one("\"real_time\": 1"), "in.json: benchmark \"BM_A\": no cpu_time");
  EXPECT_EQ(one("\"real_time\": 0, \"cpu_time\": 1"), "in.json: benchmark \"BM_A\": real_time is 0, expected a positive time");
  EXPECT_EQ(one("\"real_time\": -2.5, \"cpu_time\": 1"),
            "in.json: benchmark \"BM_A\": real_time is -2.5, expected a positive time");
  EXPECT_EQ(one("\"real_time\": NaN, \"cpu_time\": 1"), "in.json: benchmark \"BM_A\": real_time is NaN");
  EXPECT_EQ(one("\"real_time\": 1, \"cpu_time\": Infinity"),
            "in.json: benchmark \"BM_A\": cpu_time is Infinity, expected a positive time");
  EXPECT_EQ(one("\"real_time\": 1e-12, \"cpu_time\": 1e-12"),
            "in.json: benchmark \"BM_A\": real_time is 1e-12 ns, below one clock tick over Google Benchmark's 1e9 "
            "iterations: not a measurement");
  // An empty loop the compiler removed, as GB 1.7.1 timed it: nothing measured, but a real output.
  EXPECT_EQ(one("\"real_time\": 6.709997251164168e-07, \"cpu_time\": 6.7e-07"), "(no error)");
  EXPECT_EQ(one("\"real_time\": 0.5, \"cpu_time\": 0.5, \"time_unit\": \"ns\""), "(no error)");  // 0.5 ns is real
  EXPECT_EQ(one("\"real_time\": \"fast\", \"cpu_time\": 1"),
            "in.json: benchmark \"BM_A\": real_time is not a number: \"fast\"");
  EXPECT_EQ(one("\"real_time\": 1, \"cpu_time\": 1, \"time_unit\": \"ps\""),
            "in.json: benchmark \"BM_A\": unknown time_unit \"ps\" (expected ns, us, ms or s)");
}

TEST(GoogleBenchmark, ANumberOutOfRangeNamesFileAndPosition) {
  EXPECT_EQ(error_of("{\"benchmarks\": [\n {\"name\": \"BM_A\", \"real_time\": 1e400, \"cpu_time\": 1}]}"),
            "in.json: line 2, column 32: number 1e400 is out of range");
}

TEST(GoogleBenchmark, RepeatedNamesPoolInFirstSeenOrder) {
  Output out = formats::parse_google_benchmark_json(
      R"({"benchmarks": [{"name": "B", "real_time": 2, "cpu_time": 2},
                         {"name": "A", "real_time": 1, "cpu_time": 1},
                         {"name": "B", "real_time": 3, "cpu_time": 3, "time_unit": "us"}]})",
      "x.json");
  ASSERT_EQ(out.entries.size(), 2u);
  EXPECT_EQ(out.entries[0].name, "B");
  EXPECT_EQ(out.entries[0].real_ns, (std::vector<double>{2, 3000}));
}

TEST(Metric, NamesAndSamples) {
  EXPECT_EQ(formats::metric_from_string("cpu_time"), formats::Metric::CpuTime);
  EXPECT_EQ(formats::to_string(formats::Metric::RealTime), "real_time");
  EXPECT_THROW(formats::metric_from_string("wall"), InputError);
  Entry e;
  e.name = "x";
  e.real_ns = {1};
  e.cpu_ns = {2};
  EXPECT_EQ(formats::samples(e, formats::Metric::CpuTime), std::vector<double>{2});
}
