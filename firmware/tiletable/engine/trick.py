"""The trick family: Moon (rule book §3.10, §4.2); its suits are engine/suits.py's, shared with Texas 42.

Three players, the 22-tile set (no [0|x] but [0|0]), 7 tiles each and a widow. One
round of bidding (4-7, or MOON for all seven tricks), the high bidder may swap a tile
with the widow, leads, and each trick's leader names the suit of a non-double. A
match runs hand by hand to 21 points; the deal passes clockwise.

Canonical action text (what journals store)::

    D1:4-5  D1:?       deal a tile to seat 1 (``?``: dealt face down, identity unknown)
    W:4-5   W:?        the widow
    B0:PASS B0:5 B0:MOON   seat 0's call in the auction
    X:3-4   X:?  KEEP  the bidder discards 3-4 for the widow (``X:?`` a face-down
                       discard, variant ``widow=mandatory_facedown``), or keeps the hand
    TRUMP4  NOTRUMP    the bidder names trumps (variant ``trumps=bidder_declares``)
    4-5/4              lead 4-5 declaring suit 4
    4-5                play 4-5, or lead it when its suit needs no declaring (a double,
                       a trump, or any tile under ``lead_suit_rule=higher_end``)

Hidden hands: with ``D1:?`` deals the table knows only hand sizes. A play off the led
suit from such a hand is recorded as a void; when the last trick closes every tile of
the hand has been shown, and a void contradicted by a later play is reported in
``reneges`` with its hand and trick (reported, not scored: the rule book sets no
penalty). With known hands every rule is checked at once. Calls carry their seat, so a
call out of turn is refused; tile plays are the current player's.

Settled ambiguities (parameters): failure costs ``bid - taken`` (seed) or the full bid
(``fail``); an exact tie at the target plays another hand (``exact_tie``); after an
all-pass the next player deals (``redeal_dealer``), or with ``all_pass=dealer_forced``
the dealer may not pass after two passes; with ``trumps=bidder_declares`` a
trump tile belongs to the trump suit only, and a [0|0] trump (blanks named) wins when
played, like any trump. The first dealer is seat 0, so seat 1 speaks first;
``hand_number`` counts deals, an all-pass redeal included.
"""

from tiletable.engine.errors import (
    E_BID,
    E_CHANCE,
    E_FOLLOW,
    E_NOT_HELD,
    E_OVER,
    E_PHASE,
    E_TILE,
    E_TURN,
    IllegalAction,
)
from tiletable.engine.holdings import UNKNOWN
from tiletable.engine.state import CHANCE, TERMINAL, Outcome
from tiletable.engine.suits import NO_TRUMP, follows, lead_suit, trick_winner
from tiletable.engine.tiles import is_double, named_set, parse_tile, tile_str
from tiletable.engine.trick_hands import TrickHands
from tiletable.engine.trick_score import HAND, MOON, PASS, bid_text, bidder_points, match_result

# The family contract (rulesets.py): PARAMS, PRESETS and check_params live in trick_params,
# which validating a ruleset imports instead of this module.

TILES = named_set("d6-moon")
_IN_SET = bytearray(128)
for _t in TILES:
    _IN_SET[_t] = 1

# Action kinds: action = kind << 10 | arg << 7 | tile (arg: a seat or a suit; tile 0..127).
_DEAL = 1
_WIDOW = 2
_BID = 3  # tile field holds the call: 0 pass, 4..7, 21 moon
_DISCARD = 4
_KEEP = 5
_TRUMP = 6  # arg: suit 0..6 or NO_TRUMP
_PLAY = 7
_LEAD = 8  # arg: the declared suit

# Phases of a hand.
_DEALING = 0
_AUCTION = 1
_EXCHANGE = 2
_TRUMPS = 3
_TRICKS = 4
_OVER = 5


def _act(kind, arg, tile):
    return kind << 10 | arg << 7 | tile


def _fields(action):
    """(kind, arg, tile) of an action: the one place that reads the layout above."""
    return action >> 10, (action >> 7) & 7, action & 127


def player_counts(params):
    return (3,)


class State(TrickHands):
    family = "trick"
    TILES = TILES  # the set, for TrickHands

    def __init__(self, ruleset, players):
        super().__init__(ruleset, players)
        params = ruleset.params
        self._facedown = params["widow"] == "mandatory_facedown"
        self._with_trumps = params["trumps"] == "bidder_declares"
        self._higher_end = params["lead_suit_rule"] == "higher_end"
        self.dealer = 0
        self.reneges = []
        self.last_tricks = None  # tricks per seat in the last hand played out
        self._outcome = None
        self._start_hand()

    def _start_hand(self):
        self._new_hands(3)
        self.widow = None
        self.discard = None  # the bidder's discard (UNKNOWN when face down and not read)
        self.phase = _DEALING
        self._spoken = 0
        self.high_call = PASS
        self.bidder = None
        self.trump = None
        self.tricks = [0, 0, 0]
        self.trick_number = 0
        self.leader = None
        self.suit = None
        self.trick = []  # (seat, tile) in play order

    # --- queries -------------------------------------------------------------------------
    def current_player(self):
        phase = self.phase
        if phase == _OVER:
            return TERMINAL
        if phase == _DEALING:
            return CHANCE
        if phase == _AUCTION:
            return (self.dealer + 1 + self._spoken) % 3
        if phase == _TRICKS:
            return (self.leader + len(self.trick)) % 3
        return self.bidder

    def outcome(self):
        return self._outcome

    def follows(self, tile, suit):
        """True when the tile belongs to the suit (a trump belongs to the trump suit only)."""
        return follows(tile, suit, self.trump)

    def _lead_suit(self, tile):
        """The suit a lead of this tile makes without a declaration, or None."""
        return lead_suit(tile, self.trump, self._higher_end)

    def trick_winner(self, trick=None):
        """The seat winning the trick so far, or ``trick`` (``(seat, tile)`` pairs) in this one's
        suit (a led [0|0] wins unless trumped: nothing else has a 0)."""
        return trick_winner(self.trick if trick is None else trick, self.suit, self.trump)

    def chance_outcomes(self):
        if self.phase != _DEALING:
            return []
        seat = self._next_deal_seat()
        unseen = [t for t in TILES if not self._seen[t]]
        if seat is None:
            return [_act(_WIDOW, 0, t) for t in unseen]
        return [_act(_DEAL, seat, t) for t in unseen]

    def _next_deal_seat(self):
        """Round the table from the dealer's left, one tile at a time; None: the widow."""
        best = None
        for step in range(1, 4):
            seat = (self.dealer + step) % 3
            size = self.hands[seat].size()
            if size < HAND and (best is None or size < self.hands[best].size()):
                best = seat
        return best

    # --- legal actions ---------------------------------------------------------------------
    def generate_legal_actions(self):
        if self._outcome is not None:
            return []
        candidates = []
        phase = self.phase
        if phase == _DEALING:
            unseen = [t for t in TILES if not self._seen[t]] + [UNKNOWN]
            for seat in range(3):
                if self.hands[seat].size() < HAND:
                    candidates.extend(_act(_DEAL, seat, t) for t in unseen)
            if self.widow is None:
                candidates.extend(_act(_WIDOW, 0, t) for t in unseen)
        elif phase == _AUCTION:
            seat = self.current_player()
            for call in (PASS, 4, 5, 6, 7, MOON):
                candidates.append(_act(_BID, seat, call))
        elif phase == _EXCHANGE:
            candidates = [_act(_DISCARD, 0, t) for t in self._playable(self.bidder)]
            candidates.append(_act(_DISCARD, 0, UNKNOWN))
            candidates.append(_act(_KEEP, 0, 0))
        elif phase == _TRUMPS:
            candidates = [_act(_TRUMP, suit, 0) for suit in range(8)]
        else:
            for t in self._playable(self.current_player()):
                candidates.append(_act(_PLAY, 0, t))
                if not self.trick and not is_double(t):
                    candidates.append(_act(_LEAD, t >> 4, t))
                    candidates.append(_act(_LEAD, t & 15, t))
        return sorted(a for a in candidates if self.why_illegal(a) is None)

    def why_illegal(self, action):
        if self._outcome is not None:
            return (E_OVER, "the match is over")
        if not isinstance(action, int) or action < 0:
            return (E_TILE, "not a moon action: %r" % (action,))
        kind, arg, tile = _fields(action)
        if tile != UNKNOWN and not _IN_SET[tile] and kind in (_DEAL, _WIDOW, _DISCARD, _PLAY, _LEAD):
            return (E_TILE, "%s is not in the moon set" % tile_str(tile))
        if kind in (_DEAL, _WIDOW):
            return self._deal_problem(kind, arg, tile)
        if kind == _BID:
            return self._call_problem(arg, tile)
        if kind in (_DISCARD, _KEEP):
            return self._exchange_problem(kind, tile)
        if kind == _TRUMP:
            if self.phase != _TRUMPS:
                return (E_PHASE, "trumps are named only after the widow exchange, under trumps=bidder_declares")
            return None
        if kind in (_PLAY, _LEAD):
            return self._play_problem(kind, arg, tile)
        return (E_TILE, "not a moon action: %r" % action)

    def _deal_problem(self, kind, seat, tile):
        if self.phase != _DEALING:
            return (E_PHASE, "the deal is over")
        if kind == _DEAL:
            if seat > 2:
                return (E_CHANCE, "no seat %d at a 3-player table" % seat)
            if self.hands[seat].size() >= HAND:
                return (E_CHANCE, "seat %d already holds %d tiles" % (seat, HAND))
        elif self.widow is not None:
            return (E_CHANCE, "the widow is already dealt")
        if tile != UNKNOWN and self._seen[tile]:
            return (E_CHANCE, "%s is already dealt" % tile_str(tile))
        return None

    def _call_problem(self, seat, call):
        if self.phase != _AUCTION:
            return (E_PHASE, "no auction now")
        speaker = self.current_player()
        if seat != speaker:
            return (E_TURN, "seat %d speaks now, not seat %d (each player speaks once)" % (speaker, seat))
        if call == PASS:
            if self._spoken == 2 and self.high_call == PASS and self.ruleset.params["all_pass"] == "dealer_forced":
                return (E_BID, "the dealer must bid when both others have passed")
            return None
        if call != MOON and not 4 <= call <= 7:
            return (E_BID, "a bid is 4 to 7 or MOON (got %d)" % call)
        if call <= self.high_call:
            return (E_BID, "bid %s is not above the high bid %s" % (bid_text(call), bid_text(self.high_call)))
        return None

    def _exchange_problem(self, kind, tile):
        if self.phase != _EXCHANGE:
            return (E_PHASE, "no widow exchange now")
        if kind == _KEEP:
            if self._facedown:
                return (E_PHASE, "the bidder has taken the widow and must discard a tile")
            return None
        if tile == UNKNOWN:
            if not self._facedown:
                return (E_TILE, "the discard is shown face up: name the tile")
            return None
        if not self.hands[self.bidder].holds(tile):
            if tile == self.widow:
                return (E_NOT_HELD, "%s is the widow: KEEP keeps the hand as it is" % tile_str(tile))
            if self._seen[tile] or not self.hands[self.bidder].unknown:
                return (E_NOT_HELD, "%s is not in the bidder's hand" % tile_str(tile))
        return None

    def _play_problem(self, kind, declared, tile):
        if self.phase != _TRICKS:
            return (E_PHASE, "no trick is being played now")
        seat = self.current_player()
        hand = self.hands[seat]
        if not hand.holds(tile) and (self._seen[tile] or not hand.unknown):
            return (E_NOT_HELD, "%s is not in P%d's hand" % (tile_str(tile), seat))
        if not self.trick:
            auto = self._lead_suit(tile)
            if kind == _PLAY and auto is None:
                return (E_PHASE, "leading %s needs a suit: %s/%d or %s/%d" % (
                    tile_str(tile), tile_str(tile), tile >> 4, tile_str(tile), tile & 15))
            if kind == _LEAD:
                if auto is not None:
                    return (E_PHASE, "%s leads suit %d by itself: play it as %s" % (tile_str(tile), auto, tile_str(tile)))
                if declared != tile >> 4 and declared != tile & 15:
                    return (E_TILE, "suit %d is not a half of %s" % (declared, tile_str(tile)))
            return None
        if kind == _LEAD:
            return (E_PHASE, "only the leader declares a suit")
        if not self.follows(tile, self.suit):
            for held in hand.known:
                if self.follows(held, self.suit):
                    return (E_FOLLOW, "must follow suit %d (P%d holds %s)" % (self.suit, seat, tile_str(held)))
        return None

    # --- applying --------------------------------------------------------------------------
    def _apply(self, action):
        kind, arg, tile = _fields(action)
        if tile != UNKNOWN and kind in (_DEAL, _WIDOW, _DISCARD, _PLAY, _LEAD):
            self._seen[tile] = 1
        if kind == _DEAL:
            self.hands[arg].add(tile)
            self._check_dealt()
        elif kind == _WIDOW:
            self.widow = tile
            self._check_dealt()
        elif kind == _BID:
            self._apply_call(arg, tile)
        elif kind == _DISCARD:
            self._apply_discard(tile)
        elif kind == _KEEP:
            self._after_exchange()
        elif kind == _TRUMP:
            self.trump = arg
            self._start_tricks()
        else:
            self._apply_play(kind, arg, tile)

    def _check_dealt(self):
        if self.widow is not None and all(h.size() == HAND for h in self.hands):
            self.phase = _AUCTION

    def _apply_call(self, seat, call):
        self._spoken += 1
        if call != PASS:
            self.high_call = call
            self.bidder = seat
        if call == MOON or self._spoken == 3:
            self._end_auction()

    def _end_auction(self):
        if self.bidder is None:  # everybody passed: reshuffle and deal again
            if self.ruleset.params["redeal_dealer"] == "next":
                self.dealer = (self.dealer + 1) % 3
            self.hand_number += 1
            self._start_hand()
            return
        self.phase = _EXCHANGE
        if self._facedown:
            self.hands[self.bidder].add(self.widow)
            self.widow = None

    def _apply_discard(self, tile):
        hand = self.hands[self.bidder]
        if tile == UNKNOWN:
            if not hand.unknown:
                for forgotten in hand.forget():
                    self._seen[forgotten] = 0
            hand.unknown -= 1
        else:
            hand.remove(tile)
        self.discard = tile
        if not self._facedown:
            hand.add(self.widow)
            self.widow = None
        self._after_exchange()

    def _after_exchange(self):
        if self._with_trumps:
            self.phase = _TRUMPS
        else:
            self._start_tricks()

    def _start_tricks(self):
        self.phase = _TRICKS
        self.leader = self.bidder

    def _apply_play(self, kind, declared, tile):
        if not self.trick:
            self.suit = declared if kind == _LEAD else self._lead_suit(tile)
        self._lay(self.current_player(), tile)
        if len(self.trick) == 3:
            winner = self.trick_winner()
            self.tricks[winner] += 1
            self.trick_number += 1
            self.leader = winner
            self.trick = []
            if self.trick_number == HAND:
                self._end_hand()

    def _end_hand(self):
        self.last_tricks = self.tricks
        self._note_reneges()
        made = self._score_hand()
        params = self.ruleset.params
        winner = match_result(self.scores, params["target"], params["exact_tie"], self.bidder, made)
        if winner is not None:
            self.phase = _OVER
            self._outcome = Outcome("target", (winner,), self.scores)
            return
        self.dealer = (self.dealer + 1) % 3
        self.hand_number += 1
        self._start_hand()

    def _score_hand(self):
        """Award the hand's points; True when the bidder made the bid."""
        bidder, call = self.bidder, self.high_call
        for seat in range(3):
            if seat != bidder and self.tricks[seat]:
                self.award(seat, self.tricks[seat], "tricks", "%d tricks x 1" % self.tricks[seat])
        taken = self.tricks[bidder]
        points, detail = bidder_points(call, taken, self.ruleset.params["fail"])
        self.award(bidder, points, "made" if points > 0 else "set", detail)
        return points > 0

    # --- text ------------------------------------------------------------------------------
    def action_str(self, action):
        if not isinstance(action, int):
            return repr(action)
        kind, arg, tile = _fields(action)
        text = "?" if tile == UNKNOWN else tile_str(tile)
        if kind == _DEAL:
            return "D%d:%s" % (arg, text)
        if kind == _WIDOW:
            return "W:" + text
        if kind == _BID:
            return "B%d:%s" % (arg, bid_text(tile))
        if kind == _DISCARD:
            return "X:" + text
        if kind == _KEEP:
            return "KEEP"
        if kind == _TRUMP:
            return "NOTRUMP" if arg == NO_TRUMP else "TRUMP%d" % arg
        if kind == _LEAD:
            return "%s/%d" % (text, arg)
        return text

    def parse_action(self, text):
        """Inverse of ``action_str``. :raises IllegalAction: ``E_TILE`` for text that is no Moon action."""
        s = text.strip().upper()
        if s == "KEEP":
            return _act(_KEEP, 0, 0)
        if s == "NOTRUMP":
            return _act(_TRUMP, NO_TRUMP, 0)
        if s.startswith("TRUMP") and s[5:].isdigit() and int(s[5:]) <= 6:
            return _act(_TRUMP, int(s[5:]), 0)
        if len(s) > 3 and s[0] in "BD" and s[1].isdigit() and s[2] == ":" and int(s[1]) > 2:
            raise IllegalAction(text, E_TURN, "no seat %s at a 3-player table" % s[1])
        if len(s) > 3 and s[0] == "B" and s[1].isdigit() and s[2] == ":":
            call = s[3:]
            if call == "PASS":
                return _act(_BID, int(s[1]), PASS)
            if call == "MOON":
                return _act(_BID, int(s[1]), MOON)
            if call.isdigit() and len(call) == 1:
                return _act(_BID, int(s[1]), int(call))
            raise IllegalAction(text, E_BID, "a call is PASS, 4 to 7 or MOON (got %r)" % call)
        if len(s) > 3 and s[0] == "D" and s[1].isdigit() and s[2] == ":":
            return _act(_DEAL, int(s[1]), _parse_tile(text, s[3:]))
        if s.startswith("W:"):
            return _act(_WIDOW, 0, _parse_tile(text, s[2:]))
        if s.startswith("X:"):
            return _act(_DISCARD, 0, _parse_tile(text, s[2:]))
        if "/" in s:
            body, suit = s.split("/", 1)
            if not (len(suit) == 1 and suit.isdigit()):
                raise IllegalAction(text, E_TILE, "a declared suit is one digit 0-6 (got %r)" % suit)
            return _act(_LEAD, int(suit) & 7, _parse_tile(text, body, False))
        return _act(_PLAY, 0, _parse_tile(text, s, False))

    def describe(self, action):
        text = self.action_str(action)
        kind, arg, tile = _fields(action)
        if kind == _BID:
            return "P%d passes" % arg if tile == PASS else "P%d bids %s" % (arg, bid_text(tile))
        if kind == _LEAD:
            return "P%d leads %s as a %d" % (self.current_player(), text.split("/")[0], arg)
        if kind == _PLAY:
            seat = self.current_player()
            if len(self.trick) < 2:
                return "P%d plays %s" % (seat, text)
            taker = self.trick_winner(self.trick + [(seat, tile)])
            return "P%d plays %s (P%d takes the trick)" % (seat, text, taker)
        if kind == _DISCARD:
            return "the bidder discards %s" % ("a tile face down" if text == "X:?" else text[2:])
        if kind == _KEEP:
            return "the bidder keeps the hand"
        if kind == _DEAL:
            tile = text[3:]
            return "P%d is dealt %s" % (arg, "a tile face down" if tile == "?" else tile)
        if kind == _WIDOW:
            return "the widow is dealt" + ("" if text == "W:?" else " (%s)" % text[2:])
        if kind == _TRUMP:
            return "the bidder plays without trumps" if arg == NO_TRUMP else "the bidder names %ds trumps" % arg
        return text


    # --- what the table asks (runtime/play_trick.py): named questions, never the attributes
    def last_trick(self):
        """``(winner, tricks it has taken this hand)`` of the trick just taken, while the next
        one is not begun; else None."""
        if self.trick or not self.trick_number or self.leader is None:
            return None
        return self.leader, self.tricks[self.leader]

    def in_tricks(self):
        """Whether the hand is in its tricks: the mover lays a tile on the trick zone."""
        return self.phase == _TRICKS


def _parse_tile(text, body, unknown_ok=True):
    if unknown_ok and body == "?":
        return UNKNOWN
    try:
        tile = parse_tile(body)
    except ValueError:
        raise IllegalAction(text, E_TILE, "not a tile: %r" % body)
    if tile > 0x66 or not _IN_SET[tile]:
        raise IllegalAction(text, E_TILE, "%s is not in the moon set" % tile_str(tile))
    return tile
