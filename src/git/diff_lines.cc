// Which lines a diff touches: `git diff -U0` read hunk by hunk, for the reach
// pass (is a changed line executed by a benchmark?).
#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/errors.h"
#include "git/command.h"
#include "git/git.h"

namespace cobench::git {
namespace {

/// A path as git writes it after "--- " / "+++ ": "a/x.h", "a/x y.h<TAB>",
/// "\"a/t\\\"q.h\"" (C-quoted when it holds special characters), "/dev/null".
std::string unquoted_path(std::string_view text) {
  if (!text.empty() && text.back() == '\t') text.remove_suffix(1);  // git ends names with spaces by a TAB
  if (text.size() < 2 || text.front() != '"' || text.back() != '"') return std::string(text);
  std::string out;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c != '\\' || i + 2 >= text.size()) {
      out += c;
      continue;
    }
    char e = text[++i];
    if (e >= '0' && e <= '7') {  // \303\244: octal bytes of UTF-8
      int value = 0;
      for (int digits = 0; digits < 3 && i < text.size() - 1 && text[i] >= '0' && text[i] <= '7'; ++digits, ++i)
        value = value * 8 + (text[i] - '0');
      --i;
      out += static_cast<char>(value);
      continue;
    }
    switch (e) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'a': out += '\a'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'r': out += '\r'; break;
      case 'v': out += '\v'; break;
      default: out += e;  // \" and \\ stand for themselves
    }
  }
  return out;
}

/// "a/dir/x.h" -> "dir/x.h"; "" for /dev/null.
std::string side_path(std::string_view text, char prefix) {
  std::string path = unquoted_path(text);
  if (path == "/dev/null") return "";
  if (path.size() >= 2 && path[0] == prefix && path[1] == '/') return path.substr(2);
  return path;
}

/// "12" or "12,3" of a hunk header: start and count (count 1 when omitted).
bool read_range(std::string_view text, int& start, int& count) {
  const size_t comma = text.find(',');
  auto number = [](std::string_view digits, int& out) {
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
    return error == std::errc() && end == digits.data() + digits.size();
  };
  count = 1;
  if (comma == std::string_view::npos) return number(text, start);
  return number(text.substr(0, comma), start) && number(text.substr(comma + 1), count);
}

struct Hunk {
  int old_start = 0, old_count = 0, new_start = 0, new_count = 0;
};

/// "@@ -a,b +c,d @@ context": false when it is not one.
bool read_hunk_header(std::string_view line, Hunk& hunk) {
  if (!line.starts_with("@@ -")) return false;
  const size_t plus = line.find(" +", 4);
  const size_t end = line.find(" @@", plus == std::string_view::npos ? 4 : plus);
  if (plus == std::string_view::npos || end == std::string_view::npos) return false;
  return read_range(line.substr(4, plus - 4), hunk.old_start, hunk.old_count) &&
         read_range(line.substr(plus + 2, end - plus - 2), hunk.new_start, hunk.new_count);
}

void add_hunk(ChangedLines& file, const Hunk& hunk) {
  for (int i = 0; i < hunk.old_count; ++i) file.removed.push_back(hunk.old_start + i);
  for (int i = 0; i < hunk.new_count; ++i) file.added.push_back(hunk.new_start + i);
  // -U0 writes a pure insertion as "-a,0": it goes after base line a.
  if (hunk.old_count == 0 && hunk.new_count > 0) {
    if (hunk.old_start > 0) file.insertion_anchors.push_back(hunk.old_start);
    file.insertion_anchors.push_back(hunk.old_start + 1);
  }
}

void finish(std::vector<ChangedLines>& files) {
  for (auto& file : files)
    for (auto* lines : {&file.added, &file.removed, &file.insertion_anchors}) {
      std::sort(lines->begin(), lines->end());
      lines->erase(std::unique(lines->begin(), lines->end()), lines->end());
    }
}

}  // namespace

std::vector<ChangedLines> parse_unified_zero(std::string_view output, const std::string& command) {
  std::vector<ChangedLines> files;
  ChangedLines* file = nullptr;
  int old_left = 0, new_left = 0;  // lines still to come in the current hunk
  std::string old_path;
  size_t line_number = 0;
  for (size_t start = 0; start < output.size();) {
    size_t end = output.find('\n', start);
    if (end == std::string_view::npos) end = output.size();
    const std::string_view line = output.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (old_left > 0 || new_left > 0) {  // hunk body: "-x", "+y", and "\ No newline at end of file"
      if (line.starts_with('-')) --old_left;
      else if (line.starts_with('+')) --new_left;
      else if (!line.starts_with('\\'))
        throw InfraError(fmt::format("{}: line {}: hunk ends early", command, line_number));
      continue;
    }
    if (line.starts_with("diff --git ")) {
      file = nullptr;
      old_path.clear();
    } else if (line.starts_with("--- ")) {
      old_path = side_path(line.substr(4), 'a');
    } else if (line.starts_with("+++ ")) {
      ChangedLines changed;
      changed.old_path = old_path;
      changed.path = side_path(line.substr(4), 'b');
      if (changed.path.empty()) {
        changed.path = old_path;
        changed.deleted = true;
      }
      files.push_back(std::move(changed));
      file = &files.back();
    } else if (line.starts_with("@@")) {
      Hunk hunk;
      if (!file || !read_hunk_header(line, hunk))
        throw InfraError(fmt::format("{}: line {}: unreadable hunk header '{}'", command, line_number, line));
      add_hunk(*file, hunk);
      old_left = hunk.old_count;
      new_left = hunk.new_count;
    }
  }
  if (old_left > 0 || new_left > 0)
    throw InfraError(fmt::format("{}: the output ends inside a hunk ({} removed and {} added lines missing)", command,
                                 old_left, new_left));
  finish(files);
  return files;
}

std::vector<ChangedLines> diff_lines(const std::filesystem::path& repo, const std::string& base,
                                     const std::string& head) {
  const std::string base_sha = resolve(repo, base), head_sha = resolve(repo, head);
  // Fixed prefixes and no colour, external tool or textconv, whatever the user's diff.* settings say.
  const std::vector<std::string> args = {"diff",          "-U0",           "-M",           "--no-color",
                                         "--no-relative", "--no-ext-diff", "--no-textconv", "--src-prefix=a/",
                                         "--dst-prefix=b/", base_sha,      head_sha,       "--"};
  return parse_unified_zero(detail::git_output(repo, args),
                            fmt::format("`git diff -U0 {} {}` (in {})", base_sha, head_sha, repo.string()));
}

}  // namespace cobench::git
