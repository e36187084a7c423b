# portable
"""Each family's action accessors read back the fields its builders packed: the layout of an
action lives in one place per family (line_actions; the block under the kinds in trick,
column and climb), and these tests hold the readers and the builders to the same layout."""
from tiletable.engine import climb, column, trick
from tiletable.engine.line_actions import (
    K_BET,
    K_CLAIM,
    K_DEAL,
    K_LOT,
    K_PLAY,
    K_REVEAL,
    K_SETTER,
    K_SPEC,
    K_STAKES,
    SET_POINT,
    UNKNOWN_TILE,
    action_text,
    amount_action,
    amount_of,
    chance_action,
    kind_of,
    parse_action_text,
    play_action,
    play_fields,
    point_of,
    seat_action,
    seat_of,
    spectator_bet_action,
    spectator_bet_of,
    tile_of,
)

_TILES = (0x00, 0x06, 0x35, 0x66, 0x99)


def test_line_play_fields_round_trip():
    for t in _TILES:
        for point in range(SET_POINT + 1):
            for orient in (0, 1, 2):
                for out in (-1, 0, 5, 14):
                    a = play_action(t, point, orient, out)
                    assert kind_of(a) == K_PLAY, a
                    assert play_fields(a) == (t, point, orient, out), a
                    assert (tile_of(a), point_of(a)) == (t, point), a
    assert play_fields(play_action(0x35, 1)) == (0x35, 1, 0, -1)


def test_line_chance_and_seat_fields_round_trip():
    for kind in (K_DEAL, K_REVEAL, K_LOT):
        for seat in range(8):
            for t in _TILES + (UNKNOWN_TILE,):
                a = chance_action(kind, seat, t)
                assert (kind_of(a), seat_of(a), tile_of(a)) == (kind, seat, t), a
    for kind in (K_SETTER, K_CLAIM):
        for seat in range(8):
            a = seat_action(kind, seat)
            assert (kind_of(a), seat_of(a)) == (kind, seat), a


def test_line_bet_fields_round_trip():
    for kind in (K_BET, K_STAKES):
        for amount in (0, 1, 255, 256, 4000, 0xFFFFFF):
            a = amount_action(kind, amount)
            assert (kind_of(a), amount_of(a)) == (kind, amount), a
    for spectator in range(8):
        for seat in range(8):
            for amount in (0, 1, 255, 256, 4000, 0xFFF):
                a = spectator_bet_action(spectator, seat, amount)
                assert kind_of(a) == K_SPEC, a
                assert spectator_bet_of(a) == (spectator, seat, amount), a


def test_line_text_round_trips_through_the_builders():
    actions = [
        play_action(0x35, 2, 1),
        play_action(0x66, SET_POINT, 2),
        play_action(0x35, 0, 0, 5),
        chance_action(K_DEAL, 3, UNKNOWN_TILE),
        chance_action(K_LOT, 1, 0x06),
        seat_action(K_CLAIM, 2),
        amount_action(K_BET, 250),
        amount_action(K_STAKES, 4),
        spectator_bet_action(1, 2, 300),
    ]
    for a in actions:
        assert parse_action_text(action_text(a)) == a, action_text(a)


def test_trick_fields_round_trip():
    for kind in range(1, 9):
        for arg in range(8):
            for tile in (0, 0x06, 0x66, 21, 127):
                a = trick._act(kind, arg, tile)
                assert trick._fields(a) == (kind, arg, tile), a


def test_climb_fields_round_trip():
    for kind in range(1, 6):
        for seat in range(4):
            for item in (0, 1, 51, 52, 127):
                a = climb._act(kind, seat, item)
                assert climb._fields(a) == (kind, seat, item), a


def test_column_fields_round_trip():
    for kind in (column._DRAW, column._FIELD):
        for seat in range(8):
            for tile in (0, 0x06, 0x66, 127):
                a = column._deal(kind, seat, tile)
                assert column._fields(a) == (kind, seat, tile), a
    for seat in range(8):
        for cards in ((0x06, 0x16, 0x66), (column.EMPTY, 0x00, 127)):
            a = column._assign(seat, list(cards))
            assert column._fields(a) == (column._ASSIGN, seat, cards[2]), a
            assert column._cards(a) == cards, a
