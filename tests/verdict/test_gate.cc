#include "verdict/gate.h"

#include <gtest/gtest.h>

#include "core/errors.h"

namespace cobench::verdict {
namespace {

using verdict::Verdict;

TEST(Gate, ReportsWithoutGatingByDefault) {
  const std::vector<Verdict> bad = {Verdict::Regression, Verdict::Inconclusive};
  EXPECT_EQ(gate_exit_code(bad, {}), kExitOk);
}

TEST(Gate, ARegressionFailsTheGate) {
  EXPECT_EQ(gate_exit_code(std::vector{Verdict::Pass, Verdict::Regression}, {true, false}), kExitGateFailed);
  EXPECT_EQ(gate_exit_code(std::vector{Verdict::Pass, Verdict::Inconclusive}, {true, false}), kExitOk);
}

TEST(Gate, FailOnInconclusiveImpliesTheGate) {
  EXPECT_EQ(gate_exit_code(std::vector{Verdict::Inconclusive}, {false, true}), kExitGateFailed);
  EXPECT_EQ(gate_exit_code(std::vector{Verdict::Regression}, {false, true}), kExitGateFailed);
  EXPECT_EQ(gate_exit_code(std::vector{Verdict::Pass}, {false, true}), kExitOk);
}

TEST(Gate, AnUnrelatedChangeNeverFailsIt) {
  EXPECT_EQ(gate_exit_code(std::vector{Verdict::Unrelated, Verdict::Pass}, {true, false}), kExitOk);
  EXPECT_EQ(gate_exit_code(std::vector{Verdict::Unrelated}, {true, true}), kExitOk);
  EXPECT_EQ(gate_exit_code(std::vector{Verdict::Unrelated, Verdict::Regression}, {true, false}), kExitGateFailed);
}

TEST(Gate, ALayoutSensitiveRowFailsItOnlyAsAnInconclusiveOneDoes) {
  EXPECT_EQ(gate_exit_code(std::vector{Verdict::LayoutSensitive, Verdict::Pass}, {true, false}), kExitOk);
  EXPECT_EQ(gate_exit_code(std::vector{Verdict::LayoutSensitive}, {true, true}), kExitGateFailed);
  EXPECT_EQ(gate_exit_code(std::vector{Verdict::LayoutSensitive}, {}), kExitOk);
}

}  // namespace
}  // namespace cobench::verdict
