#!/usr/bin/python3
"""cobench against the by-hand method, side by side, in one command (docs/by-hand.md).

The by-hand method is what a Google Benchmark user does without cobench: build both sides, run the
base binary and then the head binary pinned to one CPU with --benchmark_repetitions=R, then
Google Benchmark's compare.py, reading its U-test at alpha 0.05 against the 5% budget.

This script makes a three-family fixture repository (base, an A/A head and a +10% head), runs
cobench (its defaults) and the by-hand method at R=9 and R=20 on it, quiet and under a load that
comes and goes on the pinned CPU, several jobs per cell with the tools and cells taking turns, and
prints one markdown table: verdicts per tool and cell, and seconds per job with both sides' builds
counted for every tool. Every job's result is one line of OUT/results.jsonl; `--render` prints the
table again from that file.

Python 3 from Debian (python3, python3-scipy for compare.py's U-test, libbenchmark-tools for
compare.py itself, libbenchmark-dev, cmake, git, taskset from util-linux).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterable

BUDGET = 0.05  # the allowed slowdown both tools judge against
ALPHA = 0.05  # compare.py's default U-test level
COMPARE_PY = "/usr/share/benchmark/compare.py"  # Debian's libbenchmark-tools
QUICK_MIN_TIME = "0.01"  # --quick: seconds per benchmark run, for a smoke run only

# ---------------------------------------------------------------------------------------------
# The fixture: three families, each its own executable and its own work-size header, so a head
# changes every family through exactly one file of its own.


@dataclasses.dataclass(frozen=True)
class Family:
    target: str  # the executable
    benchmark: str  # its one Google Benchmark family
    header: str  # include/fixture/<header>: the one file the heads change for it
    constant: str  # the work size the header defines
    base_size: int  # the work size in the base; the +10% head has 1.1 times as much
    source: str  # bench/<target>.cc, with @FAMILY@, @HEADER@, @CONSTANT@ filled in
    what: str


COMPUTE_SOURCE = """\
// Compute-bound: a chain of dependent multiply-adds (a 64-bit LCG). Each step needs the result of
// the one before, so n steps take n times one step.
#include <cstdint>

#include <benchmark/benchmark.h>

#include "fixture/@HEADER@"

static void @FAMILY@(benchmark::State& state) {
  std::uint64_t x = 1;
  for (auto _ : state) {
    std::uint64_t steps = fixture::@CONSTANT@;
    // Hidden from the optimiser: the machine code is the same whatever the count.
    benchmark::DoNotOptimize(steps);
    for (std::uint64_t i = 0; i < steps; ++i) x = x * 6364136223846793005u + 1442695040888963407u;
    benchmark::DoNotOptimize(x);
  }
}
BENCHMARK(@FAMILY@);
BENCHMARK_MAIN();
"""

POINTER_CHASE_SOURCE = """\
// Memory-bound: steps of a pointer chase around one ring through 128 MB, in an order no prefetcher
// can guess. Four times a 32 MB last-level cache, so every step goes to DRAM: a ring that fits in
// that cache measures which of its lines the neighbours evicted, and was 2-9 times noisier from
// process to process.
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>

#include "fixture/@HEADER@"

static void @FAMILY@(benchmark::State& state) {
  constexpr std::uint64_t kSlots = std::uint64_t{1} << 25;  // 4-byte slots: 128 MB
  // Slot s holds the value after s of a full-period linear congruential generator modulo 2^25
  // (c odd, a - 1 a multiple of 4): one ring through every slot, written front to back in a tenth
  // of a second where a shuffle of as many slots takes 1.4 s of every process.
  std::vector<std::uint32_t> ring(kSlots);
  for (std::uint64_t slot = 0; slot < kSlots; ++slot)
    ring[slot] = static_cast<std::uint32_t>((slot * 2862933555777941757u + 3037000493u) & (kSlots - 1));
  std::uint32_t at = 0;
  for (auto _ : state) {
    int steps = fixture::@CONSTANT@;
    benchmark::DoNotOptimize(steps);
    for (int step = 0; step < steps; ++step) at = ring[at];
    benchmark::DoNotOptimize(at);
  }
}
BENCHMARK(@FAMILY@);
BENCHMARK_MAIN();
"""

JOIN_SOURCE = """\
// Allocator-bound: every iteration copies each word (32 characters, past the small-string buffer,
// so every copy is a heap allocation and a free) and appends it to a growing line.
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "fixture/@HEADER@"

static void @FAMILY@(benchmark::State& state) {
  std::vector<std::string> words;
  for (int w = 0; w < fixture::@CONSTANT@; ++w) words.emplace_back(32, static_cast<char>('a' + w % 26));
  for (auto _ : state) {
    std::string line;
    line.reserve(words.size() * 33);  // one allocation for the line: the work is proportional to the words
    for (const std::string& word : words) {
      std::string copy(word);
      benchmark::DoNotOptimize(copy.data());
      line.append(copy).push_back(' ');
    }
    benchmark::DoNotOptimize(line.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(@FAMILY@);
BENCHMARK_MAIN();
"""

FAMILIES = (
    Family("bench_compute", "BM_Compute", "compute_work.h", "kComputeSteps", 3000, COMPUTE_SOURCE,
           "compute-bound: dependent multiply-adds"),
    Family("bench_pointer_chase", "BM_PointerChase", "pointer_chase_work.h", "kChaseSteps", 80,
           POINTER_CHASE_SOURCE, "memory-bound: pointer-chase steps around one ring through 128 MB"),
    Family("bench_join_strings", "BM_JoinStrings", "join_work.h", "kJoinWords", 200, JOIN_SOURCE,
           "allocator-bound: 32-character words copied and appended"),
)

FIXTURE_CMAKE = """\
# cobench's by-hand comparison fixture (bench/by_hand_comparison.py): each Google Benchmark family
# in a source file and an executable of its own, so a change to one cannot move another's code.
cmake_minimum_required(VERSION 3.16)
project(by_hand_comparison_fixture LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(benchmark REQUIRED)
include_directories(include)
link_libraries(benchmark::benchmark)
@EXECUTABLES@"""

WORK_HEADER = """\
#pragma once
// The work @TARGET@ does per iteration (@WHAT@): the one number a head changes.
@NOTE@namespace fixture {
inline constexpr int @CONSTANT@ = @SIZE@;
}  // namespace fixture
"""


@dataclasses.dataclass(frozen=True)
class Head:
    key: str  # as given to --heads
    label: str  # as printed in the table
    aa_note: str  # a comment added to every work header ("" for none)
    size_percent: int  # the work size in percent of the base's


HEADS = {
    "aa": Head("aa", "A/A", "// A/A head: this comment is the whole change; the code is the base's.\n", 100),
    "slow10": Head("slow10", "+10%", "", 110),
}


def fill(text: str, fills: dict[str, str]) -> str:
    for name, value in fills.items():
        text = text.replace(f"@{name}@", value)
    return text


def work_size(family: Family, percent: int) -> int:
    """The family's work size scaled to `percent` of the base's, rounded half up."""
    return (family.base_size * percent + 50) // 100


def fixture_files(head: Head | None) -> dict[str, str]:
    """Every file of the fixture: the base's when `head` is None."""
    executables = "".join(f"add_executable({f.target} bench/{f.target}.cc)\n" for f in FAMILIES)
    files = {"CMakeLists.txt": fill(FIXTURE_CMAKE, {"EXECUTABLES": executables})}
    for family in FAMILIES:
        fills = {"FAMILY": family.benchmark, "HEADER": family.header, "CONSTANT": family.constant,
                 "TARGET": family.target, "WHAT": family.what,
                 "NOTE": head.aa_note if head else "",
                 "SIZE": str(work_size(family, head.size_percent if head else 100))}
        files[f"bench/{family.target}.cc"] = fill(family.source, fills)
        files[f"include/fixture/{family.header}"] = fill(WORK_HEADER, fills)
    return files


@dataclasses.dataclass
class Fixture:
    repo: Path
    base: str
    heads: dict[str, str]  # head key -> commit


GIT_IDENTITY = {"GIT_AUTHOR_NAME": "cobench", "GIT_AUTHOR_EMAIL": "cobench@localhost",
                "GIT_COMMITTER_NAME": "cobench", "GIT_COMMITTER_EMAIL": "cobench@localhost"}


def git(repo: Path, *args: str) -> str:
    return checked_run(["git", "-C", str(repo), *args], env={**os.environ, **GIT_IDENTITY}).strip()


def write_fixture(repo: Path, heads: Iterable[str]) -> Fixture:
    """The fixture repository: a base commit on `main` and one branch per head, each one commit."""
    def commit_files(files: dict[str, str], message: str) -> str:
        for path, text in files.items():
            (repo / path).parent.mkdir(parents=True, exist_ok=True)
            (repo / path).write_text(text)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", message)
        return git(repo, "rev-parse", "HEAD")

    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    base = commit_files(fixture_files(None), "fixture: base")
    fixture = Fixture(repo, base, {})
    for key in heads:
        git(repo, "checkout", "-q", "-b", f"head-{key}", base)
        fixture.heads[key] = commit_files(fixture_files(HEADS[key]), f"fixture: head {HEADS[key].label}")
    git(repo, "checkout", "-q", "main")
    return fixture


# ---------------------------------------------------------------------------------------------
# Verdicts: each tool's answer per benchmark, in the four words of the table.

VERDICTS = ("regression", "faster", "pass", "inconclusive")


@dataclasses.dataclass
class Row:
    """One benchmark's answer in one job."""
    name: str
    verdict: str  # one of VERDICTS
    ratio: float | None = None  # head/base
    p_value: float | None = None


def by_hand_verdict(p_value: float | None, ratio: float | None, alpha: float = ALPHA,
                    budget: float = BUDGET) -> str:
    """The U-test read against the budget: a significant change beyond the budget either way."""
    if p_value is None or ratio is None:
        return "inconclusive"  # compare.py gave no U-test (too few repetitions) or no times
    if p_value < alpha and ratio > 1 + budget:
        return "regression"
    if p_value < alpha and ratio < 1 - budget:
        return "faster"
    return "pass"


def read_compare_dump(dump: list, source: str) -> list[Row]:
    """compare.py's --dump_to_json output: one Row per benchmark that has repetitions.

    The ratio is the head's median cpu_time over the base's, over the repetitions compare.py
    paired up; the p-value its U-test's on cpu_time.
    """
    if not isinstance(dump, list):
        raise ValueError(f"{source}: expected compare.py's list of benchmarks, got {type(dump).__name__}")
    rows = []
    for entry in dump:
        if not isinstance(entry, dict) or "name" not in entry:
            raise ValueError(f"{source}: an entry without a name: {str(entry)[:80]}")
        if entry.get("run_type") == "aggregate":
            continue  # mean, median, stddev, cv and the overall geomean
        measurements = entry.get("measurements") or []
        try:
            base = [float(m["cpu_time"]) for m in measurements]
            head = [float(m["cpu_time_other"]) for m in measurements]
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{source}: benchmark {entry['name']}: no cpu_time in its measurements ({error})")
        ratio = statistics.median(head) / statistics.median(base) if base and statistics.median(base) > 0 else None
        utest = entry.get("utest") or {}
        p_value = utest.get("cpu_pvalue")
        p_value = float(p_value) if p_value is not None else None
        rows.append(Row(entry["name"], by_hand_verdict(p_value, ratio), ratio, p_value))
    return rows


def cobench_verdict(verdict: str, faster: bool, source: str, name: str) -> str:
    """cobench's verdict in the table's words: a pass whose interval lies below 1 is "faster"."""
    if verdict == "regression":
        return "regression"
    if verdict in ("inconclusive", "layout-sensitive"):
        # A layout-sensitive row makes no claim and passes a gate only as undecided: counted as inconclusive.
        return "inconclusive"
    if verdict == "faster":
        return "faster"
    if verdict in ("pass", "unrelated change"):
        return "faster" if faster else "pass"
    raise ValueError(f"{source}: benchmark {name}: unknown verdict {verdict!r}")


def read_cobench_report(report: dict, source: str) -> list[Row]:
    """cobench's report.json: one Row per benchmark that is not a control."""
    if not isinstance(report, dict) or not isinstance(report.get("benchmarks"), list):
        raise ValueError(f"{source}: no \"benchmarks\" list: not a cobench report")
    failures = [f"{t.get('name')}: {t['failure']}" for t in report.get("targets") or []
                if isinstance(t, dict) and t.get("failure")]
    if failures:
        raise ValueError(f"{source}: cobench could not measure {'; '.join(failures)}")
    rows = []
    for row in report["benchmarks"]:
        if row.get("is_control"):
            continue
        name = row.get("name")
        if not name or "verdict" not in row:
            raise ValueError(f"{source}: a benchmark row without name or verdict: {str(row)[:80]}")
        ratio = row.get("ratio")
        rows.append(Row(name, cobench_verdict(row["verdict"], bool(row.get("faster")), source, name),
                        float(ratio) if ratio is not None else None,
                        float(row["p_value"]) if row.get("p_value") is not None else None))
    return rows


def count(rows: list[Row], expected: Iterable[str]) -> dict[str, int]:
    """Verdicts per kind over the expected benchmarks; one a tool gave no answer for is inconclusive."""
    by_name = {row.name: row for row in rows}
    counts = dict.fromkeys(VERDICTS, 0)
    for name in expected:
        counts[by_name[name].verdict if name in by_name else "inconclusive"] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# The table, from the job records alone (so --render can print it again).

@dataclasses.dataclass(frozen=True)
class Tool:
    key: str
    label: str
    repetitions: int  # by-hand: --benchmark_repetitions; 0 for cobench


TOOLS = {"cobench": Tool("cobench", "cobench", 0),
         "r9": Tool("r9", "compare.py R=9", 9),
         "r20": Tool("r20", "compare.py R=20", 20)}
CONDITIONS = {"quiet": "quiet", "load": "load that comes and goes"}


def rank(table: dict, key: str) -> int:
    """Where `key` stands in one of the tables above (TOOLS, CONDITIONS, HEADS); after them all if it is not there."""
    return list(table).index(key) if key in table else len(table)


def label(table: dict, key: str) -> str:
    """How the tables name `key` of one of the tables above (a Tool's or Head's label, a condition's text);
    a key the table does not have, as it is."""
    value = table.get(key)
    return key if value is None else getattr(value, "label", value)


def render_table(jobs: list[dict]) -> str:
    """One row per tool, condition and head, in the issue's order: condition, head, then tool."""
    cells: dict[tuple[str, str, str], list[dict]] = {}
    for job in jobs:
        cells.setdefault((job["condition"], job["head"], job["tool"]), []).append(job)

    def order(key: tuple[str, str, str]) -> tuple[int, int, int]:
        condition, head, tool = key
        return rank(CONDITIONS, condition), rank(HEADS, head), rank(TOOLS, tool)

    lines = ["| tool | condition | head | regression | faster | pass | inconclusive | s/job |",
             "|---|---|---|--:|--:|--:|--:|--:|"]
    for key in sorted(cells, key=order):
        condition, head, tool = key
        done = cells[key]
        totals = {v: sum(job["counts"][v] for job in done) for v in VERDICTS}
        seconds = statistics.mean(job["seconds"] for job in done)
        lines.append(f"| {label(TOOLS, tool)} | {label(CONDITIONS, condition)} | {label(HEADS, head)} | "
                     + " | ".join(str(totals[v]) for v in VERDICTS) + f" | {seconds:.0f} |")
    return "\n".join(lines) + "\n"


def render_benchmarks(jobs: list[dict]) -> str:
    """Each benchmark's verdicts per tool, condition and head: which family a tool could not decide,
    or decided wrongly, which the summed table hides. Empty when the jobs carry no rows."""
    cells: dict[tuple[str, str, str], dict[str, dict[str, int]]] = {}
    for job in jobs:
        for row in job.get("rows") or []:
            per_tool = cells.setdefault((row["name"], job["condition"], job["head"]), {})
            counts = per_tool.setdefault(job["tool"], dict.fromkeys(VERDICTS, 0))
            counts[row["verdict"]] += 1
    if not cells:
        return ""
    tools = [t for t in TOOLS if any(t in per_tool for per_tool in cells.values())]
    tools += sorted({t for per_tool in cells.values() for t in per_tool} - set(tools))
    # The fixture's families in their own order, then any other name in the order the jobs gave it.
    names = [f.benchmark for f in FAMILIES] + list(dict.fromkeys(name for name, _, _ in cells))

    def order(key: tuple[str, str, str]) -> tuple[int, int, int]:
        name, condition, head = key
        return names.index(name), rank(CONDITIONS, condition), rank(HEADS, head)

    def words(counts: dict[str, int] | None) -> str:
        return ", ".join(f"{n} {v}" for v, n in counts.items() if n) if counts else ""

    lines = ["| benchmark | condition | head | " + " | ".join(label(TOOLS, t) for t in tools) + " |",
             "|---|---|---|" + "---|" * len(tools)]
    for key in sorted(cells, key=order):
        name, condition, head = key
        lines.append(f"| {name} | {label(CONDITIONS, condition)} | {label(HEADS, head)} | "
                     + " | ".join(words(cells[key].get(t)) for t in tools) + " |")
    return "\n".join(lines) + "\n"


def render_phases(jobs: list[dict]) -> str:
    """Where each cell's time went: every phase's mean seconds per job, in the order the jobs gave them."""
    cells: dict[tuple[str, str, str], list[dict]] = {}
    for job in jobs:
        if job.get("phases"):
            cells.setdefault((job["tool"], job["condition"], job["head"]), []).append(job["phases"])
    lines = []
    for (tool, condition, head), phase_lists in cells.items():
        names = list(dict.fromkeys(name for phases in phase_lists for name in phases))
        means = ", ".join(f"{name} {statistics.mean(p.get(name, 0.0) for p in phase_lists):.1f} s" for name in names)
        lines.append(f"- {label(TOOLS, tool)}, {label(CONDITIONS, condition)}, {label(HEADS, head)}: {means}")
    return "\n".join(lines) + "\n" if lines else ""


def render_context(context: dict, end: dict | None) -> str:
    lines = [f"- date: {context['date']}; command: `{context['command']}`",
             f"- machine: {context['cpu_model']}, nproc {context['nproc']}, benchmarks pinned to CPU {context['cpu']}",
             f"- cobench: {context['cobench_version']}, from the checkout at commit {context['cobench_commit']}; "
             f"Google Benchmark {context['gbench_version']}; compare.py {context['compare_py']}",
             f"- {context['jobs']} job(s) per cell of {context['families']} benchmarks; "
             f"{'--quick (a smoke run: the figures mean nothing)' if context['quick'] else 'full settings'}",
             f"- load average at the start: {context['load_before']}"]
    if end:
        lines.append(f"- load average at the end: {end['load_after']}; wall {end['wall_seconds'] / 60:.1f} min")
    return "\n".join(lines) + "\n"


def render(records: list[dict]) -> str:
    context = next((r for r in records if r.get("type") == "context"), None)
    end = next((r for r in records if r.get("type") == "end"), None)
    jobs = [r for r in records if r.get("type") == "job"]
    out = "## cobench against the by-hand method\n\n"
    if context:
        out += render_context(context, end) + "\n"
    out += render_table(jobs)
    benchmarks = render_benchmarks(jobs)
    if benchmarks:
        out += "\nPer benchmark (verdicts summed over the cell's jobs):\n\n" + benchmarks
    phases = render_phases(jobs)
    return out + ("\nWhere the time went (mean seconds per job):\n\n" + phases if phases else "")


def read_records(path: Path) -> list[dict]:
    records = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}:{number}: {error.msg}") from None
    return records


# ---------------------------------------------------------------------------------------------
# Running things.

class JobFailed(Exception):
    pass


def checked_run(argv: list[str], log: Path | None = None, env: dict | None = None, cwd: Path | None = None) -> str:
    """Runs argv (never a shell); its output goes to `log` when given, else is returned."""
    sink = open(log, "ab") if log else None
    child = None
    try:
        child = subprocess.Popen(argv, stdout=sink or subprocess.PIPE,
                                 stderr=subprocess.STDOUT if sink else subprocess.PIPE, env=env, cwd=cwd,
                                 text=sink is None)
        text, errors = child.communicate()
    except KeyboardInterrupt:
        if child is None:
            raise
        # Interrupted: the child gets the same chance to clean up (cobench removes its worktrees).
        child.send_signal(signal.SIGINT)
        try:
            child.wait(timeout=60)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        raise
    finally:
        if sink:
            sink.close()
    status = child.returncode
    if status != 0:
        where = f"; its output: {log}" if log else f": {errors.strip()[-400:]}"
        raise JobFailed(f"{' '.join(argv)}: exit status {status}{where}")
    return text or ""


def pinned_cpu() -> int:
    """The last online CPU this process may run on: the one cobench picks by default."""
    online = set()
    for part in Path("/sys/devices/system/cpu/online").read_text().strip().split(","):
        first, _, last = part.partition("-")
        online.update(range(int(first), int(last or first) + 1))
    usable = sorted(online & os.sched_getaffinity(0)) or sorted(online)
    return usable[-1]


def load_child(cpu: int, busy_seconds: float, idle_seconds: float, duty: float) -> None:
    """The load that comes and goes: busy `duty` of every 100 ms for busy_seconds, then idle.

    Runs until its parent is gone (or it is killed), so it never outlives the comparison.
    """
    os.sched_setaffinity(0, {cpu})
    parent = os.getppid()
    period = 0.1
    while True:
        phase_end = time.monotonic() + busy_seconds
        while time.monotonic() < phase_end:
            spin_end = time.monotonic() + duty * period
            while time.monotonic() < spin_end:
                pass
            time.sleep((1 - duty) * period)
            if os.getppid() != parent:
                return
        phase_end = time.monotonic() + idle_seconds
        while time.monotonic() < phase_end:
            time.sleep(min(0.5, max(0.0, phase_end - time.monotonic())))
            if os.getppid() != parent:
                return


class Load:
    """A context: the load child runs pinned to `cpu` inside it, and is stopped when it ends."""

    def __init__(self, cpu: int, on: bool):
        self.cpu, self.on, self.child = cpu, on, None

    def __enter__(self):
        if self.on:
            self.child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--load-child", str(self.cpu)])
        return self

    def __exit__(self, *_):
        if self.child:
            self.child.terminate()
            try:
                self.child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.child.kill()
                self.child.wait()


@dataclasses.dataclass
class Settings:
    cobench: Path
    compare_py: Path
    python: str  # the interpreter that runs compare.py (needs scipy)
    cpu: int
    quick: bool
    out: Path
    work: Path  # temporary: the by-hand jobs' worktrees and builds


def run_cobench_job(settings: Settings, fixture: Fixture, head: str, job_dir: Path) -> tuple[list[Row], dict]:
    """`cobench run` with its defaults; the metric and CPU stated, as the by-hand method uses them."""
    argv = [str(settings.cobench), "run", "--repo", str(fixture.repo), "--base", fixture.base,
            "--head", fixture.heads[head], "--out", str(job_dir / "report"),
            "--metric", "cpu_time", "--cpu", str(settings.cpu)]
    if settings.quick:
        argv += [f"--bench-arg=--benchmark_min_time={QUICK_MIN_TIME}", "--max-runs", "8", "--alloc-runs", "1"]
    checked_run(argv, log=job_dir / "cobench.log", cwd=job_dir)
    report = job_dir / "report" / "report.json"
    document = json.loads(report.read_text())
    return read_cobench_report(document, str(report)), cobench_phases(document)


def cobench_phases(report: dict) -> dict[str, float]:
    """Where a cobench job's time went, from report.json's `phases` (absent from older reports)."""
    phases = report.get("phases")
    if not isinstance(phases, list):
        return {}
    return {str(p["name"]): round(float(p["seconds"]), 3) for p in phases
            if isinstance(p, dict) and "name" in p and isinstance(p.get("seconds"), (int, float))}


def build_side(fixture: Fixture, sha: str, side_dir: Path, log: Path) -> Path:
    """A by-hand user's build of one side from scratch: a checkout, cmake configure, build."""
    checkout, build = side_dir / "checkout", side_dir / "build"
    git(fixture.repo, "worktree", "add", "-q", "--detach", str(checkout), sha)
    generator = ["-G", "Ninja"] if shutil.which("ninja") else []
    checked_run(["cmake", "-S", str(checkout), "-B", str(build), *generator, "-DCMAKE_BUILD_TYPE=Release"], log=log)
    checked_run(["cmake", "--build", str(build)], log=log)
    return build


def run_by_hand_job(settings: Settings, fixture: Fixture, head: str, repetitions: int,
                    job_dir: Path) -> tuple[list[Row], dict]:
    """Build base and head, run each family's base then head binary pinned, compare.py on the pair."""
    work = settings.work / job_dir.name
    phases: dict[str, float] = {}
    clock = time.monotonic()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.monotonic()
        phases[name] = round(now - clock, 3)
        clock = now

    try:
        builds = {}
        for side, sha in (("base", fixture.base), ("head", fixture.heads[head])):
            builds[side] = build_side(fixture, sha, work / side, job_dir / f"build-{side}.log")
            lap(f"build_{side}")
        rows = []
        run_seconds = compare_seconds = 0.0
        for family in FAMILIES:
            outputs = {}
            started = time.monotonic()
            for side in ("base", "head"):
                outputs[side] = job_dir / f"{family.target}-{side}.json"
                argv = ["taskset", "-c", str(settings.cpu), str(builds[side] / family.target),
                        f"--benchmark_repetitions={repetitions}", f"--benchmark_out={outputs[side]}",
                        "--benchmark_out_format=json"]
                if settings.quick:
                    argv.append(f"--benchmark_min_time={QUICK_MIN_TIME}")
                checked_run(argv, log=job_dir / f"{family.target}-{side}.log")
            run_seconds += time.monotonic() - started
            started = time.monotonic()
            dump = job_dir / f"{family.target}-compare.json"
            checked_run([settings.python, str(settings.compare_py), "--no-color", "--dump_to_json", str(dump),
                         "benchmarks", str(outputs["base"]), str(outputs["head"])],
                        log=job_dir / f"{family.target}-compare.txt")
            compare_seconds += time.monotonic() - started
            rows += read_compare_dump(json.loads(dump.read_text()), str(dump))
        phases["runs"] = round(run_seconds, 3)
        phases["compare"] = round(compare_seconds, 3)
    finally:
        for side in ("base", "head"):
            if (work / side / "checkout").exists():
                git(fixture.repo, "worktree", "remove", "--force", str(work / side / "checkout"))
        shutil.rmtree(work, ignore_errors=True)
    return rows, phases


def job_order(jobs: int, conditions: list[str], heads: list[str], tools: list[str]):
    """Rounds of every cell; within a condition the heads alternate, and the tools' order rotates
    from round to round and head to head, so no tool always runs first or after another."""
    turn = 0
    for round_ in range(jobs):
        for condition in conditions:
            cells = []
            for head in heads:
                shift = turn % len(tools)
                cells += [(round_, condition, head, tool) for tool in tools[shift:] + tools[:shift]]
                turn += 1
            yield condition, cells


def fail(message: str, status: int) -> None:
    """One line on stderr naming what is wrong, and the exit status: 2 usage, 3 infrastructure."""
    print(f"by_hand_comparison: error: {message}", file=sys.stderr)
    sys.exit(status)


def preflight(settings: Settings) -> None:
    """What the comparison needs, checked before anything is built: exit 3 naming what is missing."""
    missing = [tool for tool in ("git", "cmake", "taskset") if not shutil.which(tool)]
    if missing:
        fail(f"not on PATH: {', '.join(missing)}", 3)
    if not os.access(settings.cobench, os.X_OK):
        fail(f"--cobench {settings.cobench}: not an executable", 3)
    if not settings.compare_py.is_file():
        fail(f"{settings.compare_py}: no compare.py (Debian: apt-get install libbenchmark-tools)", 3)
    if subprocess.run([settings.python, "-c", "import scipy.stats"], capture_output=True).returncode != 0:
        fail(f"{settings.python} cannot import scipy, which compare.py's U-test needs "
             "(Debian: apt-get install python3-scipy; or --python)", 3)
    usage = subprocess.run([settings.python, str(settings.compare_py), "--help"], capture_output=True, text=True)
    lacking = [flag for flag in ("--dump_to_json", "--no-color") if flag not in usage.stdout]
    if lacking:
        fail(f"{settings.compare_py} has no {', '.join(lacking)} (Google Benchmark 1.5 or later has both)", 3)


def machine_context(settings: Settings, args: argparse.Namespace, jobs: int) -> dict:
    def first_line(argv: list[str]) -> str:
        done = subprocess.run(argv, capture_output=True, text=True)
        return done.stdout.strip().splitlines()[0] if done.returncode == 0 and done.stdout.strip() else "unknown"

    here = Path(__file__).resolve().parent
    commit = first_line(["git", "-C", str(here), "rev-parse", "--short", "HEAD"])
    if first_line(["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"]) != "unknown":
        commit += " (with uncommitted changes)"
    model = "unknown CPU"
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    return {"type": "context", "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
            "nproc": os.cpu_count(), "cpu": settings.cpu, "cpu_model": model,
            "load_before": [round(x, 2) for x in os.getloadavg()],
            "cobench_version": first_line([str(settings.cobench), "--version"]),
            "cobench_commit": commit,
            "gbench_version": first_line(["dpkg-query", "-W", "-f", "${Version}\n", "libbenchmark-dev"]),
            "compare_py": str(settings.compare_py), "jobs": jobs, "families": len(FAMILIES),
            "conditions": args.conditions, "heads": args.heads, "tools": args.tools, "quick": args.quick}


def raise_interrupt(*_) -> None:
    raise KeyboardInterrupt


def parse_list(text: str, table: dict, flag: str) -> list[str]:
    items = [item for item in text.split(",") if item]
    unknown = [item for item in items if item not in table]
    if unknown or not items:
        fail(f"{flag} {text}: expected a comma-separated list of {', '.join(table)}", 2)
    return items


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cobench", default="cobench", help="the cobench binary (default: cobench on PATH)")
    parser.add_argument("--jobs", type=int, help="jobs per cell (default 3; --quick: 1)")
    parser.add_argument("--conditions", default="quiet,load", help="quiet, load (default both)")
    parser.add_argument("--heads", default="aa,slow10", help="aa (A/A), slow10 (+10%%) (default both)")
    parser.add_argument("--tools", default="cobench,r9,r20", help="cobench, r9, r20 (default all)")
    parser.add_argument("--out", help="folder for results.jsonl, table.md and every job's files "
                                      "(new or empty; default ./by-hand-comparison-DATE-TIME)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: benchmark runs of 0.01 s, cobench at most 8 runs per side, 1 job per cell")
    parser.add_argument("--compare-py", default=COMPARE_PY,
                        help=f"Google Benchmark's compare.py (default {COMPARE_PY})")
    parser.add_argument("--python", default=sys.executable, help="the interpreter for compare.py (needs scipy; "
                                                                 "default: this one)")
    parser.add_argument("--render", metavar="RESULTS_JSONL", help="print the table of an earlier run and exit")
    parser.add_argument("--load-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.load_child is not None:
        for stop in (signal.SIGTERM, signal.SIGINT):  # Ctrl-C reaches it too: its parent stops it
            signal.signal(stop, lambda *_: sys.exit(0))
        load_child(args.load_child, busy_seconds=8.0, idle_seconds=8.0, duty=0.7)
        return 0
    if args.render:
        try:
            print(render(read_records(Path(args.render))), end="")
        except (OSError, ValueError) as error:
            print(f"by_hand_comparison: error: {error}", file=sys.stderr)
            return 2
        return 0

    conditions = parse_list(args.conditions, CONDITIONS, "--conditions")
    heads = parse_list(args.heads, HEADS, "--heads")
    tools = parse_list(args.tools, TOOLS, "--tools")
    jobs = args.jobs if args.jobs is not None else (1 if args.quick else 3)
    if jobs < 1:
        parser.error("--jobs must be at least 1")
    cobench = shutil.which(args.cobench) or args.cobench
    out = Path(args.out or f"by-hand-comparison-{datetime.datetime.now():%Y%m%d-%H%M%S}").resolve()
    if out.exists() and any(out.iterdir()):
        fail(f"--out {out}: not empty (it is never overwritten)", 2)

    settings = Settings(Path(cobench).resolve(), Path(args.compare_py), args.python, pinned_cpu(), args.quick, out,
                        Path())
    preflight(settings)
    temp = Path(tempfile.mkdtemp(prefix="cobench-by-hand-"))
    settings.work = temp / "work"
    out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    records: list[dict] = []
    results = open(out / "results.jsonl", "a")

    def record(entry: dict) -> None:
        records.append(entry)
        results.write(json.dumps(entry) + "\n")
        results.flush()

    record(machine_context(settings, args, jobs))
    # SIGTERM (a CI cancellation) ends the comparison like Ctrl-C: load stopped, table written.
    signal.signal(signal.SIGTERM, raise_interrupt)
    status = 0
    total = jobs * len(conditions) * len(heads) * len(tools)
    number = 0
    try:
        fixture = write_fixture(temp / "fixture", heads)
        expected = [family.benchmark for family in FAMILIES]
        for condition, cells in job_order(jobs, conditions, heads, tools):
            with Load(settings.cpu, condition == "load"):
                for round_, _, head, tool in cells:
                    number += 1
                    job_dir = out / "jobs" / f"{number:03d}-{tool}-{condition}-{head}"
                    job_dir.mkdir(parents=True)
                    clock = time.monotonic()
                    if tool == "cobench":
                        rows, phases = run_cobench_job(settings, fixture, head, job_dir)
                    else:
                        rows, phases = run_by_hand_job(settings, fixture, head, TOOLS[tool].repetitions, job_dir)
                    seconds = time.monotonic() - clock
                    counts = count(rows, expected)
                    record({"type": "job", "number": number, "round": round_, "tool": tool, "condition": condition,
                            "head": head, "seconds": round(seconds, 3), "phases": phases, "counts": counts,
                            "rows": [dataclasses.asdict(row) for row in rows], "dir": str(job_dir)})
                    print(f"[{number}/{total}] {TOOLS[tool].label}, {CONDITIONS[condition]}, {HEADS[head].label}: "
                          + ", ".join(f"{counts[v]} {v}" for v in VERDICTS) + f"; {seconds:.0f} s",
                          file=sys.stderr, flush=True)
    except (JobFailed, ValueError, OSError) as error:
        print(f"by_hand_comparison: error: {error}", file=sys.stderr)
        status = 3
    except KeyboardInterrupt:
        print("by_hand_comparison: interrupted; the table holds the jobs done", file=sys.stderr)
        status = 130
    finally:
        record({"type": "end", "load_after": [round(x, 2) for x in os.getloadavg()],
                "wall_seconds": round(time.monotonic() - started, 1),
                "jobs_done": sum(r.get("type") == "job" for r in records)})
        results.close()
        shutil.rmtree(temp, ignore_errors=True)
    table = render(records)
    (out / "table.md").write_text(table)
    print(table, end="")
    print(f"\nevery job's result: {out / 'results.jsonl'}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
