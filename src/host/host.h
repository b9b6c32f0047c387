#pragma once
// The host context recorded as the first line of results.jsonl: what the
// ratios were measured on (never compared across hosts, only shown).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace cobench::host {

/// CPU model, online CPUs, MHz, cache sizes (sysfs), kernel, scaling
/// governor where readable, compiler version (`compiler --version` first
/// line; empty compiler: the CMake default c++), hostname, date, how a
/// benchmark run is contained (process::containment()); also turbo, SMT,
/// isolated CPUs and the load average where readable. Fields that cannot be
/// read are omitted, never invented.
nlohmann::json collect_host_context(const std::string& compiler = {});

/// The last online CPU (from sysfs / sched_getaffinity): the default pin.
/// An isolated CPU (isolcpus) inside this process's cgroup cpuset wins.
int last_online_cpu();

/// Why runs cannot be pinned to `cpu` ("CPU 4096 is not online (online: 0-1)",
/// "... is outside this process's CPUs (0,1)"); nullopt when they can.
std::optional<std::string> why_not_pinnable(int cpu);

/// The rule behind last_online_cpu(), on given CPU lists (sorted): the last
/// isolated, online CPU of `cpuset` (when the cpuset is known, since the
/// affinity mask never shows isolated CPUs); else the last online CPU of
/// `affinity`; else the last online CPU; else 0.
int choose_pin_cpu(const std::vector<int>& online, const std::vector<int>& affinity, const std::vector<int>& isolated,
                   const std::optional<std::vector<int>>& cpuset);

/// Parses a kernel CPU list ("0-3,8-11", "5", "") into sorted CPU numbers;
/// nullopt when malformed.
std::optional<std::vector<int>> parse_cpu_list(std::string_view text);

/// The value of the first "key : value" line of /proc/cpuinfo-style text
/// whose key is `key` (e.g. "model name"); nullopt when absent.
std::optional<std::string> cpuinfo_field(std::string_view cpuinfo, std::string_view key);

/// Sysfs cache size ("32K", "1M", "512") in bytes; nullopt when malformed.
std::optional<long long> parse_cache_size(std::string_view text);

/// The caches below a sysfs cpuN/cache folder, keyed "L1d", "L1i", "L2", "L3"
/// (level, plus d/i for split caches), valued as written ("48K").
nlohmann::json read_cache_sizes(const std::filesystem::path& cache_dir);

}  // namespace cobench::host
