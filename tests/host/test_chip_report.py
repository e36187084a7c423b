"""bench/chip.py's report: the zones' scan gaps during the pull are judged as the idle ones; the
tiles laid at pace are banded by interval and their verdicts read from the LED frames."""
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


GREEN = " ".join(["000a00"] * 3)  # rrggbb per LED, as table-emu logs a frame
RED = " ".join(["0a0000"] * 3)
DARK = " ".join(["000000"] * 3)
VIEW = "0a040a 000000 000000"  # the steady view: a turn LED


def test_a_verdict_is_the_frame_that_turns_the_strip_its_colour_or_the_blink_that_begins_it():
    frames = [(100.0, GREEN), (400.0, VIEW), (1000.0, DARK), (1060.0, GREEN), (1400.0, VIEW), (2000.0, RED)]
    assert chip.verdict_at(frames, 990.0, 1500.0, "green") == 10.0  # the blink over the green before
    assert chip.verdict_at(frames, 1050.0, 1500.0, "green") == 10.0  # no blink after the tile: the green
    assert chip.verdict_at(frames, 90.0, None, "green") == 10.0
    assert chip.verdict_at(frames, 1100.0, 1900.0, "green") is None  # only the end of a flash: no verdict
    assert chip.verdict_at(frames, 1100.0, None, "red") == 900.0
    assert chip.verdict_at(frames, 1100.0, 1900.0, "red") is None  # the next tile came first


def test_paced_tiles_are_banded_by_their_interval_and_judged_by_build():
    recs = [{"kind": "mover", "target_ms": t, "scored": False} for t in (None, 150, 500, 2000)]
    recs[2]["opened_claim"] = True
    latency = [{"t0": 0.0, "led": 10.0}, {"t0": 150.0, "led": 20.0, "display": 30.0}, {"t0": 650.0, "led": 2100.0, "display": 40.0}, {"t0": 2650.0, "led": 16.0}]
    frames = [(12.0, GREEN), (170.0, DARK), (230.0, GREEN), (2666.0, DARK), (2726.0, GREEN)]
    rows = chip.pace_rows(recs, latency, frames)
    assert [r["interval_ms"] for r in rows] == [None, 150.0, 500.0, 2000.0]
    assert [r["led"] for r in rows] == [10.0, 20.0, None, 16.0]  # 2100 ms: after the next tile
    assert [r["verdict"] for r in rows] == [12.0, 20.0, None, 16.0]
    lines = {label: (target, text, verdict) for label, target, text, verdict in chip.pace_report(rows, "frozen")}
    assert lines["tile on the mover's pad -> its verdict on the LEDs, 100-300 ms"] == ("p95 <= 25 ms", "p50 20  p95 20  max 20  (n 1)", "met")
    assert lines["tile on the mover's pad -> its verdict on the LEDs, 300-800 ms"][2] == "not met"  # none before the next tile
    assert lines["tile on the mover's pad -> score digits (plays that score or open a claim), 300-800 ms"][1].endswith("(n 1)")
    stock = {label: target for label, target, text, verdict in chip.pace_report(rows, "stock")}
    assert stock["tile on the mover's pad -> first LED change, 800+ ms"] == "p95 <= 38 ms"
