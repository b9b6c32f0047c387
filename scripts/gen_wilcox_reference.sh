#!/bin/sh
# Regenerates tests/data/wilcox/*.json from R's wilcox.test, two-sample and
# paired, the reference cobench's statistics core is checked against. Needs
# Rscript (Debian: r-base-core); the output is committed so the tests never
# need R.
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

# Paired runs: R's signed-rank test on d = log(head) - log(base). R drops the
# zero differences before everything, so the estimate is the median of the
# Walsh averages of the non-zero ones (R's own estimate in the normal case is
# a uniroot of W(d), which cobench does not use).
paired_json <- function(label, base, head, conf) {
  t <- suppressWarnings(wilcox.test(log(head), log(base), paired = TRUE, conf.int = TRUE, conf.level = conf))
  # R widens alpha when the normal approximation cannot reach it; cobench
  # does not, so such a case would compare different things.
  stopifnot(attr(t$conf.int, "conf.level") == conf)
  d <- log(head) - log(base)
  d <- d[d != 0]
  walsh <- outer(d, d, "+")
  hl <- median(sort(walsh[!lower.tri(walsh)]) / 2)
  exact <- grepl("exact", t$method)
  sprintf(paste0('{"label": "%s", "confidence": %s, "method": "%s", "base": %s, "head": %s,',
                 ' "log_hl": %s, "log_ci_low": %s, "log_ci_high": %s, "p_value": %s}'),
          label, num(conf), if (exact) "signed-rank exact" else "signed-rank normal", arr(base), arr(head),
          num(hl), num(t$conf.int[1]), num(t$conf.int[2]), num(t$p.value))
}
paired <- character()
add_paired <- function(label, base, head, conf = 0.95) paired <<- c(paired, paired_json(label, base, head, conf))
levels <- c(0.9, 0.95, 0.955, 0.99, 0.9973)

# Exact: fewer than 50 pairs, no zero and no tied |d|. Head is base times a
# small per-pair noise, as when both run back to back on the same machine.
for (i in 1:14) {
  n <- sample(10:49, 1)
  base <- rlnorm(n, log(1000), 0.1)
  add_paired(sprintf("exact-%d", i), base, base * sample(c(1, 1.01, 1.05, 0.97), 1) * rlnorm(n, 0, 0.02),
             levels[(i - 1) %% length(levels) + 1])
}
base <- rlnorm(6, log(200), 0.1)
add_paired("exact-six-pairs", base, base * rlnorm(6, log(1.1), 0.02))  # the fewest that reach 95%
base <- c(100, 120, 140, 160, 180, 200, 220, 240)
add_paired("exact-all-slower", base, base * (1 + (1:8) / 100), 0.95)  # V = 36: p = 2/256
# Normal: ties and zeros from a coarse timer, tied |d| from swapped pairs, 50 or more pairs.
for (i in 1:5) {
  n <- sample(15:45, 1)
  base <- round(rlnorm(n, log(100), 0.05))
  add_paired(sprintf("ties-zeros-%d", i), base, round(base * rlnorm(n, log(sample(c(1, 1.02), 1)), 0.02)),
             levels[i])
}
add_paired("swapped-magnitudes", c(100, 110, 200, 230, 300, 310, 400, 420, 500, 515, 600, 640),
           c(110, 100, 230, 200, 310, 300, 400, 440, 515, 500, 640, 600))
for (i in 1:5) {
  n <- sample(50:150, 1)
  base <- rlnorm(n, log(5e4), 0.1)
  add_paired(sprintf("large-%d", i), base, base * sample(c(1, 1.03), 1) * rlnorm(n, 0, 0.03), levels[i])
}
base <- round(rlnorm(80, log(60), 0.05))
add_paired("large-ties-zeros", base, round(base * rlnorm(80, log(1.02), 0.02)), 0.9973)
writeLines(c("[", paste(paired, collapse = ",\n"), "]"), file.path(out, "paired_cases.json"))

# The signed-rank null distribution: psignrank and qsignrank over small n,
# quantiles on both sides of 0.5 (R sums from the top above it).
sr <- character()
for (n in c(1, 2, 3, 4, 5, 6, 8, 10, 13, 20, 30, 49)) {
  vs <- unique(round(seq(0, n * (n + 1) / 2, length.out = 9)))
  ps <- c(0.00135, 0.005, 0.0225, 0.025, 0.05, 0.25, 0.45, 0.55, 0.75, 0.95, 0.975, 0.99865)
  sr <- c(sr, sprintf('{"n": %d, "v": [%s], "cdf": %s, "p": %s, "quantile": [%s]}',
                      n, paste(vs, collapse = ", "), arr(psignrank(vs, n)), arr(ps),
                      paste(qsignrank(ps, n), collapse = ", ")))
}
writeLines(c("[", paste(sr, collapse = ",\n"), "]"), file.path(out, "signed_rank_distribution.json"))
RSCRIPT
echo "wrote $out/ratio_cases.json, u_distribution.json, paired_cases.json and signed_rank_distribution.json"
