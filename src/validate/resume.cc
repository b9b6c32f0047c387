#include "validate/resume.h"

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "formats/json_text.h"

namespace cobench::validate {
namespace {

namespace fs = std::filesystem;

/// A job's flags without the temporary --work-dir of a --repo campaign, which differs in every sitting.
nlohmann::json without_work_dir(const nlohmann::json& args) {
  nlohmann::json kept = nlohmann::json::array();
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--work-dir") {
      ++i;  // and its value
      continue;
    }
    kept.push_back(args[i]);
  }
  return kept;
}

/// The methods' names and flags, in order: what makes two campaigns' jobs alike.
nlohmann::json method_identities(const nlohmann::json& methods) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& m : methods) out.push_back({{"name", m.at("name")}, {"args", m.at("args")}});
  return out;
}

}  // namespace

fs::path earlier_summary(const fs::path& out) {
  const fs::path path = out / "summary.json";
  if (!fs::exists(path))
    throw InputError(fmt::format("{}: not found; --resume goes on with the campaign an earlier `cobench validate "
                                 "--out {}` wrote there",
                                 path.string(), out.string()));
  return path;
}

EarlierSittings read_earlier_sittings(const fs::path& out, const nlohmann::json& now, const std::vector<int>& order) {
  const fs::path path = earlier_summary(out);
  const nlohmann::json earlier = formats::parse_lenient_json(read_file(path), path.string());
  const auto differs = [&](const std::string& what, const nlohmann::json& then, const nlohmann::json& today) {
    return InputError(fmt::format("{}: --resume: {} differ from this command's ({} there, {} now); give the same "
                                  "flags, or another --out for a new campaign",
                                  path.string(), what, then.dump(), today.dump()));
  };
  try {
    if (earlier.at("tool") != "validate") throw InputError(fmt::format("{}: not a cobench validate summary", path.string()));
    const nlohmann::json methods_then = method_identities(earlier.at("methods"));
    const nlohmann::json methods_now = method_identities(now.at("methods"));
    if (methods_then != methods_now) throw differs("the methods", methods_then, methods_now);
    if (without_work_dir(earlier.at("job_args")) != without_work_dir(now.at("job_args")))
      throw differs("every job's flags", earlier.at("job_args"), now.at("job_args"));
    for (const char* field : {"repository", "fixture", "layout_control"})
      if (earlier.at(field) != now.at(field)) throw differs(fmt::format("the {}", field), earlier.at(field), now.at(field));
    // A --repo campaign measures one commit against itself: another commit is another campaign.
    if (earlier.value("repository_commit", nlohmann::json()) != now.at("repository_commit"))
      throw differs("the repository's commits", earlier.value("repository_commit", nlohmann::json()),
                    now.at("repository_commit"));

    EarlierSittings sittings;
    if (const auto resumed = earlier.find("resumed"); resumed != earlier.end() && resumed->is_object()) {
      sittings.commands = resumed->at("commands").get<std::vector<std::string>>();
      sittings.wall_seconds = resumed->at("wall_seconds").get<double>();
    }
    sittings.commands.push_back(earlier.at("command").get<std::string>());
    sittings.wall_seconds += earlier.at("wall_seconds").get<double>();

    std::vector<JobResult> by_index(order.size());
    std::vector<bool> seen(order.size(), false);
    const auto& methods = earlier.at("methods");
    for (size_t m = 0; m < methods.size(); ++m)
      for (const auto& listed : methods[m].at("jobs")) {
        const int index = listed.at("index").get<int>();
        if (index < 1 || static_cast<size_t>(index) > order.size() || order[index - 1] != static_cast<int>(m) ||
            seen[index - 1])
          throw InputError(fmt::format("{}: job {} of method '{}' is not where this campaign of {} jobs runs it",
                                       path.string(), index, methods[m].at("name").get<std::string>(), order.size()));
        JobResult job = read_job(out / "jobs" / fmt::format("{:03}", index));
        job.index = index;
        job.method = static_cast<int>(m);
        job.exit_code = listed.at("exit_code").get<int>();
        job.wall_seconds = listed.at("wall_seconds").get<double>();
        by_index[index - 1] = std::move(job);
        seen[index - 1] = true;
      }
    for (size_t i = 0; i < order.size(); ++i)
      if (seen[i]) sittings.jobs.push_back(std::move(by_index[i]));
    return sittings;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not a summary cobench validate wrote: {}", path.string(), e.what()));
  }
}

}  // namespace cobench::validate
