#include "support/testing.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/files.h"

namespace cobench::testing {

TempDir::TempDir() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/cobench-test-XXXXXX";
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  path_ = std::filesystem::canonical(pattern);
}

TempDir::~TempDir() {
  if (std::getenv("COBENCH_KEEP_TEST_DIRS")) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void write_file(const std::filesystem::path& path, std::string_view content) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
}

std::string read_text(const std::filesystem::path& path) { return cobench::read_file(path); }

std::string explain(const process::Result& result) {
  return fmt::format("{}\n--- stdout ---\n{}\n--- stderr ---\n{}", process::describe(result), result.out,
                     result.err);
}

process::Result run_checked(const std::vector<std::string>& argv, const std::filesystem::path& cwd) {
  auto result = process::run_capture(argv, cwd);
  if (!result.ok()) ADD_FAILURE() << process::quote_command_line(argv) << ": " << explain(result);
  return result;
}

GitRepo::GitRepo(std::filesystem::path dir) : dir_(std::move(dir)) {
  std::filesystem::create_directories(dir_);
  run_checked({"git", "init", "-q", "-b", "main"}, dir_);
  run_checked({"git", "config", "user.email", "test@cobench.invalid"}, dir_);
  run_checked({"git", "config", "user.name", "cobench test"}, dir_);
  run_checked({"git", "config", "commit.gpgsign", "false"}, dir_);
}

void GitRepo::write(const std::string& rel, std::string_view content) const { write_file(dir_ / rel, content); }

void GitRepo::remove(const std::string& rel) const { std::filesystem::remove(dir_ / rel); }

std::string GitRepo::git(const std::vector<std::string>& args) const {
  std::vector<std::string> argv = {"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto result = run_checked(argv, dir_);
  std::string out = result.out;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::string GitRepo::commit(const std::string& message) const {
  git({"add", "-A"});
  git({"commit", "-q", "--allow-empty", "-m", message});
  return git({"rev-parse", "HEAD"});
}

std::string gbench_cmakelists(const std::map<std::string, std::string>& targets) {
  std::string text =
      "cmake_minimum_required(VERSION 3.16)\n"
      "project(fixture CXX)\n"
      "set(CMAKE_CXX_STANDARD 17)\n"
      "find_package(benchmark REQUIRED)\n";
  for (const auto& [name, source] : targets)
    text += fmt::format("add_executable({0} {1})\ntarget_link_libraries({0} PRIVATE benchmark::benchmark)\n",
                        name, source);
  return text;
}

std::string commit_one_target_and_a_comment(const GitRepo& repo, const std::string& target, const std::string& file,
                                            const std::string& source) {
  repo.write("CMakeLists.txt", gbench_cmakelists({{target, file}}));
  repo.write(file, source);
  const std::string base = repo.commit("base");
  repo.write(file, source + "// head\n");
  repo.commit("head");
  return base;
}

WideChange write_wide_change(const GitRepo& repo, const std::vector<std::string>& targets) {
  auto source = [](const std::string& name, bool common, size_t padding) {
    return fmt::format("#include <benchmark/benchmark.h>\n{}\n"
                       "static void BM_{}(benchmark::State& state) {{\n"
                       "  for (auto _ : state) {{\n    unsigned x = {};\n"
                       "    for (int i = 0; i < 200; ++i) {{ x = x * 1664525u + 1013904223u; "
                       "benchmark::DoNotOptimize(x); }}\n  }}\n}}\n"
                       "BENCHMARK(BM_{});\nBENCHMARK_MAIN();\n// {}\n",
                       common ? "#include \"common.h\"" : "", name, common ? "seed()" : "7u", name,
                       std::string(padding, 'x'));
  };
  std::map<std::string, std::string> cmake_targets = {{"bench_ctl", "ctl.cc"}};
  repo.write("ctl.cc", source("ctl", false, 0));
  for (size_t i = 0; i < targets.size(); ++i) {
    cmake_targets["bench_" + targets[i]] = targets[i] + ".cc";
    repo.write(targets[i] + ".cc", source(targets[i], true, 200 * (i + 1)));
  }
  repo.write("CMakeLists.txt", gbench_cmakelists(cmake_targets));
  repo.write("common.h", "#pragma once\ninline unsigned seed() { return 7u; }\n");
  WideChange out;
  out.base = repo.commit("base");
  repo.write("common.h", "#pragma once\n// the head edits a header every benchmark includes\ninline unsigned seed() { return 7u; }\n");
  out.head = repo.commit("head");
  return out;
}

std::string cobench_exe() {
  const char* other = std::getenv("COBENCH_TEST_EXE");
  return other && *other ? other : COBENCH_EXE;
}

process::Result run_cobench(const std::vector<std::string>& args, const std::filesystem::path& cwd,
                            const std::vector<std::pair<std::string, std::string>>& env,
                            double timeout_seconds) {
  process::Command command;
  command.argv = {cobench_exe()};
  command.argv.insert(command.argv.end(), args.begin(), args.end());
  command.cwd = cwd;
  command.env_overrides = env;
  command.timeout_seconds = timeout_seconds;
  command.stop_on_cancellation = false;
  return process::run(command);
}

}  // namespace cobench::testing
