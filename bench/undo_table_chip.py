"""The table's UNDO of a deal, whole (engine, journal, events, redraw), on the emulated Pico.

    python3 chiprepl.py PORT bench/undo_table_chip.py     (a harness started with --menu-held)

Starts Muggins and Block for four on the chip's own board and App, deals unseen hands the way
the table does at OK, and times ``Table.undo`` of the deal; for Muggins it then plays the first
hand out at random through ``Table.act`` and times the undo of the second hand's deal.
"""
import gc
import random
import sys
import time

import machine
from tiletable.board.setup import build
from tiletable.runtime.app import App

board = build(machine)
app = App(board, sys.stdin.buffer, sys.stdout.buffer, time.ticks_ms, unique_id=machine.unique_id(), ticks_us=time.ticks_us)
table = app.table
NOW = time.ticks_ms()


def deal(controller):
    controller.on_ok(NOW)
    while controller.deal_going:
        controller.tick(NOW)


def timed_undo(label):
    before = len(table.state.history)
    gc.collect()
    start = time.ticks_us()
    table.undo(NOW)
    ms = time.ticks_diff(time.ticks_us(), start) / 1000
    print("%s: UNDO %.1f ms (history %d -> %d)" % (label, ms, before, len(table.state.history)))


def play_first_hand(state, controller):
    while state.hand_number == 0 and not state.is_over():
        seat = state.current_player()
        actions = list(state.legal_actions) if seat >= 0 else list(state.chance_outcomes())
        action = actions[random.getrandbits(16) % len(actions)]
        table.act(action[0] if isinstance(action, tuple) else action, max(seat, 0), NOW)
        controller.after_act(NOW)
    while controller.summary:
        controller.on_ok(NOW)


random.seed(1)
for game in ("muggins", "block"):
    table.start(game, ["A", "B", "C", "D"], NOW)
    deal(table.controller)
    timed_undo("%s 4p, first deal" % game)
    if game == "muggins":
        deal(table.controller)
        play_first_hand(table.state, table.controller)
        deal(table.controller)
        timed_undo("%s 4p, second deal" % game)
gc.collect()
print("heap free %d" % gc.mem_free())
