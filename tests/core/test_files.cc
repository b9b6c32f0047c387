#include "core/files.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "support/testing.h"

namespace cobench {
namespace {

TEST(Files, ReadOfMissingFileNamesThePath) {
  try {
    read_file("/nonexistent/x.json");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.json: cannot read"), std::string::npos);
  }
}

TEST(Files, ReadOfDirectoryIsAnError) {
  testing::TempDir dir;
  EXPECT_THROW(read_file(dir.path()), InputError);
}

TEST(Files, AtomicWriteReplacesContentAndLeavesNoTemp) {
  testing::TempDir dir;
  write_file_atomic(dir / "a/report.json", "one");
  write_file_atomic(dir / "a/report.json", "two");
  EXPECT_EQ(read_file(dir / "a/report.json"), "two");
  int files = 0;
  for (auto& e : std::filesystem::directory_iterator(dir / "a")) (void)e, ++files;
  EXPECT_EQ(files, 1);
}

TEST(Files, AppendLineAddsNewlineTerminatedLines) {
  testing::TempDir dir;
  append_line_durable(dir / "r.jsonl", "{\"a\":1}");
  append_line_durable(dir / "r.jsonl", "{\"a\":2}");
  EXPECT_EQ(read_file(dir / "r.jsonl"), "{\"a\":1}\n{\"a\":2}\n");
}

}  // namespace
}  // namespace cobench
