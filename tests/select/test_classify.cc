#include "select/classify.h"

#include <gtest/gtest.h>

namespace cobench::select {
namespace {

TEST(Classify, OrderIsCMakeInputsThenAlwaysAllThenIgnore) {
  config::SelectConfig cfg;
  cfg.always_all = {"docs/api/**"};
  ClassifyContext ctx{{"benchmarks/CMakeLists.txt", "cmake/Helpers.cmake"}, "benchmarks", &cfg};
  EXPECT_EQ(classify_change("cmake/Helpers.cmake", ctx).kind, ChangeClass::All);
  EXPECT_EQ(classify_change("docs/api/index.txt", ctx).kind, ChangeClass::All) << "always_all beats ignore";
  ChangeClass docs = classify_change("docs/guide.txt", ctx);
  EXPECT_EQ(docs.kind, ChangeClass::Ignored);
  EXPECT_EQ(docs.reason, "docs/**");
  EXPECT_EQ(classify_change("test/CMakeLists.txt", ctx).kind, ChangeClass::Code) << "not read by this project";
  EXPECT_EQ(classify_change("Eigen/Core", ctx).kind, ChangeClass::Code);
  EXPECT_EQ(classify_change("sub/cobench.toml", ctx).kind, ChangeClass::All);
}

TEST(Classify, WithoutFileApiInputsCMakeFilesUnderTheProjectCount) {
  ClassifyContext ctx{{}, "benchmarks", nullptr};
  EXPECT_EQ(classify_change("benchmarks/Core/CMakeLists.txt", ctx).kind, ChangeClass::All);
  EXPECT_EQ(classify_change("benchmarks/x.cmake.in", ctx).kind, ChangeClass::All);
  EXPECT_EQ(classify_change("CMakeLists.txt", ctx).kind, ChangeClass::Code);
  ctx.source_dir = "";
  EXPECT_EQ(classify_change("CMakeLists.txt", ctx).kind, ChangeClass::All);
}

}  // namespace
}  // namespace cobench::select
