# portable
"""Seeded random hands of every line preset and variant, on CPython and on MicroPython.

The same checks as the CPython property tests, kept small enough for the Pico-sized heap:
tiles conserved, hands end, every listed action passes the checked ``play``, Buki's chips
sum to zero, undo restores, and the record replays to the same state.
"""
import gc

from engine.line_setup import start
from portable import table_ruleset


def _load():
    """Compile the line family before the helpers, while the heap is whole (on a 64-bit
    MicroPython with a 192 KB heap, collecting first and this order let the compiler find room)."""
    gc.collect()
    start("block", [["0-0"], ["1-1"]])
    from engine import line_random
    from engine.journal_replay import records_of, replayed

    return line_random, records_of, replayed


def _key(state):
    return (len(state.history), list(state.scores), len(state.score_events), state.current_player())


def _play_hand(name, params, players, seed, unseen_rate):
    """Play one hand (or to the match end), then check the record replays to the same state."""
    line_random, records_of, replayed = _load()
    check_tiles, pick = line_random.check_tiles, line_random.pick
    rng = line_random.new_rng(seed)
    ruleset = table_ruleset(name, **params)
    state = ruleset.new_state(players)
    steps = 0
    while state.hand_number == 0 and not state.is_over():
        action = pick(state, rng, unseen_rate)
        if steps == 30:
            before = _key(state)
            state.apply(action)
            state.undo()
            assert _key(state) == before
        state.play(action)
        check_tiles(state)
        if state.betting:
            assert sum(state.scores) + sum(state.betting.spectator_chips) == 0
        steps += 1
        assert steps < 600, "the hand does not end"
    records = records_of(state)
    key = _key(state)
    state = None  # a Pico-sized heap holds one match at a time
    gc.collect()
    again = replayed(ruleset, records)
    assert _key(again) == key and records_of(again) == records
    return again.hand_number == 1 or again.is_over()


def test_every_variant_plays_a_seeded_hand():
    VARIANTS = _load()[0].VARIANTS
    for index in range(len(VARIANTS)):
        name, params = VARIANTS[index]
        players = min(int(k) for k in table_ruleset(name, **params).params["deal"])
        assert _play_hand(name, params, players, index, 0.0)
        gc.collect()


def test_four_player_hands_with_unseen_deals():
    for name in ("block", "muggins", "sniff", "matador", "buki"):
        assert _play_hand(name, {}, 4, 11, 0.5)
        gc.collect()
