#pragma once
// Going on with a campaign that stopped (interrupted, or the machine was
// needed): the jobs an earlier `cobench validate --out DIR` finished are read
// back from DIR, and only the rest run. A campaign of 100 jobs takes two hours;
// a sitting lost to a reboot should not cost the jobs it finished.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "validate/campaign.h"

namespace cobench::validate {

/// What the earlier sittings of a campaign left in its --out folder.
struct EarlierSittings {
  std::vector<JobResult> jobs;        ///< read back from jobs/NNN/, in run order, each with its method
  std::vector<std::string> commands;  ///< each earlier sitting's command line, first first
  double wall_seconds = 0;            ///< their wall time added up
};

/// `out`/summary.json, which --resume goes on from; throws InputError naming it when it is not there.
std::filesystem::path earlier_summary(const std::filesystem::path& out);

/// Reads `out`/summary.json, written by an earlier `cobench validate --out`
/// of the same campaign, and the report folders of the jobs it lists.
/// `now` is the summary this sitting would write (to_json of its context and
/// fixture): the methods (names and flags, in order), every job's own flags
/// (a temporary --work-dir aside), the fixture, the repository and its commit
/// must be the same, and each listed job must be of the method `order` gives its index.
/// Throws InputError naming summary.json (or a job's report) and what differs.
EarlierSittings read_earlier_sittings(const std::filesystem::path& out, const nlohmann::json& now,
                                      const std::vector<int>& order);

}  // namespace cobench::validate
