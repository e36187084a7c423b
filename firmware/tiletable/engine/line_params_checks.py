"""The line family's cross-field checks (``line_params.check_params``): a module of their own,
imported when a ruleset is validated. The table's menu imports line_params for the presets
alone (tiletable/families.py), at boot, and these checks' texts were heap the boot could not
spare once the presets and parameters of Fives and Threes joined it (tests/sim/test_main_boot.py:
the Pico-sized heaps).
"""

from tiletable.engine.errors import RulesetError
from tiletable.engine.line_params import VARIANT_PARAMS
from tiletable.engine.tiles import high, is_double, low, parse_tile


def _refused(name, field, why):
    """The error for parameter ``field`` of ruleset ``name``: the field is named once in this
    module, as the key it reads (each long text constant is heap while a ruleset is validated)."""
    return RulesetError(name, "params." + field, why)


def _in_full_set(params, t):
    """Whether ``t`` is in the set before ``exclude`` takes tiles out."""
    return high(t) <= params["max_pip"] and (params["doubles"] or low(t) != high(t))


def _set_size(params):
    n = params["max_pip"] + 1
    full = n * (n + 1) // 2 if params["doubles"] else n * (n - 1) // 2
    return full - len(set(parse_tile(text) for text in params["exclude"]))


def check_params(name, params):
    """Rules that span several parameters (``line_params.check_params``). :raises RulesetError:
    naming the field and why."""
    for text in params["exclude"]:
        if not _in_full_set(params, parse_tile(text)):
            raise _refused(name, "exclude", "%s is not in the set" % text)
    size = _set_size(params)
    for count, per in params["deal"].items():
        players = int(count)
        if players < 2 or players > 4:
            raise _refused(name, "deal." + count, "line games seat 2 to 4 players")
        if players * per > size:
            raise _refused(name, "deal." + count, "%d x %d tiles is more than the %d-tile set" % (players, per, size))
        if params["setter"] == "lightest_draw" and size - players * per < players:
            raise _refused(name, "setter", "lightest_draw needs %d tiles left after the deal for %d players" % (players, players))
    if not params["deal"]:
        raise _refused(name, "deal", "give a deal for at least one player count")
    for field in ("fixed_tile",):
        if params[field] is not None and not _in_set(params, parse_tile(params[field])):
            raise _refused(name, field, "%s is not in the set" % params[field])
    for text in params["matadors"]:
        if not _in_set(params, parse_tile(text)):
            raise _refused(name, "matadors", "%s is not in the set" % text)
    if params["partnerships"]:
        if set(params["deal"]) != {"4"}:
            raise _refused(name, "deal", "partnerships are played by 4: give the deal for 4 players only")
        if params["hand_award"] == "betting_settlement":
            raise _refused(name, "partnerships", "betting is settled seat by seat, not by sides")
        if params["blocked_winner"] != "lowest_pips":
            raise _refused(name, "blocked_winner", "with partnerships the side with fewer pips wins a block")
        if params["blocked_tie"] == "split":
            raise _refused(name, "blocked_tie", "two sides that tie score nothing (no_score) or go by the lightest tile")
    if params["setter"] == "fixed_tile" and params["fixed_tile"] is None:
        raise _refused(name, "fixed_tile", "setter fixed_tile needs the tile")
    if params["setter"] in ("double_draw_equalized",) and not params["doubles"]:
        raise _refused(name, "setter", "double_draw_equalized needs doubles in the set")
    if params["setter"] in ("lightest_draw", "double_draw_equalized") and params["stock_after_deal"] != "boneyard":
        raise _refused(name, "stock_after_deal", "setter %s draws from the boneyard" % params["setter"])
    if params["set_constraint"] == "qualifying_tile" and params["setter"] not in ("highest_double", "lowest_double", "double_draw_equalized"):
        raise _refused(name, "set_constraint", "only a setter chosen by a tile has a qualifying tile")
    spinner = params["spinner"]
    if spinner == "none":
        if params["spinner_fill_first"]:
            raise _refused(name, "spinner_fill_first", "needs a spinner")
        if params["spinner_arm_order"] != "any":
            raise _refused(name, "spinner_arm_order", "needs a spinner")
        if params["count_mode"] != "line":
            raise _refused(name, "count_mode", "%s counts a spinner: set spinner" % params["count_mode"])
        if params["sniff_mode"] != "us":
            raise _refused(name, "sniff_mode", "needs spinner first_double")
    else:
        if not params["doubles"]:
            raise _refused(name, "spinner", "a spinner is a double and the set has none")
        if params["per_move_scoring"] in ("fives", "threes_fives") and params["count_mode"] == "line":
            raise _refused(name, "count_mode", "a spinner needs all_fives_spinner or sniff_us counting")
        if params["per_move_scoring"] == "headers":
            raise _refused(name, "per_move_scoring", "headers look at two line ends: needs spinner none")
    if spinner == "fixed_set_tile":
        tile = params["fixed_tile"]
        if params["setter"] != "fixed_tile" or tile is None or not is_double(parse_tile(tile)):
            raise _refused(name, "spinner", "fixed_set_tile needs setter fixed_tile with a double")
    if params["sniff_mode"] == "pagat_inline_stub" and params["first_double_orientation"] != "inline":
        raise _refused(name, "first_double_orientation", "pagat_inline_stub lays the sniff inline")
    if params["must_play_if_able"] and params["may_pass_when_able"]:
        raise _refused(name, "may_pass_when_able", "contradicts must_play_if_able")
    if params["draw_policy"] != "none" and params["stock_after_deal"] != "boneyard":
        raise _refused(name, "draw_policy", "drawing needs stock_after_deal boneyard")
    if params["muggins_claims"] == "manual" and params["per_move_scoring"] not in ("fives", "threes_fives"):
        raise _refused(name, "muggins_claims", "claims need per_move_scoring fives or threes_fives")
    betting = params["hand_award"] == "betting_settlement"
    if (params["blocked_tie"] == "draw_carry_over") != betting:
        raise _refused(name, "blocked_tie", "draw_carry_over goes with hand_award betting_settlement")
    if betting:
        if params["min_stake"] > params["max_stake"]:
            raise _refused(name, "min_stake", "above max_stake")
        for field in ("payout", "spectator_odds"):
            den = params[field + "_denominator"]
            if params["payout_rounding"] == "exact" and den > 2:
                raise _refused(name, "%s_denominator" % field, "exact payouts are kept in half-chips: use 1 or 2")
        if params["payout_rounding"] == "require_even_stakes":
            den = params["payout_denominator"]
            if params["min_stake"] % den and params["min_stake"] + den - params["min_stake"] % den > params["max_stake"]:
                raise _refused(name, "max_stake", "no stake in range is a multiple of %d" % den)
        if params["match_end"] != "num_games":
            raise _refused(name, "match_end", "chips are played for a number of games")
    elif params["spectators"]:
        raise _refused(name, "spectators", "spectators bet only with betting_settlement")
    _check_lead(name, params)
    if not params["doubles_redeal"]:
        del params["doubles_redeal"]
    if not _plays_variants(params):
        for key in VARIANT_PARAMS:
            del params[key]
    elif params["partnership_end"] == "both_out" and not params["partnerships"]:
        raise _refused(name, "partnership_end", "both_out needs partnerships")
    elif params["units"] == "fives" and not (params["round5"] or params["hand_award"] == "rounded5"):
        raise _refused(name, "units", "an award in fives needs the pips rounded: hand_award rounded5 or round5")
    elif params["knock_bonus"] and params["per_move_scoring"] != "threes_fives":
        raise _refused(name, "knock_bonus", "the knock bonus is scored by per_move_scoring threes_fives")
    elif params["blocked_compare"] != "side_totals" and not params["partnerships"]:
        raise _refused(name, "blocked_compare", "%s compares the hands of sides: needs partnerships" % params["blocked_compare"])
    elif params["capicua"] and not (params["partnerships"] and spinner == "none"):
        raise _refused(name, "capicua", "a capicua is a side's going out on the two ends of a line: needs partnerships, spinner none")
    if params["hand_award"] == "all_hands" and not params["partnerships"]:
        raise _refused(name, "hand_award", "all_hands counts the partner's hand too: needs partnerships")


def _check_lead(name, params):
    """Latin Double-Nine's lead: a side's lot and choice need partners; doubles need doubles."""
    for field, value in (("setter", "side_lot"), ("later_setter", "winning_side_chooses")):
        if params[field] == value and not params["partnerships"]:
            raise _refused(name, field, "%s lets a side choose its leader: needs partnerships" % value)
    if params["doubles_redeal"] and not params["doubles"]:
        raise _refused(name, "doubles_redeal", "the set has no doubles to show")
    if params["doubles_redeal"] and params["setter"] not in ("side_lot", "highest_draw", "highest_double", "lowest_double"):
        raise _refused(name, "doubles_redeal", "doubles are shown while a lot, a side or a double names the leader")
    if params["doubles_redeal"] > params["max_pip"] + 1:
        raise _refused(name, "doubles_redeal", "the set has %d doubles" % (params["max_pip"] + 1))


def _plays_variants(params):
    """Whether the ruleset plays one of the newer games' rules (engine/line_variants.py): if
    not, ``check_params`` resolves it without their parameters (``VARIANT_PARAMS``)."""
    for key in VARIANT_PARAMS:
        if params[key] != VARIANT_PARAMS[key][1]:
            return True
    if params["setter"] in ("highest_draw", "side_lot") or params["later_setter"] in ("rotate", "winning_side_chooses"):
        return True
    return "doubles_redeal" in params or params["per_move_scoring"] == "threes_fives"


def _in_set(params, t):
    return _in_full_set(params, t) and all(parse_tile(text) != t for text in params["exclude"])
