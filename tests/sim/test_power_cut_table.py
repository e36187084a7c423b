"""A shown play is a kept play (issue 36): on the simulated table, for every game, what the
table accepts is on flash within 100 ms of device time, flushed after its LEDs, and a power cut
at any instant (seeded: between two service steps, or inside a program or an erase of the
flash) loses at most the play in hand; the table then resumes at the last kept record with
what it showed right after it (tests/sim/powercut.py).

The cuts run the table in its fast mode (device time moves with the bus and the scan's fixed
costs, not the firmware's lines), the flush times in the chip's costs (sim/chip_costs.py):
four cuts a game in ``make test``, forty in ``make soak`` (tests/soak.py)."""
import random

import pytest

from blockdev import PowerCut
from player import ClimbPlayer, ColumnPlayer, LinePlayer, MoonPlayer
from powercut import KEPT_WITHIN_MS, FlashTable, check_cut
from soak import size

# (player class, game, players, player options, moves played): the 11 presets
GAMES = [
    (LinePlayer, "muggins", 2, {"scan": (0,)}, 60),
    (LinePlayer, "block", 3, {}, 60),
    (LinePlayer, "draw", 2, {"scan": (0, 1)}, 60),
    (LinePlayer, "sebastopol", 4, {}, 60),
    (LinePlayer, "bergen", 2, {}, 60),
    (LinePlayer, "sniff", 2, {}, 60),
    (LinePlayer, "matador", 2, {}, 60),
    (LinePlayer, "buki", 4, {}, 60),
    (MoonPlayer, "moon", 3, {}, 60),
    (ColumnPlayer, "columns", 2, {}, 60),
    (ClimbPlayer, "dasan", 3, {}, 90),  # through the deal of its second hand
]
IDS = [g[1] for g in GAMES]
CUTS = size(4, 40)
CHIP_STEPS = 4096  # a cut inside the flash work falls within this many steps (bytes, erases)


def _play(root, game, fast=True, cut_us=None, chip_steps=None):
    """Play ``game`` on a fresh table until its moves are made or the cut: (table, its Watch
    at the cut or the end, whether the power was cut)."""
    player_class, name, players, options, moves = game
    table = FlashTable(root, fast=fast)
    table.watch.cut_us, table.watch.chip_steps = cut_us, chip_steps
    try:
        player_class(table, name, players, seed=5, **options).play_match(max_moves=moves)
    except PowerCut:
        return table, table.watch, True
    return table, table.watch, False


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_every_play_is_on_flash_within_100_ms_and_never_before_its_leds(tmp_path, game):
    """In the chip's device time (every firmware line charged): each record from its journalling
    to the end of the flush that wrote it (a deal's pieces from the end of the deal's step);
    and no scan step flushes but after a play it accepted (its LEDs lit: Table.act), before
    the deal the play set off."""
    table, watch, _ = _play(tmp_path, game[:4] + (25,), fast=False)
    try:
        latencies = watch.latencies_ms()
        assert len(latencies) >= 20 and len(latencies) >= len(watch.records) - 1  # all but a last one kept
        slow = {seq: ms for seq, ms in latencies.items() if ms > KEPT_WITHIN_MS}
        assert not slow, slow
        assert watch.flushes_before_play == 0
    finally:
        table.close()


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_power_cut_at_any_instant_loses_at_most_the_play_in_hand(tmp_path, game):
    reference, watch, _ = _play(tmp_path / "reference", game)
    length_us = reference.device.hardware.clock.now_us
    reference.close()
    # from the game's first record: before it the menu is browsed (more presses as the menu
    # grows), which journals nothing a cut could lose
    start_us = min(journalled for _, journalled, _ in watch.records.values())
    rng = random.Random("%s-%d" % (game[1], game[2]))
    compared = 0
    for cut in range(CUTS):
        cut_us = start_us + rng.randrange(length_us - start_us)
        chip_steps = rng.randrange(1, CHIP_STEPS) if cut % 2 else None
        table, before, was_cut = _play(tmp_path / ("cut%d" % cut), game, cut_us=cut_us, chip_steps=chip_steps)
        try:
            if not was_cut:  # a cut in the flash work after the last write of the moves played
                continue
            table.power_on_after_cut()
            lost, seen = check_cut(table, before)
            compared += seen
        finally:
            table.close()
    assert compared >= CUTS // 2
