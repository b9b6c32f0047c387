#include "job/console.h"
#include "job/output_dir.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "formats/json_text.h"
#include "report/escape.h"
#include "report/report.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;

/// The manifest's first line: one JSON string per line follows, a path relative to the folder.
constexpr std::string_view kManifestHeader = "# cobench report folder manifest 2: the files cobench wrote here";

/// The report files' names as alternatives of a regex.
std::string reports_pattern() {
  std::string out;
  for (const auto& name : report::report_file_names())
    out += (out.empty() ? "" : "|") + std::regex_replace(name, std::regex(R"([.])"), R"(\.)");
  return out;
}

/// Whether a job may write `rel`: the reports, results.jsonl, and the per-run
/// and build files named as cobench names them. Anything else is left alone.
bool written_by_jobs(const std::string& rel) {
  static const std::regex names(
      "^(results\\.jsonl|" + reports_pattern() + ")$"
      R"(|^(alloc/|instructions/|layout-[23]/)?(runs|logs)/[^/]+-(base|head)-[0-9]+(\.[0-9]+)?\.(json|xml|log)$)"
      R"(|^alloc/[^/]+-(base|head)-[0-9]+\.status$|^(layout-[23]/)?logs/(build|configure)-(base|head)\.log$)");
  return std::regex_search(rel, names);
}

/// The folders a job writes files into, each after the folders it is in (and removed, when empty, in reverse).
constexpr std::array kJobFolders = {"runs",      "logs",          "alloc",    "alloc/runs",    "alloc/logs",
                                    "instructions", "instructions/logs", "layout-2", "layout-2/runs", "layout-2/logs",
                                    "layout-3",     "layout-3/runs",     "layout-3/logs"};

/// The files in the places a job writes (not a walk of the whole folder, which may be a repository or larger).
std::set<std::string> files_where_jobs_write(const fs::path& dir) {
  std::set<std::string> out;
  std::error_code ec;
  std::vector<std::string> folders = {"."};
  folders.insert(folders.end(), kJobFolders.begin(), kJobFolders.end());
  for (const auto& folder : folders) {
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

/// The first of `folder` (relative to `dir`) and the folders it is in that is a
/// symbolic link, as a path relative to `dir`; nullopt when none is. Through
/// one, a file "inside" the report folder is a file elsewhere: cobench neither
/// deletes nor writes through it.
std::optional<fs::path> first_symlink_on(const fs::path& dir, const fs::path& folder) {
  fs::path walked;
  for (const auto& part : folder.lexically_normal()) {
    if (part == "." || part.empty()) continue;
    walked /= part;
    std::error_code ec;
    if (fs::is_symlink(fs::symlink_status(dir / walked, ec))) return walked;
  }
  return std::nullopt;
}

/// The reports present in `dir` (what `cobench report` writes).
std::set<std::string> reports_present(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& name : report::report_file_names()) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(dir / name, ec))) out.insert(name);
  }
  return out;
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
        if (number > 0 && !line.empty())
          listed.insert(formats::restore_dumped_bytes(nlohmann::json::parse(line)).get<std::string>());
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

OutputDir::OutputDir(const fs::path& dir, const std::string& origin, bool cobench_owned, Writes writes) {
  std::error_code ec;
  const fs::path absolute = fs::weakly_canonical(fs::absolute(dir), ec);
  if (absolute == absolute.root_path())
    throw InputError(fmt::format("{} {}: the root folder; give the reports a folder of their own", origin, dir.string()));
  for (const auto& part : absolute)
    if (part == ".git")
      throw InputError(fmt::format("{} {}: inside a .git folder, which is git's own (its logs/ is the reflog); give "
                                   "the reports a folder of their own",
                                   origin, dir.string()));
  fs::create_directories(absolute, ec);
  if (ec) throw InputError(fmt::format("{} {}: cannot create the report folder: {}", origin, dir.string(), ec.message()));
  dir_ = fs::canonical(absolute, ec);
  if (ec) dir_ = absolute;
  lock_ = FileLock::try_acquire(dir_ / kOutputLock, describe_this_process());
  if (!lock_)
    throw InputError(fmt::format("{} {}: in use by another cobench job ({}); give each job its own --out", origin,
                                 dir.string(), FileLock::holder_of(dir_ / kOutputLock)));
  const std::string named = fmt::format("{} {}", origin, report::sanitize_text(dir.string(), true));
  if (writes == Writes::Job)
    for (const char* folder : kJobFolders)
      if (const auto link = first_symlink_on(dir_, folder))
        throw InputError(fmt::format("{}: {} is a symbolic link (to {}); cobench neither writes nor deletes through "
                                     "one, which would reach files outside the folder; remove the link or give "
                                     "another folder",
                                     named, link->generic_string(), fs::read_symlink(dir_ / *link, ec).string()));
  const std::set<std::string> ours = read_manifest(dir_);
  const std::set<std::string> where_written =
      writes == Writes::Job ? files_where_jobs_write(dir_) : reports_present(dir_);
  for (const auto& rel : where_written)
    if (!ours.count(rel) && !cobench_owned)
      throw InputError(fmt::format("{}: holds {}, which cobench did not write and would overwrite; give an "
                                   "empty or new folder",
                                   named, rel));
  if (writes == Writes::Reports) {
    // The job that wrote the folder keeps its files and its manifest; the reports join the list.
    if (!fs::exists(dir_ / kOutputManifest, ec)) write_file_atomic(dir_ / kOutputManifest, std::string(kManifestHeader) + "\n");
    recorded_ = ours;
  } else {
    std::set<std::string> previous = ours;
    if (cobench_owned) previous.insert(where_written.begin(), where_written.end());
    remove_previous_job(previous, named);
    write_file_atomic(dir_ / kOutputManifest, std::string(kManifestHeader) + "\n");
  }
  set_written_observer([this](const fs::path& written) { record(written); });
}

void OutputDir::remove_previous_job(const std::set<std::string>& files, const std::string& named) const {
  std::error_code ec;
  for (const auto& rel : files) {
    // A manifest may list a file in a folder no job writes to (an older or an edited one): not through a link either.
    if (const auto link = first_symlink_on(dir_, fs::path(rel).parent_path())) {
      console().warning(fmt::format("{}: left {} alone: {} is a symbolic link, and cobench deletes nothing through one",
                                    named, report::sanitize_text(rel, true),
                                    report::sanitize_text(link->generic_string(), true)));
      continue;
    }
    fs::remove(dir_ / rel, ec);
  }
  for (auto folder = kJobFolders.rbegin(); folder != kJobFolders.rend(); ++folder)
    fs::remove(dir_ / *folder, ec);  // only when left empty
}

OutputDir::~OutputDir() { set_written_observer({}); }

void OutputDir::record(const fs::path& written) {
  std::error_code ec;
  const fs::path rel = fs::weakly_canonical(fs::absolute(written), ec).lexically_relative(dir_);
  if (ec || !inside(rel)) return;
  const std::string name = rel.generic_string();
  if (name == kOutputManifest || name == kOutputLock) return;
  std::lock_guard<std::mutex> guard(mutex_);
  if (!recorded_.insert(name).second) return;
  // Not written by this job yet, and the previous job's files are gone: a file there now was put
  // there by someone else while this job ran. Never overwritten (what is measured so far stays in
  // results.jsonl; `cobench report` rebuilds the reports in another folder).
  if (fs::exists(fs::symlink_status(dir_ / rel, ec)))
    throw InputError(fmt::format("{}: appeared while this job ran and cobench did not write it; cobench leaves it "
                                 "and stops: give each job a folder of its own",
                                 (dir_ / rel).string()));
  append(dir_ / kOutputManifest, formats::dump_json(name));
}

}  // namespace cobench::job
