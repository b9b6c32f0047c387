#include "run/callgrind.h"

#include <cstdlib>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "loop/loop.h"

namespace cobench::run {
namespace {

namespace fs = std::filesystem;

// A fixed cache geometry (size, associativity, line size), the same on every
// runner: an 8-way 32 KiB L1 for instructions and for data, a 16-way 8 MiB last level.
constexpr const char* kL1 = "32768,8,64";
constexpr const char* kLastLevel = "8388608,16,64";

std::vector<std::string> words_after(std::string_view line, std::string_view key) {
  std::vector<std::string> out;
  std::istringstream words{std::string(line.substr(key.size()))};
  for (std::string word; words >> word;) out.push_back(word);
  return out;
}

bool starts_with(std::string_view line, std::string_view key) { return line.substr(0, key.size()) == key; }

}  // namespace

std::vector<std::string> callgrind_command(const fs::path& out_file, bool preloaded) {
  return {"valgrind",
          "--tool=callgrind",
          "--cache-sim=yes",
          fmt::format("--I1={}", kL1),
          fmt::format("--D1={}", kL1),
          fmt::format("--LL={}", kLastLevel),
          // The preload turns each thread's collection on and off; its threads are born not collecting.
          preloaded ? "--collect-atstart=no" : "--collect-atstart=yes",
          // Totals are all cobench reads: no per-line or per-instruction costs to write.
          "--dump-line=no",
          "--dump-instr=no",
          "--callgrind-out-file=" + out_file.string()};
}

CallgrindDump parse_callgrind_dump(std::string_view text, const std::string& source) {
  CallgrindDump dump;
  std::vector<std::string> events, summary, totals;
  for (size_t from = 0; from < text.size();) {
    size_t end = text.find('\n', from);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(from, end - from);
    from = end + 1;
    if (starts_with(line, "desc: Trigger: ")) dump.trigger = std::string(line.substr(15));
    else if (starts_with(line, "events:")) events = words_after(line, "events:");
    else if (starts_with(line, "summary:")) summary = words_after(line, "summary:");
    else if (starts_with(line, "totals:")) totals = words_after(line, "totals:");
  }
  // summary: callgrind's own total of the events; totals: the sum of the cost lines (older files have only this).
  const std::vector<std::string>& counts = summary.empty() ? totals : summary;
  if (events.empty() || counts.empty()) throw InputError(source + ": no events and totals (not a callgrind output?)");
  if (counts.size() > events.size())
    throw InputError(fmt::format("{}: {} totals for {} events", source, counts.size(), events.size()));
  for (size_t i = 0; i < counts.size(); ++i) {
    char* parsed_to = nullptr;
    const double value = std::strtod(counts[i].c_str(), &parsed_to);
    if (parsed_to != counts[i].c_str() + counts[i].size() || !(value >= 0))
      throw InputError(fmt::format("{}: event {} has the count '{}'", source, events[i], counts[i]));
    for (const auto& [name, member] : verdict::kCacheEventNames)
      if (events[i] == name) dump.events.*member = value;
  }
  return dump;
}

ProcessCounts read_process_counts(const fs::path& out_file) {
  ProcessCounts counts;
  const std::string window_trigger = std::string("Client Request: ") + loop::kLoopDumpName;
  for (int part = 1;; ++part) {
    const fs::path window = out_file.string() + "." + std::to_string(part);
    std::error_code ec;
    if (!fs::exists(window, ec)) break;
    const CallgrindDump dump = parse_callgrind_dump(read_file(window), window.string());
    if (dump.trigger != window_trigger) continue;  // a dump someone else asked for
    for (const auto& [name, member] : verdict::kCacheEventNames) counts.events.*member += dump.events.*member;
    counts.loop_only = true;
  }
  if (!counts.loop_only) {
    std::error_code ec;
    if (!fs::exists(out_file, ec)) throw InputError(out_file.string() + ": callgrind wrote no output");
    counts.events = parse_callgrind_dump(read_file(out_file), out_file.string()).events;
  }
  return counts;
}

verdict::CacheEvents per_iteration(const verdict::CacheEvents& fewer, double fewer_iterations,
                                   const verdict::CacheEvents& more, double more_iterations) {
  verdict::CacheEvents out;
  const double iterations = more_iterations - fewer_iterations;
  for (const auto& [name, member] : verdict::kCacheEventNames) out.*member = (more.*member - fewer.*member) / iterations;
  return out;
}

}  // namespace cobench::run
