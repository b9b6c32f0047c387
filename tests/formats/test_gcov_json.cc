// parse_gcov_json on documents shaped as gcc 12 and gcc 14 write them, and on damage.
#include "formats/gcov_json.h"

#include <gtest/gtest.h>

#include "core/errors.h"

namespace cobench::formats {
namespace {

// Trimmed from `gcov-12 -j -t b.gcda` of a Google Benchmark program built with -O2 --coverage.
const char* kGcc12 =
    R"({"gcc_version": "12.2.0", "files": [{"lines": [{"branches": [], "count": 5338297, "line_number": 3, )"
    R"("unexecuted_block": false, "function_name": "_ZL4BM_WRN9benchmark5StateE"}], "functions": [], "file": "b.cc"}, )"
    R"({"lines": [{"branches": [], "count": 48044601, "line_number": 4, "unexecuted_block": false}, )"
    R"({"branches": [], "count": 5338289, "line_number": 5, "unexecuted_block": false}, )"
    R"({"branches": [], "count": 0, "line_number": 6, "unexecuted_block": true}], "functions": [], "file": "w.h"}], )"
    R"("format_version": "1", "current_working_directory": "/tmp/gcovexp", "data_file": "b.gcda"})";

// gcc 14 adds format_version 2, block_ids and conditions; counts stay integers.
const char* kGcc14 =
    R"({"format_version": "2", "gcc_version": "14.1.0", "current_working_directory": "/build", "data_file": "c.gcda", )"
    R"("files": [{"file": "/src/w.h", "functions": [], "lines": [{"line_number": 6, "count": 3, "block_ids": [2], )"
    R"("conditions": [], "unexecuted_block": false}, {"line_number": 9, "count": 0}]}]})";

TEST(GcovJson, ReadsExecutedAndInstrumentedLinesResolvingRelativeNames) {
  auto files = parse_gcov_json(std::string(kGcc12) + "\n", "gcov");
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].path, "/tmp/gcovexp/b.cc");
  EXPECT_EQ(files[1].path, "/tmp/gcovexp/w.h");
  EXPECT_EQ(files[1].executed, (std::vector<int>{4, 5}));
  EXPECT_EQ(files[1].instrumented, (std::vector<int>{4, 5, 6}));
}

TEST(GcovJson, MergesAFileNamedByTwoDocuments) {
  const std::string both = std::string(kGcc14) + "\n" +
                           R"({"files": [{"file": "/src/w.h", "lines": [{"line_number": 9, "count": 1}]}]})" + "\n";
  auto files = parse_gcov_json(both, "gcov");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].executed, (std::vector<int>{6, 9}));
}

TEST(GcovJson, SkipsEntriesItCannotUse) {
  const std::string odd =
      R"({"files": [{"file": "/a.h", "lines": [{"line_number": -1, "count": 1}, {"line_number": "7", "count": 1}, )"
      R"({"line_number": 8}, {"line_number": 9, "count": 2.5}, 17]}, {"lines": []}, 3, {"file": "/b.h"}]})";
  auto files = parse_gcov_json(odd, "gcov");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].instrumented, (std::vector<int>{8, 9}));
  EXPECT_EQ(files[0].executed, (std::vector<int>{9}));
}

// As gcc 12 wrote Eigen's gemm at -O3: `Index kc = blocking.kc();` (line 139)
// has no code of its own, lines 130 and 140 do; run() ran, an unused overload did not.
const char* kFoldedLine =
    R"({"files": [{"file": "/e/GeneralMatrixMatrix.h", "lines": [{"line_number": 130, "count": 31}, )"
    R"({"line_number": 140, "count": 31}, {"line_number": 141, "count": 0}, {"line_number": 160, "count": 0}], )"
    R"("functions": [{"name": "_ZN3runEv", "start_line": 128, "end_line": 142, "execution_count": 31}, )"
    R"({"name": "_ZN6unusedEv", "start_line": 150, "end_line": 161, "execution_count": 0}, )"
    R"({"name": "broken", "start_line": 170, "end_line": 165, "execution_count": 3}, {"start_line": 180}, )"
    R"({"name": "huge", "start_line": 200, "end_line": 90000000, "execution_count": 1}]}]})";

TEST(GcovJson, ALineWithoutCodeRanWhenItsFunctionRan) {
  auto files = parse_gcov_json(kFoldedLine, "gcov");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].executed, (std::vector<int>{130, 140}));
  // 128-142 but for the instrumented 130, 140 and 141 (141 has code and did not run: it stays unexecuted);
  // nothing of the function that never ran, nor of the entries without a usable span (a reversed
  // one, one without an end, one longer than any function).
  std::vector<int> expected;
  for (int line = 128; line <= 142; ++line)
    if (line != 130 && line != 140 && line != 141) expected.push_back(line);
  EXPECT_EQ(files[0].in_functions_that_ran, expected);
}

TEST(GcovJson, RefusesWhatIsNotAGcovDocument) {
  EXPECT_THROW(parse_gcov_json("{\"files\": [", "gcov"), InputError);
  EXPECT_THROW(parse_gcov_json("[1, 2]\n", "gcov"), InputError);
  try {
    parse_gcov_json(std::string(kGcc12) + "\n{\"gcc_version\": \"12\"}\n", "gcov out");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gcov out: line 2"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(parse_gcov_json("\n  \n", "gcov").empty());
}

}  // namespace
}  // namespace cobench::formats
