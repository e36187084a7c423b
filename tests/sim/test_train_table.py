"""Mexican Train on the simulated table, through zones and buttons only (docs/TABLE.md "Mexican
Train"): whole matches whose scores equal the player's engine and an engine replay of the
journal, and the table's answers to single plays: a tile goes on its seat's own train unless the
button chooses another, a drawn tile is shown and played, an open double must be covered, and
the markers and the open double are shown on the displays and LEDs."""
import pytest

import player
from player import TrainPlayer, at_budget, choose_game, journal_sessions, local_table, reads
from test_table_rules import _ok_tapped_and_the_deal_going
from tiletable.drivers.status_leds import StatusLeds
from tiletable.engine.errors import E_MUST_PLAY
from tiletable.engine.rulesets import canonical_json, find_ruleset, load_ruleset
from tiletable.families import games
from tiletable.profiles import profile_for

AMBER = at_budget(StatusLeds.draw_colour)
SHORT = "train-3"  # a house ruleset: three rounds (engines 12-12, 11-11, 10-10)
SHORT_DOCUMENT = canonical_json({"family": "train", "name": SHORT, "version": 1, "params": {"rounds": 3}}).encode()
PAD = {0: 0, 1: 2}  # train-2p: seat -> its pad's zone
HUB, MEXICAN = 4, 8


def _ruleset(name):
    return load_ruleset(SHORT_DOCUMENT) if name == SHORT else find_ruleset(name)


@pytest.fixture
def short_rules(monkeypatch):
    """The players' engine and the journal's replay know the three-round house ruleset; the menu
    lists it after the presets."""
    monkeypatch.setattr(player, "find_ruleset", _ruleset)
    monkeypatch.setattr(player, "choose_game", lambda control, name, players: choose_game(
        control, name, players, label="trA3", listed=len(games()) + 1))


def _installed(table_root):
    control = local_table(table_root)
    control.device.app.table.rulestore.put(SHORT_DOCUMENT, _ruleset(SHORT).hash)
    return control


def _match_equals_the_engine_and_the_journal(control, table_root, god, name):
    table = control.state()
    assert god.is_over() and table["mode"] == "over"
    assert table["scores"] == list(god.scores)
    header, actions = journal_sessions(table_root)[-1]
    assert header["ruleset"] == name
    assert player.replay(header, actions).scores == god.scores
    return actions


@pytest.mark.parametrize("players,scan", [(2, (0, 1)), (3, (1,)), (4, ())])
def test_a_short_match_scores_equal_the_engine_and_the_journal(short_rules, table_root, players, scan):
    control = _installed(table_root)
    play = TrainPlayer(control, SHORT, players, seed=players, scan=scan)
    god = play.play_match()
    actions = _match_equals_the_engine_and_the_journal(control, table_root, god, SHORT)
    assert god.round == 3 and len(god.score_events) == 3 * players
    assert "draw" in actions and any(a.endswith(">M") for a in actions)
    assert any(a.startswith("R") for a in actions) == (len(scan) < players)  # unseen hands shown
    assert_places_shown(control, god)


def assert_places_shown(control, god):
    """The final screen opens on the places: the lowest total first, equal totals sharing one."""
    players = len(god.scores)
    ordinals = ["1St", "2nd", "3rd", "4th"]
    shown = control.display()
    places = [[n for n in range(players) if reads(shown[seat], ordinals[n])][0] for seat in range(players)]
    by_score = sorted(range(players), key=lambda seat: god.scores[seat])
    assert [places[seat] for seat in by_score] == sorted(places)
    assert all(places[seat] == 0 for seat in god.outcome().winners) and max(places) > 0


LOW = ["%d-%d" % (a, b) for a in range(5) for b in range(a, 5)]  # 15 tiles no train opens at first
HIGH = ["7-7", "7-8", "7-10", "7-11", "8-8", "8-9", "8-10", "8-11", "9-9", "9-10", "9-11", "10-10"]


def dealt(table_root, hand0, hand1):
    """A two-seat match of round 1 (engine 12-12) with both hands scanned, so the table is shown
    every drawn tile; seat 1 (seat 0 here) plays first."""
    control = local_table(table_root)
    choose_game(control, "mexican-train", 2)
    for seat, hand in ((0, hand0), (1, hand1)):
        assert len(hand) == 15
        control.place(PAD[seat], *hand)
        control.remove(PAD[seat])
    control.press("ok")
    assert control.state()["prompt"] == "P1 to play"
    return control


def lay(control, zone, name, presses=None):
    """Lay ``name`` on ``zone``; with ``presses`` the seat steps its train choice that often and confirms it."""
    control.place(zone, name)
    if presses is not None:
        seat = [s for s in PAD if PAD[s] == zone][0]
        for _ in range(presses):
            control.press(seat)
        control.press(seat, "long")
    control.remove(zone)


def journal_tail(control, table_root, count):
    control.command("wait 2100")  # the journal's timed flush
    return journal_sessions(table_root)[-1][1][-count:]


def test_a_tile_goes_on_its_own_train_unless_the_button_or_the_mexican_zone_chooses(table_root):
    control = dealt(table_root, ["5-12", "7-9", "6-6"] + HIGH, ["7-12"] + LOW[:14])
    control.place(PAD[0], "5-12")  # fits seat 1's own train and the Mexican train
    assert reads(control.display()[0], "tr 1")
    assert control.state()["prompt"] == "P1 chooses train: tr 1"
    control.press(0, "long")
    control.remove(PAD[0])
    control.place(PAD[1], "7-12")
    assert reads(control.display()[1], "tr 2")
    control.press(1)
    assert reads(control.display()[1], "MEX")
    control.press(1, "long")
    control.remove(PAD[1])
    lay(control, MEXICAN, "7-9")  # the Mexican zone: no choice
    assert journal_tail(control, table_root, 3) == ["5-12>T0", "7-12>M", "7-9>M"]


def test_a_drawn_tile_is_shown_a_marker_is_shown_and_a_marked_train_is_chosen(table_root):
    control = dealt(table_root, ["6-12", "5-12"] + HIGH + ["6-6"], LOW)
    lay(control, MEXICAN, "6-12")
    control.press(1)  # seat 2 cannot play: it draws
    assert reads(control.display()[1], "SHO?") and control.state()["prompt"] == "P2 shows the drawn tile on its pad"
    lay(control, PAD[1], "1-10")  # it does not fit: the marker goes on seat 2's train
    assert reads(control.display()[1], "t  0") and reads(control.display()[0], "0")
    lay(control, PAD[0], "5-12", presses=1)  # own train first, then seat 2's marked train
    control.press(1)
    lay(control, PAD[1], "5-6")  # shown: it fits, so it must be played
    assert control.state()["prompt"] == "P2 plays the drawn tile 5-6"
    control.place(PAD[1], "0-0")
    assert control.state()["last_error"] == [E_MUST_PLAY, "seat 2 must play the tile it drew, 5-6"]
    control.remove(PAD[1])
    lay(control, PAD[1], "5-6", presses=0)  # on its own train: the marker is taken off
    assert reads(control.display()[1], "0")
    assert journal_tail(control, table_root, 7) == ["6-12>M", "draw", "D1:1-10", "5-12>T1", "draw", "D1:5-6", "5-6>T1"]


def test_an_open_double_is_shown_and_must_be_covered_before_any_other_play(table_root):
    control = dealt(table_root, ["5-12", "5-5", "3-12", "5-9"] + HIGH[:11], LOW)
    lay(control, PAD[0], "5-12", presses=0)
    control.press(1)
    lay(control, PAD[1], "0-6")  # no fit: seat 2's train is marked
    lay(control, PAD[0], "5-5")  # only its own train is open at 5: played at once
    control.command("wait %d" % (StatusLeds.blink_ms + sum(StatusLeds.legal_flash_ms)))
    assert reads(control.display()[0], "d  5") and control.leds()[HUB] == AMBER
    assert control.state()["prompt"] == "P1 covers the double 5-5 on P1's train"
    control.place(MEXICAN, "3-12")
    assert control.state()["last_error"] == [E_MUST_PLAY, "the open double 5-5 on seat 1's train must be covered first"]
    control.remove(MEXICAN)
    lay(control, PAD[0], "5-9")
    assert control.leds()[HUB] != AMBER and reads(control.display()[0], "0")
    assert journal_tail(control, table_root, 2) == ["5-5>T0", "5-9>T0"]


def test_an_open_double_on_the_mexican_train_lights_its_zone(table_root):
    control = dealt(table_root, ["6-12", "6-6", "6-9"] + HIGH, LOW)
    lay(control, MEXICAN, "6-12")
    control.press(1)
    lay(control, PAD[1], "0-5")
    lay(control, MEXICAN, "6-6")
    control.command("wait %d" % (StatusLeds.blink_ms + sum(StatusLeds.legal_flash_ms)))
    assert control.leds()[MEXICAN] == AMBER and control.leds()[HUB] == AMBER
    lay(control, MEXICAN, "6-9")
    assert control.leds()[MEXICAN] != AMBER


def test_a_press_and_a_tile_while_the_deal_goes_out_wait_for_it(table_root):
    """OK sets the deal going (a few tiles a step: half a second on a stock chip); a seat's
    press and a tile laid meanwhile are taken in order once the deal is out, as the mover's
    draw and the drawn tile shown, not as a press out of turn and a hand scan."""
    pads = profile_for("mexican-train", 4, "train").seat_zone
    control = local_table(table_root)
    choose_game(control, "mexican-train", 4)
    control.place(pads[0], *LOW)  # seat 1's hand (no 12: it must draw), the others unseen
    control.remove(pads[0])
    _ok_tapped_and_the_deal_going(control)
    control.command("hold 0 down")
    control.command("wait 80")
    control.command("hold 0 up")
    control.command("wait 40")  # the press and its release are queued
    assert control.device.app.table.dealing()
    control.place(pads[0], "9-12")  # the drawn tile, shown
    control.remove(pads[0])
    assert not control.device.app.table.dealing()
    assert control.state()["prompt"] == "P1 plays the drawn tile 9-12"
    lay(control, pads[0], "9-12", presses=0)  # on its own train
    assert journal_tail(control, table_root, 3) == ["draw", "D0:9-12", "9-12>T0"]
