#pragma once
// The reach index: a base commit's coverage, so that the coverage pass of a
// base is run once and every merge request on that base reuses it (a CI job
// restores the folder from its cache). It ranks targets when the cap binds
// and answers for the lines a diff deletes.
//
// One file per base commit, <folder>/<base-sha>.json (default folder
// <work-dir>/reach, setting run.reach_index), written atomically:
//
//   {"format": "cobench-reach-index", "version": 1, "base": "<sha>",
//    "key": {"compiler": "GNU 12.2.0", "build_type": "Release", "source_dir": "",
//            "cmake_args": [...], "bench_args": [...]},
//    "targets": {"bench_a": {"failure": "", "seconds": 0.42,
//                            "instances": {"BM_Work/4096": {"failure": "", "seconds": 0.05,
//                                                           "executed": {"include/work.h": "3-9,12"}}}}}}
//
// `executed` lists, per repository-relative file, the lines the instance ran
// as ascending ranges. An index whose key differs (another compiler, other
// CMake or benchmark arguments) is not used and is replaced; a file there
// that is not a reach index is never overwritten.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "reach/coverage.h"

namespace cobench::reach {

/// What a base's coverage depends on besides the commit.
struct IndexKey {
  std::string compiler;                 ///< "GNU 12.2.0"
  std::string build_type;
  std::string source_dir;
  std::vector<std::string> cmake_args;
  std::vector<std::string> bench_args;  ///< the job's filter decides which instances exist
};

/// The index of one base commit.
class ReachIndex {
 public:
  /// Reads <folder>/<base_sha>.json when it is an index with this key; starts empty otherwise (note() says why).
  ReachIndex(std::filesystem::path folder, std::string base_sha, IndexKey key);

  const std::filesystem::path& path() const { return path_; }
  /// The coverage of `target`, or nullptr when the index does not have it.
  const TargetCoverage* find(const std::string& target) const;
  /// Adds (or replaces) a target's coverage.
  void add(TargetCoverage coverage);
  /// Writes the file (atomically) when targets were added and the file is ours to write.
  void save();
  /// Targets found in the file when it was read.
  int loaded() const { return loaded_; }
  /// What happened to the file: "" when it was used as is, else why it was not (or not replaced).
  const std::string& note() const { return note_; }

 private:
  std::filesystem::path path_;
  std::string base_;
  IndexKey key_;
  std::map<std::string, TargetCoverage> targets_;
  int loaded_ = 0;
  bool changed_ = false;
  bool foreign_ = false;  ///< a file that is not a reach index: never overwritten
  std::string note_;
};

/// "3-5,9" for {3, 4, 5, 9}.
std::string to_ranges(const std::vector<int>& lines);
/// The inverse of to_ranges; throws InputError on anything else.
std::vector<int> from_ranges(const std::string& text);

}  // namespace cobench::reach
