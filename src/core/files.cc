#include "core/files.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.h"

namespace cobench {

namespace {

std::function<void(const std::filesystem::path&)>& written_observer() {
  static std::function<void(const std::filesystem::path&)> observer;
  return observer;
}

}  // namespace

void note_written(const std::filesystem::path& path) {
  if (const auto& observer = written_observer()) observer(path);
}

void set_written_observer(std::function<void(const std::filesystem::path&)> observer) {
  written_observer() = std::move(observer);
}

std::string read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(fmt::format("{}: is a directory, expected a file", path.string()));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot read: {}", path.string(), std::strerror(errno)));
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

static void write_all(int fd, std::string_view content, const std::filesystem::path& path) {
  while (!content.empty()) {
    ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InfraError(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
    }
    content.remove_prefix(static_cast<size_t>(n));
  }
}

void write_file_atomic(const std::filesystem::path& path, std::string_view content) {
  note_written(path);
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::filesystem::path tmp = path;
  tmp += fmt::format(".tmp{}", ::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw InfraError(fmt::format("{}: cannot create: {}", tmp.string(), std::strerror(errno)));
  write_all(fd, content, tmp);
  ::close(fd);
  std::filesystem::rename(tmp, path);
}

std::filesystem::path make_unique_dir(const std::filesystem::path& parent, const std::string& prefix) {
  std::filesystem::create_directories(parent);
  std::string pattern = (parent / (prefix + "XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw InfraError(fmt::format("{}: cannot create a folder: {}", pattern, std::strerror(errno)));
  return pattern;
}

void create_report_folder(const std::filesystem::path& path, const std::string& flag) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec)
    throw InputError(fmt::format("{} {}: cannot create the report folder: {}", flag, path.string(), ec.message()));
}

std::filesystem::path make_temp_dir(const std::string& prefix) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = (std::filesystem::path(tmp && *tmp ? tmp : "/tmp") / (prefix + "XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw InfraError(fmt::format("{}: cannot create a temporary folder: {}", pattern, std::strerror(errno)));
  return std::filesystem::canonical(pattern);
}

RemoveOnExit::~RemoveOnExit() {
  std::error_code ec;
  for (const auto& path : paths_) std::filesystem::remove_all(path, ec);
}

void append_line_durable(const std::filesystem::path& path, std::string_view line) {
  note_written(path);
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw InfraError(fmt::format("{}: cannot open: {}", path.string(), std::strerror(errno)));
  std::string buffer(line);
  buffer.push_back('\n');
  write_all(fd, buffer, path);
  ::fsync(fd);
  ::close(fd);
}

}  // namespace cobench
