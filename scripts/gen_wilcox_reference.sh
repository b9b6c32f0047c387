#!/bin/sh
# Regenerates tests/data/wilcox/*.json from R's wilcox.test, the reference
# cobench's statistics core is checked against. Needs Rscript (Debian:
# r-base-core); the output is committed so the tests never need R.
#   scripts/gen_wilcox_reference.sh [OUTPUT_DIR]
set -eu
out=${1:-"$(dirname "$0")/../tests/data/wilcox"}
mkdir -p "$out"
command -v Rscript >/dev/null || { echo "gen_wilcox_reference: Rscript not found (apt-get install r-base-core)" >&2; exit 3; }

Rscript --vanilla - "$out" <<'RSCRIPT'
args <- commandArgs(trailingOnly = TRUE)
out <- args[1]
set.seed(20261202)
num <- function(v) paste(sprintf("%.17g", v), collapse = ", ")
arr <- function(v) paste0("[", num(v), "]")

# One comparison: times (not logs) as cobench receives them; R works on logs
# with x = head, y = base, so the estimate is the log of head/base.
case_json <- function(label, base, head, conf) {
  t <- suppressWarnings(wilcox.test(log(head), log(base), conf.int = TRUE, conf.level = conf))
  exact <- grepl("exact", t$method)
  hl <- median(outer(log(head), log(base), "-"))
  sprintf(paste0('{"label": "%s", "confidence": %s, "method": "%s", "base": %s, "head": %s,',
                 ' "log_hl": %s, "log_ci_low": %s, "log_ci_high": %s, "p_value": %s}'),
          label, num(conf), if (exact) "exact" else "normal", arr(base), arr(head),
          num(hl), num(t$conf.int[1]), num(t$conf.int[2]), num(t$p.value))
}

cases <- character()
add <- function(label, base, head, conf = 0.95) cases <<- c(cases, case_json(label, base, head, conf))

# Exact: no ties, both sides under 50 (R's default exact region).
for (i in 1:12) {
  m <- sample(4:30, 1); n <- sample(4:30, 1)
  shift <- sample(c(1, 1.02, 1.1, 0.9), 1)
  add(sprintf("exact-%d", i), rlnorm(m, log(1000), 0.05), shift * rlnorm(n, log(1000), 0.05),
      sample(c(0.9, 0.95, 0.99), 1))
}
add("exact-unequal-3x40", rlnorm(3, 5, 0.1), rlnorm(40, 5.05, 0.1))
add("exact-separated", c(100, 101, 102, 103, 104), c(200, 201, 202, 203, 204))
# Normal: ties from a coarse timer, and sides of 50 or more.
for (i in 1:6) {
  m <- sample(5:30, 1); n <- sample(5:30, 1)
  add(sprintf("ties-%d", i), round(rlnorm(m, log(100), 0.03)), round(1.03 * rlnorm(n, log(100), 0.03)))
}
for (i in 1:5) {
  m <- sample(50:120, 1); n <- sample(20:120, 1)
  add(sprintf("large-%d", i), rlnorm(m, log(5e4), 0.08), sample(c(1, 1.04), 1) * rlnorm(n, log(5e4), 0.08),
      sample(c(0.9, 0.95, 0.99), 1))
}
add("large-ties", round(rlnorm(60, log(50), 0.05)), round(rlnorm(70, log(52), 0.05)))
writeLines(c("[", paste(cases, collapse = ",\n"), "]"), file.path(out, "ratio_cases.json"))

# The null distribution itself: pwilcox and qwilcox over small (m, n).
dist <- character()
for (m in c(1, 2, 3, 5, 8, 13, 30, 49)) for (n in c(1, 2, 4, 7, 20, 49)) {
  qs <- unique(round(seq(0, m * n, length.out = 7)))
  ps <- c(0.0005, 0.005, 0.025, 0.05, 0.25, 0.45)  # 0.5 itself is decided by rounding
  dist <- c(dist, sprintf('{"m": %d, "n": %d, "u": [%s], "cdf": %s, "p": %s, "quantile": [%s]}',
                          m, n, paste(qs, collapse = ", "), arr(pwilcox(qs, m, n)), arr(ps),
                          paste(qwilcox(ps, m, n), collapse = ", ")))
}
writeLines(c("[", paste(dist, collapse = ",\n"), "]"), file.path(out, "u_distribution.json"))
RSCRIPT
echo "wrote $out/ratio_cases.json and $out/u_distribution.json"
