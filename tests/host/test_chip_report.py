"""bench/chip.py's report: the zones' scan gaps during the pull are judged as the idle ones."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bench"))
import chip  # noqa: E402


def _pull(worst):
    zones = [{"zone": 0, "switches": 40, "mean_ms": 34.5, "p95_ms": 37.0, "max_ms": 38.5}, {"zone": 1, "switches": 30, "mean_ms": 50.2, "p95_ms": 60.0, "max_ms": worst}]
    return {"rc": 0, "window": [10000.0, 10500.0], "journal_bytes": 39394, "span_s": 0.341, "requests": 5, "pull_reply_sum_s": 0.261, "kb_per_s": 112.8, "scan": zones, "scan_span": [9900.0, 11900.0]}


def _gap_row(rows):
    return [r for r in rows if r[0] == "pull: longest gap between reads of a zone"]


def test_the_pull_scan_gap_is_judged_against_the_idle_target_of_each_build():
    rows = chip.report_rows({"build": "frozen", "notes": [], "pull": _pull(66.0)})
    (row,) = _gap_row(rows)
    assert row[1].startswith("66.0 ms (reads from 0.10 s before") and row[2] == "<= 40 ms" and row[3] == "not met"
    assert ("pull scan period per zone, mean (max)", "0:34(38) 1:50(66)", "", "") in rows
    (row,) = _gap_row(chip.report_rows({"build": "frozen", "notes": [], "pull": _pull(39.5)}))
    assert row[3] == "met"
    (row,) = _gap_row(chip.report_rows({"build": "stock", "notes": [], "pull": _pull(55.0)}))
    assert row[2] == "<= 60 ms" and row[3] == "met"


def test_a_pull_measured_without_scan_windows_reports_no_gap():
    pull = _pull(66.0)
    del pull["scan"], pull["scan_span"]
    assert not _gap_row(chip.report_rows({"build": "frozen", "notes": [], "pull": pull}))
