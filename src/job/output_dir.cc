#include "job/output_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "formats/json_text.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;

/// The manifest's first line: one JSON string per line follows, a path relative to the folder.
constexpr std::string_view kManifestHeader = "# cobench report folder manifest 2: the files cobench wrote here";

/// Whether a job may write `rel`: the reports, results.jsonl, and the per-run
/// and build files named as cobench names them. Anything else is left alone.
bool written_by_jobs(const std::string& rel) {
  static const std::regex names(
      R"(^(results\.jsonl|report\.(json|md|xml|html))$)"
      R"(|^(alloc/|instructions/|layout-[23]/)?(runs|logs)/[^/]+-(base|head)-[0-9]+(\.[0-9]+)?\.(json|log)$)"
      R"(|^alloc/[^/]+-(base|head)-[0-9]+\.status$|^(layout-[23]/)?logs/(build|configure)-(base|head)\.log$)");
  return std::regex_search(rel, names);
}

/// The files in the places a job writes (not a walk of the whole folder, which may be a repository or larger).
std::set<std::string> files_where_jobs_write(const fs::path& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (const char* folder : {".", "runs", "logs", "alloc", "alloc/runs", "alloc/logs", "instructions/logs",
                             "layout-2/runs", "layout-2/logs", "layout-3/runs", "layout-3/logs"}) {
    for (auto it = fs::directory_iterator(dir / folder, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file(ec) && !it->is_symlink(ec)) continue;
      const std::string rel = (fs::path(folder) / it->path().filename()).lexically_normal().generic_string();
      if (written_by_jobs(rel)) out.insert(rel);
    }
    ec.clear();
  }
  return out;
}

/// A manifest entry that stays inside the folder: relative, without "..".
bool inside(const fs::path& rel) {
  if (rel.empty() || rel.is_absolute()) return false;
  for (const auto& part : rel)
    if (part == "..") return false;
  return true;
}

std::set<std::string> read_manifest(const fs::path& dir) {
  std::set<std::string> listed;
  std::error_code ec;
  const fs::path path = dir / kOutputManifest;
  if (!fs::exists(path, ec)) return listed;
  const std::string text = read_file(path);
  try {
    if (text.starts_with("{")) {  // cobench before the manifest was kept as files were written
      for (const auto& item : nlohmann::json::parse(text).at("files")) listed.insert(item.get<std::string>());
    } else {
      size_t number = 0;
      for (size_t from = 0; from < text.size(); ++number) {
        const size_t end = std::min(text.find('\n', from), text.size());
        const std::string line = text.substr(from, end - from);
        from = end + 1;
        if (number == 0 && line != kManifestHeader) throw std::runtime_error("no manifest header");
        if (number > 0 && !line.empty()) listed.insert(nlohmann::json::parse(line).get<std::string>());
      }
    }
  } catch (const std::exception& e) {
    throw InputError(fmt::format("{}: not a cobench manifest ({}); remove it to give the folder to cobench", path.string(),
                                 e.what()));
  }
  std::erase_if(listed, [](const std::string& rel) { return !inside(rel); });
  return listed;
}

void append(const fs::path& path, std::string_view line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;  // the job's own writes report a folder that cannot be written
  std::string text(line);
  text += '\n';
  const ssize_t ignored = ::write(fd, text.data(), text.size());
  (void)ignored;
  ::close(fd);
}

}  // namespace

OutputDir::OutputDir(const fs::path& dir, const std::string& origin, bool cobench_owned) {
  std::error_code ec;
  const fs::path absolute = fs::weakly_canonical(fs::absolute(dir), ec);
  if (absolute == absolute.root_path())
    throw InputError(fmt::format("{} {}: the root folder; give the reports a folder of their own", origin, dir.string()));
  fs::create_directories(absolute, ec);
  if (ec) throw InputError(fmt::format("{} {}: cannot create the report folder: {}", origin, dir.string(), ec.message()));
  dir_ = fs::canonical(absolute, ec);
  if (ec) dir_ = absolute;
  lock_ = FileLock::try_acquire(dir_ / kOutputLock, describe_this_process());
  if (!lock_)
    throw InputError(fmt::format("{} {}: in use by another cobench job ({}); give each job its own --out", origin,
                                 dir.string(), FileLock::holder_of(dir_ / kOutputLock)));
  const std::set<std::string> ours = read_manifest(dir_);
  for (const auto& rel : files_where_jobs_write(dir_))
    if (!ours.count(rel) && !cobench_owned)
      throw InputError(fmt::format("{} {}: holds {}, which cobench did not write and would overwrite; give an "
                                   "empty or new folder",
                                   origin, dir.string(), rel));
  std::set<std::string> previous = ours;
  if (cobench_owned)
    for (const auto& rel : files_where_jobs_write(dir_)) previous.insert(rel);
  for (const auto& rel : previous) fs::remove(dir_ / rel, ec);  // the previous job's files: replaced by this job's
  for (const char* folder : {"runs", "logs", "alloc/runs", "alloc/logs", "alloc", "instructions/logs", "instructions",
                             "layout-2/runs", "layout-2/logs", "layout-2", "layout-3/runs", "layout-3/logs", "layout-3"})
    fs::remove(dir_ / folder, ec);  // only when left empty
  write_file_atomic(dir_ / kOutputManifest, std::string(kManifestHeader) + "\n");
  set_written_observer([this](const fs::path& written) { record(written); });
}

OutputDir::~OutputDir() { set_written_observer({}); }

void OutputDir::record(const fs::path& written) {
  std::error_code ec;
  const fs::path rel = fs::weakly_canonical(fs::absolute(written), ec).lexically_relative(dir_);
  if (ec || !inside(rel)) return;
  const std::string name = rel.generic_string();
  if (name == kOutputManifest || name == kOutputLock) return;
  std::lock_guard<std::mutex> guard(mutex_);
  if (recorded_.insert(name).second) append(dir_ / kOutputManifest, formats::dump_json(name));
}

}  // namespace cobench::job
