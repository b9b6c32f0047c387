// The layout step's questions that need no build: which settings confirm
// claims in other layouts, and which rows a layout has to measure.
#include "job/layout_step.h"

#include <gtest/gtest.h>

namespace cobench::job {
namespace {

using results::RunRecord;
using results::Side;

/// A paired job allowing `layouts` layouts whose rows are read from 8 pairs each.
results::ResultsFile job_of(int layouts) {
  results::ResultsFile file;
  file.settings.metric = "cpu_time";
  file.settings.pairing = "paired";
  file.settings.min_runs = 8;
  file.settings.max_runs = 8;
  file.settings.layouts = layouts;
  return file;
}

void add_runs(results::ResultsFile& file, const std::string& target, const std::string& name, int layout, double ratio) {
  for (int run = 0; run < 8; ++run)
    for (Side side : {Side::Base, Side::Head}) {
      RunRecord r;
      r.target = target;
      r.side = side;
      r.run = run;
      r.layout = layout;
      const double jitter = side == Side::Head ? ratio * (1 + 0.003 * ((run * 3) % 5 - 2)) : 1;
      const double ns = 100 * (1 + 0.004 * ((run * 7) % 5 - 2)) * jitter;
      r.samples[name] = {{"real_ns", ns}, {"cpu_ns", ns}, {"threads", 1}};
      (layout == 1 ? file.runs : file.layout_runs).push_back(r);
    }
}

TEST(LayoutStep, OnlyGoogleBenchmarkTargetsCobenchBuildsWithoutASharedParentAreConfirmed) {
  config::Config settings;
  EXPECT_EQ(layouts_of(settings, run::runner_kind(settings.run.runner, "test")), 2) << "on by default";
  settings.run.layouts = 3;
  EXPECT_EQ(layouts_of(settings, run::runner_kind(settings.run.runner, "test")), 3);
  settings.build.shared_parent = "core";
  EXPECT_EQ(layouts_of(settings, run::runner_kind(settings.run.runner, "test")), 1);
  settings.build.shared_parent.clear();
  for (const char* runner : {"go", "command"}) {
    settings.run.runner = runner;
    EXPECT_EQ(layouts_of(settings, run::runner_kind(settings.run.runner, "test")), 1) << runner;
  }
}

TEST(LayoutStep, EachLayoutMeasuresOnlyTheClaimsStillWaitingForIt) {
  results::ResultsFile file = job_of(3);
  add_runs(file, "bench_a", "BM_Slow", 1, 2.0);
  add_runs(file, "bench_a", "BM_Same", 1, 1.0);
  add_runs(file, "bench_b", "BM_Fast", 1, 0.5);
  add_runs(file, "bench_b", "BM_Close", 1, 1.3);
  EXPECT_EQ(claims_needing(file, 2),
            (Claims{{"bench_a", {"BM_Slow"}}, {"bench_b", {"BM_Close", "BM_Fast"}}}));
  add_runs(file, "bench_a", "BM_Slow", 2, 2.0);    // confirmed
  add_runs(file, "bench_b", "BM_Fast", 2, 1.5);    // read otherwise: layout-sensitive, no third layout
  add_runs(file, "bench_b", "BM_Close", 2, 1.05);  // undecided: the third layout decides
  EXPECT_EQ(claims_needing(file, 2), Claims{});
  EXPECT_EQ(claims_needing(file, 3), (Claims{{"bench_b", {"BM_Close"}}}));
  file.settings.layouts = 2;
  EXPECT_EQ(claims_needing(file, 3), Claims{}) << "two layouts: the undecided second ends it";
}

}  // namespace
}  // namespace cobench::job
