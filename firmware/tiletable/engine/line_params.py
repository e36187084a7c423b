"""The line family's parameters (rule book §4.1), presets (§3) and cross-field checks (those
in ``line_params_checks``).

The family's schema module (``engine/<family>_params.py``, tiletable/families.py): imported
only while a ruleset is validated or a preset looked up, and unloaded again, so its 16 KB of
bytecode and tables are free heap on a Pico during play.
"""

# The per-move scoring rules (``per_move_scoring``): each is a class ``Rule`` in a module of its
# own, engine/line_score_<name>.py, that line_rules.LineRules imports only for the games
# scoring with it; a new rule is that module and its name here.
SCORING_RULES = ("fives", "headers", "threes_fives")

# The schema (see rulesets.py). Defaults are the Block game; comments name the rule-book
# section or the open question (U-...) a default settles.
PARAMS = {
    "max_pip": ("int", 6, 3, 9),  # D6; Buki 8
    "doubles": ("bool", True),  # Buki: D8 without doubles
    "exclude": ("tiles", []),  # §4.1 tileset.exclude: tiles taken out of the set
    "deal": ("counts", {"2": 7, "3": 5, "4": 5}, 1, 20),  # tiles per player, by player count
    "stock_after_deal": ("choice", "unused", ("boneyard", "unused")),
    "direction": ("choice", "clockwise", ("clockwise", "counterclockwise")),
    # §4.1: 4 players, partners sit opposite (seats 0+2, 1+3) and share one score (our reading:
    # whatever either scores counts for both; the winning side takes the opponents' pips)
    "partnerships": ("bool", False),
    # §2.2: S1 rotate, S2 lightest_draw, S3 highest_double, FIXED(tile), Bergen's equal draws;
    # lowest_double: Pagat's Bergen (the lowest double sets; with none dealt, the lightest tile)
    "setter": (
        "choice",
        "highest_double",
        ("rotate", "lightest_draw", "highest_double", "lowest_double", "fixed_tile", "double_draw_equalized", "highest_draw", "side_lot"),
    ),  # highest_draw: Fives and Threes' lot, one tile each from the whole set before the deal;
    # side_lot: Latin Double-Nine's, one tile for each side, which then names its leader
    "fixed_tile": ("tile", None),
    "set_constraint": ("choice", "any", ("any", "qualifying_tile")),
    # Buki: the last winner banks; rotate: to the left; winning_side_chooses: its leader (after a tie, the side that led)
    "later_setter": ("choice", "same_rule", ("same_rule", "previous_winner", "rotate", "winning_side_chooses")),
    # Latin Double-Nine: before the first play a player holding this many doubles may throw the
    # deal in (0: never); a ruleset is resolved without it when 0 (the older games' hashes)
    "doubles_redeal": ("int", 0, 0, 10),
    "first_drawer": ("choice", "non_dealer", ("non_dealer", "dealer")),  # Bergen; dealer of hand h is seat h
    "spinner": ("choice", "none", ("none", "fixed_set_tile", "first_double")),
    "spinner_fill_first": ("bool", False),  # Sebastopol: all four points before any arm
    "spinner_arm_order": ("choice", "any", ("any", "sides_first")),
    "first_double_orientation": ("choice", "crosswise", ("crosswise", "inline", "player_choice")),
    "other_doubles": ("choice", "crosswise", ("crosswise", "inline", "player_choice")),
    "sniff_mode": ("choice", "us", ("us", "pagat_inline_stub")),
    "match_rule": ("choice", "equal", ("equal", "sum_to_7")),
    "matadors": ("tiles", []),
    "zero_end_only_matadors": ("bool", False),
    "must_play_if_able": ("bool", True),
    "may_pass_when_able": ("bool", False),  # Sniff U-000-8; the same switch as must_play_if_able=false
    "draw_policy": ("choice", "none", ("none", "when_unable", "anytime")),
    "reserve": ("int", 2, 0, 4),
    "per_move_scoring": ("choice", "none", ("none",) + SCORING_RULES),
    "score_multiple": ("int", 5, 2, 10),
    "count_mode": ("choice", "line", ("line", "all_fives_spinner", "sniff_us")),
    "double_header_points": ("int", 2, 0, 100),
    "triple_header_points": ("int", 3, 0, 100),
    "triple_mode": ("choice", "strict", ("strict", "state")),
    "muggins_claims": ("choice", "auto", ("manual", "auto")),
    "hand_award": ("choice", "others_sum", ("others_sum", "others_sum_minus_own", "rounded5", "fixed", "betting_settlement", "all_hands")),
    "fixed_award": ("int", 1, 0, 100),
    "blocked_winner": ("choice", "lowest_pips", ("lowest_pips", "hoyle_no_doubles_first")),
    "blocked_tie": ("choice", "no_score", ("no_score", "split", "lightest_tile", "draw_carry_over")),
    "match_end": ("choice", "target", ("target", "num_games")),
    "target": ("int", 100, 1, 100000),
    "target_immediate": ("bool", True),  # reaching the target at any score event ends the match
    "num_games": ("int", 4, 1, 1000),
    # Buki betting (§3.12)
    "min_stake": ("int", 10, 1, 4000),
    "max_stake": ("int", 30, 1, 4000),
    "banker_sets_stakes": ("bool", False),  # the banker names the minimum; max = stake_ratio x min, capped by max_stake
    "stake_ratio": ("int", 3, 1, 10),
    "stakes_reset_on_new_banker": ("bool", True),
    "bet_deadline": ("int", 3, 1, 8),  # bet before this turn of one's own
    "bet_deadline_counts": ("choice", "turns", ("turns", "plays")),  # U-004-2: passes count by default
    "new_banker_bet_deadline": ("int", 1, 1, 8),  # U-004-3: after a change of banker, before the 1st play
    "payout_numerator": ("int", 5, 1, 100),
    "payout_denominator": ("int", 2, 1, 100),
    "payout_rounding": ("choice", "exact", ("exact", "floor", "require_even_stakes")),
    "spectators": ("int", 0, 0, 4),
    "spectator_odds_numerator": ("int", 5, 1, 100),  # U-004-5: default 2.5x like the players
    "spectator_odds_denominator": ("int", 2, 1, 100),
}

# The parameters of the newer games' rules (engine/line_variants.py, MORE-GAMES §1, §2), in the
# schema as the rest. A ruleset that plays none of them (check_params) is resolved without them
# all: the older games' resolved parameters, content hashes and heap stay as they were, and
# line_rules.LineRules imports line_variants only for the rulesets that have them.
VARIANT_PARAMS = {
    "target_exact": ("bool", False),  # an event that would pass the target is disregarded (exact 61)
    "blocked_award": ("choice", "same", ("same", "none")),  # none: a blocked hand pays nobody
    "partnership_end": ("choice", "first_out", ("first_out", "both_out")),  # both_out: till both partners are out
    "round5": ("bool", False),  # others_sum(_minus_own) to the nearest 5 (MORE-GAMES §2)
    "units": ("choice", "pips", ("pips", "fives")),  # fives: a pip award counts one point per 5
    "knock_bonus": ("bool", False),  # threes_fives: a play after knocks scores 1 more per knock
    # Latin partnership Double-Nine (MORE-GAMES §3): a blocked hand's winner, the capicúa bonus
    "blocked_compare": ("choice", "side_totals", ("side_totals", "lowest_hand", "blocker_vs_next")),
    "capicua": ("bool", False),  # going out with a tile that fitted both (different) ends
    "capicua_bonus": ("int", 25, 0, 1000),
    "capicua_same_ends": ("bool", False),  # a capicúa on equal ends too (a Dominican house rule)
}
PARAMS.update(VARIANT_PARAMS)

_MATADORS = ["0-0", "1-6", "2-5", "3-4"]
_TRAYS_2_TO_4 = ["line-2p", "line-3p", "line-4p"]

# Fives and Threes (MORE-GAMES §1): no drawing, the rest out of play; a lot of the heaviest tile
# leads hand 1, then the lead passes left; the chip point and the last play are one event
_F3 = dict(
    setter="highest_draw",
    later_setter="rotate",
    per_move_scoring="threes_fives",
    hand_award="fixed",
    blocked_award="none",
    target=61,
    target_exact=True,
)
# Muggins (§3.5), and All Fives rounded (MORE-GAMES §2), the same with the hand's pips rounded
_MUGGINS = {
    "deal": {"2": 7, "3": 7, "4": 5},
    "stock_after_deal": "boneyard",
    "draw_policy": "when_unable",
    "per_move_scoring": "fives",
    "muggins_claims": "manual",
    "target": 200,
}
PRESETS = {
    "block": {
        "version": 1,
        "label": "bLOC",
        "order": 10,
        "trays": _TRAYS_2_TO_4,
        "aliases": ["block-game"],
        "description": "Block game: no drawing, winner scores the others' pips, 100 (§3.1)",
        "params": {},
    },
    "draw": {
        "version": 1,
        "label": "drAW",
        "order": 20,
        "trays": _TRAYS_2_TO_4,
        "aliases": ["draw-game"],
        "description": "Draw game: Block with drawing when unable, two tiles stay (§3.2)",
        "params": {"stock_after_deal": "boneyard", "draw_policy": "when_unable", "reserve": 2},
    },
    "sebastopol": {
        "version": 1,
        "label": "SEbA",
        "order": 30,
        "trays": ["spinner-4p"],
        "description": "Sebastopol: 4 players, [6|6] spinner, four sixes before anything else, 60 (§3.3)",
        "params": {
            "deal": {"4": 7},
            "setter": "fixed_tile",
            "fixed_tile": "6-6",
            "spinner": "fixed_set_tile",
            "spinner_fill_first": True,
            "target": 60,
        },
    },
    "bergen": {
        "version": 1,
        "label": "bErG",
        "order": 40,
        "trays": ["line-2p"],
        "description": "Bergen: heavier doublet sets, double-headers 2, triple-headers 3, 1 per hand, 15 (§3.4)",
        "params": {
            "deal": {"2": 7},
            "stock_after_deal": "boneyard",
            "setter": "double_draw_equalized",
            "set_constraint": "qualifying_tile",
            "per_move_scoring": "headers",
            "hand_award": "fixed",
            "fixed_award": 1,
            "target": 15,
        },
    },
    "muggins": {
        "version": 1,
        "label": "MUGG",
        "order": 50,
        "trays": _TRAYS_2_TO_4,
        "aliases": ["all-fives", "fives"],
        "description": "Muggins: ends totalling a multiple of 5 score, claimed or stolen, 200 (§3.5)",
        "params": _MUGGINS,
    },
    "all-fives-rounded": {
        "version": 1,
        "label": "AF5r",
        "order": 52,
        "trays": _TRAYS_2_TO_4,
        "aliases": ["muggins-rounded"],
        "description": "All Fives rounded: Muggins with the hand's pips to the nearest 5, 200 (MORE-GAMES §2)",
        "params": dict(_MUGGINS, hand_award="rounded5"),
    },
    "fives-threes": {
        "version": 1,
        "label": "F3  ",
        "order": 54,
        "trays": _TRAYS_2_TO_4,
        "aliases": ["fives-and-threes", "threes-and-fives"],
        "description": "Fives and Threes: ends in threes and fives score, 1 for chipping out, exactly 61 (MORE-GAMES §1)",
        "params": _F3,
    },
    "fives-threes-pairs": {
        "version": 1,
        "label": "F3Pr",
        "order": 56,
        "trays": ["line-4p"],
        "description": "Fives and Threes in pairs: partners opposite, the hand ends when both of a side are out, 61 (MORE-GAMES §1)",
        "params": dict(_F3, deal={"4": 5}, partnerships=True, partnership_end="both_out"),
    },
    "cuban": {
        "version": 1,
        "label": "CUbA",
        "order": 58,
        "trays": ["line-4p"],
        "aliases": ["latin-d9", "domino-de-parejas"],
        "description": "Latin Double-Nine in pairs: 10 each, a side's lot, the lighter side wins a tranque, 100 (MORE-GAMES §3)",
        "params": {
            "max_pip": 9,
            "deal": {"4": 10},
            "partnerships": True,
            "direction": "counterclockwise",
            "setter": "side_lot",
            "later_setter": "winning_side_chooses",
            "doubles_redeal": 5,
        },
    },
    "sniff": {
        "version": 1,
        "label": "SNIF",
        "order": 60,
        "trays": ["line-2p", "line-3p", "line-4p", "spinner-4p"],
        "description": "Sniff: lightest draw sets, the first double spins and keeps counting, draw any time, 200 (§3.6)",
        "params": {
            "deal": {"2": 7, "3": 6, "4": 5},
            "stock_after_deal": "boneyard",
            "setter": "lightest_draw",
            "spinner": "first_double",
            "first_double_orientation": "player_choice",
            "count_mode": "sniff_us",
            "draw_policy": "anytime",
            "per_move_scoring": "fives",
            "target": 200,
        },
    },
    "matador": {
        "version": 1,
        "label": "MAtA",
        "order": 70,
        "trays": _TRAYS_2_TO_4,
        "description": "Matador: touching ends total 7, matadors go anywhere, a blank takes only matadors, 100 (§3.7)",
        "params": {
            "deal": {"2": 7, "3": 7, "4": 5},
            "stock_after_deal": "boneyard",
            "match_rule": "sum_to_7",
            "matadors": _MATADORS,
            "zero_end_only_matadors": True,
            "first_double_orientation": "inline",
            "other_doubles": "inline",
            "draw_policy": "when_unable",
        },
    },
    "buki": {
        "version": 1,
        "label": "bUKI",
        "order": 80,
        "trays": ["line-4p"],
        "aliases": ["buki-domino", "bukidomino"],
        "description": "Buki-Domino: doubleless double-eight, banker, forced play, stakes paid 2.5 to 1 (§3.12)",
        "params": {
            "max_pip": 8,
            "doubles": False,
            "deal": {"4": 6},
            "later_setter": "previous_winner",
            "hand_award": "betting_settlement",
            "blocked_tie": "draw_carry_over",
            "match_end": "num_games",
            "num_games": 4,
        },
    },
}


def check_params(name, params):
    """Rules that span several parameters; a ruleset that plays none of the newer games' rules
    loses their parameters (``VARIANT_PARAMS``). The checks are ``line_params_checks``', imported
    only here. :raises RulesetError: naming the field and why."""
    from tiletable.engine.line_params_checks import check_params as check

    check(name, params)
