"""What a line state reads from its parameters on every move (engine/line.py): the tile set,
who sets, how doubles may lie, the draw and pass rules and the per-move scoring rule's object,
worked out once per ruleset."""

from tiletable.engine.line_actions import LOC_FREE, LOC_NONE
from tiletable.engine.tiles import high, is_double, low, parse_tile, pips, tile_set

RULED = (0,)  # the rules decide how a tile lies (a choice is (1, 2): crosswise, inline)


def setter_rank(t):
    """Who sets by §2.2 S3: doubles by number above every single, singles by pips then higher end."""
    if is_double(t):
        return 1000 + low(t)
    return pips(t) * 16 + high(t)


def lowest_setter_rank(t):
    """Who sets by ``lowest_double`` (Pagat's Bergen): the lowest double above every single,
    then the lightest single (by pips, then the lower higher end)."""
    if is_double(t):
        return 1000 + 15 - low(t)
    return (30 - pips(t)) * 16 + 15 - high(t)


class LineRules:
    """What a state reads from its parameters on every move, worked out once per ruleset and
    shared by its states (never changed): ``rules_of`` keeps the last ruleset's. ``scoring``
    is the per-move scoring rule's object (None: no per-move score), ``pay`` and ``pay_sides``
    the pip award's (line_pips; None for Buki), ``variants`` the newer games' rules (None
    for the games that play none of them)."""

    def __init__(self, p):
        tiles = tile_set(p["max_pip"], p["doubles"], tuple(parse_tile(t) for t in p["exclude"]))
        unused_loc = bytearray(160)  # the location table of a fresh hand: LOC_NONE except the set
        for i in range(160):
            unused_loc[i] = LOC_NONE
        for t in tiles:
            unused_loc[t] = LOC_FREE
        self.tiles = tiles
        self.unused_loc = unused_loc
        self.matadors = [parse_tile(t) for t in p["matadors"]]
        self.fixed = parse_tile(p["fixed_tile"]) if p["fixed_tile"] else -1
        self.sum7 = p["match_rule"] == "sum_to_7"
        self.may_pass = p["may_pass_when_able"] or not p["must_play_if_able"]
        self.draws = p["draw_policy"] != "none"
        self.draw_when_unable = p["draw_policy"] == "when_unable"
        self.reserve = p["reserve"]
        self.fill_first = p["spinner_fill_first"]
        self.sides_first = p["spinner_arm_order"] == "sides_first"
        self.zero_only_matadors = p["zero_end_only_matadors"]
        # how a double may lie (see _orients): (0,) as the rules say, (1, 2) crosswise or inline by choice
        self.first_orients = (1, 2) if p["first_double_orientation"] == "player_choice" else RULED
        self.other_orients = (1, 2) if p["other_doubles"] == "player_choice" else RULED
        # no spinner, equal matching, no matadors, no blank-end rule, doubles laid as the rules
        # say: the plays come from generate_legal_actions' quick loop
        self.quick = p["spinner"] == "none" and not (self.matadors or self.sum7 or p["zero_end_only_matadors"]) and (
            self.first_orients is RULED and self.other_orients is RULED
        )
        self.stub = p["sniff_mode"] == "pagat_inline_stub"
        self.set_rank = lowest_setter_rank if p["setter"] == "lowest_double" else setter_rank
        name = p["per_move_scoring"]
        self.scoring = None
        if name != "none":  # its module is imported for the games that score with it alone
            module = "tiletable.engine.line_score_" + name
            self.scoring = __import__(module, None, None, ["Rule"]).Rule(p)
        self.pay = self.pay_sides = None  # the pip award (line_pips): every game's but Buki's, whose chips its Betting settles
        if p["hand_award"] != "betting_settlement":
            from tiletable.engine.line_pips import award_sides, pay

            self.pay, self.pay_sides = pay, award_sides
        self.variants = None  # the newer games' rules: line_params resolves their parameters only for those games
        if "units" in p:
            from tiletable.engine.line_variants import variants_for

            self.variants = variants_for(p, self.scoring)


_LAST_RULES = [None, None]  # the last ruleset's hash and its LineRules


def rules_of(ruleset):
    """The ``LineRules`` of ``ruleset`` (built again only when the ruleset changes)."""
    if _LAST_RULES[0] != ruleset.hash:
        _LAST_RULES[0], _LAST_RULES[1] = ruleset.hash, LineRules(ruleset.params)
    return _LAST_RULES[1]
