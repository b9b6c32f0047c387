#include "run/catch2_runner.h"

#include <algorithm>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <pugixml.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "core/secrets.h"
#include "core/text.h"
#include "process/process.h"
#include "run/process_run.h"

namespace cobench::run {
namespace {

constexpr std::string_view kSeparator = " / ";

/// Every test case, hidden ones ([.], [!benchmark]) too: Catch2 runs only the visible ones without a spec.
constexpr const char* kEveryTestCase = "*";

/// Where a benchmark's result sits: its test case, and the sections (outermost first) inside it.
struct Place {
  std::string test_case;                ///< "" outside any
  std::vector<std::string> sections;
};

Place place_of(pugi::xml_node node) {
  Place place;
  for (; node; node = node.parent()) {
    const std::string_view name = node.name();
    if (name == "Section") place.sections.insert(place.sections.begin(), node.attribute("name").as_string());
    if (name == "TestCase") {
      place.test_case = node.attribute("name").as_string();
      break;
    }
  }
  return place;
}

/// "<test case> / <section> / ... / <benchmark>": the same benchmark name in two sections is two rows.
std::string row_name(const Place& place, const std::string& benchmark) {
  std::string name = place.test_case;
  for (const auto& section : place.sections) name += std::string(kSeparator) + section;
  return name + std::string(kSeparator) + benchmark;
}

std::string trimmed(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1));
}

/// Why a test case failed, from its first failed expression or exception ("" when it did not).
std::string failure_of(pugi::xml_node test_case) {
  const pugi::xml_node result = test_case.child("OverallResult");
  if (!result || result.attribute("success").as_bool(true)) return {};
  for (const char* what : {"Exception", "FatalErrorCondition"})
    if (auto node = test_case.find_node([&](pugi::xml_node n) { return std::string_view(n.name()) == what; }))
      return fmt::format("{}: {}", what, shorten(trimmed(node.child_value()), 300));
  if (auto expression = test_case.find_node([](pugi::xml_node n) {
        return std::string_view(n.name()) == "Expression" && !n.attribute("success").as_bool(true);
      }))
    return fmt::format("failed: {}", shorten(trimmed(expression.child("Original").child_value()), 300));
  return "failed";
}

}  // namespace

bool recognises_catch2(const cmake::TargetFacts& facts) {
  const bool catch2 = links_library(facts, R"((^|[/\\\s])(lib)?Catch2(Main|WithMain)?d?\.(so(\.[0-9]+)*|a|dylib|lib)("?)(\s|$))") ||
                      links_library(facts, R"((^|\s)-lCatch2(Main|WithMain)?(\s|$))") ||
                      links_library(facts, R"(^Catch2(Main|WithMain)?$)");
  // v2 is header-only: nothing to link, only its header to include.
  return sources_use(facts, catch2 ? "" : R"((catch2/|catch\.hpp))", {"BENCHMARK", "BENCHMARK_ADVANCED"});
}

std::string catch2_test_spec(const std::string& test_case) {
  std::string out;
  for (char c : test_case) {
    if (std::string_view("\\,[]\"*~").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

void read_catch2_samples(const std::string& xml_text, const std::string& source, RunRecord& record,
                         std::map<std::string, std::string>* test_cases) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(xml_text.data(), xml_text.size());
  if (!parsed)
    throw InputError(fmt::format("{}: byte {}: {}", source, parsed.offset, parsed.description()));
  const pugi::xml_node root = doc.child("Catch");
  if (!root) throw InputError(fmt::format("{}: not Catch2's XML report (no <Catch> element)", source));
  for (const pugi::xpath_node& found : root.select_nodes("//BenchmarkResults")) {
    const pugi::xml_node result = found.node();
    const Place place = place_of(result);
    const std::string name = row_name(place, result.attribute("name").as_string());
    if (test_cases) (*test_cases)[name] = place.test_case;
    if (const pugi::xml_node failed = result.child("failed")) {
      record.errors[name] = fmt::format("failed: {}", shorten(failed.attribute("message").as_string(), 300));
      continue;
    }
    const pugi::xml_attribute mean = result.child("mean").attribute("value");
    const double ns = mean.as_double(-1);
    if (!mean || !(ns > 0)) {
      record.errors[name] = "no measurements";
      continue;
    }
    record.samples[name] = {{"real_ns", ns}};
  }
  std::vector<std::string> failures;  // test cases, not benchmarks: said for the run, no row of their own
  for (const pugi::xpath_node& found : root.select_nodes("//TestCase"))
    if (const std::string why = failure_of(found.node()); !why.empty())
      failures.push_back(fmt::format("test case '{}' {}", found.node().attribute("name").as_string(), why));
  if (!failures.empty()) record.detail = shorten(fmt::format("{}", fmt::join(failures, "; ")), 2000);
}

namespace {

/// Which test case holds which benchmark, per program, as runs have shown it: row name -> its test case.
using TestCases = std::map<std::string, std::map<std::string, std::string>>;

/// Runs the program once with `-r xml -o FILE --benchmark-no-analysis`, the
/// user's arguments, and the test cases of the open benchmarks (every test
/// case, hidden ones too, until a run has shown which case holds which).
RunRecord run_catch2(const ProcessSettings& settings, TestCases& test_cases, const Unit& unit, Side side,
                     const std::string& sha, int run_index, const RunScope& scope) {
  RunRecord record = new_record(unit.name, side, sha, run_index);
  const auto [log, log_rel] = run_log_path(settings.out_dir, unit.name, side, run_index);
  const auto xml = settings.out_dir / "runs" / fmt::format("{}-{}-{}.xml", safe_stem(unit.name), to_string(side), run_index);
  std::filesystem::create_directories(xml.parent_path());
  note_written(xml);  // first: a file someone else put there stops the job
  std::filesystem::remove(xml);
  std::vector<std::string> argv = unit.argv;
  argv.insert(argv.end(), {"--reporter", "xml", "--out", xml.string(), "--benchmark-no-analysis"});
  for (const auto& arg : settings.bench_args) argv.push_back(arg);
  // The test cases of the open benchmarks, once a run has shown where each is; every one before that.
  auto& cases = test_cases[unit.argv.front()];
  std::set<std::string> specs;
  bool every = scope.benchmarks.empty();
  for (const auto& name : scope.benchmarks)
    if (auto it = cases.find(name); it != cases.end()) specs.insert(catch2_test_spec(it->second));
    else every = true;  // not seen yet: only running them all finds it
  // One argument, the specs joined by commas (any of them): Catch2 joins separate arguments with spaces into one name.
  argv.push_back(every ? kEveryTestCase : fmt::format("{}", fmt::join(specs, ",")));
  process::Command command = measured_command(settings, std::move(argv), unit.cwd);
  command.stdout_path = log;
  const auto result = process::run(command);
  record.log = log_rel;
  const bool ok = record_outcome(command, result, record);
  if (record.interrupted || result.signal != 0 || result.outcome != process::Result::Outcome::Exited) return record;
  const secrets::ScrubFileOnExit scrub_when_read{xml};  // published with the report folder: credentials out once read
  try {
    read_catch2_samples(read_file(xml), xml.string(), record, &cases);
  } catch (const InputError& e) {
    record.samples.clear();
    if (ok) {
      record.status = "unparsable XML";
      record.detail = secrets::scrub_and_shorten(e.what(), 2000);
    }
    return record;
  }
  // Catch2 exits with the number of failed assertions: a failing test case beside the benchmarks leaves them
  // measured (the run's detail names it).
  if (!ok && record.samples.empty()) return record;
  record.status = "ok";
  if (record.samples.empty() && record.errors.empty()) record.detail = "no Catch2 BENCHMARK ran";
  if (!scope.benchmarks.empty()) {
    const std::set<std::string> open(scope.benchmarks.begin(), scope.benchmarks.end());
    std::erase_if(record.samples, [&](const auto& entry) { return !open.count(entry.first); });
  }
  return record;
}

/// The Runner for Catch2 programs: one unit per built executable, run from the side's build folder.
class Catch2Runner final : public Runner {
 public:
  explicit Catch2Runner(ProcessSettings settings) : settings_(std::move(settings)) {}
  std::vector<Unit> prepare(const SideContext& side) override { return executable_units(side); }
  RunRecord run_once(const Unit& unit, Side side, const std::string& sha, int run_index,
                     const RunScope& scope) override {
    return run_catch2(settings_, cases_, unit, side, sha, run_index, scope);
  }

 private:
  ProcessSettings settings_;
  TestCases cases_;
};

}  // namespace

std::unique_ptr<Runner> make_catch2(const RunnerSetup& setup) { return std::make_unique<Catch2Runner>(setup.process); }

}  // namespace cobench::run
