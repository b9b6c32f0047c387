"""The whole comparison in --quick mode: real fixture, real builds, real cobench and compare.py jobs.

Usage: test_by_hand_comparison_e2e.py COBENCH. Asserts that every cell (condition x head x tool)
has a row whose verdicts add up to the fixture's benchmarks, never what the verdicts or times are.
Exits 77 (CTest's skip) with the reason when compare.py or scipy is missing.
"""

import json
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "by_hand_comparison.py"
sys.path.insert(0, str(ROOT / "bench"))

import by_hand_comparison as bh  # noqa: E402

COBENCH = None  # from the command line


def missing_prerequisite():
    if not Path(bh.COMPARE_PY).is_file():
        return f"{bh.COMPARE_PY} missing (Debian: libbenchmark-tools; make deps installs it)"
    if subprocess.run([sys.executable, "-c", "import scipy.stats"], capture_output=True).returncode != 0:
        return f"{sys.executable} cannot import scipy (Debian: python3-scipy; make deps installs it)"
    return None


class QuickComparison(unittest.TestCase):
    def test_every_cell_is_filled(self):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "comparison"
            done = subprocess.run([sys.executable, str(SCRIPT), "--cobench", COBENCH, "--quick", "--out", str(out)],
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr[-3000:])
            self.assertEqual(done.stdout, (out / "table.md").read_text())

            families = len(bh.FAMILIES)
            rows = re.findall(r"^\| (.+?) \| (.+?) \| (.+?) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$",
                              done.stdout, re.M)
            cells = {(tool, condition, head) for tool, condition, head, *_ in rows}
            expected = {(tool.label, condition, head.label) for tool in bh.TOOLS.values()
                        for condition in bh.CONDITIONS.values() for head in bh.HEADS.values()}
            self.assertEqual(cells, expected)
            self.assertEqual(len(rows), len(expected))
            for tool, condition, head, *numbers in rows:
                self.assertEqual(sum(int(n) for n in numbers[:4]), families, f"{tool}, {condition}, {head}")

            records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
            self.assertEqual([r["type"] for r in records], ["context"] + ["job"] * len(expected) + ["end"])
            for job in (r for r in records if r["type"] == "job"):
                self.assertEqual(len(job["rows"]), families, job["dir"])
                if job["tool"] != "cobench":  # both builds, the runs and compare.py, each timed
                    self.assertEqual(set(job["phases"]), {"build_base", "build_head", "runs", "compare"})
            rendered = subprocess.run([sys.executable, str(SCRIPT), "--render", str(out / "results.jsonl")],
                                      capture_output=True, text=True, check=True)
            self.assertEqual(rendered.stdout, done.stdout)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_by_hand_comparison_e2e.py COBENCH")
    COBENCH = sys.argv.pop(1)
    reason = missing_prerequisite()
    if reason:
        print(f"skipped: {reason}")
        sys.exit(77)
    unittest.main()
