#pragma once
// OUT/results.jsonl: the job's durable record. Line 1 is the host context,
// then the settings, then one line per finished run (plus stop and note
// lines). Every line is flushed to disk, so a killed job loses at most the
// line being written; `cobench report` rebuilds every report from this file.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/job_settings.h"
#include "results/record.h"
#include "results/run_length.h"
#include "verdict/change_reach.h"

namespace cobench::results {

/// A target that was built on one side only, with the benchmarks it lists.
struct OneSidedTarget {
  std::string target;
  Side side = Side::Head;
  std::vector<std::string> names;
};

/// What the reach pass found for one target (a "reach" line): each instance's
/// reach, and the target's own answer for instances it has none for.
struct ReachRecord {
  std::string target;                          ///< "" for the whole job (a runner without a coverage pass)
  verdict::ChangeReach fallback;               ///< for rows without an instance entry (unknown, with why)
  std::map<std::string, verdict::ChangeReach> instances;  ///< benchmark name -> its reach
};

/// How long building one target took on one side: what the next job's plan learns from.
struct BuildTime {
  std::string target;
  Side side = Side::Base;
  double seconds = 0;
};

/// How long one phase of the job took, as the pipeline timed it ("configure",
/// "build", "reach", "measuring", "job": the whole job up to writing the reports).
struct PhaseTime {
  std::string name;
  double seconds = 0;
};

/// Everything results.jsonl holds.
struct ResultsFile {
  nlohmann::json host = nlohmann::json::object();
  JobSettings settings;
  std::vector<RunRecord> runs;                ///< the runs of layout 1, the job's own build
  std::vector<RunRecord> layout_runs;         ///< runs of claimed rows in layouts 2 and 3 (verdict/layouts.h)
  std::map<std::string, std::string> stops;   ///< target -> why it stopped undecided
  std::vector<OneSidedTarget> one_sided;
  std::vector<BuildTime> builds;
  std::vector<std::string> notes;             ///< report-wide notes
  std::vector<ReachRecord> reach;             ///< per target (and job-wide), when a reach pass ran
  std::vector<PhaseTime> phases;              ///< in the order the job went through them
  std::map<std::string, RunLength> run_lengths;  ///< target -> its run length from the first look on (run length auto)
  bool truncated = false;                     ///< the last line was cut off (killed job)
};

/// Appends lines to a fresh results.jsonl (an old one is replaced).
class ResultsLog {
 public:
  explicit ResultsLog(std::filesystem::path path);
  const std::filesystem::path& path() const { return path_; }
  void host(const nlohmann::json& context);                              ///< {"type":"host",...}
  void settings(const JobSettings& settings);                            ///< {"type":"settings",...}
  void run(const RunRecord& record);                                     ///< {"type":"run",...}
  void stop(const std::string& target, const std::string& reason);       ///< {"type":"stop",...}
  void one_sided(const OneSidedTarget& target);                          ///< {"type":"one_sided",...}
  void build(const BuildTime& build);                                    ///< {"type":"build",...}
  void note(const std::string& text);                                    ///< {"type":"note",...}
  void reach(const ReachRecord& record);                                 ///< {"type":"reach",...}
  void phase(const PhaseTime& phase);                                    ///< {"type":"phase",...}
  void run_length(const RunLength& length);                              ///< {"type":"run_length",...}

 private:
  void append(const nlohmann::json& line);
  std::filesystem::path path_;
  std::string job_;  ///< from the settings line, stamped on every run line
};

nlohmann::json to_json(const RunRecord& record);
/// Throws InputError("SOURCE: ...") on a wrong shape.
RunRecord run_record_from_json(const nlohmann::json& json, const std::string& source);

/// Reads results.jsonl. A truncated last line is skipped (ResultsFile::truncated);
/// a malformed line elsewhere, a file without a settings line, the lines of a
/// second job (two files concatenated), or a sample that is not a positive
/// time throws InputError("FILE:LINE: ..."). So do a line type this cobench
/// does not write, a newer schema, and a run logged twice (the same target,
/// kind, layout, side and run index), whose samples would otherwise count twice.
/// A run line without a layout is of layout 1 (files before layout
/// confirmation); runs of other layouts go to ResultsFile::layout_runs.
ResultsFile read_results(const std::filesystem::path& path);

/// read_results on text already read; `source` stands for the file in errors.
ResultsFile parse_results(std::string_view text, const std::string& source);

}  // namespace cobench::results
