"""A whole match of Texas 42 on the simulated table, played by the scripted player through
zones and buttons only (hand scans, calls on the seat displays, tiles on the trick zone); the
table's scores must equal the player's engine state and an engine replay of its journal."""
from player import FortytwoPlayer, choose_game, journal_sessions, local_table, replay


def test_whole_match_scores_equal_the_engine_and_the_journal(table_root):
    control = local_table(table_root)
    player = FortytwoPlayer(control, "texas-42", 4, seed=1)
    god = player.play_match(max_moves=4000)
    table = control.state()
    assert god.is_over() and table["mode"] == "over"
    assert table["scores"] == list(god.scores)
    assert max(god.scores) >= 7 and god.scores[0] == god.scores[2] and god.scores[1] == god.scores[3]
    assert god.hand_number >= 6 and player.moves < 4000  # seven marks take seven hands at least
    header, actions = journal_sessions(table_root)[-1]
    assert header["ruleset"] == "texas-42"
    assert replay(header, actions).scores == god.scores


def test_the_tray_watches_the_bidders_pad_then_the_trick_zone(table_root):
    """Bids are made with the seat's button, tiles laid on the trick zone: the zone the tray
    scans every other time (its hot zone) follows, so that a tile laid there is read at once."""
    control = local_table(table_root)
    player = FortytwoPlayer(control, "texas-42", 4, seed=1)
    table = control.device.app.table
    choose_game(control, "texas-42", 4)
    player.begin()
    watched = set()
    while not player.god.in_tricks():
        player.step()
        seat = player.god.current_player()
        if seat >= 0 and not player.god.in_tricks():
            assert table.hot_zone == table.profile.seat_zone[seat]
            watched.add(seat)
    assert watched  # the auction was seen
    for _ in range(8):  # the first two tricks
        assert table.hot_zone == table.profile.trick_zone
        player.step()
