#include "host/host.h"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "process/process.h"

namespace cobench::host {
namespace {

namespace fs = std::filesystem;
const fs::path kCpuRoot = "/sys/devices/system/cpu";
constexpr int kMaxCpu = 1 << 16;  // beyond any real machine: a typo, not a range to expand

std::string trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(begin, end - begin + 1));
}

// Sysfs and procfs files report size 0, so read them as streams; nullopt when unreadable.
std::optional<std::string> read_small(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<int> to_int(std::string_view text) {
  int value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || ptr != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

std::vector<int> online_cpus() {
  if (auto text = read_small(kCpuRoot / "online"))
    if (auto cpus = parse_cpu_list(trim(*text)); cpus && !cpus->empty()) return *cpus;
  std::vector<int> cpus;
  long count = ::sysconf(_SC_NPROCESSORS_ONLN);
  for (long i = 0; i < count; ++i) cpus.push_back(static_cast<int>(i));
  return cpus;
}

// The CPUs this process may run on: a container's cpuset can exclude online CPUs.
std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

// One governor when all online CPUs agree, else each distinct one ("performance,powersave").
std::optional<std::string> scaling_governor(const std::vector<int>& cpus) {
  std::set<std::string> governors;
  for (int cpu : cpus)
    if (auto text = read_small(kCpuRoot / fmt::format("cpu{}", cpu) / "cpufreq/scaling_governor"))
      governors.insert(trim(*text));
  if (governors.empty()) return std::nullopt;
  return fmt::format("{}", fmt::join(governors, ","));
}

std::optional<bool> read_flag(const fs::path& path) {
  auto text = read_small(path);
  if (!text) return std::nullopt;
  std::string value = trim(*text);
  if (value != "0" && value != "1") return std::nullopt;
  return value == "1";
}

// Frequency boost makes runs depend on temperature and on what the other cores do.
std::optional<bool> turbo_enabled() {
  if (auto boost = read_flag(kCpuRoot / "cpufreq/boost")) return *boost;
  if (auto no_turbo = read_flag(kCpuRoot / "intel_pstate/no_turbo")) return !*no_turbo;
  return std::nullopt;
}

// The load when the job started: a busy machine explains wide intervals.
std::optional<nlohmann::json> load_average() {
  auto text = read_small("/proc/loadavg");
  if (!text) return std::nullopt;
  std::istringstream in(*text);
  double one = 0, five = 0, fifteen = 0;
  if (!(in >> one >> five >> fifteen)) return std::nullopt;
  return nlohmann::json::array({one, five, fifteen});
}

std::optional<std::string> compiler_version(const std::string& compiler) {
  auto result = process::run_capture({compiler.empty() ? "c++" : compiler, "--version"});
  if (!result.ok()) return std::nullopt;
  std::string first = trim(result.out.substr(0, result.out.find('\n')));
  if (first.empty()) return std::nullopt;
  return first;
}

std::string utc_now() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

}  // namespace

std::optional<std::vector<int>> parse_cpu_list(std::string_view text) {
  std::set<int> cpus;
  std::string_view rest = text;
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (comma != std::string_view::npos && rest.empty()) return std::nullopt;  // trailing comma
    size_t dash = item.find('-');
    auto first = to_int(item.substr(0, dash));
    auto last = dash == std::string_view::npos ? first : to_int(item.substr(dash + 1));
    if (!first || !last || *last < *first || *last > kMaxCpu) return std::nullopt;
    for (int cpu = *first; cpu <= *last; ++cpu) cpus.insert(cpu);
  }
  return std::vector<int>(cpus.begin(), cpus.end());
}

std::optional<std::string> cpuinfo_field(std::string_view cpuinfo, std::string_view key) {
  std::istringstream lines{std::string(cpuinfo)};
  for (std::string line; std::getline(lines, line);) {
    size_t colon = line.find(':');
    if (colon == std::string::npos || trim(line.substr(0, colon)) != key) continue;
    return trim(line.substr(colon + 1));
  }
  return std::nullopt;
}

std::optional<long long> parse_cache_size(std::string_view text) {
  std::string t = trim(text);
  long long scale = 1;
  if (!t.empty() && (t.back() == 'K' || t.back() == 'M' || t.back() == 'G')) {
    scale = t.back() == 'K' ? 1LL << 10 : t.back() == 'M' ? 1LL << 20 : 1LL << 30;
    t.pop_back();
  }
  auto value = to_int(t);
  if (!value || t.empty()) return std::nullopt;
  return *value * scale;
}

nlohmann::json read_cache_sizes(const fs::path& cache_dir) {
  nlohmann::json caches = nlohmann::json::object();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(cache_dir, ec)) {
    if (entry.path().filename().string().rfind("index", 0) != 0) continue;
    auto level = read_small(entry.path() / "level");
    auto type = read_small(entry.path() / "type");
    auto size = read_small(entry.path() / "size");
    if (!level || !type || !size || !parse_cache_size(*size)) continue;
    std::string kind = trim(*type);
    std::string suffix = kind == "Data" ? "d" : kind == "Instruction" ? "i" : "";
    caches["L" + trim(*level) + suffix] = trim(*size);
  }
  return caches;
}

static std::vector<int> intersect(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  return both;
}

int choose_pin_cpu(const std::vector<int>& online, const std::vector<int>& affinity, const std::vector<int>& isolated,
                   const std::optional<std::vector<int>>& cpuset) {
  if (cpuset)
    if (auto quiet = intersect(intersect(isolated, online), *cpuset); !quiet.empty()) return quiet.back();
  if (auto usable = intersect(online, affinity); !usable.empty()) return usable.back();
  return online.empty() ? 0 : online.back();
}

namespace {

// The cgroup v2 cpuset this process lives in; nullopt when not readable.
std::optional<std::vector<int>> cgroup_cpuset() {
  auto membership = read_small("/proc/self/cgroup");
  if (!membership || membership->rfind("0::", 0) != 0) return std::nullopt;
  std::string group = trim(membership->substr(3, membership->find('\n') - 3));
  auto text = read_small(fs::path("/sys/fs/cgroup") / fs::path(group).relative_path() / "cpuset.cpus.effective");
  if (!text) return std::nullopt;
  return parse_cpu_list(trim(*text));
}

std::vector<int> isolated_cpus() {
  auto text = read_small(kCpuRoot / "isolated");
  if (!text) return {};
  return parse_cpu_list(trim(*text)).value_or(std::vector<int>{});
}

}  // namespace

int last_online_cpu() { return choose_pin_cpu(online_cpus(), allowed_cpus(), isolated_cpus(), cgroup_cpuset()); }

std::optional<std::string> why_not_pinnable(int cpu) {
  const std::vector<int> online = online_cpus(), allowed = allowed_cpus();
  auto listed = [](const std::vector<int>& cpus) { return fmt::format("{}", fmt::join(cpus, ",")); };
  if (!online.empty() && std::find(online.begin(), online.end(), cpu) == online.end())
    return fmt::format("CPU {} is not online (online: {})", cpu, listed(online));
  auto has = [cpu](const std::vector<int>& cpus) { return std::find(cpus.begin(), cpus.end(), cpu) != cpus.end(); };
  // An isolated CPU never shows in the affinity mask; inside this cgroup's cpuset it is the best pin there is.
  const auto cpuset = cgroup_cpuset();
  if (has(isolated_cpus()) && (!cpuset || has(*cpuset))) return std::nullopt;
  if (!allowed.empty() && !has(allowed))
    return fmt::format("CPU {} is outside the CPUs this process may use ({})", cpu, listed(allowed));
  return std::nullopt;
}

nlohmann::json collect_host_context(const std::string& compiler) {
  nlohmann::json host = nlohmann::json::object();
  std::vector<int> cpus = online_cpus();
  if (auto text = read_small(kCpuRoot / "online")) host["online_cpus"] = trim(*text);
  host["cpu_count"] = cpus.size();
  if (auto cpuinfo = read_small("/proc/cpuinfo")) {
    // x86 says "model name"; many ARM kernels only give "Hardware" or "Processor".
    for (const char* key : {"model name", "Hardware", "Processor"})
      if (auto model = cpuinfo_field(*cpuinfo, key)) {
        host["cpu_model"] = *model;
        break;
      }
    if (auto mhz = cpuinfo_field(*cpuinfo, "cpu MHz"))
      if (double value = std::atof(mhz->c_str()); value > 0) host["mhz"] = value;
  }
  if (auto max_khz = read_small(kCpuRoot / "cpu0/cpufreq/cpuinfo_max_freq"))
    if (auto khz = to_int(trim(*max_khz))) host["max_mhz"] = *khz / 1000.0;
  if (auto caches = read_cache_sizes(kCpuRoot / "cpu0/cache"); !caches.empty()) host["caches"] = caches;
  if (auto governor = scaling_governor(cpus)) host["governor"] = *governor;
  if (auto turbo = turbo_enabled()) host["turbo"] = *turbo;
  if (auto smt = read_flag(kCpuRoot / "smt/active")) host["smt"] = *smt;
  if (auto isolated = read_small(kCpuRoot / "isolated"); isolated && !trim(*isolated).empty())
    host["isolated_cpus"] = trim(*isolated);
  if (auto load = load_average()) host["load_average"] = *load;
  struct utsname names{};
  if (::uname(&names) == 0) {
    host["kernel"] = fmt::format("{} {}", names.sysname, names.release);
    host["arch"] = names.machine;
  }
  char hostname[256] = {};
  if (::gethostname(hostname, sizeof hostname - 1) == 0 && hostname[0]) host["hostname"] = hostname;
  if (auto version = compiler_version(compiler)) host["compiler"] = *version;
  host["containment"] = process::containment();  // whether a run's leftovers could escape the kill
  host["date"] = utc_now();
  return host;
}

}  // namespace cobench::host
