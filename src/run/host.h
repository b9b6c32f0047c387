#pragma once
// The host context recorded as the first line of results.jsonl: what the
// ratios were measured on (never compared across hosts, only shown).
#include <string>

#include <nlohmann/json.hpp>

namespace cobench::run {

/// CPU model, online CPUs, MHz, cache sizes (sysfs), kernel, scaling
/// governor where readable, compiler version (`compiler --version` first
/// line; empty compiler: the CMake default c++), hostname, date. Fields that
/// cannot be read are omitted, never invented.
nlohmann::json collect_host_context(const std::string& compiler = {});

/// The last online CPU (from sysfs / sched_getaffinity): the default pin.
int last_online_cpu();

}  // namespace cobench::run
