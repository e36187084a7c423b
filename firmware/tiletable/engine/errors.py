"""The engine's exceptions and the reason codes a table shows as ``Err<n>``.

Every rejected action carries a numeric code (for a 4-digit display) and a sentence
(for the PC and the journal). Codes are shared by all game families so a player learns
them once.
"""

# Reason codes. Families reuse these; the text of an IllegalAction says the specifics.
E_TURN = 1  # not this seat's turn (or not this seat's decision)
E_TILE = 2  # not a tile/card of this game's set, or malformed
E_NOT_HELD = 3  # not in the player's hand, or already seen elsewhere
E_NO_MATCH = 4  # does not fit the chosen end / attach point
E_MUST_PLAY = 5  # passing or drawing while a play is required
E_NO_DRAW = 6  # drawing not allowed (policy or boneyard reserve)
E_PHASE = 7  # not allowed at this point of the hand
E_CLAIM = 8  # a claim that is not due
E_BET = 9  # a bet out of range, late, or repeated
E_FOLLOW = 10  # must follow suit
E_BID = 11  # bid out of range or not higher
E_COMBO = 12  # not a valid combination, or does not beat the last one
E_OVER = 13  # the hand or match is over
E_ORDER = 14  # attach order (e.g. Sebastopol: fill the spinner first)
E_SET = 15  # wrong tile to set
E_CHANCE = 16  # a chance outcome that cannot happen (tile not in the stock)

REASONS = {
    E_TURN: "not your turn",
    E_TILE: "not in this game's set",
    E_NOT_HELD: "not in that hand",
    E_NO_MATCH: "does not match",
    E_MUST_PLAY: "must play",
    E_NO_DRAW: "cannot draw",
    E_PHASE: "not now",
    E_CLAIM: "nothing to claim",
    E_BET: "bet not allowed",
    E_FOLLOW: "must follow suit",
    E_BID: "bid not allowed",
    E_COMBO: "does not beat",
    E_OVER: "game over",
    E_ORDER: "wrong order",
    E_SET: "wrong set tile",
    E_CHANCE: "impossible deal or draw",
}


class IllegalAction(ValueError):
    """An action the rules forbid now; the state is unchanged.

    ``code`` is one of the ``E_*`` constants, ``reason`` a lower-case sentence naming the
    offending action and why, e.g. ``illegal action '4-6>L': does not match end 3``.
    """

    def __init__(self, action_text, code, reason):
        super().__init__("illegal action %r: %s" % (action_text, reason))
        self.action = action_text
        self.code = code
        self.reason = reason


class RulesetError(ValueError):
    """A ruleset document that cannot be used; names the field and the reason.

    Example message: ``ruleset 'muggins': params.target: must be at least 1 (got 0)``.
    """

    def __init__(self, name, field, reason):
        super().__init__("ruleset %r: %s: %s" % (name, field, reason))
        self.name = name
        self.field = field
        self.reason = reason
