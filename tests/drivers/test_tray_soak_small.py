# portable
"""Bad-input soak, small enough for MicroPython: the same episodes as the full soak, fewer."""
from drivers.tray_soak import Soak


def test_noisy_placements_on_three_zones_make_no_phantom_and_report_every_fault():
    soak = Soak(zones=3, seed=7).run(50)
    assert soak.placements == 50
    assert soak.phantoms == 0
    assert soak.failures == [], soak.failures[:3]
    assert soak.faults_reported == soak.counts.get("reader", 0)
    assert len(soak.counts) >= 7  # most kinds of episode came up
    assert soak.display_errors == 0
