#include "reach/index.h"

#include <charconv>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "formats/json_reader.h"
#include "formats/json_text.h"

namespace cobench::reach {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kFormat = "cobench-reach-index";
// 2: executed lines include those with no code inside a function that ran;
// an index of version 1 says "not reached" for them, so it is rebuilt.
constexpr int kVersion = 2;

json key_json(const IndexKey& key) {
  return {{"compiler", key.compiler},
          {"build_type", key.build_type},
          {"source_dir", key.source_dir},
          {"cmake_args", key.cmake_args},
          {"bench_args", key.bench_args}};
}

int read_number(std::string_view text, const std::string& whole) {
  int value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value <= 0)
    throw InputError(fmt::format("bad line ranges '{}'", whole));
  return value;
}

TargetCoverage read_target(const std::string& name, const formats::JsonReader& r) {
  TargetCoverage target;
  target.target = name;
  target.failure = r.at("failure").text();
  target.seconds = r.at("seconds").number();
  for (const auto& [instance_name, value] : r.at("instances").object().items()) {
    const formats::JsonReader item = r.at("instances").at(instance_name);
    InstanceCoverage instance;
    instance.name = instance_name;
    instance.failure = item.at("failure").text();
    instance.seconds = item.at("seconds").number();
    for (const auto& [file, ranges] : item.at("executed").object().items())
      try {
        instance.executed[file] = from_ranges(item.at("executed").at(file).text());
      } catch (const InputError& e) {
        item.at("executed").at(file).fail(e.what());
      }
    target.instances.push_back(std::move(instance));
  }
  return target;
}

json target_json(const TargetCoverage& target) {
  json instances = json::object();
  for (const auto& instance : target.instances) {
    json executed = json::object();
    for (const auto& [file, lines] : instance.executed) executed[file] = to_ranges(lines);
    instances[instance.name] = {{"failure", instance.failure}, {"seconds", instance.seconds}, {"executed", executed}};
  }
  return {{"failure", target.failure}, {"seconds", target.seconds}, {"instances", instances}};
}

}  // namespace

std::string to_ranges(const std::vector<int>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size();) {
    size_t j = i;
    while (j + 1 < lines.size() && lines[j + 1] == lines[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + (i == j ? std::to_string(lines[i]) : fmt::format("{}-{}", lines[i], lines[j]));
    i = j + 1;
  }
  return out;
}

std::vector<int> from_ranges(const std::string& text) {
  std::vector<int> lines;
  for (size_t start = 0; start < text.size();) {
    size_t end = std::min(text.find(',', start), text.size());
    const std::string_view part(text.data() + start, end - start);
    const size_t dash = part.find('-');
    const int first = read_number(part.substr(0, dash), text);
    const int last = dash == std::string_view::npos ? first : read_number(part.substr(dash + 1), text);
    if (last < first || (!lines.empty() && first <= lines.back()) || last - first > 10'000'000)
      throw InputError(fmt::format("bad line ranges '{}'", text));
    for (int line = first; line <= last; ++line) lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

ReachIndex::ReachIndex(fs::path folder, std::string base_sha, IndexKey key)
    : path_(folder / (base_sha + ".json")), base_(std::move(base_sha)), key_(std::move(key)) {
  std::error_code ec;
  if (!fs::exists(path_, ec)) return;
  json document;
  try {
    document = formats::restore_dumped_bytes(formats::parse_lenient_json(read_file(path_), path_.string()));
  } catch (const InputError& e) {
    foreign_ = true;
    note_ = fmt::format("{} is not a readable reach index ({}); left alone, not used", path_.string(), e.what());
    return;
  }
  if (!document.is_object() || document.value("format", "") != kFormat) {
    foreign_ = true;
    note_ = fmt::format("{} is not a cobench reach index; left alone, not used", path_.string());
    return;
  }
  if (const int version = document.value("version", 0); version != kVersion) {
    note_ = fmt::format("{} is a reach index of version {} (this cobench writes {}); rebuilt", path_.string(), version,
                        kVersion);
    changed_ = true;
    return;
  }
  if (document.value("base", "") != base_ || document.value("key", json()) != key_json(key_)) {
    note_ = fmt::format("{} was built for other settings (compiler, CMake or benchmark arguments); rebuilt",
                        path_.string());
    changed_ = true;  // replace it with this job's
    return;
  }
  try {
    const formats::JsonReader root(document, path_.string());
    for (const auto& [name, value] : root.at("targets").object().items())
      targets_[name] = read_target(name, root.at("targets").at(name));
    loaded_ = static_cast<int>(targets_.size());
  } catch (const InputError& e) {
    targets_.clear();
    changed_ = true;
    note_ = fmt::format("{}: damaged ({}); rebuilt", path_.string(), e.what());
  }
}

const TargetCoverage* ReachIndex::find(const std::string& target) const {
  auto it = targets_.find(target);
  return it == targets_.end() ? nullptr : &it->second;
}

void ReachIndex::add(TargetCoverage coverage) {
  const std::string name = coverage.target;
  targets_[name] = std::move(coverage);
  changed_ = true;
}

void ReachIndex::save() {
  if (!changed_ || foreign_) return;
  json targets = json::object();
  for (const auto& [name, target] : targets_) targets[name] = target_json(target);
  const json document = {{"format", kFormat}, {"version", kVersion}, {"base", base_}, {"key", key_json(key_)},
                         {"targets", targets}};
  fs::create_directories(path_.parent_path());
  write_file_atomic(path_, formats::dump_json(document) + "\n");  // instance names may hold any bytes
  changed_ = false;
}

}  // namespace cobench::reach
