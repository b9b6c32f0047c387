// configure(): the File API query, the generator choice, and failures.
#include <regex>

#include <gtest/gtest.h>

#include "cmake/cmake.h"
#include "cmake/fixtures.h"
#include "core/errors.h"
#include "support/testing.h"

namespace cobench::cmake {
namespace {

namespace fs = std::filesystem;
using cobench::testing::read_text;
using cobench::testing::TempDir;
using cobench::testing::write_file;

TEST(BuildConfigure, WritesTheQueryUsesNinjaAndLogsTheCommand) {
  TempDir tmp;
  write_file(tmp / "src/CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(p NONE)\n");
  BuildSettings settings = fixtures::settings(tmp.path(), "src", "logs/build.log");
  settings.cmake_args = {"-DMY_FLAG=on"};
  configure(settings);
  std::string query = read_text(tmp / "build/.cmake/api/v1/query/client-cobench/query.json");
  EXPECT_NE(query.find("\"codemodel\""), std::string::npos) << query;
  EXPECT_NE(query.find("\"cmakeFiles\""), std::string::npos) << query;
  std::string cache = read_text(tmp / "build/CMakeCache.txt");
  EXPECT_NE(cache.find("CMAKE_GENERATOR:INTERNAL=Ninja"), std::string::npos);
  EXPECT_TRUE(std::regex_search(cache, std::regex("\nCMAKE_BUILD_TYPE:[A-Z]+=Release\n"))) << cache;
  EXPECT_NE(cache.find("MY_FLAG:UNINITIALIZED=on"), std::string::npos);
  std::string log = read_text(settings.log_path);
  EXPECT_EQ(log.rfind("$ cmake -S ", 0), 0u) << log;
  EXPECT_NE(log.find("-DMY_FLAG=on"), std::string::npos);

  // A folder already made with another generator keeps it (cmake would refuse a switch).
  BuildSettings make_settings = settings;
  make_settings.build_dir = tmp / "make";
  make_settings.prefer_ninja = false;
  configure(make_settings);
  EXPECT_NE(read_text(tmp / "make/CMakeCache.txt").find("CMAKE_GENERATOR:INTERNAL=Unix Makefiles"),
            std::string::npos);
  make_settings.prefer_ninja = true;
  configure(make_settings);  // would fail with "Does not match the generator used previously"
  EXPECT_NE(read_text(tmp / "make/CMakeCache.txt").find("CMAKE_GENERATOR:INTERNAL=Unix Makefiles"),
            std::string::npos);
}

TEST(BuildConfigure, FailureIsOneHeadlineWithAnIndentedLogTail) {
  TempDir tmp;
  write_file(tmp / "src/CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\nproject(p NONE)\nmessage(FATAL_ERROR \"broken on purpose\")\n");
  BuildSettings settings = fixtures::settings(tmp.path(), "src");
  try {
    configure(settings);
    FAIL() << "expected InfraError";
  } catch (const InfraError& e) {
    std::string message = e.what();
    std::string headline = message.substr(0, message.find('\n'));
    EXPECT_EQ(headline.rfind("cmake configure failed (exit status 1): cmake -S " + (tmp / "src").string(), 0), 0u)
        << message;
    std::string tail = message.substr(headline.size() + 1);
    EXPECT_NE(tail.find("broken on purpose"), std::string::npos) << message;
    for (size_t at = 0; at < tail.size(); at = tail.find('\n', at) + 1) {
      EXPECT_EQ(tail.substr(at, 2), "  ") << "unindented tail line in: " << message;
      if (tail.find('\n', at) == std::string::npos) break;
    }
  }
  EXPECT_NE(read_text(settings.log_path).find("broken on purpose"), std::string::npos);
}

TEST(BuildConfigure, FolderWithoutAProjectIsAnInputErrorNamingIt) {
  TempDir tmp;
  BuildSettings settings = fixtures::settings(tmp.path(), "nowhere");
  try {
    configure(settings);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind((tmp / "nowhere").string() + ": no CMakeLists.txt", 0), 0u) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(settings.build_dir));
}

TEST(BuildConfigure, NamesTheCxxCompilerFromTheReplyOrTheCompilerFile) {
  TempDir tmp;
  write_file(tmp / "src/CMakeLists.txt", "cmake_minimum_required(VERSION 3.16)\nproject(p CXX)\n");
  BuildSettings settings = fixtures::settings(tmp.path(), "src");
  settings.cmake_args = {"-DCMAKE_CXX_COMPILER=g++"};
  configure(settings);
  const Compiler gnu = compiler(settings.build_dir);
  EXPECT_EQ(gnu.id, "GNU");
  EXPECT_FALSE(gnu.version.empty());
  EXPECT_EQ(gnu.path.filename(), "g++");
  // Without the toolchains reply (CMake before 3.20) the compiler file CMake wrote says the same.
  fs::remove_all(settings.build_dir / ".cmake/api/v1/reply");
  const Compiler from_file = compiler(settings.build_dir);
  EXPECT_EQ(from_file.id, "GNU");
  EXPECT_EQ(from_file.version, gnu.version);
  EXPECT_EQ(compiler(tmp / "nothing").id, "");
  if (fs::exists("/usr/bin/clang++")) {
    settings.build_dir = tmp / "clang";
    settings.cmake_args = {"-DCMAKE_CXX_COMPILER=clang++"};
    configure(settings);
    EXPECT_EQ(compiler(settings.build_dir).id, "Clang");
  }
}

}  // namespace
}  // namespace cobench::cmake
