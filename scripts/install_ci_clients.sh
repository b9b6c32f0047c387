#!/bin/sh
# The CI clients the labelled `ci_client` tests run (tests/ci/test_ci_clients.cc):
# gitlab-ci-local (runs the GitLab template's jobs with its shell executor) and
# @action-validator/cli (validates the GitHub workflow), installed with npm into
# a cache folder the tests look in (or PREFIX, then put PREFIX/node_modules/.bin
# on PATH). gitlab-ci-local also needs rsync (Debian: apt-get install rsync).
#
# gitlab-ci-local 4.72.0 is the newest release that starts on Node 20 (4.73 and
# later use Node 22 APIs such as Set.prototype.union); it uses no API newer
# than Node 18's.
set -eu
prefix="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/cobench/ci-clients}"
gitlab_ci_local=4.72.0
action_validator=0.6.0

# Already there at these versions (`make test` runs this every time): nothing to fetch.
installed() {  # PACKAGE VERSION
  grep -q "\"version\": *\"$2\"" "$prefix/node_modules/$1/package.json" 2>/dev/null
}
if installed gitlab-ci-local "$gitlab_ci_local" && installed @action-validator/cli "$action_validator" \
   && [ -x "$prefix/node_modules/.bin/gitlab-ci-local" ] && [ -x "$prefix/node_modules/.bin/action-validator" ]; then
  echo "install_ci_clients: gitlab-ci-local $gitlab_ci_local and action-validator $action_validator in $prefix/node_modules/.bin"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "install_ci_clients: npm is missing (Debian 12: apt-get install npm)" >&2
  exit 1
fi
command -v rsync >/dev/null 2>&1 || echo "install_ci_clients: note: gitlab-ci-local needs rsync (apt-get install rsync)" >&2
mkdir -p "$prefix"
npm install --no-audit --no-fund --prefix "$prefix" "gitlab-ci-local@$gitlab_ci_local" "@action-validator/cli@$action_validator"
echo "install_ci_clients: installed into $prefix/node_modules/.bin"
