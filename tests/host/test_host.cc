// Host context: parsing helpers on fixture text, and the real collector on
// this machine (fields present where the machine has them, plausible types).
#include "host/host.h"

#include <cstdlib>

#include <sched.h>

#include <fstream>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/secrets.h"
#include "host/environment.h"
#include "process/process.h"
#include "support/testing.h"

namespace cobench::host {
namespace {

using Cpus = std::vector<int>;

TEST(Environment, CredentialsAreWithheldFromWhatCobenchStartsButThePassedOnesAndStayScrubbed) {
  ::setenv("COBENCH_TEST_TOKEN", "withheld-token-value", 1);
  ::setenv("COBENCH_TEST_PASSED_TOKEN", "passed-token-value", 1);
  ::setenv("COBENCH_TEST_PLAIN", "plain", 1);
  secrets::process_credentials();  // as a job does first: the values known before they go
  const auto withheld = withhold_credentials({"COBENCH_TEST_PASSED_TOKEN"});
  EXPECT_NE(std::find(withheld.begin(), withheld.end(), "COBENCH_TEST_TOKEN"), withheld.end());
  EXPECT_EQ(std::find(withheld.begin(), withheld.end(), "COBENCH_TEST_PASSED_TOKEN"), withheld.end());
  const auto child = process::run_capture({"sh", "-c", "echo \"[$COBENCH_TEST_TOKEN][$COBENCH_TEST_PASSED_TOKEN][$COBENCH_TEST_PLAIN]\""});
  EXPECT_EQ(child.out, "[][passed-token-value][plain]\n");
  EXPECT_EQ(secrets::scrub("x withheld-token-value passed-token-value"),
            "x [redacted $COBENCH_TEST_TOKEN] [redacted $COBENCH_TEST_PASSED_TOKEN]");
  EXPECT_NE(describe_withheld(withheld).find("COBENCH_TEST_TOKEN"), std::string::npos);
  ::unsetenv("COBENCH_TEST_PASSED_TOKEN");
  ::unsetenv("COBENCH_TEST_PLAIN");
}

TEST(Environment, GoogleBenchmarksFlagVariablesAreWithheldButTheBenchmarksOwnAndThePassedOnesStay) {
  ::setenv("BENCHMARK_FILTER", "NoSuchBenchmark", 1);      // would narrow every run behind the job's flags
  ::setenv("BENCHMARK_REPETITIONS", "9", 1);
  ::setenv("BENCHMARK_MIN_TIME", "2", 1);
  ::setenv("BENCHMARK_DATA_DIR", "/data", 1);              // a benchmark's own setting, not a flag
  const auto withheld = withhold_google_benchmark_flags({"BENCHMARK_MIN_TIME"});
  EXPECT_EQ(withheld, (std::vector<std::string>{"BENCHMARK_FILTER", "BENCHMARK_REPETITIONS"}));
  const auto child = process::run_capture(
      {"sh", "-c", "echo \"[$BENCHMARK_FILTER][$BENCHMARK_REPETITIONS][$BENCHMARK_MIN_TIME][$BENCHMARK_DATA_DIR]\""});
  EXPECT_EQ(child.out, "[][][2][/data]\n");
  const std::string line = describe_withheld_flags(withheld);
  EXPECT_NE(line.find("BENCHMARK_FILTER, BENCHMARK_REPETITIONS"), std::string::npos) << line;
  EXPECT_EQ(describe_withheld_flags({}), "");
  EXPECT_FALSE(is_google_benchmark_flag_variable("BENCHMARK"));
  ::unsetenv("BENCHMARK_MIN_TIME");
  ::unsetenv("BENCHMARK_DATA_DIR");
}

TEST(Host, ParsesCpuLists) {
  EXPECT_EQ(parse_cpu_list("0-3,8-11"), (Cpus{0, 1, 2, 3, 8, 9, 10, 11}));
  EXPECT_EQ(parse_cpu_list("5"), (Cpus{5}));
  EXPECT_EQ(parse_cpu_list("0,2,4-5"), (Cpus{0, 2, 4, 5}));
  EXPECT_EQ(parse_cpu_list("3,1"), (Cpus{1, 3}));
  EXPECT_EQ(parse_cpu_list(""), Cpus{});
  for (const char* bad : {"a", "1-", "-1", "3-1", "1,,2", "1,", "0-99999999", "1 2"})
    EXPECT_FALSE(parse_cpu_list(bad)) << bad;
}

TEST(Host, ReadsCpuinfoFields) {
  const char* cpuinfo =
      "processor\t: 0\n"
      "vendor_id\t: GenuineIntel\n"
      "model name\t: Intel(R) Xeon(R) CPU @ 2.20GHz\n"
      "cpu MHz\t\t: 2199.998\n"
      "\n"
      "processor\t: 1\n"
      "model name\t: something else\n";
  EXPECT_EQ(cpuinfo_field(cpuinfo, "model name"), "Intel(R) Xeon(R) CPU @ 2.20GHz");
  EXPECT_EQ(cpuinfo_field(cpuinfo, "cpu MHz"), "2199.998");
  EXPECT_FALSE(cpuinfo_field(cpuinfo, "model"));
  EXPECT_FALSE(cpuinfo_field("", "model name"));
}

TEST(Host, ParsesCacheSizes) {
  EXPECT_EQ(parse_cache_size("32K\n"), 32 * 1024);
  EXPECT_EQ(parse_cache_size("2M"), 2 * 1024 * 1024);
  EXPECT_EQ(parse_cache_size("512"), 512);
  EXPECT_FALSE(parse_cache_size("K"));
  EXPECT_FALSE(parse_cache_size("big"));
  EXPECT_FALSE(parse_cache_size(""));
}

TEST(Host, ReadsCachesFromASysfsLikeFolder) {
  testing::TempDir dir;
  auto index = [&](int i, const char* level, const char* type, const char* size) {
    auto base = dir / ("cache/index" + std::to_string(i));
    testing::write_file(base / "level", std::string(level) + "\n");
    testing::write_file(base / "type", std::string(type) + "\n");
    testing::write_file(base / "size", std::string(size) + "\n");
  };
  index(0, "1", "Data", "48K");
  index(1, "1", "Instruction", "32K");
  index(2, "2", "Unified", "2048K");
  index(3, "3", "Unified", "garbage");  // unreadable size: omitted, not invented
  testing::write_file(dir / "cache/uevent", "");
  auto caches = read_cache_sizes(dir / "cache");
  EXPECT_EQ(caches, (nlohmann::json{{"L1d", "48K"}, {"L1i", "32K"}, {"L2", "2048K"}}));
  EXPECT_TRUE(read_cache_sizes(dir / "missing").empty());
}

TEST(Host, PinsToTheLastUsableCpu) {
  EXPECT_EQ(choose_pin_cpu({0, 1, 2, 3}, {0, 1, 2, 3}, {}, std::nullopt), 3);
  EXPECT_EQ(choose_pin_cpu({0, 1, 2, 3}, {0, 1}, {}, std::nullopt), 1);        // a narrower affinity mask
  EXPECT_EQ(choose_pin_cpu({0, 1, 2, 3}, {5, 6}, {}, std::nullopt), 3);        // mask names no online CPU
  EXPECT_EQ(choose_pin_cpu({}, {}, {}, std::nullopt), 0);
}

TEST(Host, PrefersAnIsolatedCpuOnlyWhenTheCpusetAllowsIt) {
  // isolcpus=2,3: the affinity mask leaves them out, the cgroup cpuset says whether we may use them.
  EXPECT_EQ(choose_pin_cpu({0, 1, 2, 3}, {0, 1}, {2, 3}, Cpus{0, 1, 2, 3}), 3);
  EXPECT_EQ(choose_pin_cpu({0, 1, 2, 3}, {0, 1}, {2, 3}, Cpus{0, 1, 2}), 2);
  EXPECT_EQ(choose_pin_cpu({0, 1, 2, 3}, {0, 1}, {2, 3}, Cpus{0, 1}), 1);
  EXPECT_EQ(choose_pin_cpu({0, 1, 2, 3}, {0, 1}, {2, 3}, std::nullopt), 1);  // unknown cpuset: stay safe
  EXPECT_EQ(choose_pin_cpu({0, 1, 2}, {0, 1}, {3}, Cpus{0, 1, 2, 3}), 1);     // isolated but offline
}

std::vector<int> affinity() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

// With isolcpus the default pin may be an isolated CPU outside the affinity mask, by design.
bool has_isolated_cpus() {
  std::ifstream in("/sys/devices/system/cpu/isolated");
  std::string line;
  return std::getline(in, line) && !line.empty();
}

TEST(Host, LastOnlineCpuIsOneThisProcessMayUse) {
  if (has_isolated_cpus()) GTEST_SKIP() << "this machine isolates CPUs";
  std::vector<int> allowed = affinity();
  ASSERT_FALSE(allowed.empty());
  EXPECT_EQ(last_online_cpu(), allowed.back());
}

TEST(Host, LastOnlineCpuFollowsTheAffinityMask) {
  std::vector<int> allowed = affinity();
  if (allowed.size() < 2 || has_isolated_cpus()) GTEST_SKIP() << "needs two usable CPUs and no isolated ones";
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(allowed.front(), &one);
  ASSERT_EQ(sched_setaffinity(0, sizeof one, &one), 0);
  int pinned = last_online_cpu();
  cpu_set_t all;
  CPU_ZERO(&all);
  for (int cpu : allowed) CPU_SET(cpu, &all);
  ASSERT_EQ(sched_setaffinity(0, sizeof all, &all), 0);
  EXPECT_EQ(pinned, allowed.front());
}

TEST(Host, CollectsThisMachine) {
  nlohmann::json host = collect_host_context();
  SCOPED_TRACE(host.dump(2));
  ASSERT_TRUE(host.is_object());
  ASSERT_TRUE(host.contains("cpu_count"));
  EXPECT_GE(host["cpu_count"].get<int>(), 1);
  ASSERT_TRUE(host.contains("kernel"));
  EXPECT_EQ(host["kernel"].get<std::string>().rfind("Linux ", 0), 0u);
  EXPECT_TRUE(host["arch"].is_string());
  EXPECT_TRUE(host["hostname"].is_string());
  ASSERT_TRUE(host.contains("date"));
  EXPECT_TRUE(std::regex_match(host["date"].get<std::string>(),
                               std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
  ASSERT_TRUE(host.contains("compiler"));  // the test suite was built with a c++ on PATH
  EXPECT_FALSE(host["compiler"].get<std::string>().empty());
  ASSERT_TRUE(host.contains("containment"));  // a plain string: the reports' Host block shows it
  EXPECT_EQ(host["containment"], process::containment());

  std::ifstream online("/sys/devices/system/cpu/online");
  std::string online_text;
  if (std::getline(online, online_text)) {
    EXPECT_EQ(host["online_cpus"], online_text);
    EXPECT_EQ(host["cpu_count"].get<size_t>(), parse_cpu_list(online_text)->size());
  }
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string text((std::istreambuf_iterator<char>(cpuinfo)), std::istreambuf_iterator<char>());
  if (cpuinfo_field(text, "model name")) {
    EXPECT_EQ(host["cpu_model"], *cpuinfo_field(text, "model name"));
  }
  if (cpuinfo_field(text, "cpu MHz")) {
    EXPECT_GT(host["mhz"].get<double>(), 0);
  }
  if (host.contains("caches")) {
    for (auto& [level, size] : host["caches"].items()) {
      EXPECT_TRUE(std::regex_match(level, std::regex("L[1-4][di]?"))) << level;
      EXPECT_TRUE(parse_cache_size(size.get<std::string>())) << size;
    }
  }
  if (host.contains("governor")) {
    EXPECT_FALSE(host["governor"].get<std::string>().empty());
  }
  if (host.contains("turbo")) {
    EXPECT_TRUE(host["turbo"].is_boolean());
  }
  if (std::ifstream("/sys/devices/system/cpu/smt/active")) {
    EXPECT_TRUE(host["smt"].is_boolean());
  }
  if (std::ifstream("/proc/loadavg")) {
    ASSERT_TRUE(host["load_average"].is_array());
    ASSERT_EQ(host["load_average"].size(), 3u);
    for (const auto& load : host["load_average"]) EXPECT_GE(load.get<double>(), 0);
  }
}

TEST(Host, AMissingCompilerIsOmittedNotInvented) {
  nlohmann::json host = collect_host_context("/nonexistent/cc");
  EXPECT_FALSE(host.contains("compiler"));
  EXPECT_TRUE(host.contains("kernel"));
}

}  // namespace
}  // namespace cobench::host
