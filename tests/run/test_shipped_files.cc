// Where cobench finds the files it ships: the variable that names one is
// looked at first, and no such variable is also a setting's. The machine
// control's was COBENCH_MACHINE_CONTROL, the run.machine_control switch's
// too: a path there was refused as "expected true or false", and neither
// could be given.
#include <cstdlib>

#include <gtest/gtest.h>

#include "config/config.h"
#include "run/shipped_files.h"

namespace cobench::run {
namespace {

TEST(ShippedFiles, NoVariableThatNamesAFileIsASettingsVariable) {
  for (const ShippedFile* file : {&alloc_preload(), &callgrind_preload(), &machine_control_program()})
    for (const auto& key : config::keys()) EXPECT_NE(key.env, file->variable) << key.key << " and " << file->file_name;
}

TEST(ShippedFiles, TheVariableIsLookedAtFirst) {
  const ShippedFile& program = machine_control_program();
  EXPECT_STREQ(program.variable, "COBENCH_MACHINE_CONTROL_PROGRAM");
  ::setenv(program.variable, "/opt/elsewhere/cobench_machine_control", 1);
  const auto candidates = shipped_candidates(program);
  ::unsetenv(program.variable);
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates.front(), "/opt/elsewhere/cobench_machine_control");
  EXPECT_NE(shipped_candidates(program).front(), "/opt/elsewhere/cobench_machine_control");
}

}  // namespace
}  // namespace cobench::run
