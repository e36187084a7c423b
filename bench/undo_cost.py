"""What an UNDO costs as a match grows (issue 14: no task holds the Pico's loop over 50 ms).

On the emulated Pico (the harness in ~/.cache/rp2emu, a frozen build, its REPL on PORT):

    python3 chiprepl.py PORT bench/undo_cost.py

On the unix port (MicroPython only; host time, 64-bit objects: heap about 1.45 times the Pico's):

    python tools/build_mpy.py build/mpy && cd build/mpy && \\
        ../../.venv/bin/micropython -X heapsize=352K -c \\
        "import sys; sys.path.insert(0, 'firmware'); exec(open('../../bench/undo_cost.py').read())"

Prints, for a 4-player Muggins match played at random (seeded): the time of one undo at 20, 60,
120, 200 and 300 actions; a deal's group of tiles taken back at once; the setting probe
(save, declare, the legal sets, restore); the heap the checkpoints hold.
"""
import gc
import random
import time

from tiletable.engine.line_actions import K_PLAY, K_SETTER, kind_of, seat_action
from tiletable.engine.rulesets import find_ruleset

def timed(fn, *args):
    """``fn(*args)``'s result and its time in ms, after a collection (none inside, if it fits)."""
    gc.collect()
    start = time.ticks_us()
    result = fn(*args)
    return result, time.ticks_diff(time.ticks_us(), start) / 1000


def random_action(state):
    actions = list(state.legal_actions) if state.current_player() >= 0 else list(state.chance_outcomes())
    action = actions[random.getrandbits(16) % len(actions)]
    return action[0] if isinstance(action, tuple) else action


def deal_group(state):
    """How many deal actions end the history (a deal's group, as the table undoes it)."""
    count = 0
    while count < len(state.history) and state.action_str(state.history[-1 - count]).startswith("D"):
        count += 1
    return count


def setting_probe(state, seat):
    saved = state.save()
    state.apply(seat_action(K_SETTER, seat))
    sets = [a for a in state.legal_actions if kind_of(a) == K_PLAY]
    state.restore(saved)
    return sets


def unseen_deal_probe():
    """The table's setting probe after a deal of unseen hands (``D<seat>:?``)."""
    state = find_ruleset("muggins").new_state(4)
    while state.phase == 0:
        seat = state.dealt // state.per_hand
        state.apply(state.parse_action("D%d:?" % seat))
    seat = state.current_player() if state.current_player() >= 0 else 0
    sets, ms = timed(setting_probe, state, seat)
    print("setting probe after an unseen deal (%d sets): %.1f ms" % (len(sets), ms))


def main():
    random.seed(3)
    state = find_ruleset("muggins").new_state(4)
    marks = (20, 60, 120, 200, 300)
    worst = 0
    deals = 0
    while not state.is_over() and len(state.history) <= 300:
        if len(state.history) in marks:
            last, ms = timed(state.undo)
            print("undo at %d actions: %.1f ms" % (len(state.history) + 1, ms))
            state.apply(last)
            worst = max(worst, ms)
        phase = state.phase
        state.apply(random_action(state))
        if phase == 0 and state.phase != 0:  # a deal just ended
            count = deal_group(state)
            again = state.history[-count:]
            _, ms = timed(state.undo, count)
            print("deal of %d undone at %d actions: %.1f ms" % (count, len(state.history) + count, ms))
            for action in again:
                state.apply(action)
            deals += 1
    kept = len(state._checkpoints)
    gc.collect()
    held = gc.mem_alloc()
    state._checkpoints = []
    gc.collect()
    print("checkpoints: %d held, %d bytes" % (kept, held - gc.mem_alloc()))
    print("phases: %d bytes of record" % len(state.phases))
    print("%d actions, %d deals" % (len(state.history), deals))


unseen_deal_probe()
main()
