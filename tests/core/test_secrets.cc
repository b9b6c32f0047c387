#include "core/secrets.h"

#include <gtest/gtest.h>

namespace cobench::secrets {
namespace {

TEST(Secrets, TheDenyListNamesCiTokensPasswordsKeysAndWhatPostReads) {
  for (const char* name : {"COBENCH_GITLAB_TOKEN", "GITHUB_TOKEN", "CI_JOB_TOKEN", "CI_JOB_JWT", "CI_JOB_JWT_V2",
                           "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_RUNTIME_TOKEN", "CI_REGISTRY_PASSWORD",
                           "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "OPENAI_API_KEY", "my_api_key", "NPM_TOKEN",
                           "TWINE_PASSWORD", "AZURE_CLIENT_SECRET", "CI_REPOSITORY_URL", "DOCKER_AUTH_CONFIG",
                           "SSH_AUTH_SOCK", "GOOGLE_APPLICATION_CREDENTIALS", "VAULT_TOKEN", "TOKEN", "SECRET",
                           "DEPLOY_PRIVATE_KEY", "NPM_CONFIG__AUTH"})
    EXPECT_TRUE(is_credential_name(name)) << name;
  for (const char* name : {"PATH", "HOME", "CI", "CI_COMMIT_SHA", "CI_PROJECT_ID", "CI_MERGE_REQUEST_IID",
                           "CI_API_V4_URL", "GITHUB_REPOSITORY", "GITHUB_EVENT_PATH", "TOKENIZERS_PARALLELISM",
                           "COBENCH_BUDGET", "CCACHE_DIR", "PWD", "KEYBOARD", "SECRETARY", "LD_PRELOAD"})
    EXPECT_FALSE(is_credential_name(name)) << name;
}

TEST(Secrets, ScrubReplacesEveryValueLongestFirstAndLeavesShortOnes) {
  const auto found = credentials_in({{"PATH", "/usr/bin"},
                                     {"CI_JOB_TOKEN", "abc123abc123"},
                                     {"CI_REPOSITORY_URL", "https://gitlab-ci-token:abc123abc123@example.com/g/p.git"},
                                     {"SHORT_TOKEN", "1"}});
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found.front().name, "CI_REPOSITORY_URL");
  EXPECT_EQ(scrub("clone https://gitlab-ci-token:abc123abc123@example.com/g/p.git; token abc123abc123abc123abc123 1",
                  found),
            "clone [redacted $CI_REPOSITORY_URL]; token [redacted $CI_JOB_TOKEN][redacted $CI_JOB_TOKEN] 1");
  EXPECT_EQ(scrub("nothing here", found), "nothing here");
}

TEST(Secrets, ScrubReplacesTheFirstPartOfAValueWhereATextWasCut) {
  const auto found = credentials_in({{"COBENCH_GITLAB_TOKEN", "glpat-SEKRETabcdef123456"}});
  // Cut by shorten() and its kin, and cut at the end of a text.
  EXPECT_EQ(scrub("filler glpat-SEKRETabc… (2100 bytes)", found), "filler [redacted $COBENCH_GITLAB_TOKEN]… (2100 bytes)");
  EXPECT_EQ(scrub("a glpat-SEKRETabcdef12", found), "a [redacted $COBENCH_GITLAB_TOKEN]");
  // Whole values first, then the cut one; fewer than 8 bytes of it are left (nothing a token can be guessed from).
  EXPECT_EQ(scrub("glpat-SEKRETabcdef123456 glpat-SEKRETabcdef…", found),
            "[redacted $COBENCH_GITLAB_TOKEN] [redacted $COBENCH_GITLAB_TOKEN]…");
  EXPECT_EQ(scrub("ends in glpat-S", found), "ends in glpat-S");
  EXPECT_EQ(scrub("glpat-SEKRETab and more", found), "glpat-SEKRETab and more");  // not cut there
}

TEST(Secrets, ScrubReplacesBothPartsOfAValueALogsCutSplit) {
  // process::BoundedOutput keeps a log's first and last bytes and marks the dropped middle on its
  // own line; a value split there left its first part before the line and its last part after it.
  const auto found = credentials_in({{"COBENCH_GITLAB_TOKEN", "glpat-SEKRETabcdef123456"}});
  const std::string cut = "\n[cobench: 100,023 bytes cut here]\n";
  EXPECT_EQ(scrub("PPPPglpat-SEKRET" + cut + "abcdef123456QQQ", found),
            "PPPP[redacted $COBENCH_GITLAB_TOKEN]" + cut + "[redacted $COBENCH_GITLAB_TOKEN]QQQ");
  // A last part shorter than 8 bytes is left: nothing a token can be guessed from.
  EXPECT_EQ(scrub("x" + cut + "123456QQQ", found), "x" + cut + "123456QQQ");
  // Text that only looks like the marker is no cut.
  EXPECT_EQ(scrub("[cobench: note]\nabcdef123456", found), "[cobench: note]\nabcdef123456");
}

}  // namespace
}  // namespace cobench::secrets
