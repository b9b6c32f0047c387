// docs/reports.md is the contract other tools read report.json by: every key
// report.json can hold must be named there, so a new field cannot ship
// undocumented. The keys come from real renderings of the fixture reports
// (every verdict, controls, allocations, failed runs, reach, instructions and
// a merged shard), not from a list kept beside the code.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "report/report.h"
#include "report/report_fixture.h"

namespace cobench::report {
namespace {

// Objects whose members are not report.json's own keys: the host context and
// the settings line are documented where they are made, the selection by its
// own table, the samples are lists, and callgrind's event names are one list.
const std::set<std::string> kOpenObjects = {"host", "settings", "selection", "samples", "events"};

void collect_keys(const nlohmann::json& value, std::set<std::string>& keys) {
  if (value.is_array()) {
    for (const auto& item : value) collect_keys(item, keys);
  } else if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      keys.insert(key);
      if (!kOpenObjects.count(key)) collect_keys(item, keys);
    }
  }
}

std::string read_doc() {
  std::ifstream in(COBENCH_REPORTS_DOC);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ReportsDoc, EveryKeyOfReportJsonIsNamedInDocsReportsMd) {
  const std::string doc = read_doc();
  ASSERT_FALSE(doc.empty()) << COBENCH_REPORTS_DOC;

  Report run = testing::sample_run_report();
  run.benchmarks[0].instructions = verdict::InstructionJudgement{};
  run.benchmarks[0].instructions->compared = true;
  run.benchmarks[0].shard = 1;
  run.targets[0].shard = 1;
  run.layout_rule = verdict::describe_layout_rule(2, true);
  run.benchmarks[0].layouts = {{1, verdict::LayoutVerdict::Faster, 0.77, 0.7, 0.84},
                               {2, verdict::LayoutVerdict::Regression, 1.3, 1.21, 1.39}};
  run.benchmarks[0].layout_outcome = verdict::LayoutOutcome::LayoutSensitive;
  run.targets[0].instructions_status = "measured";
  run.targets[0].failure = "every run failed";
  run.shards = nlohmann::json::array({{{"index", 1}, {"count", 2}, {"folder", "s1"}, {"job", "1"},
                                       {"targets", {"bench_gemm"}}, {"host", nlohmann::json::object()}}});
  std::set<std::string> keys;
  for (const Report& report : {run, testing::sample_compare_report(), testing::reach_report()})
    collect_keys(to_json(report), keys);
  ASSERT_GT(keys.size(), 60u);  // the fixture reached the optional parts
  for (const auto& key : keys)
    EXPECT_TRUE(doc.find("`" + key + "`") != std::string::npos || doc.find("`" + key + "[]`") != std::string::npos)
        << "report.json's `" << key << "` is not in docs/reports.md";
}

}  // namespace
}  // namespace cobench::report
