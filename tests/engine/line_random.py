"""Random play for the line family's property and conformance tests (portable: plain ``random``)."""
import random

from tiletable.engine.line_actions import K_DEAL, LOC_FREE, LOC_LOT, LOC_PLAYED, UNKNOWN_TILE, kind_of, tile_of
from tiletable.engine.state import CHANCE

# every preset of the rule book, plus variants that take other code paths
RULE_BOOK_VARIANTS = (
    ("block", {}),
    ("draw", {}),
    ("draw", {"draw_policy": "anytime", "may_pass_when_able": True, "must_play_if_able": False}),
    ("sebastopol", {}),
    ("bergen", {}),
    ("bergen", {"triple_mode": "state", "blocked_winner": "hoyle_no_doubles_first"}),
    ("muggins", {}),
    ("muggins", {"spinner": "first_double", "count_mode": "all_fives_spinner", "hand_award": "rounded5"}),
    ("sniff", {}),
    ("sniff", {"sniff_mode": "pagat_inline_stub", "first_double_orientation": "inline", "other_doubles": "player_choice"}),
    ("sniff", {"spinner_arm_order": "sides_first", "blocked_tie": "split"}),
    ("matador", {}),
    ("matador", {"draw_policy": "anytime", "blocked_tie": "lightest_tile", "hand_award": "others_sum_minus_own"}),
    ("buki", {}),
    ("buki", {"spectators": 2, "banker_sets_stakes": True, "payout_rounding": "floor", "direction": "counterclockwise"}),
    ("buki", {"payout_rounding": "require_even_stakes", "bet_deadline_counts": "plays", "bet_deadline": 4}),
    ("block", {"setter": "rotate", "target_immediate": False}),
    ("block", {"setter": "lightest_draw", "stock_after_deal": "boneyard", "set_constraint": "any"}),
    # Pagat's Bergen: the lowest double sets, draw when unable; and a set with tiles taken out
    ("bergen", {"setter": "lowest_double", "draw_policy": "when_unable", "hand_award": "fixed", "fixed_award": 2}),
    ("draw", {"exclude": ["6-6", "0-0", "3-4"], "setter": "lowest_double"}),
    # partnerships: partners opposite, one score per side
    ("muggins", {"partnerships": True, "deal": {"4": 5}, "muggins_claims": "auto"}),
    ("block", {"partnerships": True, "deal": {"4": 6}, "blocked_tie": "lightest_tile", "hand_award": "others_sum_minus_own"}),
)
# MORE-GAMES: All Fives rounded; Fives and Threes (its lot before the deal, exact 61, both out);
# Latin Double-Nine
MORE_GAMES_VARIANTS = (
    ("all-fives-rounded", {}),
    ("fives-threes", {}),
    ("fives-threes", {"deal": {"2": 9, "4": 6}, "muggins_claims": "manual", "knock_bonus": True, "target_exact": False}),
    ("fives-threes-pairs", {}),
    ("fives-threes-pairs", {"partnership_end": "first_out", "hand_award": "rounded5", "units": "fives", "blocked_award": "same"}),
    # Latin Double-Nine: its side lot and choice of leader, thrown-in deals; its other leads
    ("cuban", {}),
    ("cuban", {"setter": "highest_double", "set_constraint": "qualifying_tile", "doubles_redeal": 3, "capicua": True}),
    ("cuban", {"later_setter": "rotate", "blocked_compare": "lowest_hand", "hand_award": "all_hands", "doubles_redeal": 0}),
)
VARIANTS = RULE_BOOK_VARIANTS + MORE_GAMES_VARIANTS


def pick(state, rng, unseen_rate):
    """A random legal action; at a deal or draw, an unseen tile (``?``) with probability ``unseen_rate``."""
    if state.current_player() == CHANCE:
        options = state.chance_outcomes()
        if unseen_rate and rng.random() < unseen_rate:
            unseen = [a for a in state.generate_legal_actions() if tile_of(a) == UNKNOWN_TILE and kind_of(a) == K_DEAL]
            if unseen:
                return unseen[0]
        if options:
            return options[rng.randrange(len(options))]
    options = state.generate_legal_actions()
    return options[rng.randrange(len(options))]


def check_tiles(state):
    """Every tile is in exactly one place, and the unseen ones are the stock and the unseen hands."""
    free = lot = played = 0
    for t in state.tiles:
        where = state.loc[t]
        if where == LOC_FREE:
            free += 1
        elif where == LOC_LOT:
            lot += 1
        elif where == LOC_PLAYED:
            played += 1
        else:
            assert t in state.hands[where - 1], (t, where)
    assert played == state.layout.tiles, (played, state.layout.tiles)
    assert free + lot == state.stock + sum(state.hidden), (free, lot, state.stock, state.hidden)
    assert sum(len(h) for h in state.hands) + free + lot + played == len(state.tiles)


def new_rng(seed):
    try:
        return random.Random(seed)
    except AttributeError:  # MicroPython: one module-level generator
        random.seed(seed)
        return random
