#pragma once
// Credentials in the environment. A CI job's environment holds tokens
// (COBENCH_GITLAB_TOKEN, GITHUB_TOKEN, CI_JOB_TOKEN, ...); nothing cobench
// builds or measures needs them, and anything it publishes could leak them.
// So builds and benchmark runs get the environment without the variables the
// deny list names (unless `[run] pass_env` lets one through), and everything
// cobench publishes has those variables' values replaced: the second line of
// defence for a value that reached an output some other way.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cobench::secrets {

/// Whether a variable of this name holds a credential (case-insensitive):
/// a name whose '_'-separated words include TOKEN, PASSWORD, PASSWD, SECRET,
/// JWT, APIKEY or CREDENTIALS; a name ending in _API_KEY, _ACCESS_KEY,
/// _PRIVATE_KEY, _SECRET_KEY or _AUTH; and CI_REPOSITORY_URL (GitLab puts the
/// job token in it), DOCKER_AUTH_CONFIG, SSH_AUTH_SOCK, NETRC. The variables
/// `cobench post` reads its tokens from (COBENCH_GITLAB_TOKEN, GITHUB_TOKEN)
/// are among them.
bool is_credential_name(std::string_view name);

/// The deny list in words, for --help and errors.
std::string_view deny_list_text();

/// A credential variable and its value.
struct Secret {
  std::string name;
  std::string value;
};

/// Values shorter than this are not replaced in what cobench publishes: "1"
/// or "true" would garble every report, and no real token is that short.
inline constexpr size_t kMinScrubbedLength = 8;

/// The credentials among `env`, longest value first (so a value that holds
/// another is replaced whole).
std::vector<Secret> credentials_in(const std::map<std::string, std::string>& env);

/// The credentials of this process's environment as it was the first time
/// this is called (so later withholding does not make them unknown).
const std::vector<Secret>& process_credentials();

/// `text` with every value of `secrets` of at least kMinScrubbedLength bytes
/// replaced by "[redacted $NAME]". A text cut short (shorten() and its kin
/// end the cut with "…") may end in the first part of a value, which no longer
/// matches it whole: a prefix of kMinScrubbedLength bytes or more right before
/// a "…" or at the end of the text is replaced too; so are the first part of a
/// value before, and its last part (kMinScrubbedLength bytes or more) after, a
/// log's "[cobench: N bytes cut here]" line, which may split one.
std::string scrub(std::string_view text, const std::vector<Secret>& secrets);

/// scrub() with process_credentials(): what every published text goes through.
std::string scrub(std::string_view text);

/// `text` scrubbed, then cut to `max_bytes` as shorten_saying_size() cuts:
/// scrubbing first, so that a credential cut in half is still found whole.
std::string scrub_and_shorten(std::string_view text, size_t max_bytes);

/// Scrubs a file cobench wrote (a run's or a build's log) in place; a file
/// that cannot be read or holds no credential is left as it is.
void scrub_file(const std::filesystem::path& path);

/// Scrubs a file when it leaves scope, however it leaves (a benchmark's own
/// output, kept in the report folder, once its names have been read).
struct ScrubFileOnExit {
  const std::filesystem::path& path;
  ~ScrubFileOnExit() { scrub_file(path); }
};

}  // namespace cobench::secrets
