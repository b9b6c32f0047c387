#include "job/output_dir.h"

#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;

/// Files under `dir` as relative paths, without the lock and the manifest.
std::set<std::string> files_under(const fs::path& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_directory(ec)) continue;
    const std::string rel = fs::relative(it->path(), dir, ec).generic_string();
    if (rel != kOutputManifest && rel != kOutputLock) out.insert(rel);
  }
  return out;
}

/// Whether a job may write `rel`: the reports, results.jsonl, and the per-run
/// and build files named as cobench names them. Anything else is left alone.
bool written_by_jobs(const std::string& rel) {
  static const std::regex names(
      R"(^(results\.jsonl|report\.(json|md|xml|html))$)"
      R"(|^(alloc/|instructions/)?(runs|logs)/[^/]+-(base|head)-[0-9]+\.(json|log)$)"
      R"(|^alloc/[^/]+-(base|head)-[0-9]+\.status$|^logs/(build|configure)-(base|head)\.log$)");
  return std::regex_search(rel, names);
}

std::set<std::string> read_manifest(const fs::path& dir) {
  std::set<std::string> listed;
  std::error_code ec;
  if (!fs::exists(dir / kOutputManifest, ec)) return listed;
  try {
    const nlohmann::json manifest = nlohmann::json::parse(read_file(dir / kOutputManifest));
    for (const auto& item : manifest.at("files")) listed.insert(item.get<std::string>());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not a cobench manifest: {}", (dir / kOutputManifest).string(), e.what()));
  }
  return listed;
}

}  // namespace

OutputDir::OutputDir(const fs::path& dir, const std::string& origin, bool cobench_owned) : dir_(dir) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw InputError(fmt::format("{} {}: cannot create the report folder: {}", origin, dir_.string(), ec.message()));
  lock_ = FileLock::try_acquire(dir_ / kOutputLock, describe_this_process());
  if (!lock_)
    throw InputError(fmt::format("{} {}: in use by another cobench job ({}); give each job its own --out", origin,
                                 dir_.string(), FileLock::holder_of(dir_ / kOutputLock)));
  const std::set<std::string> ours = read_manifest(dir_);
  for (const auto& rel : files_under(dir_)) {
    const bool cobench_wrote = ours.count(rel) || (cobench_owned && written_by_jobs(rel));
    if (cobench_wrote) {
      fs::remove(dir_ / rel, ec);  // the previous job's file: replaced by this job's
    } else if (written_by_jobs(rel)) {
      throw InputError(fmt::format("{} {}: holds {}, which cobench did not write and would overwrite; give an "
                                   "empty or new folder",
                                   origin, dir_.string(), rel));
    } else {
      foreign_.insert(rel);
    }
  }
  for (const char* folder : {"runs", "logs", "alloc/runs", "alloc/logs", "alloc", "instructions/logs", "instructions"})
    fs::remove(dir_ / folder, ec);  // only when left empty
}

OutputDir::~OutputDir() {
  nlohmann::json files = nlohmann::json::array();
  for (const auto& rel : files_under(dir_))
    if (!foreign_.count(rel)) files.push_back(rel);
  try {
    write_file_atomic(dir_ / kOutputManifest, nlohmann::json{{"files", files}}.dump(1) + "\n");
  } catch (const std::exception&) {
    // A full disk must not hide the job's own error; the next job then asks for an empty folder.
  }
}

}  // namespace cobench::job
