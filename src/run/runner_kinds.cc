#include "run/runner_kinds.h"

#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"
#include "run/catch2_runner.h"
#include "run/command_runner.h"
#include "run/gbench_runner.h"
#include "run/go_runner.h"

namespace cobench::run {
namespace {

/// Google Benchmark: libbenchmark.so.1.7.1, .../libbenchmark_main.a, -lbenchmark, or the
/// benchmark / benchmark_main targets of a vendored copy.
bool links_google_benchmark(const cmake::TargetFacts& facts) {
  return links_library(facts, R"((^|[/\\\s])(lib)?benchmark(_main)?(d)?\.(so(\.[0-9]+)*|a|dylib|lib)("?)(\s|$))") ||
         links_library(facts, R"((^|\s)-lbenchmark(_main)?(\s|$))") ||
         links_library(facts, R"(^benchmark(_main)?$)");
}

std::unique_ptr<Runner> make_gbench(const RunnerSetup& setup) {
  return std::make_unique<GoogleBenchmarkRunner>(setup.process);
}

std::unique_ptr<Runner> make_command(const RunnerSetup& setup) {
  return std::make_unique<CommandRunner>(setup.process, parse_commands(setup.commands, "--command"),
                                         parse_commands(setup.prepare, "--prepare"));
}

std::string read_head(const std::filesystem::path& path, size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string text(bytes, '\0');
  in.read(text.data(), static_cast<std::streamsize>(bytes));
  text.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return text;
}

}  // namespace

const std::vector<RunnerKind>& runner_kinds() {
  static const std::vector<RunnerKind> kinds = {
      {"gbench", "Google Benchmark", links_google_benchmark, true, false, "", make_gbench},
      {"catch2", "Catch2", recognises_catch2, false, false, "not applicable: Catch2 benchmarks report no allocation counts",
       make_catch2},
      {"go", "Go (go test -bench)", nullptr, false, false, "", make_go},
      {"command", "plain commands", nullptr, false, true,
       "not applicable: plain commands are timed as whole processes", make_command},
  };
  return kinds;
}

const RunnerKind& runner_kind(const std::string& name, const std::string& origin) {
  std::vector<std::string> names;
  for (const auto& kind : runner_kinds()) {
    if (kind.name == name) return kind;
    names.push_back(kind.name);
  }
  throw InputError(fmt::format("{}: '{}' is not one of {}", origin, name, fmt::join(names, ", ")));
}

bool links_library(const cmake::TargetFacts& facts, const std::string& library) {
  const std::regex pattern(library);
  for (const auto* list : {&facts.link_fragments, &facts.dependencies})
    for (const auto& item : *list)
      if (std::regex_search(item, pattern)) return true;
  return false;
}

bool sources_use(const cmake::TargetFacts& facts, const std::string& header, const std::vector<std::string>& macros) {
  const std::regex include(R"(^[ \t]*#[ \t]*include[ \t]*[<"].*)" + header);
  bool included = header.empty();
  std::string uses = "(^|[^A-Za-z0-9_])(";
  for (size_t i = 0; i < macros.size(); ++i) uses += (i ? "|" : "") + macros[i];
  const std::regex macro(uses + R"()[ \t]*\()");
  bool used = false;
  for (const auto& source : facts.sources) {
    std::istringstream lines(read_head(source, 1 << 20));
    for (std::string line; std::getline(lines, line) && !(included && used);) {
      if (line.size() > 4096) continue;  // generated data, not code a person wrote
      included = included || std::regex_search(line, include);
      used = used || std::regex_search(line, macro);
    }
    if (included && used) return true;
  }
  return false;
}

}  // namespace cobench::run
