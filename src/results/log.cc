#include "results/log.h"

#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "core/secrets.h"
#include "core/text.h"
#include "formats/json_reader.h"
#include "formats/json_text.h"
#include "verdict/change_reach_json.h"

namespace cobench::results {

ResultsLog::ResultsLog(std::filesystem::path path) : path_(std::move(path)) {
  if (path_.has_parent_path()) std::filesystem::create_directories(path_.parent_path());
  write_file_atomic(path_, "");
}

void ResultsLog::append(const nlohmann::json& line) {
  // What a run printed may hold a credential and any bytes: scrubbed, and written as valid UTF-8.
  const auto scrub = [](const std::string& text) { return secrets::scrub(text); };
  append_line_durable(path_, formats::dump_json(formats::map_strings(line, scrub)));
}

void ResultsLog::host(const nlohmann::json& context) {
  nlohmann::json line = context;
  line["type"] = "host";
  append(line);
}

void ResultsLog::settings(const JobSettings& settings) {
  job_ = settings.job;
  nlohmann::json line = to_json(settings);
  line["type"] = "settings";
  append(line);
}

void ResultsLog::run(const RunRecord& record) {
  RunRecord stamped = record;
  stamped.job = job_;
  append(to_json(stamped));
}

void ResultsLog::stop(const std::string& target, const std::string& reason) {
  append({{"type", "stop"}, {"target", target}, {"reason", reason}});
}

void ResultsLog::one_sided(const OneSidedTarget& target) {
  append({{"type", "one_sided"}, {"target", target.target}, {"side", to_string(target.side)}, {"names", target.names}});
}

void ResultsLog::build(const BuildTime& build) {
  append({{"type", "build"}, {"target", build.target}, {"side", to_string(build.side)}, {"seconds", build.seconds}});
}

void ResultsLog::note(const std::string& text) { append({{"type", "note"}, {"text", text}}); }

void ResultsLog::run_length(const RunLength& length) {
  nlohmann::json line = to_json(length);
  line["type"] = "run_length";
  append(line);
}

void ResultsLog::phase(const PhaseTime& phase) {
  append({{"type", "phase"}, {"name", phase.name}, {"seconds", phase.seconds}});
}

namespace {

ReachRecord reach_record_from(const nlohmann::json& line, const std::string& where) {
  const formats::JsonReader r(line, where);
  ReachRecord record;
  if (r.has("target") && !r.at("target").is_null()) record.target = r.at("target").text();
  record.fallback = verdict::change_reach_from_json(r);
  if (r.has("instances"))
    for (const auto& [name, value] : r.at("instances").object().items())
      record.instances[name] = verdict::change_reach_from_json(r.at("instances").at(name));
  return record;
}

}  // namespace

void ResultsLog::reach(const ReachRecord& record) {
  nlohmann::json line = verdict::change_reach_json(record.fallback);
  line["type"] = "reach";
  line["target"] = record.target.empty() ? nlohmann::json() : nlohmann::json(record.target);
  nlohmann::json instances = nlohmann::json::object();
  for (const auto& [name, reach] : record.instances) instances[name] = verdict::change_reach_json(reach);
  line["instances"] = instances;
  append(line);
}

nlohmann::json to_json(const RunRecord& record) {
  nlohmann::json samples = nlohmann::json::object();
  for (const auto& [name, sample] : record.samples) samples[name] = sample;
  nlohmann::json line = {{"type", "run"},          {"job", record.job},
                         {"target", record.target},
                         {"side", to_string(record.side)}, {"sha", record.sha},
                         {"run", record.run},      {"kind", record.kind},
                         {"status", record.status}, {"exit_code", record.exit_code},
                         {"signal", record.signal}, {"wall_seconds", record.wall_seconds},
                         {"samples", samples},     {"log", record.log}};
  if (record.layout != 1) line["layout"] = record.layout;  // layout 1 is every run of files before layouts
  if (!record.errors.empty()) line["errors"] = record.errors;
  if (!record.detail.empty()) line["detail"] = record.detail;
  if (!record.command.empty()) line["command"] = record.command;
  if (!record.output_tail.empty()) line["output_tail"] = record.output_tail;
  return line;
}

RunRecord run_record_from_json(const nlohmann::json& json, const std::string& source) {
  RunRecord record;
  try {
    record.job = json.value("job", "");
    record.target = json.at("target").get<std::string>();
    auto side = side_from_string(json.at("side").get<std::string>());
    if (!side) throw InputError(source + ": 'side' must be \"base\" or \"head\"");
    record.side = *side;
    record.sha = json.value("sha", "");
    // Checked integers: nlohmann converts 1e300 to int as a plain cast, which is undefined.
    const formats::JsonReader line(json, source);
    record.run = line.at("run").integer();
    record.kind = json.value("kind", "time");
    record.layout = line.has("layout") ? line.at("layout").integer() : 1;
    if (record.layout < 1 || record.layout > 3) line.at("layout").fail("expected a code layout 1, 2 or 3");
    record.status = json.at("status").get<std::string>();
    record.exit_code = line.has("exit_code") ? line.at("exit_code").integer() : 0;
    record.signal = line.has("signal") ? line.at("signal").integer() : 0;
    record.wall_seconds = json.value("wall_seconds", 0.0);
    record.samples = json.value("samples", nlohmann::json::object()).get<std::map<std::string, Sample>>();
    for (const auto& [name, sample] : record.samples)
      for (const char* key : {"real_ns", "cpu_ns"})
        if (auto it = sample.find(key); it != sample.end() && !(std::isfinite(it->second) && it->second > 0))
          throw InputError(fmt::format("{}: sample {} {} = {} is not a positive time", source, name, key, it->second));
    record.errors = json.value("errors", nlohmann::json::object()).get<std::map<std::string, std::string>>();
    record.detail = json.value("detail", "");
    record.log = json.value("log", "");
    record.command = json.value("command", "");
    record.output_tail = json.value("output_tail", "");
  } catch (const nlohmann::json::exception& e) {
    throw InputError(source + ": bad run line: " + e.what());
  }
  return record;
}

namespace {

/// What tells the runs of one file apart: a run is logged once.
using RunKey = std::tuple<std::string, std::string, int, Side, int>;  // target, kind, layout, side, run index

/// A line's "seconds": a duration, never negative.
double seconds_of(const nlohmann::json& line, const std::string& where) {
  const double seconds = formats::JsonReader(line, where).at("seconds").number();
  if (!(std::isfinite(seconds) && seconds >= 0)) throw InputError(where + ": 'seconds' must not be negative");
  return seconds;
}

/// The reader's state between lines.
struct Reading {
  bool has_settings = false;
  std::map<RunKey, size_t> runs;  ///< where each run was first logged (1-based line)
};

void read_line(const nlohmann::json& line, const std::string& where, size_t number, ResultsFile& out,
               Reading& reading) {
  bool& has_settings = reading.has_settings;
  if (!line.is_object() || !line.contains("type") || !line["type"].is_string())
    throw InputError(where + ": expected a JSON object with a \"type\"");
  const std::string type = line["type"];
  static const std::set<std::string> kTypes = {"host", "settings", "run", "stop", "one_sided", "build", "note", "reach", "phase",
                                                "run_length"};
  if (!kTypes.count(type))
    throw InputError(fmt::format("{}: unknown line type '{}' (this cobench writes {}): written by another tool or a "
                                 "newer cobench",
                                 where, escape_invalid_utf8(shorten(type, 80)), fmt::join(kTypes, ", ")));
  try {
    if (type == "host") {
      out.host = line;
      out.host.erase("type");
    } else if (type == "settings") {
      JobSettings settings = job_settings_from_json(line, where);
      if (has_settings)
        throw InputError(fmt::format("{}: a second settings line (job '{}' after job '{}'): two jobs' results in one "
                                     "file; give each job its own --out",
                                     where, settings.job, out.settings.job));
      if (settings.schema > kResultsSchema)
        throw InputError(fmt::format("{}: written by a newer cobench (schema {}; this one reads schema {}): rebuild "
                                     "the reports with that cobench",
                                     where, settings.schema, kResultsSchema));
      out.settings = std::move(settings);
      has_settings = true;
    } else if (type == "run") {
      RunRecord record = run_record_from_json(line, where);
      if (has_settings && !record.job.empty() && !out.settings.job.empty() && record.job != out.settings.job)
        throw InputError(fmt::format("{}: a run of job '{}' in the results of job '{}': two jobs' results in one file",
                                     where, record.job, out.settings.job));
      const RunKey key{record.target, record.kind, record.layout, record.side, record.run};
      if (auto [first, fresh] = reading.runs.emplace(key, number); !fresh)
        throw InputError(fmt::format("{}: run {} of {} on the {} side ({}) is logged twice (first on line {}): its "
                                     "samples would count twice; give the file as cobench wrote it",
                                     where, record.run, escape_invalid_utf8(shorten(record.target, 200)),
                                     to_string(record.side),
                                     record.layout == 1 ? record.kind : fmt::format("{}, layout {}", record.kind, record.layout),
                                     first->second));
      (record.layout == 1 ? out.runs : out.layout_runs).push_back(std::move(record));
    } else if (type == "stop") {
      out.stops[line.at("target").get<std::string>()] = line.at("reason").get<std::string>();
    } else if (type == "one_sided") {
      auto side = side_from_string(line.at("side").get<std::string>());
      if (!side) throw InputError(where + ": 'side' must be \"base\" or \"head\"");
      out.one_sided.push_back({line.at("target").get<std::string>(), *side,
                               line.value("names", std::vector<std::string>{})});
    } else if (type == "build") {
      auto side = side_from_string(line.at("side").get<std::string>());
      if (!side) throw InputError(where + ": 'side' must be \"base\" or \"head\"");
      out.builds.push_back({line.at("target").get<std::string>(), *side, seconds_of(line, where)});
    } else if (type == "note") {
      out.notes.push_back(line.at("text").get<std::string>());
    } else if (type == "reach") {
      out.reach.push_back(reach_record_from(line, where));
    } else if (type == "run_length") {
      RunLength length = run_length_from_json(line, where);
      out.run_lengths[length.target] = std::move(length);
    } else if (type == "phase") {
      out.phases.push_back({formats::JsonReader(line, where).at("name").text(), seconds_of(line, where)});
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where + ": bad " + type + " line: " + e.what());
  }
}

}  // namespace

ResultsFile read_results(const std::filesystem::path& path) { return parse_results(read_file(path), path.string()); }

ResultsFile parse_results(std::string_view text, const std::string& source) {
  std::vector<std::string> lines;
  std::istringstream stream{std::string(text)};
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  ResultsFile out;
  Reading reading;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = fmt::format("{}:{}", source, i + 1);
    nlohmann::json json;
    try {
      json = nlohmann::json::parse(lines[i], formats::depth_limit(where));
    } catch (const nlohmann::json::parse_error& e) {
      if (i + 1 == lines.size()) {  // a job killed mid-write: keep what is complete
        out.truncated = true;
        break;
      }
      throw InputError(fmt::format("{}:{}: malformed JSON line", where, e.byte));
    } catch (const nlohmann::json::out_of_range& e) {
      // A complete line with a number beyond double's range ("1e999"): not a cut-off write.
      throw InputError(fmt::format("{}: a number out of range: {}", where, e.what()));
    }
    // A file from an older cobench may hold what it printed unscrubbed: nothing read reaches a report with a credential.
    read_line(formats::map_strings(formats::restore_dumped_bytes(json),
                                   [](const std::string& text) { return secrets::scrub(text); }),
              where, i + 1, out, reading);
  }
  if (!reading.has_settings)
    throw InputError(source + ": no settings line: not a results.jsonl written by cobench run");
  return out;
}

}  // namespace cobench::results
