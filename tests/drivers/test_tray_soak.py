"""Bad-input soak (CPython only for time): noisy placements on a 9-zone tray, 1,000 in
``make test`` and 10,000 under ``make soak``."""
from soak import size
from tray_soak import Soak

PLACEMENTS = size(1000, 10000)


def report(soak):
    placed = sorted(soak.placed_latency)
    removed = sorted(soak.removed_latency)
    return (
        "%d placements %r, %d events, %d phantom, %d reader faults reported, %d/%d weak, %d/%d swapped and"
        " %d/%d crosstalk confirmed, %d lost; %d previews on the hot pad, %d withdrawn; %d display writes on the readers' bus, %d misread; "
        "placed after %d ms median / %d ms max, removed after %d ms median / %d ms max"
    ) % (
        soak.placements,
        sorted(soak.counts.items()),
        soak.events_seen,
        soak.phantoms,
        soak.faults_reported,
        soak.confirmed.get("weak", 0),
        soak.counts.get("weak", 0),
        soak.confirmed.get("swapped", 0),
        soak.counts.get("swapped", 0),
        soak.confirmed.get("crosstalk", 0),
        soak.counts.get("crosstalk", 0),
        soak.lost,
        soak.previews,
        soak.withdrawn,
        soak.display_writes,
        soak.display_errors,
        placed[len(placed) // 2],
        placed[-1],
        removed[len(removed) // 2],
        removed[-1],
    )


def test_noisy_placements_make_no_phantom_and_report_every_fault():
    soak = Soak(zones=9, fields=2, hot=0, seed=2026).run(PLACEMENTS)
    print(report(soak))
    assert soak.placements == PLACEMENTS
    assert soak.phantoms == 0, soak.failures[:5]
    assert soak.failures == [], (len(soak.failures), soak.failures[:5])
    assert soak.faults_reported == soak.counts["reader"]
    assert soak.lost == 0
    assert soak.previews > soak.withdrawn > 0  # flicker tiles on the hot pad are previewed, then taken back
    assert soak.display_errors == 0
