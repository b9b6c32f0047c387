"""Unit tests of bench/by_hand_comparison.py on outputs recorded from real runs (tests/data/by_hand/).

The compare_*.json files are compare.py's --dump_to_json output (Debian's libbenchmark-tools,
Google Benchmark 1.7.1) on the fixture's real benchmark outputs, each beside what compare.py
printed (compare_*.txt); cobench_report_*.json are report.json files of real `cobench run` jobs on
the fixture; results_quiet_aa.jsonl is the results file of a real run of the comparison.
Recorded 2026-12-04 on the 2-core development VM (load 7-12) with the script of commit 2ed3c00
(the --quick run just before its fixture's CMakeLists was rewritten, the benchmark code the same):
compare_r9_* and cobench_report_quick_slow10.json from `--quick`; cobench_report_aa.json and
results_quiet_aa.jsonl from `--jobs 1 --conditions quiet --heads aa`; compare_r1_* from the
fixture's bench_compute run once per side (`--benchmark_repetitions=1`) and compare.py on the pair.
"""

import json
import re
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "by_hand"
sys.path.insert(0, str(ROOT / "bench"))

import by_hand_comparison as bh  # noqa: E402


def load(name):
    return json.loads((DATA / name).read_text())


def printed_median_and_p(name, benchmark):
    """What compare.py printed for `benchmark`: the median row's CPU change and the U-test's CPU p-value."""
    text = (DATA / name).read_text()
    median = re.search(rf"^{benchmark}_median\s+\S+\s+(\S+)", text, re.M)
    p_value = re.search(rf"^{benchmark}_pvalue\s+\S+\s+(\S+)", text, re.M)
    return float(median.group(1)), float(p_value.group(1))


class ByHandVerdict(unittest.TestCase):
    def test_a_significant_change_beyond_the_budget_either_way(self):
        self.assertEqual(bh.by_hand_verdict(0.049, 1.051), "regression")
        self.assertEqual(bh.by_hand_verdict(0.001, 0.949), "faster")

    def test_not_significant_or_within_the_budget_is_a_pass(self):
        self.assertEqual(bh.by_hand_verdict(0.05, 1.20), "pass")  # p must be below alpha
        self.assertEqual(bh.by_hand_verdict(0.001, 1.05), "pass")  # the ratio must exceed 1 + budget
        self.assertEqual(bh.by_hand_verdict(0.001, 0.95), "pass")
        self.assertEqual(bh.by_hand_verdict(0.001, 1.02), "pass")

    def test_no_u_test_or_no_ratio_is_inconclusive(self):
        self.assertEqual(bh.by_hand_verdict(None, 1.5), "inconclusive")
        self.assertEqual(bh.by_hand_verdict(0.001, None), "inconclusive")


class ReadCompareDump(unittest.TestCase):
    def read_as_printed(self, name, benchmark):
        """The dump's one row, its ratio and p-value checked against what compare.py printed."""
        rows = bh.read_compare_dump(load(f"{name}.json"), "dump")
        self.assertEqual([row.name for row in rows], [benchmark])  # aggregates and the geomean skipped
        change, p_value = printed_median_and_p(f"{name}.txt", benchmark)
        self.assertAlmostEqual(rows[0].ratio - 1, change, places=4)
        self.assertAlmostEqual(rows[0].p_value, p_value, places=4)
        return rows[0]

    def test_a_slowdown_at_r9_is_a_regression_with_compare_pys_median_and_p_value(self):
        self.assertEqual(self.read_as_printed("compare_r9_slow10_compute", "BM_Compute").verdict, "regression")

    def test_identical_code_read_as_faster_is_counted_as_faster(self):
        # Recorded on the loaded development VM: compare.py found the A/A pointer chase faster.
        self.assertEqual(self.read_as_printed("compare_r9_aa_pointer_chase", "BM_PointerChase").verdict, "faster")

    def test_one_repetition_gives_no_u_test_and_so_inconclusive(self):
        rows = bh.read_compare_dump(load("compare_r1_slow10_compute.json"), "dump")
        self.assertEqual(len(rows), 1)
        self.assertIsNone(rows[0].p_value)
        printed = re.search(r"^BM_Compute\s+\S+\s+(\S+)", (DATA / "compare_r1_slow10_compute.txt").read_text(), re.M)
        self.assertAlmostEqual(rows[0].ratio - 1, float(printed.group(1)), places=4)
        self.assertEqual(rows[0].verdict, "inconclusive")

    def test_not_a_dump_names_its_source(self):
        with self.assertRaisesRegex(ValueError, "^x.json: expected compare.py's list"):
            bh.read_compare_dump({"benchmarks": []}, "x.json")
        with self.assertRaisesRegex(ValueError, "^x.json: benchmark BM_A: no cpu_time"):
            bh.read_compare_dump([{"name": "BM_A", "run_type": "iteration", "measurements": [{"real_time": 1}]}],
                                 "x.json")


class ReadCobenchReport(unittest.TestCase):
    def test_rows_without_the_controls(self):
        report = load("cobench_report_quick_slow10.json")
        self.assertTrue(any(row["is_control"] for row in report["benchmarks"]))
        rows = bh.read_cobench_report(report, "report.json")
        self.assertEqual(sorted(row.name for row in rows), ["BM_Compute", "BM_JoinStrings", "BM_PointerChase"])
        verdicts = {row.name: row.verdict for row in rows}
        self.assertEqual(verdicts, {"BM_Compute": "regression", "BM_JoinStrings": "inconclusive",
                                    "BM_PointerChase": "inconclusive"})

    def test_an_a_a_report(self):
        rows = bh.read_cobench_report(load("cobench_report_aa.json"), "report.json")
        self.assertEqual(len(rows), 3)
        self.assertEqual(bh.count(rows, ["BM_Compute", "BM_JoinStrings", "BM_PointerChase"])["regression"], 0)

    def test_phases_come_from_the_reports_phase_list_and_older_reports_have_none(self):
        # The shape report.json's `phases` has since c6398b5, figures from a real job of this script.
        report = {"phases": [{"name": "configure", "seconds": 0.6}, {"name": "build", "seconds": 0.5},
                             {"name": "runs", "seconds": 56.9}, {"name": "machine control", "seconds": 17.4},
                             {"name": "analysis", "seconds": 0.0}, {"name": "other", "seconds": 0.1}]}
        self.assertEqual(bh.cobench_phases(report), {"configure": 0.6, "build": 0.5, "runs": 56.9,
                                                     "machine control": 17.4, "analysis": 0.0, "other": 0.1})
        self.assertEqual(bh.cobench_phases(load("cobench_report_aa.json")), {})
        self.assertEqual(bh.cobench_phases({"phases": [{"name": "runs"}, "junk"]}), {})

    def test_a_pass_below_1_is_faster(self):
        self.assertEqual(bh.cobench_verdict("pass", True, "r", "BM_A"), "faster")
        self.assertEqual(bh.cobench_verdict("pass", False, "r", "BM_A"), "pass")
        self.assertEqual(bh.cobench_verdict("inconclusive", True, "r", "BM_A"), "inconclusive")
        self.assertEqual(bh.cobench_verdict("layout-sensitive", False, "r", "BM_A"), "inconclusive")
        self.assertEqual(bh.cobench_verdict("regression", False, "r", "BM_A"), "regression")

    def test_an_unknown_verdict_or_a_failed_target_is_an_error_naming_the_file(self):
        with self.assertRaisesRegex(ValueError, "^r.json: benchmark BM_A: unknown verdict 'maybe'"):
            bh.read_cobench_report({"benchmarks": [{"name": "BM_A", "verdict": "maybe"}]}, "r.json")
        with self.assertRaisesRegex(ValueError, "^r.json: cobench could not measure bench_a: every run failed"):
            bh.read_cobench_report({"benchmarks": [], "targets": [{"name": "bench_a", "failure": "every run failed"}]},
                                   "r.json")
        with self.assertRaisesRegex(ValueError, "^r.json: no \"benchmarks\" list"):
            bh.read_cobench_report([], "r.json")


class Counting(unittest.TestCase):
    def test_a_benchmark_without_an_answer_is_inconclusive(self):
        rows = [bh.Row("BM_A", "regression"), bh.Row("BM_B", "faster"), bh.Row("BM_Other", "pass")]
        self.assertEqual(bh.count(rows, ["BM_A", "BM_B", "BM_C"]),
                         {"regression": 1, "faster": 1, "pass": 0, "inconclusive": 1})


class Table(unittest.TestCase):
    def job(self, tool, condition, head, seconds, **counts):
        return {"type": "job", "tool": tool, "condition": condition, "head": head, "seconds": seconds,
                "counts": {v: counts.get(v, 0) for v in bh.VERDICTS}}

    def test_cells_in_the_issues_order_with_summed_counts_and_mean_seconds(self):
        jobs = [self.job("r9", "load", "aa", 40, regression=1, inconclusive=2),
                self.job("cobench", "load", "aa", 100, inconclusive=3),
                self.job("r20", "quiet", "slow10", 80, regression=3),
                self.job("cobench", "quiet", "aa", 130, **{"pass": 3}),
                self.job("cobench", "quiet", "aa", 140, **{"pass": 2, "faster": 1}),
                self.job("r9", "load", "aa", 45, regression=2, faster=1)]
        self.assertEqual(bh.render_table(jobs),
                         "| tool | condition | head | regression | faster | pass | inconclusive | s/job |\n"
                         "|---|---|---|--:|--:|--:|--:|--:|\n"
                         "| cobench | quiet | A/A | 0 | 1 | 5 | 0 | 135 |\n"
                         "| compare.py R=20 | quiet | +10% | 3 | 0 | 0 | 0 | 80 |\n"
                         "| cobench | load that comes and goes | A/A | 0 | 0 | 0 | 3 | 100 |\n"
                         "| compare.py R=9 | load that comes and goes | A/A | 3 | 1 | 0 | 2 | 42 |\n")

    def test_per_benchmark_verdicts_in_the_fixtures_family_order_with_a_column_per_tool(self):
        def with_rows(job, *rows):
            return dict(job, rows=[{"name": name, "verdict": verdict} for name, verdict in rows])
        jobs = [with_rows(self.job("r9", "quiet", "slow10", 40), ("BM_PointerChase", "pass"), ("BM_Compute", "regression")),
                with_rows(self.job("cobench", "quiet", "slow10", 30), ("BM_PointerChase", "inconclusive"),
                          ("BM_Compute", "regression")),
                with_rows(self.job("r9", "quiet", "slow10", 40), ("BM_PointerChase", "regression"),
                          ("BM_Compute", "regression")),
                with_rows(self.job("r9", "load", "aa", 40), ("BM_Compute", "faster"))]
        self.assertEqual(bh.render_benchmarks(jobs),
                         "| benchmark | condition | head | cobench | compare.py R=9 |\n"
                         "|---|---|---|---|---|\n"
                         "| BM_Compute | quiet | +10% | 1 regression | 2 regression |\n"
                         "| BM_Compute | load that comes and goes | A/A |  | 1 faster |\n"
                         "| BM_PointerChase | quiet | +10% | 1 inconclusive | 1 regression, 1 pass |\n")
        self.assertEqual(bh.render_benchmarks([self.job("r9", "quiet", "aa", 40)]), "")

    def test_each_cells_phases_are_their_mean_per_job_and_cells_without_phases_say_nothing(self):
        jobs = [dict(self.job("cobench", "quiet", "aa", 20), phases={"build": 1.0, "runs": 10.0}),
                dict(self.job("cobench", "quiet", "aa", 30), phases={"build": 3.0, "runs": 20.0}),
                dict(self.job("r9", "quiet", "aa", 40), phases={})]
        self.assertEqual(bh.render_phases(jobs), "- cobench, quiet, A/A: build 2.0 s, runs 15.0 s\n")
        self.assertEqual(bh.render_phases(jobs[2:]), "")

    def test_render_a_recorded_run_again(self):
        records = bh.read_records(DATA / "results_quiet_aa.jsonl")
        text = bh.render(records)
        self.assertIn("- machine: ", text)
        self.assertIn("- load average at the end: ", text)
        for tool in ("cobench", "compare.py R=9", "compare.py R=20"):
            self.assertRegex(text, rf"\n\| {re.escape(tool)} \| quiet \| A/A \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \|\n")

    def test_a_malformed_results_line_names_file_and_line(self):
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "results.jsonl"
            path.write_text('{"type": "job"}\n{oops\n')
            with self.assertRaisesRegex(ValueError, rf"^{re.escape(str(path))}:2: "):
                bh.read_records(path)


class FixtureFiles(unittest.TestCase):
    def test_the_a_a_head_adds_one_comment_per_family_and_changes_no_code(self):
        base, head = bh.fixture_files(None), bh.fixture_files(bh.HEADS["aa"])
        self.assertEqual(base.keys(), head.keys())
        changed = [path for path in base if base[path] != head[path]]
        self.assertEqual(sorted(changed), sorted(f"include/fixture/{f.header}" for f in bh.FAMILIES))
        for path in changed:
            added = set(head[path].splitlines()) - set(base[path].splitlines())
            self.assertEqual(len(added), 1)
            self.assertTrue(added.pop().startswith("//"))

    def test_the_slow_head_gives_every_family_ten_percent_more_work_in_its_own_header(self):
        base, head = bh.fixture_files(None), bh.fixture_files(bh.HEADS["slow10"])
        changed = [path for path in base if base[path] != head[path]]
        self.assertEqual(len(changed), len(bh.FAMILIES))
        for family in bh.FAMILIES:
            path = f"include/fixture/{family.header}"
            size = lambda text: int(re.search(rf"{family.constant} = (\d+);", text).group(1))  # noqa: E731
            self.assertEqual(size(base[path]), family.base_size)
            self.assertAlmostEqual(size(head[path]) / size(base[path]), 1.10, delta=0.005)
            self.assertIn(f"fixture::{family.constant}", base[f"bench/{family.target}.cc"])


class JobOrder(unittest.TestCase):
    def test_every_cell_gets_every_round_and_no_tool_always_goes_first(self):
        tools = ["cobench", "r9", "r20"]
        order = list(bh.job_order(3, ["quiet", "load"], ["aa", "slow10"], tools))
        self.assertEqual([condition for condition, _ in order], ["quiet", "load"] * 3)
        cells = [(c, h, t) for _, jobs in order for _, c, h, t in jobs]
        self.assertEqual(len(cells), 3 * 2 * 2 * 3)
        for cell in {(c, h, t) for c in ("quiet", "load") for h in ("aa", "slow10") for t in tools}:
            self.assertEqual(cells.count(cell), 3)
        firsts = {jobs[0][3] for _, jobs in order} | {jobs[3][3] for _, jobs in order}
        self.assertEqual(firsts, set(tools))


if __name__ == "__main__":
    unittest.main()
