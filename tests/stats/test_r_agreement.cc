// estimate_ratio against R's wilcox.test on the committed reference cases
// (scripts/gen_wilcox_reference.sh): exact and normal-approximation paths.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "stats/stats.h"

using namespace cobench::stats;

TEST(RAgreement, EveryReferenceCase) {
  auto cases = nlohmann::json::parse(cobench::read_file(COBENCH_TESTDATA_DIR "/wilcox/ratio_cases.json"));
  int exact = 0, normal = 0;
  for (const auto& c : cases) {
    SCOPED_TRACE(c["label"].get<std::string>());
    auto base = c["base"].get<std::vector<double>>(), head = c["head"].get<std::vector<double>>();
    RatioEstimate e = estimate_ratio(base, head, c["confidence"]);
    ASSERT_TRUE(e.ci_reachable);
    EXPECT_EQ(to_string(e.method), c["method"]);
    EXPECT_NEAR(std::log(e.ratio), c["log_hl"].get<double>(), 1e-12);
    double p = c["p_value"];
    EXPECT_NEAR(e.p_value, p, 1e-9 * p + 1e-300);
    // R finds the normal interval's ends with uniroot(tol = 1e-4) on the log
    // scale; cobench finds the same step exactly.
    double tolerance = e.method == Method::Exact ? 1e-12 : 2e-4;
    EXPECT_NEAR(std::log(e.ci_low), c["log_ci_low"].get<double>(), tolerance);
    EXPECT_NEAR(std::log(e.ci_high), c["log_ci_high"].get<double>(), tolerance);
    (e.method == Method::Exact ? exact : normal)++;
  }
  EXPECT_GE(exact, 10);
  EXPECT_GE(normal, 10);
}
