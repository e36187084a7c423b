"""Games that used to get stuck or lose their way at the table, played through the simulated
table's zones and buttons only (issue 15): a refused piece changes nothing and the same seat
can then play legally; an undone play can be played again."""
import pytest

from player import SETTLED, ColumnPlayer, LinePlayer, at_budget, choose_game, local_table, reads
from test_table_rules import flushed_journal, started
from tiletable.drivers.status_leds import StatusLeds
from tiletable.engine.errors import E_COMBO
from tiletable.families import game
from tiletable.runtime.play_climb import ClimbController
from tiletable.profiles import profile_for
from tiletable.runtime.ui import error_text

COLUMNS = profile_for("columns", 2, "column")


def _turn_up_field(control, *cards):
    for column, card in enumerate(cards):
        control.place(COLUMNS.field_zone[column], card)


def _assign(control, seat, *cards):
    for column, card in enumerate(cards):
        control.place(COLUMNS.assign_zone[(column, seat)], card)


def _lift_assignments(control):
    for zone in COLUMNS.assign_zone.values():
        control.remove(zone)


def test_column_card_refused_for_the_second_player_changes_nothing_and_can_be_replaced(table_root):
    control = started(table_root, "columns", 2)
    _turn_up_field(control, "0-0", "0-1", "0-2")
    dealt = control.state()["actions"]
    _assign(control, 0, "6-6", "5-6", "4-6")
    _assign(control, 1, "3-3", "0-0", "3-4")  # 0-0 lies on the field: seat 1 cannot hold it
    assert reads(control.display()[1], "Err3")
    assert control.state()["actions"] == dealt  # not even seat 0's assignment is taken
    control.remove(COLUMNS.assign_zone[(1, 1)])
    control.place(COLUMNS.assign_zone[(1, 1)], "2-2")
    assert control.state()["actions"] > dealt + 2  # both assignments, the battle, the refill
    actions = flushed_journal(control, table_root)[1]
    assert actions[dealt : dealt + 2] == ["A0:6-6,5-6,4-6", "A1:3-3,2-2,3-4"]


def test_column_battle_undone_resolves_again_with_the_same_cards(table_root):
    control = started(table_root, "columns", 2)
    _turn_up_field(control, "0-0", "0-1", "0-2")
    dealt = control.state()["actions"]
    _assign(control, 0, "6-6", "5-6", "4-6")
    _assign(control, 1, "3-3", "2-2", "3-4")
    played = control.state()["actions"]
    assert played > dealt + 2
    control.press("undo")
    assert control.state()["actions"] == dealt
    _lift_assignments(control)
    _assign(control, 0, "6-6", "5-6", "4-6")
    _assign(control, 1, "3-3", "2-2", "3-4")
    assert control.state()["actions"] == played
    actions = flushed_journal(control, table_root)[1]
    assert actions[dealt : dealt + 2] == ["A0:6-6,5-6,4-6", "A1:3-3,2-2,3-4"]


def da_san_auction_won_by_seat_0(control):
    """Cut, show the lowest heart, and bid: seat 0 leads the first trick."""
    for seat, card in ((0, "H5"), (1, "S7"), (2, "D9")):
        control.place(seat, card)
        control.remove(seat)
    control.place(0, "H4")
    control.remove(0)
    control.press(0, "long")  # bids 1
    control.press(2, "long")  # passes
    control.press(1, "long")  # passes
    return control.state()["actions"]


def test_da_san_lead_undone_is_taken_again_when_laid_again(table_root):
    control = started(table_root, "dasan", 3)
    bid = da_san_auction_won_by_seat_0(control)
    control.place(0, "H4")
    control.command(SETTLED)
    assert control.state()["actions"] == bid + 1
    control.press("undo")
    assert control.state()["actions"] == bid
    control.remove(0)
    control.place(0, "H4")
    control.command(SETTLED)
    assert control.state()["actions"] == bid + 1
    assert flushed_journal(control, table_root)[1][-1] == "H4"


def test_da_san_cards_laid_out_of_turn_are_refused_with_err1(table_root):
    control = started(table_root, "dasan", 3)
    bid = da_san_auction_won_by_seat_0(control)
    control.place(1, "S9")  # seat 0 leads, seat 2 follows: seat 1 is early
    control.command(SETTLED)
    assert reads(control.display()[1], "Err1")
    assert control.state()["actions"] == bid
    control.remove(1)


def test_da_san_combination_laid_just_before_the_turn_is_taken_when_it_comes(table_root):
    control = started(table_root, "dasan", 3)
    bid = da_san_auction_won_by_seat_0(control)
    control.place(0, "H4")
    control.command("wait 300")
    control.place(2, "S6")  # seat 2 is next: it lays while seat 0's lead is still settling
    control.command("wait %d" % (ClimbController.stable_ms + 200))
    assert control.state()["actions"] == bid + 2
    assert flushed_journal(control, table_root)[1][-2:] == ["H4", "S6"]


def test_da_san_trick_winner_leads_again_and_the_others_passes_are_taken(table_root):
    control = started(table_root, "dasan", 3)
    bid = da_san_auction_won_by_seat_0(control)
    control.place(0, "H4")
    control.command(SETTLED)
    control.place(2, "S6")  # seat 2 (counter-clockwise after seat 0) beats it
    control.command(SETTLED)
    control.place(2, "D7", "S8")  # not a combination: refused, nobody passes
    control.command(SETTLED)
    assert control.state()["last_error"][0] == E_COMBO and reads(control.display()[2], error_text(E_COMBO))
    assert control.state()["actions"] == bid + 2
    control.remove(2, "S8")
    control.command(SETTLED)  # seat 2 leads D7 at once: seats 1 and 0 passed
    assert control.state()["actions"] == bid + 5
    assert control.state()["prompt"] == "P2 to play"
    assert flushed_journal(control, table_root)[1][-5:] == ["H4", "S6", "PASS", "PASS", "D7"]
    for left in (bid + 4, bid + 3, bid + 2):  # UNDO takes the lead back, then each pass
        control.press("undo")
        assert control.state()["actions"] == left


def _block_hand_played_with_every_hand_scanned(control):
    """A hand of Block played to its end with both hands scanned: no reveal is needed."""
    player = LinePlayer(control, "block", 2, seed=3, scan=(0, 1))
    choose_game(control, "block", 2)
    player._deal()
    while player.god.hand_number == 0:
        player._move()
    return player


def test_line_hand_ending_with_every_tile_known_shows_its_summary(table_root):
    control = local_table(table_root)
    _block_hand_played_with_every_hand_scanned(control)
    state = control.state()
    assert state["hand"] == 1 and state["prompt"] == "hand over: OK for the next hand"
    assert not reads(control.display()[0], "dEAL")
    dealt = state["actions"]
    control.press("ok")  # the summary goes: the next deal waits for its own OK
    assert reads(control.display()[0], "dEAL") and control.state()["actions"] == dealt


def test_line_tile_laid_during_the_summary_is_no_hand_scan(table_root):
    control = local_table(table_root)
    _block_hand_played_with_every_hand_scanned(control)
    control.place(0, "6-6")  # tidying the pads while the scores are up
    control.remove(0)
    control.press("ok")
    assert reads(control.display()[0], "dEAL")
    dealt = control.state()["actions"]
    control.press("ok")
    actions = flushed_journal(control, table_root)[1]
    assert actions[dealt : dealt + 7] == ["D0:?"] * 7


def test_undo_at_the_next_deal_keeps_the_finished_hand(table_root):
    control = local_table(table_root)
    _block_hand_played_with_every_hand_scanned(control)
    control.press("ok")
    played = control.state()["actions"]
    control.press("undo")
    assert reads(control.display()[0], "Err7")
    assert control.state()["actions"] == played
    control.press("ok")  # the deal, then undo takes it back, and no further
    control.press("undo")
    assert control.state()["actions"] == played


def test_bergen_undo_of_an_equal_draw_keeps_the_deal_bug(table_root):
    """Found by bench/table_matches.py (bergen, seed 108): one UNDO after a Bergen draw took
    the whole deal back with it."""
    control = started(table_root, "bergen", 2)
    dealt = control.state()["actions"]
    seat = [reads(text, "drAW") for text in control.display()[:2]].index(True)
    control.press(seat)  # draws: the other seat draws next
    assert control.state()["actions"] == dealt + 1
    control.press(1 - seat)
    control.press("undo")
    assert control.state()["actions"] == dealt + 1
    assert reads(control.display()[1 - seat], "drAW")
    control.press("undo")
    assert control.state()["actions"] == dealt
    assert reads(control.display()[seat], "drAW")


def _moon_first_trick_taken_by_seat_1(control):
    """Seat 1 bids 4 and keeps its hand, then takes trick 1 with 6-6 (left on the trick zone)."""
    control.press(1)
    control.press(1, "long")
    control.press(2, "long")
    control.press(0, "long")
    control.press(1)  # keeps the hand
    for tile in ("6-6", "2-6", "1-1"):
        control.place(4, tile)


def test_moon_suit_choice_of_a_lead_is_on_the_leaders_display(table_root):
    control = started(table_root, "moon", 3)
    _moon_first_trick_taken_by_seat_1(control)
    assert reads(control.display()[1], "tr 1")
    control.remove(4)
    control.place(4, "3-5")  # a non-double lead: which suit?
    assert reads(control.display()[1], "SUI3")
    control.press(1)
    assert reads(control.display()[1], "SUI5")
    control.press(1, "long")
    assert flushed_journal(control, table_root)[1][-1] == "3-5/5"


def test_moon_tile_of_another_seats_scanned_hand_is_refused_with_err1(table_root):
    control = local_table(table_root)
    choose_game(control, "moon", 3)
    control.place(0, "0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6")  # seat 0 scans its hand
    control.remove(0)
    control.press("ok")
    control.press(1)
    control.press(1, "long")  # seat 1 bids 4, the others pass
    control.press(2, "long")
    control.press(0, "long")
    control.press(1)
    played = control.state()["actions"]
    control.place(4, "0-0")  # seat 0's tile while seat 1 leads
    assert reads(control.display()[0], "Err1")
    assert control.state()["actions"] == played
    control.remove(4)
    control.place(4, "6-6")
    assert control.state()["actions"] == played + 1


def _power_cut(control, root):
    """The journal flushed, then the power gone: a new device on the same flash."""
    control.command("wait 2500")
    return local_table(root)


def test_moon_resumes_mid_trick_with_the_same_display(table_root):
    control = started(table_root, "moon", 3)
    _moon_first_trick_taken_by_seat_1(control)
    control.remove(4)
    control.place(4, "5-5")  # a double: no suit to choose
    before = control.state()
    shown = control.display()
    resumed = _power_cut(control, table_root)
    assert resumed.state() == before
    assert resumed.display() == shown and not any(reads(text, "dEAL") for text in shown)
    resumed.command("wait 1500")
    resumed.place(4, "4-5")  # seat 2 follows at once: no OK needed
    assert resumed.state()["actions"] == before["actions"] + 1


def test_column_game_resumes_mid_round_without_a_deal(table_root):
    control = started(table_root, "columns", 2)
    _turn_up_field(control, "0-0", "0-1", "0-2")
    before = control.state()
    resumed = _power_cut(control, table_root)
    assert resumed.state() == before
    assert not any(reads(text, "dEAL") for text in resumed.display())
    resumed.command("wait 1500")
    _assign(resumed, 0, "6-6", "5-6", "4-6")
    _assign(resumed, 1, "3-3", "2-2", "3-4")
    assert resumed.state()["actions"] > before["actions"] + 2


GREEN, RED, AMBER = (at_budget(c) for c in (StatusLeds.win_colour, StatusLeds.loss_colour, StatusLeds.draw_colour))


def _column_leds(control):
    """The LED beside each assignment slot, by (column, seat), once the green flash is over;
    and whether every other LED is dark."""
    control.command("wait 400")
    leds = control.leds()
    slots = {key: leds[zone] for key, zone in COLUMNS.assign_zone.items()}
    others = [leds[i] for i in range(len(leds)) if i not in COLUMNS.assign_zone.values()]
    return slots, all(colour == "000000" for colour in others)


def test_column_leds_show_each_columns_result_and_follow_undo_and_power_cuts(table_root):
    control = started(table_root, "columns", 2)
    _turn_up_field(control, "0-0", "0-1", "0-2")
    _assign(control, 0, "6-6", "5-6", "4-6")
    assert _column_leds(control) == ({key: "000000" for key in COLUMNS.assign_zone}, True)
    _assign(control, 1, "3-3", "2-2", "3-4")
    # left: a [0|0] pile draws; centre: 2-2 beats 5-6 (rule 5); right: 4-6 beats 3-4 (rule 7)
    shown = ({(0, 0): AMBER, (0, 1): AMBER, (1, 0): RED, (1, 1): GREEN, (2, 0): GREEN, (2, 1): RED}, True)
    assert _column_leds(control) == shown
    control.press("undo")
    assert _column_leds(control) == ({key: "000000" for key in COLUMNS.assign_zone}, True)
    _lift_assignments(control)
    _assign(control, 0, "6-6", "5-6", "4-6")
    _assign(control, 1, "3-3", "2-2", "3-4")
    assert _column_leds(control) == shown
    resumed = _power_cut(control, table_root)
    assert _column_leds(resumed) == shown


def _battle_leds(last_battle):
    """The slot LEDs the engine's last battle calls for (dark where no battle was fought)."""
    colour = {1: GREEN, 0: AMBER, -1: RED}
    shown = {key: "000000" for key in COLUMNS.assign_zone}
    for column, _, _, result in last_battle:
        shown[(column, 0)], shown[(column, 1)] = colour[result], colour[-result]
    return shown


class _LedCheckingColumnPlayer(ColumnPlayer):
    """Looks at the slot LEDs after every battle it fights through the pads (issue 42)."""

    def __init__(self, *args, **kwargs):
        ColumnPlayer.__init__(self, *args, **kwargs)
        self.battles = 0

    def step(self):
        fought = len(self.god.history)
        ColumnPlayer.step(self)
        if any(self.god.action_str(a).startswith("A1:") for a in self.god.history[fought:]):
            self.battles += 1
            assert _column_leds(self.control) == (_battle_leds(self.god.last_battle), True), "battle %d%s" % (self.battles, ", the last" if self.god.is_over() else "")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_column_leds_show_every_battles_result_the_last_one_included(table_root, seed):
    control = local_table(table_root)
    player = _LedCheckingColumnPlayer(control, "columns", 2, seed=seed)
    god = player.play_match()
    assert god.is_over() and control.state()["mode"] == "over" and player.battles >= 2
    last = (_battle_leds(god.last_battle), True)
    assert any(colour != "000000" for colour in last[0].values())
    control.command("wait 3000")  # the final screen flips between places and scores: LEDs stay
    assert _column_leds(control) == last
    control.press("menu")  # the menu keeps the results, and so does the final screen again
    assert _column_leds(control) == last
    control.press("menu")
    assert _column_leds(control) == last
    control.press("ok")  # the match is left for the menu: its last battle stays lit
    assert control.state()["mode"] == "menu" and _column_leds(control) == last
    control.press("ok")  # until the next game starts
    assert control.state()["mode"] == "game"
    assert _column_leds(control) == ({key: "000000" for key in COLUMNS.assign_zone}, True)


def test_prompts_count_seats_from_1_and_use_the_players_names(table_root):
    control = started(table_root, "block", 2)  # from the menu: the players are P1 and P2
    control.place(0, "3-3")
    control.remove(0)
    assert control.state()["prompt"] == "P2 to play"  # seat 1
    app = control.device.app
    app.table.starter.start("block", ["ann", "bob"], app.ticks_ms())  # as the PC's START names them
    control.press("ok")
    control.place(2, "3-3")  # seat 1 holds the highest double
    control.remove(2)
    assert control.state()["prompt"] == "ann to play"
    resumed = _power_cut(control, table_root)
    assert resumed.state()["prompt"] == "ann to play"


def test_menu_keeps_a_fixed_order_and_opens_on_the_last_game_played(table_root):
    control = local_table(table_root)
    order = ["muggins", "all-fives-rounded", "fives-threes", "fives-threes-pairs", "cuban", "sniff", "matador", "buki", "moon", "texas-42"]
    order += ["mexican-train", "columns", "dasan", "block", "draw", "sebastopol", "bergen"]
    for name in order:
        assert reads(control.display()[0], game(name)[2]), name
        control.press(0)
    choose_game(control, "sniff", 2)
    control.device.app.table.stop()  # the match is stopped (from the PC); later the power goes
    restarted = _power_cut(control, table_root)
    assert reads(restarted.display()[0], "SNIF") and reads(restarted.display()[1], "2P")


def _shown(control, seat):
    """What a seat's group shows, blinking or not (read again after a blink's off phase)."""
    first = control.display()[seat]
    control.command("wait 300")
    return first if first.strip() else control.display()[seat]


def test_scanned_hand_is_asked_for_its_drawn_tile_on_the_display(table_root):
    from tiletable.engine.line_actions import DRAW, K_PLAY, kind_of

    control = local_table(table_root)
    player = LinePlayer(control, "draw", 2, seed=3, scan=(0, 1))
    choose_game(control, "draw", 2)
    player._deal()
    for _ in range(100):
        legal = list(player.god.legal_actions())
        if DRAW in legal and not any(kind_of(a) == K_PLAY for a in legal):
            seat = player.god.turn
            control.press(seat)
            assert reads(_shown(control, seat), "SHO?")
            return
        player._move()
    raise AssertionError("nobody had to draw")


def test_a_drawn_tile_to_show_is_watched_for_and_previewed_on_the_drawers_pad(table_root):
    from device import TILE_SET
    from tiletable import tagrecord
    from tiletable.engine.line_actions import DRAW, K_PLAY, LOC_FREE, LOC_PLAYED, kind_of

    control = local_table(table_root)
    player = LinePlayer(control, "draw", 2, seed=3, scan=(0, 1))
    choose_game(control, "draw", 2)
    player._deal()
    table = control.device.app.table
    for _ in range(100):
        legal = list(player.god.legal_actions())
        if DRAW in legal and not any(kind_of(a) == K_PLAY for a in legal):
            seat = player.god.turn
            control.press(seat)
            zone = table.profile.seat_zone[seat]
            assert table.hot_zone == zone  # the tray watches the pad the drawn tile is shown on
            state = table.session.state
            unseen = next(t for t in state.tiles if state.loc[t] == LOC_FREE)  # in the boneyard
            played = next(t for t in state.tiles if state.loc[t] == LOC_PLAYED)
            verdict = table.controller.preview
            assert verdict("seat", seat, 0, (tagrecord.KIND_TILE, TILE_SET, unseen)) is True
            assert verdict("seat", seat, 0, (tagrecord.KIND_TILE, TILE_SET, played)) is False
            assert verdict("seat", 1 - seat, 0, (tagrecord.KIND_TILE, TILE_SET, unseen)) is None
            return
        player._move()
    raise AssertionError("nobody had to draw")


def _buki_after_its_first_hand(table_root, seed):
    """A four-seat Buki on a new simulated table, played to its first hand's summary."""
    control = local_table(table_root)
    player = LinePlayer(control, "buki", 4, seed=seed)
    choose_game(control, "buki", 4)
    player._deal()
    while player.god.hand_number == 0:
        player._move()
    return control, player


def test_buki_stake_choice_opens_on_the_seats_last_stake_after_a_power_cut_too(table_root):
    control, player = _buki_after_its_first_hand(table_root, seed=3)
    control.press("ok")  # the summary
    player._deal()
    assert player.stakes
    seat, stake = next(iter(player.stakes.items()))
    for _ in range(60):
        prompt = control.state()["prompt"]
        if prompt.startswith("P%d chooses stake" % (seat + 1)):
            assert prompt.endswith(": %d" % stake)
            resumed = _power_cut(control, table_root)  # the table reads the stakes from the journal
            assert resumed.state()["prompt"] == prompt
            return
        player._move()
    raise AssertionError("seat %d was not asked for a stake again" % seat)


def test_buki_chips_without_room_for_the_half_show_their_whole_chips_either_sign(table_root):
    """Four digits hold ``137.5`` but not ``-137.5``: the display then shows the whole chips,
    ``-137`` as ``137`` for ``137.5`` (it showed ``-138``, a chip below what STATE says)."""
    control, _ = _buki_after_its_first_hand(table_root, seed=1)
    table = control.device.app.table  # the hand's summary: every seat's chips, blinking
    table.session.state.scores[:] = [-275, 275, -251, 0]  # as if won and lost so: -137.5 137.5 -125.5 0
    table.redraw()
    for _ in range(20):  # the lit half of the blink
        shown = "".join(control.display())
        if shown.strip():
            break
        control.command("wait 100")
    assert shown == "-137137.5-125   0"  # four digits a seat, the decimal point lit after a 7
    assert control.state()["scores"] == [-137.5, 137.5, -125.5, 0]


def test_buki_stake_double_press_jumps_to_the_next_round_figure(table_root):
    control = local_table(table_root)
    player = LinePlayer(control, "buki", 4, seed=3)
    choose_game(control, "buki", 4)
    player._deal()
    for _ in range(60):
        prompt = control.state()["prompt"]
        if " chooses stake: " in prompt:
            break
        player._move()
    seat = int(prompt.split()[0][1:]) - 1
    assert prompt.endswith(": 10")  # the minimum, the first time
    for amount in ("15", "20", "25", "30", "10"):  # round the end
        control.press(seat, "double")
        assert control.state()["prompt"].endswith(": " + amount)
        assert reads(_shown(control, seat), amount)
    control.press(seat)
    assert control.state()["prompt"].endswith(": 11")


def test_da_san_displays_show_chips_left(table_root):
    control = started(table_root, "dasan", 3)
    da_san_auction_won_by_seat_0(control)
    assert [reads(text, "20") for text in control.display()[:3]] == [True, True, True]


def _muggins_order(p0, p1, first_draws):
    """A Muggins deal as ``LinePlayer._deal`` takes it: seat 0's hand, seat 1's, then the
    stock with ``first_draws`` drawn first."""
    from tiletable.engine.tiles import parse_tile, tile_set

    dealt = [parse_tile(t) for t in p0.split() + p1.split()]
    draws = [parse_tile(t) for t in first_draws.split()]
    rest = [t for t in tile_set() if t not in dealt and t not in draws]
    return dealt + rest + draws[::-1]


def test_muggins_tile_drawn_and_played_after_an_unseen_set_is_no_foul_bug(table_root):
    """Seat 2 (unscanned, its best tile 2-2) sets 1-3 as the holder of the best setting tile;
    seat 1 (hand scanned, nothing above 0-0) later draws 3-3 and plays it: the reveal must not
    say seat 1 held 3-3 at the set."""
    from tiletable.engine.line_actions import K_PLAY, kind_of, tile_of

    control = local_table(table_root)
    player = LinePlayer(control, "muggins", 2, seed=5, scan=(0,))
    god = player.god
    choose_game(control, "muggins", 2)
    player._deal(_muggins_order("0-0 0-2 0-4 0-5 2-4 2-5 4-5", "1-3 2-2 0-1 0-3 1-4 1-5 2-6", "3-3"))
    scripted = [(1, 0x13), (0, 0x33)]  # who lays what, as soon as it is the only thing to do
    while god.hand_number == 0:
        legal = list(god.legal_actions())
        if scripted and god.turn == scripted[0][0] and all(kind_of(a) == K_PLAY for a in legal):
            seat, tile = scripted.pop(0)
            player._lay(seat, next(a for a in legal if tile_of(a) == tile))
        else:
            player._move()
    assert not scripted
    actions = flushed_journal(control, table_root)[1]
    assert actions[14:16] == ["setter1", "1-3"] and "D0:3-3" in actions
    assert control.state()["prompt"] == "hand over: OK for the next hand"
    assert "last_error" not in control.state()
    assert not any(reads(text, "FOUL") for text in control.display()[:2])


def test_the_end_of_the_match_shows_places_and_final_scores_in_turn(table_root):
    control = local_table(table_root)
    god = ColumnPlayer(control, "columns", 2, seed=3).play_match()
    winners = god.outcome().winners
    places = ["1St" if s in winners else "2nd" for s in (0, 1)] if winners else ["tIE", "tIE"]
    state = control.state()
    assert state["mode"] == "over"
    assert state["prompt"] == ("match over, P%d wins: OK for the menu" % (winners[0] + 1) if winners else "match over, a tie: OK for the menu")
    views = []  # every 100 ms for 5 s: the places or the final scores, never dark (no blink)
    for _ in range(50):
        shown = control.display()
        if all(reads(shown[s], places[s]) for s in (0, 1)):
            views.append("places")
        elif all(reads(shown[s], str(god.scores[s])) for s in (0, 1)):
            views.append("scores")
        else:
            raise AssertionError("the final screen shows %r" % shown)
        control.command("wait 100")
    runs = [1]
    for before, now in zip(views, views[1:]):
        if now == before:
            runs[-1] += 1
        else:
            runs.append(1)
    assert len(runs) >= 3 and all(14 <= run <= 16 for run in runs[1:-1])  # 1.5 s each, in turn
    control.press("ok")
    assert control.state()["mode"] == "menu"


def test_final_places_share_equal_scores_after_the_winners():
    from types import SimpleNamespace

    from tiletable.runtime.table import final_places

    def match(scores, winners):
        outcome = SimpleNamespace(winners=winners)
        return SimpleNamespace(players=len(scores), scores=scores, outcome=lambda: outcome)

    assert final_places(match([10, 40, 25, 25], (1,))) == ["3rd", "1St", "2nd", "2nd"]
    assert final_places(match([61, 30, 61, 30], (0, 2))) == ["1St", "2nd", "1St", "2nd"]
    assert final_places(match([5, 5], ())) == ["tIE", "tIE"]


def test_the_deal_goes_out_four_tiles_a_tick_and_after_a_power_cut_goes_on_at_ok(table_root):
    """Dealing every hand is 14 to 28 journalled plays: at once it held the Pico's loop for
    72 ms, so OK starts the deal and each of the table's ticks deals four."""
    control = local_table(table_root)
    choose_game(control, "block", 2)
    app = control.device.app
    table = app.table
    table.controller.on_ok(control.device.clock())
    assert table.session.state.dealt == 0 and table.has_timers()
    table.tick(control.device.clock())
    assert table.session.state.dealt == 4
    table.tick(control.device.clock())
    assert table.session.state.dealt == 8
    app.journal.flush()
    control.device = control._boot()  # the power goes out mid-deal
    assert control.state()["actions"] == 8
    assert reads(control.display()[0], "dEAL")
    control.press("ok")  # deals the rest, where it stopped
    assert control.state()["actions"] == 14
    actions = flushed_journal(control, table_root)[1]
    assert actions == ["D0:?"] * 7 + ["D1:?"] * 7
    assert not control.device.app.table.has_timers()


def test_holding_menu_leaves_protocol_mode_for_the_repl_without_a_restart(table_root):
    control = local_table(table_root)
    app = control.device.app
    control.press("menu", "long")
    assert not app.running and not app.restart_requested  # main.py then drops to the REPL
    assert app.table.intents == []
