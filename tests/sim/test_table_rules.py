"""The table's feedback on the simulated device: illegal plays, ambiguous ends, undo as a
journal amendment, resuming after a power cut, unusable tags."""
import sys

import pytest
from player import SETTLED, at_budget, choose_game, journal_sessions, local_table, reads, replay
from tiletable.drivers.status_leds import StatusLeds
from tiletable.engine.errors import E_CLAIM, E_PHASE, E_TILE, E_TURN, RulesetError
from tiletable.families import games
from tiletable.heap import StockHeap

import device


RED = at_budget(StatusLeds.illegal_colour)  # the illegal flash
AMBER = at_budget(StatusLeds.end_colour)  # a candidate end


def started(tmp_path, game="block", players=2, policy=None):
    """A table with ``game`` chosen in the menu and dealt (unseen hands); ``policy``: see local_table."""
    control = local_table(tmp_path, policy=policy)
    for _ in range(len(games())):  # round the menu once at most
        if control.state()["menu"][0] == game:
            break
        control.press(0)
    for _ in range(4):
        if control.state()["menu"][1] == players:
            break
        control.press(0, "long")
    control.press("ok")
    control.press("ok")
    return control


def flushed_journal(control, root):
    """The journal's last session once its timed flush (2 s) has written the records."""
    control.command("wait 2100")
    return journal_sessions(root)[-1]


def test_illegal_play_flashes_red_buzzes_shows_the_code_and_changes_nothing(tmp_path):
    control = started(tmp_path)
    control.place(0, "3-3")  # seat 0 holds the highest double: it sets
    control.remove(0)
    before = control.state()
    control.tones()
    control.place(2, "1-2")  # seat 1 (north pad) lays a tile that matches neither end
    assert reads(control.display()[1], "Err4")
    assert set(control.leds()) == {RED}
    assert control.tones()[0].startswith("220/")
    assert control.state()["actions"] == before["actions"]
    assert control.state()["last_error"][0] == 4


def test_a_hand_scan_refuses_a_tile_of_another_set_and_deals_its_tiles_as_seen(tmp_path):
    control = local_table(tmp_path)
    choose_game(control, "block", 2)  # the deal: hands may be scanned until OK
    control.place(0, "7-7")
    assert control.state()["last_error"] == [E_TILE, "7-7 is not in this game's set"]
    assert reads(control.display()[0], "Err%d" % E_TILE)
    control.remove(0)
    for tile in ("1-2", "3-4"):
        control.place(0, tile)
        control.remove(0)
    control.press("ok")
    actions = flushed_journal(control, tmp_path)[1]
    assert actions[:3] == ["D0:1-2", "D0:3-4", "D0:?"] and actions[7:9] == ["D1:?", "D1:?"]


def test_out_of_turn_play_is_refused_with_err1(tmp_path):
    control = started(tmp_path)
    control.place(0, "3-3")
    control.remove(0)
    control.place(0, "3-4")  # seat 0 again
    assert reads(control.display()[0], "Err1")
    assert control.state()["actions"] == 5 * 2 * 0 + 14 + 2  # the deal (7 + 7), setter0, 3-3


def test_a_double_press_with_no_claim_open_changes_nothing(tmp_path):
    """Its first press is held back until no double press can follow: it never draws."""
    control = started(tmp_path, "muggins")
    control.place(0, "3-3")  # the set: ends 3 + 3 = 6, nothing to claim
    control.remove(0)
    before = control.state()
    journal = flushed_journal(control, tmp_path)
    assert before["to_act"] == 1 and "last_error" not in before
    control.press(1, "double")
    after = control.state()
    assert after.pop("last_error")[0] == E_CLAIM and reads(control.display()[1], "Err8")
    assert after == before
    assert flushed_journal(control, tmp_path) == journal
    control.press(1)  # a single press still draws (and the table deals the unseen tile)
    assert flushed_journal(control, tmp_path)[1][len(journal[1]) :] == ["draw", "D1:?"]


def test_error_texts_name_seats_from_1_and_clear_at_the_next_accepted_play(tmp_path):
    control = started(tmp_path, "muggins", players=3)
    control.place(0, "3-3")
    control.remove(0)
    control.press(2, "double")  # the third seat claims with nothing to claim
    assert control.state()["last_error"] == [E_CLAIM, "P3 has nothing to claim"]
    control.place(2, "1-2")  # on the third seat's pad, out of turn
    control.remove(2)
    assert control.state()["last_error"] == [E_TURN, "P3 acted out of turn"]
    control.press(1)  # the second seat, to act, draws: accepted
    assert "last_error" not in control.state()


def test_ambiguous_end_is_asked_with_the_end_leds_and_the_seat_button(tmp_path):
    control = started(tmp_path)
    control.place(0, "3-3")
    control.remove(0)
    control.place(2, "3-4")
    assert reads(control.display()[1], "L")
    # 3-4's green flash, which began with a blink over 3-3's, is over
    control.command("wait %d" % (StatusLeds.blink_ms + sum(StatusLeds.legal_flash_ms)))
    leds = control.leds()
    assert leds[1] == AMBER and leds[3] == AMBER  # the end zones L (west) and R (east)
    control.press(1)
    assert reads(control.display()[1], "R")
    control.press(1, "long")
    control.remove(2)
    header, actions = flushed_journal(control, tmp_path)
    assert actions[-1] == "3-4>R"
    assert control.leds()[1] != AMBER


def test_a_tile_laid_on_an_end_zone_chooses_that_end(tmp_path):
    control = started(tmp_path)
    control.place(0, "3-3")
    control.remove(0)
    control.place(1, "3-4")  # straight onto the west end zone (L)
    control.remove(1)
    assert flushed_journal(control, tmp_path)[1][-1] == "3-4>L"


def test_a_tile_lifted_from_another_pad_leaves_the_end_choice_open(tmp_path):
    """Seat 0 moves its double into the line while seat 1, who laid a tile that fits both
    ends, chooses the end: only lifting seat 1's own tile cancels that choice."""
    control = started(tmp_path)
    control.place(0, "3-3")
    control.place(2, "3-4")  # fits both ends of the double: seat 1 chooses
    control.remove(0)
    control.press(1, "long")
    control.remove(2)
    assert flushed_journal(control, tmp_path)[1][-1] == "3-4>L"


def test_a_play_replaces_the_message_still_on_its_seat(tmp_path):
    """Two tiles laid on a pad (``2tLS`` for 1.5 s), one taken back and the right one laid at
    once: the play's figures show at once, not after the message has run out."""
    control = started(tmp_path, "muggins")
    control.place(0, "1-2", "1-3")
    assert reads(control.display()[0], "2tLS")
    control.remove(0)
    control.place(0, "5-5")  # sets, and opens a claim of 10
    assert reads(control.display()[0], "C 10")


def test_undo_is_an_amendment_in_the_journal(tmp_path):
    control = started(tmp_path)
    control.place(0, "3-3")
    control.remove(0)
    control.place(2, "3-4")
    control.press(1, "long")
    control.remove(2)
    played = control.state()["actions"]
    control.press("undo")
    assert control.state()["actions"] == played - 1
    header, kept = flushed_journal(control, tmp_path)
    folder = tmp_path / "journal"
    data = b"".join(p.read_bytes() for p in sorted(folder.glob("*.tjs")))
    from tiletable.record import REC_TIMED_ACTION, REC_UNDO, iter_records
    from tiletable.record_read import action_parts

    records = list(iter_records(data))
    amended = [int(payload) for seq, rtype, payload in records if rtype == REC_UNDO]
    actions = {seq: action_parts(rtype, payload)[1] for seq, rtype, payload in records if rtype == REC_TIMED_ACTION}
    assert len(amended) == 1 and actions[amended[0]] == b"3-4>L"  # still there, amended
    assert len(kept) == played - 1 and "3-4>L" not in kept


def test_restart_resumes_the_game_in_progress_from_the_journal(tmp_path):
    control = started(tmp_path)
    control.place(0, "3-3")
    control.remove(0)
    control.place(2, "3-4")
    control.press(1, "long")
    control.remove(2)
    control.command("wait 2500")  # the journal's timed flush
    before = control.state()
    resumed = local_table(tmp_path)  # a power cut: the old device is gone, the flash remains
    assert resumed.state() == before
    assert reads(resumed.display()[0], "0") and reads(resumed.display()[1], "0")
    resumed.place(0, "4-5")  # a tile already lying on a pad at power-up is not a new play...
    assert resumed.state()["actions"] == before["actions"]
    resumed.remove(0)
    resumed.command("wait 1500")
    resumed.place(0, "4-5")  # ...once the table has settled, it is
    assert resumed.state()["actions"] == before["actions"] + 1


def test_actions_carry_their_times_and_a_restart_goes_on_from_the_last(tmp_path):
    """Tenths of a second since the session started, by the table's clock; after a power cut
    the session's clock goes on from the last action journalled (time without power is not
    counted: the table cannot know it)."""
    from tiletable.record import REC_TIMED_ACTION, iter_records
    from tiletable.record_read import action_parts

    control = started(tmp_path)
    control.place(0, "3-3")
    control.remove(0)
    control.command("wait 7000")
    control.place(2, "3-4")
    control.press(1, "long")
    control.remove(2)
    control.command("wait 10000")  # flushed after 2 s; the rest is lost with the power
    resumed = local_table(tmp_path)
    resumed.command("wait 5500")
    resumed.place(0, "4-5")
    resumed.remove(0)
    resumed.command("wait 2100")
    data = b"".join(p.read_bytes() for p in sorted((tmp_path / "journal").glob("*.tjs")))
    timed = [action_parts(rtype, payload) for _, rtype, payload in iter_records(data) if rtype == REC_TIMED_ACTION]
    times = {text: tenths for tenths, text in timed}
    assert [tenths for tenths, _ in timed] == sorted(tenths for tenths, _ in timed)
    assert times[b"D0:?"] < 20 and times[b"3-3"] < 50
    assert 70 <= times[b"3-4>L"] - times[b"3-3"] < 100
    assert 55 <= times[b"4-5>L"] - times[b"3-4>L"] < 100, timed


@pytest.mark.parametrize("when", ["tile", "button"])
def test_a_game_that_runs_out_of_heap_as_it_is_played_resumes_after_a_restart(tmp_path, monkeypatch, when):
    """A heap in pieces can fail a game in the middle of a move: the journal is flushed, the
    board restarts and the game resumes on a fresh heap, every move journalled before kept."""
    import tiletable.runtime.table as table_module

    control = started(tmp_path)
    control.place(0, "3-3")
    control.remove(0)
    before = control.state()
    first_boot = control.device
    handler = "zone_event" if when == "tile" else "button_event"
    real = getattr(table_module.Table, handler)
    failures = [1]

    def out_of_heap_once(table, event, now_ms):
        if failures[0]:
            failures[0] -= 1
            raise MemoryError("memory allocation failed, allocating 2048 bytes")
        return real(table, event, now_ms)

    monkeypatch.setattr(table_module.Table, handler, out_of_heap_once)
    if when == "tile":
        control.place(0, "4-4")
    else:
        control.press(1, "long")
    assert control.device is not first_boot  # the board restarted
    assert control.state()["actions"] == before["actions"] and control.state()["scores"] == before["scores"]
    sessions = journal_sessions(tmp_path)
    assert len(sessions) == 1 and len(sessions[0][1]) == before["actions"]  # the same session, resumed
    assert sessions[0][1][-1] == "3-3"


def test_a_power_cut_loses_only_unflushed_records_and_the_replay_still_holds(tmp_path):
    control = started(tmp_path)
    control.place(0, "3-3")
    control.remove(0)
    resumed = local_table(tmp_path)
    header, actions = journal_sessions(tmp_path)[-1]
    state = resumed.state()
    assert state["mode"] == "game" and state["actions"] == len(actions)
    assert replay(header, actions).scores == state["scores"]


def test_unenrolled_tag_is_shown_and_never_played(tmp_path):
    control = started(tmp_path)
    before = control.state()["actions"]
    control.place(0, "blank")
    assert reads(control.display()[0], "tAG?")
    assert control.state()["actions"] == before


def test_two_tiles_on_a_pad_wait_for_one(tmp_path):
    control = started(tmp_path)
    control.place(0, "3-3", "4-4")
    assert reads(control.display()[0], "2tLS")
    assert control.state()["actions"] == 14


def test_a_whole_hand_on_a_pad_is_counted_on_its_four_digits(tmp_path):
    """Ten tiles or more on a pad that wants one: "11tLS" would not fit a seat's four digits,
    and raised out of the scan (a stock chip restarted into the same tiles, again and again)."""
    control = started(tmp_path)
    before = control.state()["actions"]
    control.place(0, "0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-1", "1-2", "1-3", "1-4")
    assert reads(control.display()[0], "11tL")
    assert control.state()["actions"] == before
    control.remove(0)
    control.place(0, "3-3", "4-4")
    assert reads(control.display()[0], "2tLS")


def test_pieces_are_one_physical_tag_each():
    pieces = device.Pieces()
    assert pieces.tag("5-6") is pieces.tag("6-5")
    assert pieces.tag("blank") is not pieces.tag("blank")


def test_moon_bid_is_chosen_with_the_seat_button_and_undone(table_root):
    control = started(table_root, "moon", 3)
    dealt = control.state()["actions"]
    assert dealt == 22  # 3 x 7 tiles and the widow, all unseen
    assert reads(control.display()[1], "PASS")  # seat 1 speaks first
    control.press(1)
    assert reads(control.display()[1], "bid4")
    control.press(1, "long")
    assert control.state()["actions"] == dealt + 1
    control.press("undo")
    assert control.state()["actions"] == dealt
    assert reads(control.display()[1], "PASS")  # the call is offered again


def test_da_san_combination_is_taken_once_stable_and_checked(table_root):
    control = started(table_root, "dasan", 3)
    for seat, card in ((0, "H5"), (1, "S7"), (2, "D9")):  # the cut: the lowest card deals
        control.place(seat, card)
        control.remove(seat)
    state = control.state()
    assert state["actions"] == 3 + 52  # the cut, then 3 x 16 cards and the kitty of 4, unseen
    assert state["to_act"] == "chance"  # the table cannot tell who holds the lowest heart
    control.place(0, "H4")  # seat 0 shows it: seat 0 opens the auction
    control.remove(0)
    assert reads(control.display()[0], "1")
    control.press(0, "long")  # bids 1
    for seat in (2, 1):  # counter-clockwise; both pass
        assert reads(control.display()[seat], "PASS")
        control.press(seat, "long")
    played = control.state()["actions"]
    control.place(0, "H4")  # the opener leads a single: taken once it has lain still
    assert control.state()["actions"] == played
    control.command(SETTLED)
    assert control.state()["actions"] == played + 1
    control.remove(0)
    control.place(2, "C5", "D7")  # not a combination
    control.command(SETTLED)
    assert reads(control.display()[2], "Er12")
    assert control.state()["actions"] == played + 1


def test_moon_trick_on_the_trick_zone_shows_its_winner(table_root):
    control = started(table_root, "moon", 3)
    control.press(1)
    control.press(1, "long")  # seat 1 bids 4
    control.press(2, "long")  # then seat 2 and seat 0 pass
    control.press(0, "long")
    state = control.state()
    assert state["prompt"] == "P2 to play"  # seat 1 (P2); the exchange: a press keeps the hand
    control.press(1)
    control.place(4, "6-6")  # a double leads its own suit: no question
    control.place(4, "2-6")
    control.place(4, "1-1")
    assert reads(control.display()[1], "tr 1")  # 6-6 took the trick
    control.remove(4)
    assert reads(control.display()[1], "0")


def test_moon_tile_on_the_trick_zone_during_the_deal_is_refused_not_a_crash(table_root):
    """Nobody is to play while the hands are dealt: the table's current player is -1, which has
    no display. It crashed the firmware (on the chip: a watchdog reset, then the same tile
    again at the resume, a reset every 10 s); now the first seat shows the refusal and the deal
    goes on."""
    control = local_table(table_root)
    choose_game(control, "moon", 3)
    assert control.state()["to_act"] == "chance"
    control.place(4, "6-6")
    state = control.state()
    assert state["last_error"] == [E_PHASE, "no trick is being played now"] and state["actions"] == 0
    assert reads(control.display()[0], "Err%d" % E_PHASE)
    control.remove(4)
    control.press("ok")  # the deal
    assert control.state()["to_act"] in (0, 1, 2)  # the bidding begins


def _no_room_for_code(monkeypatch):
    """Make importing a family's code fail as it does on a Pico whose heap is full."""
    import tiletable.runtime.starter as starter_module

    def no_room(family):
        raise MemoryError("memory allocation failed, allocating 4096 bytes")

    monkeypatch.setattr(starter_module, "controller_for", no_room)


def test_no_memory_for_a_game_is_reported_and_starts_nothing(tmp_path, monkeypatch):
    control = local_table(tmp_path)
    _no_room_for_code(monkeypatch)
    control.press("ok")  # start the game the menu shows
    state = control.state()
    assert state["mode"] == "menu"
    assert "not enough memory on this table for muggins" in state["last_error"][1]  # the menu shows MUGG
    assert journal_sessions(tmp_path) == []


def test_no_memory_to_resume_ends_the_session_and_keeps_its_records(tmp_path, monkeypatch):
    control = started(tmp_path)
    control.place(0, "3-3")
    control.remove(0)
    header, actions = flushed_journal(control, tmp_path)
    _no_room_for_code(monkeypatch)
    restarted = local_table(tmp_path)  # power cut and restart: nothing to resume it with
    state = restarted.state()
    assert state["mode"] == "menu"
    assert "cannot resume: not enough memory on this table for block" in state["last_error"][1]
    assert journal_sessions(tmp_path)[-1][1] == actions


LINE_MODULES = ("tiletable.engine.line", "tiletable.runtime.play_line")
TRICK_MODULES = ("tiletable.engine.trick", "tiletable.runtime.play_trick")


def test_a_game_of_another_family_unloads_the_modules_of_the_family_played_before(tmp_path):
    """On a Pico running copied .mpy files a family's bytecode is heap: Muggins then Moon must
    not hold both families' code."""
    for name in LINE_MODULES + TRICK_MODULES:
        StockHeap().unload(name)  # as at boot: the table imports them itself
    control = local_table(tmp_path, policy=StockHeap)
    table = control.device.app.table
    table.starter.start("muggins", ["A", "B"], 0)
    table.stop()
    table.starter.start("muggins", ["A", "B", "C"], 0)  # the same family again: nothing unloaded
    assert all(name in sys.modules for name in LINE_MODULES)
    table.starter.start("moon", ["A", "B", "C"], 0)  # while Muggins is in progress: Muggins is set aside first
    assert all(name in sys.modules for name in TRICK_MODULES)
    assert not any(name in sys.modules for name in LINE_MODULES)
    table.stop()
    table.starter.start("muggins", ["A", "B"], 0)  # no game in progress: Moon's modules go
    assert all(name in sys.modules for name in LINE_MODULES)
    assert not any(name in sys.modules for name in TRICK_MODULES)
    table.stop()
    table.starter.start("columns", ["A", "B"], 0)
    assert not any(name in sys.modules for name in LINE_MODULES)
    assert control.state()["mode"] == "game"


def test_on_the_pc_no_module_is_ever_unloaded(tmp_path):
    """CPython runs the firmware with a frozen build's heap policy (tiletable/heap_frozen.py):
    a module unloaded there would be taken from under whatever else in the process uses it
    (the PC tool's threads, its live view). A sync's validation and games of three families,
    started and stopped, leave every module they found or imported in place."""
    from tiletable.engine.rulesets import find_ruleset
    from tiletable.heap_frozen import FrozenHeap

    families = LINE_MODULES + TRICK_MODULES + ("tiletable.engine.line_params", "tiletable.engine.trick_params")
    for name in families:
        StockHeap().unload(name)  # so that the table and the rule store import them themselves
    control = local_table(tmp_path)
    app = control.device.app
    assert isinstance(app.policy, FrozenHeap)
    seen = set(sys.modules)
    for name in ("muggins", "moon"):
        ruleset = find_ruleset(name)
        app.table.rulestore.put(ruleset.to_json().encode(), ruleset.hash)  # validated as a sync's upload is
        assert seen <= set(sys.modules)
        seen = set(sys.modules)
    for name, players in (("muggins", 2), ("moon", 3), ("columns", 2), ("muggins", 3)):
        app.table.starter.start(name, ["A", "B", "C"][:players], 0)
        app.table.stop()
        assert seen <= set(sys.modules)
        seen = set(sys.modules)
    assert all(name in sys.modules for name in families)


def _block_with_imports_noted(tmp_path, monkeypatch, full_while_held=False, policy=None):
    """Block with a tile played; each import of a family's code notes whether a game is held
    then (and with ``full_while_held`` runs out of heap if one is). Returns (control, notes)."""
    import tiletable.runtime.starter as starter_module

    control = started(tmp_path, policy=policy)
    control.place(0, "3-3")
    control.remove(0)
    real = starter_module.controller_for
    held = []

    def noted(family):
        held.append(control.device.app.table.session is not None)
        if full_while_held and held[-1]:
            raise MemoryError("memory allocation failed, allocating 4096 bytes")
        return real(family)

    monkeypatch.setattr(starter_module, "controller_for", noted)
    return control, held


def _block_abandoned_for(control, tmp_path, name):
    control.command("wait 2100")
    sessions = journal_sessions(tmp_path)
    assert [header["ruleset"] for header, _ in sessions] == ["block", name]
    assert sessions[0][1][-1] == "3-3"  # the abandoned game's record is whole


def test_when_the_heap_cannot_hold_two_games_the_one_in_progress_is_abandoned_first(tmp_path, monkeypatch):
    control, held = _block_with_imports_noted(tmp_path, monkeypatch, full_while_held=True)
    control.device.app.table.starter.start("muggins", ["A", "B", "C"], 0)  # Block's family: tried beside it
    assert held == [True, False]  # tried beside Block, then again once Block was given up
    assert control.state()["mode"] == "game"
    _block_abandoned_for(control, tmp_path, "muggins")


def test_a_game_of_another_family_is_not_tried_beside_the_one_in_progress(tmp_path, monkeypatch):
    """Where the bytecode is in the heap, an attempt beside the game in progress ran out of room
    and left its pieces in the way of the next one (a Moon start after Muggins was refused, or
    not, by what had run since the menu opened): the game in progress goes first."""
    control, held = _block_with_imports_noted(tmp_path, monkeypatch, policy=StockHeap)
    control.press("menu")
    control.device.app.table.starter.start("moon", ["A", "B", "C"], 0)  # at once: nothing ran between
    assert held == [False]
    assert control.state()["ruleset"] == "moon"
    _block_abandoned_for(control, tmp_path, "moon")


def test_a_game_of_another_family_refused_for_its_input_leaves_the_one_in_progress(tmp_path):
    """The game set aside for another family's start comes back from the journal when that
    start is refused for its input (Moon for four: bad input loses nothing)."""
    control = started(tmp_path, policy=StockHeap)
    control.place(0, "3-3")
    control.remove(0)
    before = control.state()
    table = control.device.app.table
    with pytest.raises(RulesetError):
        table.starter.start("moon", ["A", "B", "C", "D"], 0)
    after = control.state()
    assert (after["mode"], after["ruleset"], after["scores"], after["actions"]) == (before["mode"], "block", before["scores"], before["actions"])
    assert table.journal.in_session  # its session goes on
    control.command("wait 2100")
    assert [header["ruleset"] for header, _ in journal_sessions(tmp_path)] == ["block"]


def test_a_game_of_another_family_with_no_room_abandons_the_one_in_progress(tmp_path, monkeypatch):
    """With no room for the new family's code, the game set aside ends as abandoned (its record
    whole), as when it was in the way: a restart into the new game must not resume it."""
    import tiletable.runtime.starter as starter_module

    control = started(tmp_path, policy=StockHeap)
    control.place(0, "3-3")
    control.remove(0)
    table = control.device.app.table
    real = starter_module.controller_for

    def no_room_for_trick(family):
        if family == "trick":
            raise MemoryError("memory allocation failed, allocating 4096 bytes")
        return real(family)

    monkeypatch.setattr(starter_module, "controller_for", no_room_for_trick)
    with pytest.raises(starter_module.NoRoom):
        table.starter.start("moon", ["A", "B", "C"], 0)
    assert control.state()["mode"] == "menu" and not table.journal.in_session
    sessions = journal_sessions(tmp_path)
    assert [header["ruleset"] for header, _ in sessions] == ["block"]
    assert sessions[0][1][-1] == "3-3"


def _cut_up_after_one_game(monkeypatch, control_of, owner, name):
    """Make ``owner.name`` fail as on a cut-up heap from its second call since power-on;
    ``control_of()`` is the LocalControl, whose power-ons start a fresh heap."""
    real = getattr(owner, name)
    calls = [0]  # since the board last powered on

    def cut_up(*args):
        calls[0] += 1
        if calls[0] > 1:
            raise MemoryError("memory allocation failed, allocating 1168 bytes")
        return real(*args)

    monkeypatch.setattr(owner, name, cut_up)
    control = control_of()
    power_on = control.power_on

    def fresh_heap():
        calls[0] = 0
        return power_on()

    control.power_on = fresh_heap
    return control


def _family_code():
    import tiletable.runtime.starter as starter_module

    return starter_module, "controller_for"


def _session_file():
    from tiletable.runtime.journal import Journal

    return Journal, "_open"


@pytest.mark.parametrize("short_of", [_family_code, _session_file], ids=["family-code", "session-file"])
def test_a_game_the_used_heap_cannot_hold_restarts_the_table_into_it(tmp_path, monkeypatch, short_of):
    """Games played since boot leave their modules' pieces in a Pico's heap: a game that then
    does not fit (its family's code, or last of all the buffer of its session file) is started
    by a restart (the menu's OK, as the link's GAME_START)."""
    import os

    control = _cut_up_after_one_game(monkeypatch, lambda: local_table(tmp_path, policy=StockHeap), *short_of())
    first_boot = control.device
    choose_game(control, "muggins", 2)
    control.press("ok")  # the deal
    control.place(0, "5-5")
    control.remove(0)
    control.press("menu")
    choose_game(control, "moon", 3)  # no room beside Muggins, nor after giving it up
    assert control.device is not first_boot  # the board restarted
    state = control.state()
    assert state["mode"] == "game" and state["ruleset"] == "moon"
    assert not os.path.exists(tmp_path / "start.json")  # the note is used once
    control.command("wait 2100")
    sessions = journal_sessions(tmp_path)
    assert [header["ruleset"] for header, _ in sessions] == ["muggins", "moon"]
    assert sessions[0][1][-1] == "5-5"


def _flash_full(monkeypatch):
    import os

    def flash_full(src, dst):
        raise OSError(28, "no space left")

    monkeypatch.setattr(os, "rename", flash_full)


def _no_heap_for_the_note(monkeypatch):
    import builtins

    import tiletable.runtime.app as app_module

    def no_heap(path, *args):
        if path.endswith("start.json.tmp"):
            raise MemoryError("memory allocation failed, allocating 1200 bytes")
        return builtins.open(path, *args)

    monkeypatch.setattr(app_module, "open", no_heap, raising=False)


@pytest.mark.parametrize("refusal", [_flash_full, _no_heap_for_the_note], ids=["flash-full", "no-heap"])
def test_without_a_note_on_flash_there_is_no_restart_and_the_table_says_why(tmp_path, monkeypatch, refusal):
    control = _cut_up_after_one_game(monkeypatch, lambda: local_table(tmp_path, policy=StockHeap), *_family_code())
    first_boot = control.device
    choose_game(control, "muggins", 2)
    control.press("menu")
    refusal(monkeypatch)
    for _ in range(len(games())):  # page the menu to Moon
        if control.state()["menu"][0] == "moon":
            break
        control.press(0)
    control.press("ok")
    assert control.device is first_boot
    state = control.state()
    assert state["mode"] == "menu"
    assert state["last_error"] == [12, "not enough memory on this table for moon"]


def test_a_game_that_does_not_fit_a_fresh_heap_is_reported_not_restarted_into(tmp_path, monkeypatch):
    import tiletable.runtime.starter as starter_module

    def no_room(family):
        raise MemoryError("memory allocation failed, allocating 4096 bytes")

    monkeypatch.setattr(starter_module, "controller_for", no_room)
    with open(tmp_path / "start.json", "w") as note:  # as a restart into Moon leaves it
        note.write('{"ruleset": "moon", "players": ["A", "B", "C"]}')
    control = local_table(tmp_path)
    state = control.state()
    assert state["mode"] == "menu"
    assert state["last_error"] == [12, "not enough memory on this table for moon (%d bytes free)" % _free_in(state)]
    assert not control.device.app.restart_requested  # no restart loop
    assert not (tmp_path / "start.json").exists()


def _free_in(state):
    return int(state["last_error"][1].rsplit("(", 1)[1].split()[0])


class _TrayEvent:
    """What the tray's event ring hands the table (runtime/tray.py's ZoneEvent)."""

    def __init__(self, kind, zone, items=(), count=0):
        self.kind, self.zone, self.items, self.count, self.reason, self.uid = kind, zone, items, count, None, None


def test_a_tile_read_once_on_the_movers_pad_flashes_its_verdict_and_a_withdrawal_takes_it_back(tmp_path):
    from tiletable import tagrecord
    from tiletable.engine.line_actions import K_PLAY, kind_of, tile_of
    from tiletable.runtime.tray import SEEN, UNSEEN

    control = started(tmp_path, "block")
    control.place(0, "3-3")  # seat 0 holds the highest double: it sets
    control.remove(0)
    control.tones()
    table = control.device.app.table
    state = table.session.state
    zone = table.profile.seat_zone[state.current_player()]
    fitting = {tile_of(a) for a in state.legal_actions() if kind_of(a) == K_PLAY}
    misfit = next(t for t in state.tiles if t not in fitting)
    history = list(state.history)
    green = at_budget(StatusLeds.legal_colour)
    for tile, colour in ((min(fitting), green), (misfit, RED)):
        table.zone_event(_TrayEvent(SEEN, zone, ((tagrecord.KIND_TILE, device.TILE_SET, tile),), 1), 0)
        if set(control.leds()) == {"000000"}:  # over 3-3's green still lit, the verdict blinks first
            table.tick(StatusLeds.blink_ms)
        assert set(control.leds()) == {colour}  # the verdict, before the tray confirms the read
        assert control.tones() == []  # no buzz for a read not yet confirmed
        table.zone_event(_TrayEvent(UNSEEN, zone), 1)
        assert colour not in control.leds()  # not confirmed: taken back
    assert state.history == history  # a preview plays nothing


def _ok_tapped_and_the_deal_going(control):
    """OK tapped as a person taps it (80 ms), and the device run just until the table sets its
    deal going (a few pieces a step: half a second on a stock chip): what comes next, comes
    while the deal goes out."""
    control.command("hold ok down")
    control.command("wait 80")
    control.command("hold ok up")
    for _ in range(100):
        control.command("wait 1")
        if control.device.app.table.dealing():
            return
    raise AssertionError("OK did not set the deal going")


def test_a_tile_laid_while_the_deal_goes_out_is_the_movers_play_not_a_hand_scan(tmp_path):
    control = local_table(tmp_path)
    choose_game(control, "block", 2)
    _ok_tapped_and_the_deal_going(control)
    control.place(0, "3-3")  # seat 0 holds the highest double: it sets
    control.remove(0)
    assert not control.device.app.table.dealing()
    assert control.state()["actions"] == 14 + 2  # the deal (7 + 7), setter0, 3-3
    assert flushed_journal(control, tmp_path)[1][:2] == ["D0:?", "D0:?"]  # not dealt as seen
