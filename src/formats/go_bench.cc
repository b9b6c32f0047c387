#include <cctype>
#include <charconv>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/parse.h"
#include "formats/formats.h"

// Go's benchmark text format as golang.org/x/perf/benchfmt reads it:
//   goos: linux                                   (configuration: key: value)
//   BenchmarkName/sub-8   1000   123 ns/op   45 B/op   2 allocs/op   9.5 MB/s
// Everything else (PASS, ok, FAIL, test logs) is ignored. `-count` repeats a
// name: each line is one repetition.
namespace cobench::formats {
namespace {

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// benchfmt's rule: "Benchmark" followed by end or a non-lowercase character,
// so "Benchmarking done" is prose, not a result.
bool is_benchmark_name(std::string_view word) {
  if (!word.starts_with("Benchmark")) return false;
  return word.size() == 9 || !std::islower(static_cast<unsigned char>(word[9]));
}

// benchfmt's configuration key: a lowercase first letter, no spaces, then ':'.
bool is_config_line(std::string_view line, std::string& key, std::string& value) {
  if (line.empty() || !std::islower(static_cast<unsigned char>(line[0]))) return false;
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return false;
  std::string_view k = line.substr(0, colon);
  if (k.find_first_of(" \t") != std::string_view::npos) return false;
  std::string_view rest = line.substr(colon + 1);
  if (!rest.empty() && rest[0] != ' ' && rest[0] != '\t') return false;
  auto words = fields(rest);
  key = std::string(k);
  value.clear();
  size_t begin = rest.find_first_not_of(" \t");
  if (begin != std::string_view::npos) value = std::string(rest.substr(begin, rest.find_last_not_of(" \t\r") + 1 - begin));
  return !words.empty() || rest.empty();
}

// "-8" at the end of the last path element is GOMAXPROCS, not part of the name.
std::pair<std::string, std::string> split_procs(std::string_view full) {
  static const std::regex procs(R"(^(.*)-([0-9]+)$)");
  std::string name(full);
  std::smatch match;
  if (std::regex_match(name, match, procs)) {
    return {match[1].str(), match[2].str()};
  }
  return {name, ""};
}

/// One result line before names are settled.
struct Line {
  std::string pkg;
  std::string full_name;
  std::string name;
  std::string procs;
  std::optional<double> ns;
  std::optional<double> bytes;
  std::optional<double> allocs;
  std::string error;
};

class Reader {
 public:
  explicit Reader(const std::string& source) : source_(source) {}

  void line(std::string_view text, int number) {
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    std::string key, value;
    if (is_config_line(text, key, value)) {
      config_[key] = value;
      if (key == "pkg") pkg_ = value;
      return;
    }
    auto words = fields(text);
    if (words.size() >= 3 && words[0] == "---" && (words[1] == "FAIL:" || words[1] == "SKIP:")) {
      mark_failed(words[2], words[1] == "FAIL:" ? "failed" : "skipped", number);
      return;
    }
    if (!words.empty() && std::isspace(static_cast<unsigned char>(text[0])) && failing_) {
      failing_->error += failing_->error.find(':') == std::string::npos ? ": " : " ";
      failing_->error += std::string(text.substr(text.find_first_not_of(" \t")));
      failing_ = nullptr;  // the first log line says why; the rest is noise
      return;
    }
    failing_ = nullptr;
    if (words.empty() || !is_benchmark_name(words[0]) || text[0] != 'B') return;
    if (words.size() == 1) return;  // a parent of sub-benchmarks, or a name printed before a failure
    if (words[1] == "---") {
      if (words.size() >= 4) mark_failed(words[3], words[2] == "SKIP:" ? "skipped" : "failed", number);
      return;
    }
    result(words, number);
  }

  Output finish() {
    Output output;
    std::set<std::string> pkgs;
    std::map<std::string, std::set<std::string>> procs_by_name;
    for (const auto& l : lines_) {
      pkgs.insert(l.pkg);
      procs_by_name[l.pkg + "\n" + l.name].insert(l.procs);
    }
    std::map<std::string, size_t> index;
    for (const auto& l : lines_) {
      // Keep "-N" only where the file ran one benchmark at several GOMAXPROCS
      // (-cpu 1,2,4); qualify by package only where several packages share the file.
      std::string name = procs_by_name[l.pkg + "\n" + l.name].size() > 1 ? l.full_name : l.name;
      if (pkgs.size() > 1 && !l.pkg.empty()) name = l.pkg + "." + name;
      auto [it, fresh] = index.try_emplace(name, output.entries.size());
      if (fresh) output.entries.emplace_back().name = name;
      Entry& entry = output.entries[it->second];
      if (!l.error.empty()) {
        entry = Entry();  // a failed repetition voids the others, as a crashed run would
        entry.name = name;
        entry.error = l.error;
        continue;
      }
      if (!entry.error.empty()) continue;
      if (l.ns) {
        entry.real_ns.push_back(*l.ns);
        entry.cpu_ns.push_back(*l.ns);  // Go reports wall time only
      }
      if (l.bytes) entry.bytes_per_iter.push_back(*l.bytes);
      if (l.allocs) entry.allocs_per_iter.push_back(*l.allocs);
    }
    for (auto& entry : output.entries) {
      if (entry.error.empty() && entry.real_ns.empty()) entry.error = "reports no ns/op";
    }
    for (const auto& [key, value] : config_) output.context[key] = value;
    // Only a GOMAXPROCS that fits an int: "-99999999999" ends a sub-benchmark's name, not a CPU count.
    int gomaxprocs = 0;
    if (!lines_.empty()) {
      const std::string& procs = lines_.back().procs;
      auto [end, error] = std::from_chars(procs.data(), procs.data() + procs.size(), gomaxprocs);
      if (!procs.empty() && error == std::errc() && end == procs.data() + procs.size())
        output.context["gomaxprocs"] = gomaxprocs;
    }
    return output;
  }

 private:
  [[noreturn]] void fail(int number, const std::string& message) const {
    throw InputError(fmt::format("{}:{}: {}", source_, number, message));
  }

  void result(const std::vector<std::string_view>& words, int number) {
    auto iterations = parse_number(words[1]);
    if (!iterations || *iterations < 1 || words[1].find_first_not_of("0123456789") != std::string_view::npos) {
      fail(number, fmt::format("{}: expected an iteration count, got '{}'", words[0], words[1]));
    }
    if ((words.size() - 2) % 2 != 0) fail(number, fmt::format("{}: value '{}' has no unit", words[0], words.back()));
    Line l = named(words[0]);
    for (size_t i = 2; i + 1 < words.size(); i += 2) {
      auto value = parse_number(words[i]);
      if (!value || *value < 0) fail(number, fmt::format("{}: '{}' is not a value for {}", words[0], words[i], words[i + 1]));
      std::string_view unit = words[i + 1];
      if (unit == "ns/op") l.ns = *value;
      else if (unit == "sec/op") l.ns = *value * 1e9;  // benchfmt's normalised unit
      else if (unit == "B/op") l.bytes = *value;
      else if (unit == "allocs/op") l.allocs = *value;
      // Other units (MB/s, custom b.ReportMetric x/op) have no slot in the model.
    }
    if (l.ns && *l.ns <= 0) fail(number, fmt::format("{}: ns/op must be positive", words[0]));
    lines_.push_back(std::move(l));
  }

  Line named(std::string_view full) {
    Line l;
    l.pkg = pkg_;
    l.full_name = std::string(full);
    std::tie(l.name, l.procs) = split_procs(full);
    return l;
  }

  void mark_failed(std::string_view full, const char* what, int number) {
    Line l = named(full);
    l.error = what;
    lines_.push_back(std::move(l));
    failing_ = &lines_.back();
  }

  const std::string& source_;
  std::map<std::string, std::string> config_;
  std::string pkg_;
  std::vector<Line> lines_;
  Line* failing_ = nullptr;  // a --- FAIL whose first log line gives the reason
};

}  // namespace

Output parse_go_bench(std::string_view text, const std::string& source) {
  Reader reader(source);
  int number = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    reader.line(text.substr(start, end - start), ++number);
    start = end + 1;
  }
  return reader.finish();
}

}  // namespace cobench::formats
