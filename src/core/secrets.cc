#include "core/secrets.h"

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

#include "core/files.h"
#include "core/text.h"

extern char** environ;

namespace cobench::secrets {
namespace {

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

constexpr std::array kCredentialWords = {"TOKEN", "PASSWORD", "PASSWD", "SECRET", "JWT", "APIKEY", "CREDENTIALS"};
constexpr std::array kCredentialSuffixes = {"_API_KEY", "_ACCESS_KEY", "_PRIVATE_KEY", "_SECRET_KEY", "_AUTH"};
constexpr std::array kCredentialNames = {
    "CI_REPOSITORY_URL",   // https://gitlab-ci-token:<job token>@host/group/project.git
    "DOCKER_AUTH_CONFIG",  // registry credentials
    "SSH_AUTH_SOCK",       // the way to the SSH agent's keys
    "NETRC",
    // What `cobench post` reads its tokens from (src/post/environment.cc); the word rule covers them too.
    "COBENCH_GITLAB_TOKEN", "GITHUB_TOKEN"};

/// What shorten() and shorten_saying_size() put where they cut.
constexpr std::string_view kCutMarker = "…";

/// Length of the longest proper prefix of `value`, of at least kMinScrubbedLength
/// bytes, that `text` ends with at byte `end`; 0 when there is none.
size_t cut_prefix_length(std::string_view text, size_t end, std::string_view value) {
  // Each candidate starts with the value's first kMinScrubbedLength bytes: found
  // with one search of the window, as this runs on every string of every report.
  const std::string_view head = value.substr(0, kMinScrubbedLength);
  const std::string_view before = text.substr(0, end);
  for (size_t at = before.find(head, end - std::min(end, value.size() - 1)); at != std::string_view::npos;
       at = before.find(head, at + 1))
    if (before.substr(at) == value.substr(0, end - at)) return end - at;
  return 0;
}

/// Where a log kept to its first and last bytes dropped its middle: the
/// positions of its marker lines (kLogCutOpen … kLogCutClose on one line).
std::vector<size_t> log_cuts(std::string_view text) {
  std::vector<size_t> out;
  for (size_t at = text.find(kLogCutOpen); at != std::string_view::npos; at = text.find(kLogCutOpen, at + 1)) {
    const size_t close = text.find(kLogCutClose, at + kLogCutOpen.size());
    if (close != std::string_view::npos && text.substr(at + 1, close - at - 1).find('\n') == std::string_view::npos)
      out.push_back(at);
  }
  return out;
}

/// Length of the longest proper suffix of `value`, of at least
/// kMinScrubbedLength bytes, that `text` starts with at byte `start`; 0 when
/// there is none.
size_t cut_suffix_length(std::string_view text, size_t start, std::string_view value) {
  const std::string_view after = text.substr(start);
  for (size_t length = std::min(value.size() - 1, after.size()); length >= kMinScrubbedLength; --length)
    if (after.substr(0, length) == value.substr(value.size() - length)) return length;
  return 0;
}

/// `text` with the last part of a credential replaced where a log resumes
/// after its cut (the first part went with the dropped middle, or before it).
std::string scrub_cut_suffixes(std::string text, const std::vector<Secret>& secrets) {
  const std::vector<size_t> cuts = log_cuts(text);
  for (auto cut = cuts.rbegin(); cut != cuts.rend(); ++cut) {  // back to front: positions stay valid
    const size_t start = text.find(kLogCutClose, *cut) + kLogCutClose.size();
    for (const auto& secret : secrets) {
      if (secret.value.size() <= kMinScrubbedLength) continue;
      if (const size_t length = cut_suffix_length(text, start, secret.value); length > 0) {
        text.replace(start, length, fmt::format("[redacted ${}]", secret.name));
        break;
      }
    }
  }
  return text;
}

/// `text` with the first part of a credential cut off at a cut marker or at its end
/// replaced (its whole values are already replaced).
std::string scrub_cut_prefixes(std::string text, const std::vector<Secret>& secrets) {
  std::vector<size_t> cut_ends;  // where a cut text may end: before each marker, and the end
  for (size_t at = text.find(kCutMarker); at != std::string::npos; at = text.find(kCutMarker, at + 1))
    cut_ends.push_back(at);
  for (size_t at : log_cuts(text)) cut_ends.push_back(at);
  std::sort(cut_ends.begin(), cut_ends.end());
  cut_ends.push_back(text.size());
  // Back to front, so that a replacement does not move the positions still to look at.
  for (auto end = cut_ends.rbegin(); end != cut_ends.rend(); ++end) {
    for (const auto& secret : secrets) {
      if (secret.value.size() <= kMinScrubbedLength) continue;
      if (const size_t length = cut_prefix_length(text, *end, secret.value); length > 0) {
        text.replace(*end - length, length, fmt::format("[redacted ${}]", secret.name));
        break;
      }
    }
  }
  return text;
}

}  // namespace

bool is_credential_name(std::string_view name) {
  const std::string key = upper(name);
  for (const char* exact : kCredentialNames)
    if (key == exact) return true;
  for (std::string_view suffix : kCredentialSuffixes)
    if (key.size() > suffix.size() && key.ends_with(suffix)) return true;
  for (size_t from = 0; from <= key.size();) {
    size_t end = key.find('_', from);
    if (end == std::string::npos) end = key.size();
    const std::string_view word = std::string_view(key).substr(from, end - from);
    for (std::string_view credential : kCredentialWords)
      if (word == credential) return true;
    from = end + 1;
  }
  return false;
}

std::string_view deny_list_text() {
  return "variables whose name has the word TOKEN, PASSWORD, PASSWD, SECRET, JWT, APIKEY or CREDENTIALS "
         "(between underscores, any case), names ending in _API_KEY, _ACCESS_KEY, _PRIVATE_KEY, _SECRET_KEY or "
         "_AUTH, and CI_REPOSITORY_URL, DOCKER_AUTH_CONFIG, SSH_AUTH_SOCK, NETRC";
}

std::vector<Secret> credentials_in(const std::map<std::string, std::string>& env) {
  std::vector<Secret> out;
  for (const auto& [name, value] : env)
    if (is_credential_name(name)) out.push_back({name, value});
  std::stable_sort(out.begin(), out.end(),
                   [](const Secret& a, const Secret& b) { return a.value.size() > b.value.size(); });
  return out;
}

const std::vector<Secret>& process_credentials() {
  static const std::vector<Secret> found = [] {
    std::map<std::string, std::string> env;
    for (char** entry = environ; entry && *entry; ++entry) {
      const std::string item = *entry;
      const size_t eq = item.find('=');
      if (eq != std::string::npos) env.emplace(item.substr(0, eq), item.substr(eq + 1));
    }
    return credentials_in(env);
  }();
  return found;
}

std::string scrub(std::string_view text, const std::vector<Secret>& secrets) {
  std::string out(text);
  for (const auto& secret : secrets) {
    if (secret.value.size() < kMinScrubbedLength) continue;
    const std::string replacement = fmt::format("[redacted ${}]", secret.name);
    for (size_t at = out.find(secret.value); at != std::string::npos; at = out.find(secret.value, at))
      out.replace(at, secret.value.size(), replacement), at += replacement.size();
  }
  return scrub_cut_suffixes(scrub_cut_prefixes(std::move(out), secrets), secrets);
}

std::string scrub_and_shorten(std::string_view text, size_t max_bytes) {
  return shorten_saying_size(scrub(text), max_bytes);
}

std::string scrub(std::string_view text) { return scrub(text, process_credentials()); }

void scrub_file(const std::filesystem::path& path) {
  if (process_credentials().empty()) return;
  std::error_code ec;
  if (path.empty() || !std::filesystem::is_regular_file(path, ec)) return;
  try {
    const std::string text = read_file(path);
    if (std::string clean = scrub(text); clean != text) write_file_atomic(path, clean);
  } catch (const std::exception&) {
    // unreadable: nothing of it is published by cobench either
  }
}

}  // namespace cobench::secrets
