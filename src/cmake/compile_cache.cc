// The compile cache both sides share (ccache): found once per job, applied to
// each side's configure and build, and its hits counted from a per-side log.
#include "cmake/compile_cache.h"

#include <cstdlib>
#include <fstream>
#include <string_view>

#include <fmt/format.h>

#include "core/errors.h"
#include "process/process.h"

namespace cobench::cmake {

namespace fs = std::filesystem;

namespace {

/// Whether the CMake arguments set the cache variable `name`
/// (-DNAME=..., -DNAME:TYPE=..., or -D followed by NAME=... as its own argument).
bool sets_variable(const std::vector<std::string>& cmake_args, std::string_view name) {
  for (std::string_view arg : cmake_args) {
    if (arg.starts_with("-D")) arg.remove_prefix(2);
    while (arg.starts_with(' ')) arg.remove_prefix(1);
    if (arg.starts_with(name) && arg.size() > name.size() && (arg[name.size()] == '=' || arg[name.size()] == ':'))
      return true;
  }
  return false;
}

/// The compiler launcher of `lang` is the user's when the CMake arguments or
/// the environment (CMake reads CMAKE_<LANG>_COMPILER_LAUNCHER from it) set one.
bool user_chose_launcher(const std::vector<std::string>& cmake_args, const std::string& lang) {
  const std::string name = "CMAKE_" + lang + "_COMPILER_LAUNCHER";
  const char* from_env = std::getenv(name.c_str());
  return sets_variable(cmake_args, name) || (from_env && *from_env);
}

/// A CMake project include that maps the build folder to "." in the debug
/// info of C and C++ objects (GCC and Clang), so neither side's absolute path
/// ends up in an object the other side may take from the cache. Sources and
/// headers under the job folder are already relative (ccache's base_dir);
/// what is left is the compilation directory, which is the build folder.
std::string prefix_map_include(const fs::path& build_dir) {
  return fmt::format(
      "# Written by cobench for this build folder: keeps its path out of the debug info so that\n"
      "# base and head compile identical objects, which ccache then shares between them.\n"
      "include_guard(GLOBAL)\n"
      "set(cobench_prefix_map [==[-fdebug-prefix-map={}=.]==])\n"
      "add_compile_options(\"$<$<COMPILE_LANG_AND_ID:C,GNU,Clang,AppleClang>:${{cobench_prefix_map}}>\"\n"
      "                    \"$<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:${{cobench_prefix_map}}>\")\n",
      build_dir.string());
}

/// Characters that would end a generator expression or a bracket argument early.
bool safe_in_generator_expression(const std::string& text) {
  return text.find_first_of(">,;$\"\\") == std::string::npos && text.find("]==]") == std::string::npos;
}

/// ccache's own cache folder under `env`, as `ccache --get-config cache_dir` says; empty when it cannot tell.
fs::path ccache_cache_dir(const fs::path& program, const std::vector<std::pair<std::string, std::string>>& env) {
  process::Command command;
  command.argv = {program.string(), "--get-config", "cache_dir"};
  command.env_overrides = env;
  command.keep_output_bytes = 0;
  const process::Result result = process::run(command);
  if (!result.ok()) return {};
  std::string dir = result.out;
  while (!dir.empty() && (dir.back() == '\n' || dir.back() == '\r')) dir.pop_back();
  return dir;
}

}  // namespace

CompileCache find_compile_cache(bool enabled, const std::string& off_reason, const fs::path& base_dir,
                                const fs::path& cache_dir) {
  CompileCache cache;
  if (!enabled) {
    cache.why_not = off_reason;
    return cache;
  }
  const auto program = process::find_on_path("ccache");
  if (!program) {
    cache.why_not = "ccache not found on PATH";
    return cache;
  }
  cache.program = fs::absolute(*program);  // the launcher runs from the build folders
  // base_dir: absolute paths under the job folder are hashed (and compiled) relative
  // to the build folder, the same on both sides; hash_dir = false: the build
  // folder's own path is not hashed either.
  cache.env = {{"CCACHE_BASEDIR", base_dir.string()}, {"CCACHE_NOHASHDIR", "1"}};
  if (!cache_dir.empty()) {
    cache.env.emplace_back("CCACHE_DIR", cache_dir.string());
    cache.configured_dir = true;
  }
  cache.cache_dir = cache_dir.empty() ? ccache_cache_dir(cache.program, cache.env) : cache_dir;
  return cache;
}

void use_compile_cache(const CompileCache& cache, BuildSettings& settings) {
  if (cache.program.empty()) return;
  fs::create_directories(settings.build_dir);
  settings.cache_stats_log = settings.build_dir / "cobench-ccache-stats.log";
  std::error_code ec;
  fs::remove(settings.cache_stats_log, ec);
  settings.env.insert(settings.env.end(), cache.env.begin(), cache.env.end());
  settings.env.emplace_back("CCACHE_STATSLOG", settings.cache_stats_log.string());
  for (const std::string lang : {"C", "CXX"})
    if (!user_chose_launcher(settings.cmake_args, lang))
      settings.cmake_args.push_back(fmt::format("-DCMAKE_{}_COMPILER_LAUNCHER={}", lang, cache.program.string()));
  // A project include of the user's own stays theirs; so does a build folder
  // whose path cannot be written into a generator expression (the debug info
  // then keeps the path, which costs nothing but its accuracy).
  if (sets_variable(settings.cmake_args, "CMAKE_PROJECT_INCLUDE") ||
      !safe_in_generator_expression(settings.build_dir.string()))
    return;
  const fs::path include = settings.build_dir / "cobench-compile-cache.cmake";
  std::ofstream(include) << prefix_map_include(settings.build_dir);
  settings.cmake_args.push_back("-DCMAKE_PROJECT_INCLUDE=" + include.string());
}

CacheStats read_cache_stats(const fs::path& stats_log) {
  CacheStats stats;
  std::ifstream log(stats_log);
  // One call: "# <source>", then one counter per line until the next call.
  enum class Call { None, Open, Hit, Miss } call = Call::None;
  auto close = [&] {
    if (call == Call::Hit) ++stats.hits;
    else if (call == Call::Miss) ++stats.misses;
    else if (call == Call::Open) ++stats.uncacheable;
  };
  for (std::string line; std::getline(log, line);) {
    if (line.starts_with("# ")) {
      close();
      call = Call::Open;
    } else if (call != Call::None && (line == "direct_cache_hit" || line == "preprocessed_cache_hit")) {
      call = Call::Hit;
    } else if (call == Call::Open && line == "cache_miss") {
      call = Call::Miss;
    }
  }
  close();
  return stats;
}

std::string describe(const CacheStats& stats) {
  if (stats.lookups() == 0 && stats.uncacheable == 0) return "no compilation went through ccache";
  std::string text = fmt::format("{} of {} compilations from the cache ({:.0f}%)", stats.hits, stats.lookups(),
                                 stats.lookups() ? 100.0 * stats.hits / stats.lookups() : 0.0);
  if (stats.uncacheable) text += fmt::format(", {} it could not cache", stats.uncacheable);
  return text;
}

}  // namespace cobench::cmake
