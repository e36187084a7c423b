"""The Texas 42 family (MORE-GAMES.md §4): four players in two sides, the full double-six set.

Seats 0 and 2 are side A, 1 and 3 side B. Each hand: 7 tiles each; one round of calls from
the shaker's left (30..41 points, or marks); the high bidder names trumps (a number, the
doubles, or follow-me) and leads; tricks of four, each won by the highest trump or else the
highest tile of the led suit (engine/suits.py, Moon's rules); a trick scores 1 and its count
tiles (``count_of``). A made bid gives the bidding side its marks, a set one
gives them to the opponents; the first side to 7 marks wins. The shake passes clockwise.

Canonical action text (what journals store)::

    D1:4-5  D1:?           deal a tile to seat 1 (``?``: dealt face down, identity unknown)
    B0:PASS B0:30 B0:M2    seat 0's call: a pass, a bid of 30 points, of 2 marks
    TRUMP4  DOUBLES  FOLLOWME   the bidder names trumps
    4-5                    play 4-5 (a lead makes its own suit: a trump, a double's number,
                           else the higher end)

Settled here (MORE-GAMES.md leaves them open, §X-6): the first shaker is seat 3, so that
seat 0 calls first (the supplement's vectors); a hand ends once the bid is decided
(``stop_when_decided``). Hidden hands are checked as Moon's are (engine/trick.py): a void
shown by an unscanned hand and contradicted later is reported in ``reneges``, not scored.
"""

from tiletable.engine.errors import E_BID, E_CHANCE, E_FOLLOW, E_NOT_HELD, E_OVER, E_PHASE, E_TILE, E_TURN, IllegalAction
from tiletable.engine.holdings import UNKNOWN
from tiletable.engine.state import CHANCE, TERMINAL, Outcome
from tiletable.engine.suits import DOUBLES, NO_TRUMP, follows, lead_suit, trick_winner
from tiletable.engine.tiles import named_set, parse_tile, tile_str
from tiletable.engine.trick_hands import TrickHands

TILES = named_set("d6")
FIRST_SHAKER = 3
MAX_MARKS = 10  # the highest mark bid offered: 7 opening marks raised three times

# A call is one number: 0 a pass, 30..41 a bid in points, MARKS + k a bid of k marks, PLUNGE
PASS = 0
MARKS = 100
PLUNGE = 250  # a bid of max(plunge_min_marks, the high bid's marks + 1) marks, partner to lead
# The optional contracts the bidder declares instead of trumps (the trump call's values beyond DOUBLES)
NELLO = 9
SEVENS = 10
HAND_POINTS = 42  # 7 tricks and 35 in count tiles
TRICKS = 7


def count_of(tile):
    """A tile's count: its pips when they are a positive multiple of 5 ([5|5], [4|6]: 10;
    [0|5], [1|4], [2|3]: 5), else 0."""
    pips = (tile >> 4) + (tile & 15)
    return pips if pips and pips % 5 == 0 else 0


def marks_at_stake(call):
    """Marks the hand is worth: 1 for a bid in points, k for a bid of k marks."""
    return call - MARKS if call > MARKS else 1


def verdict(call, bidders, opponents, bidders_tricks, opponents_tricks):
    """True when the bidding side has made ``call``, False when it is set, None while open;
    the sides' points (``bidders``, ``opponents``) and tricks so far.

    A bid of n points is made at n points and set when the opponents have more than 42 - n; a
    bid in marks needs every trick.

    >>> verdict(30, 30, 6, 5, 1), verdict(31, 30, 12, 5, 2), verdict(MARKS + 1, 23, 6, 3, 1)
    (True, False, False)
    """
    if call > MARKS:
        if opponents_tricks:
            return False
        return True if bidders_tricks == TRICKS else None
    if bidders >= call:
        return True
    if opponents > HAND_POINTS - call:
        return False
    return None


def call_text(call):
    """A call as the journal writes it: ``PASS``, ``30``, ``M2``, ``PLUNGE``."""
    if call == PASS:
        return "PASS"
    if call == PLUNGE:
        return "PLUNGE"
    if call > MARKS:
        return "M%d" % (call - MARKS)
    return str(call)


def call_words(call):
    """A call for people: ``passes``, ``bids 30``, ``bids 2 marks``."""
    if call == PASS:
        return "passes"
    if call == PLUNGE:
        return "plunges"
    if call > MARKS:
        marks = call - MARKS
        return "bids %d mark%s" % (marks, "" if marks == 1 else "s")
    return "bids %d" % call


def parse_call(word):
    """The call of ``call_text``'s word, or None when it is none."""
    if word == "PASS":
        return PASS
    if word == "PLUNGE":
        return PLUNGE
    if word[:1] == "M" and word[1:].isdigit() and 0 < int(word[1:]) < 100:
        return MARKS + int(word[1:])
    if word.isdigit() and len(word) == 2:
        return int(word)
    return None


# Action kinds: action = kind << 12 | arg << 8 | value (arg: a seat or a suit; value: a tile or a call)
_DEAL = 1
_BID = 2
_TRUMP = 3  # arg: a number 0..6, NO_TRUMP (follow-me), DOUBLES, NELLO or SEVENS
_PLAY = 4

# Phases of a hand.
_DEALING = 0
_AUCTION = 1
_TRUMPS = 2
_TRICKS = 3
_OVER = 4


def _act(kind, arg, value):
    return kind << 12 | arg << 8 | value


def _fields(action):
    """(kind, arg, value) of an action: the one place that reads the layout above."""
    return action >> 12, (action >> 8) & 15, action & 255


def player_counts(params):
    return (4,)


def side_of(seat):
    """0 for side A (seats 0 and 2), 1 for side B (seats 1 and 3)."""
    return seat % 2


class State(TrickHands):
    family = "fortytwo"
    TILES = TILES  # the set, for TrickHands

    def __init__(self, ruleset, players):
        super().__init__(ruleset, players)
        self.shaker = FIRST_SHAKER
        self.reneges = []
        self.last_hand = None  # (bidder, call, made, side points) of the last hand decided
        self._outcome = None
        self._start_hand()

    def _start_hand(self):
        self._new_hands(4)
        self.phase = _DEALING
        self._spoken = 0
        self.high_call = PASS
        self.bidder = None
        self.plunged = False  # the high bid is a plunge: the partner names trumps and leads
        self.trump = None  # a suit, NO_TRUMP, or the contract NELLO or SEVENS
        self.out_seat = None  # the nello bidder's partner, who sits the hand out
        self.points = [0, 0]  # per side: 1 a trick and the count it took
        self.side_tricks = [0, 0]
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
            return (self.shaker + 1 + self._spoken) % 4
        if phase == _TRICKS:
            seat = self.leader
            for _ in self.trick:
                seat = self._next_seat(seat)
            return seat
        return (self.bidder + 2) % 4 if self.plunged else self.bidder

    def _next_seat(self, seat):
        seat = (seat + 1) % 4
        return (seat + 1) % 4 if seat == self.out_seat else seat

    def outcome(self):
        return self._outcome

    def _suits(self):
        """(trump suit, doubles apart, doubles low) of the suit rules now: without trumps (follow-me,
        nello) the doubles follow ``nt_doubles`` (``nello_doubles``)."""
        trump = self.trump
        if trump is None or trump < NO_TRUMP or trump == DOUBLES:
            return trump, False, False
        doubles = self.ruleset.params["nello_doubles" if trump == NELLO else "nt_doubles"]
        return NO_TRUMP, doubles == "own_suit", doubles == "low"

    def follows(self, tile, suit):
        """True when the tile belongs to the suit (a trump belongs to the trump suit only)."""
        trump, apart, _ = self._suits()
        return follows(tile, suit, trump, apart)

    def lead_suit(self, tile):
        """The suit a lead of this tile makes (None under sevens: no suits)."""
        trump, apart, _ = self._suits()
        return None if self.trump == SEVENS else lead_suit(tile, trump, True, apart)

    def trick_winner(self, trick=None):
        """The seat winning the trick so far, or ``trick`` (``(seat, tile)`` pairs in play order,
        a trick of this hand: its first tile led). Under sevens: the tile nearest 7 pips, the first
        played of equals."""
        trick = self.trick if trick is None else trick
        if self.trump == SEVENS:
            best = None
            for seat, tile in trick:
                if best is None or _from_seven(tile) < _from_seven(best[1]):
                    best = (seat, tile)
            return best[0]
        trump, apart, low = self._suits()
        return trick_winner(trick, self.lead_suit(trick[0][1]), trump, apart, low)

    def chance_outcomes(self):
        if self.phase != _DEALING:
            return []
        seat = self._next_deal_seat()
        return [_act(_DEAL, seat, t) for t in TILES if not self._seen[t]]

    def _next_deal_seat(self):
        """Round the table from the shaker's left, one tile at a time."""
        best = None
        for step in range(1, 5):
            seat = (self.shaker + step) % 4
            size = self.hands[seat].size()
            if size < TRICKS and (best is None or size < self.hands[best].size()):
                best = seat
        return best

    def calls(self):
        """The calls the auction offers now, legal or not (``why_illegal`` decides): a pass, the
        point bids, and the mark bids up to ``MAX_MARKS``."""
        return [PASS] + list(range(30, 42)) + [MARKS + k for k in range(1, MAX_MARKS + 1)] + [PLUNGE]

    # --- legal actions ---------------------------------------------------------------------
    def generate_legal_actions(self):
        if self._outcome is not None:
            return []
        candidates = []
        phase = self.phase
        if phase == _DEALING:
            unseen = [t for t in TILES if not self._seen[t]] + [UNKNOWN]
            for seat in range(4):
                if self.hands[seat].size() < TRICKS:
                    candidates.extend(_act(_DEAL, seat, t) for t in unseen)
        elif phase == _AUCTION:
            seat = self.current_player()
            candidates = [_act(_BID, seat, call) for call in self.calls()]
        elif phase == _TRUMPS:
            candidates = [_act(_TRUMP, suit, 0) for suit in range(SEVENS + 1)]
        else:
            candidates = [_act(_PLAY, 0, t) for t in self._playable(self.current_player())]
        return sorted(a for a in candidates if self.why_illegal(a) is None)

    def why_illegal(self, action):
        if self._outcome is not None:
            return (E_OVER, "the match is over")
        if not isinstance(action, int) or action < 0:
            return (E_TILE, "not a 42 action: %r" % (action,))
        kind, arg, value = _fields(action)
        if kind in (_DEAL, _PLAY) and value != UNKNOWN and not _in_set(value):
            return (E_TILE, "%r is not a double-six tile" % value)
        if kind == _DEAL:
            return self._deal_problem(arg, value)
        if kind == _BID:
            return self._call_problem(arg, value)
        if kind == _TRUMP:
            return self._trump_problem(arg)
        if kind == _PLAY and value != UNKNOWN:
            return self._play_problem(value)
        return (E_TILE, "not a 42 action: %r" % action)

    def _deal_problem(self, seat, tile):
        if self.phase != _DEALING:
            return (E_PHASE, "the deal is over")
        if seat > 3:
            return (E_CHANCE, "no seat %d at a 4-player table" % seat)
        if self.hands[seat].size() >= TRICKS:
            return (E_CHANCE, "seat %d already holds %d tiles" % (seat, TRICKS))
        if tile != UNKNOWN and self._seen[tile]:
            return (E_CHANCE, "%s is already dealt" % tile_str(tile))
        return None

    def _call_problem(self, seat, call):
        if self.phase != _AUCTION:
            return (E_PHASE, "no auction now")
        speaker = self.current_player()
        if seat != speaker:
            return (E_TURN, "seat %d speaks now, not seat %d (each player speaks once)" % (speaker, seat))
        high = self.high_call
        params = self.ruleset.params
        if call == PLUNGE:
            return self._plunge_problem(seat)
        if call == PASS:
            if self._spoken == 3 and high == PASS and params["all_pass"] == "shaker_forced":
                return (E_BID, "the shaker must bid when the other three have passed")
            return None
        if call <= high:
            return (E_BID, "%s is not above the high bid %s" % (call_text(call), call_text(high)))
        if call < MARKS:
            if not 30 <= call <= 41:
                return (E_BID, "a bid in points is 30 to 41 (got %d)" % call)
            return None
        marks = call - MARKS
        if high <= MARKS:
            most = params["max_opening_marks"]
            if marks > most:
                return (E_BID, "the first bid in marks is at most %d marks (got %d)" % (most, marks))
        elif params["mark_raise"] == "one" and marks != high - MARKS + 1:
            return (E_BID, "after %d marks the only raise is %d marks" % (high - MARKS, high - MARKS + 1))
        if marks > MAX_MARKS:
            return (E_BID, "a bid is at most %d marks" % MAX_MARKS)
        return None

    def _plunge_problem(self, seat):
        params = self.ruleset.params
        if not params["plunge"]:
            return (E_BID, "plunge is not played (plunge=false)")
        if self.high_call == PASS and not params["plunge_opening"]:
            return (E_BID, "a plunge may not open the auction (plunge_opening=false)")
        doubles = len([t for t in self.hands[seat].known if t >> 4 == t & 15])
        if doubles < 4:
            return (E_BID, "a plunge needs 4 doubles in a scanned hand (P%d shows %d)" % (seat, doubles))
        if self._plunge_marks() > MAX_MARKS:
            return (E_BID, "a bid is at most %d marks" % MAX_MARKS)
        return None

    def _plunge_marks(self):
        high = self.high_call
        return max(self.ruleset.params["plunge_min_marks"], (high - MARKS if high > MARKS else 0) + 1)

    def _trump_problem(self, suit):
        if self.phase != _TRUMPS:
            return (E_PHASE, "trumps are named by the bidder once the auction is over")
        if suit > SEVENS:
            return (E_TILE, "not a trump: %d" % suit)
        if suit >= NELLO:
            name = "nello" if suit == NELLO else "sevens"
            if not self.ruleset.params[name]:
                return (E_PHASE, "%s is not played (%s=false)" % (name, name))
            if self.high_call < MARKS or self.plunged:
                return (E_PHASE, "%s follows a bid in marks (not a plunge), not %s" % (name, call_text(self.high_call)))
        return None

    def _play_problem(self, tile):
        if self.phase != _TRICKS:
            return (E_PHASE, "no trick is being played now")
        seat = self.current_player()
        hand = self.hands[seat]
        if not hand.holds(tile) and (self._seen[tile] or not hand.unknown):
            return (E_NOT_HELD, "%s is not in P%d's hand" % (tile_str(tile), seat))
        if self.trump == SEVENS:
            nearest = min([_from_seven(t) for t in hand.known] or [9])
            if _from_seven(tile) > nearest and not hand.unknown:
                return (E_FOLLOW, "sevens: play a tile nearest 7 pips (%d away)" % nearest)
        elif self.trick and not self.follows(tile, self.suit):
            for held in hand.known:
                if self.follows(held, self.suit):
                    return (E_FOLLOW, "must follow %s (P%d holds %s)" % (suit_name(self.suit), seat, tile_str(held)))
        return None

    # --- applying --------------------------------------------------------------------------
    def _apply(self, action):
        kind, arg, value = _fields(action)
        if kind == _DEAL:
            if value != UNKNOWN:
                self._seen[value] = 1
            self.hands[arg].add(value)
            if all(h.size() == TRICKS for h in self.hands):
                self.phase = _AUCTION
        elif kind == _BID:
            self._apply_call(arg, value)
        elif kind == _TRUMP:
            self.leader = self.current_player()  # the bidder, or a plunger's partner
            self.trump = arg
            self.phase = _TRICKS
            if arg == NELLO:
                self.out_seat = (self.bidder + 2) % 4
        else:
            self._seen[value] = 1
            self._apply_play(value)

    def _apply_call(self, seat, call):
        self._spoken += 1
        if call != PASS:
            self.plunged = call == PLUNGE
            self.high_call = MARKS + self._plunge_marks() if self.plunged else call
            self.bidder = seat
        if self._spoken < 4:
            return
        if self.bidder is None:  # everybody passed: reshuffle, the next player shakes
            self.shaker = (self.shaker + 1) % 4
            self.hand_number += 1
            self._start_hand()
        else:
            self.phase = _TRUMPS

    def _apply_play(self, tile):
        if not self.trick:
            self.suit = self.lead_suit(tile)
        self._lay(self.current_player(), tile)
        if len(self.trick) < (3 if self.out_seat is not None else 4):
            return
        winner = self.trick_winner()
        side = side_of(winner)
        self.side_tricks[side] += 1
        self.points[side] += 1 + sum(count_of(t) for _, t in self.trick)
        self.trick_number += 1
        self.leader = winner
        self.trick = []
        ours = side_of(self.bidder)
        if self.trump == NELLO:  # the bidder must take no trick
            made = False if self.side_tricks[ours] else (True if self.trick_number == TRICKS else None)
        else:
            made = verdict(self.high_call, self.points[ours], self.points[1 - ours], self.side_tricks[ours], self.side_tricks[1 - ours])
        if self.trick_number == TRICKS or (made is not None and self.ruleset.params["stop_when_decided"]):
            self._end_hand(made)

    def _end_hand(self, made):
        self._note_reneges()
        self.last_hand = (self.bidder, self.high_call, made, tuple(self.points))
        self._score_hand(made)
        target = self.ruleset.params["target"]
        for side in (0, 1):
            if self.scores[side] >= target:
                self.phase = _OVER
                self._outcome = Outcome("target", (side, side + 2), self.scores)
                return
        self.shaker = (self.shaker + 1) % 4
        self.hand_number += 1
        self._start_hand()

    def _score_hand(self, made):
        """The hand's marks to the side that made its bid, or to the opponents of a set one."""
        bidder, call = self.bidder, self.high_call
        ours = side_of(bidder)
        marks = marks_at_stake(call)
        if self.trump == NELLO and self.ruleset.params["nello_value"] == "one_mark":
            marks = 1
        winner = ours if made else 1 - ours
        contract = ""
        if self.plunged or self.trump >= NELLO:
            contract = " (%s)" % ("plunge" if self.plunged else trump_words(self.trump))
        detail = "P%d %s%s: %s with %d points to %d, %d mark%s" % (
            bidder, call_words(call), contract, "made" if made else "set", self.points[ours], self.points[1 - ours],
            marks, "" if marks == 1 else "s")
        rule = "made" if made else "set"
        self.award(winner, marks, rule, detail)
        self.award(winner + 2, marks, rule, "partner P%d: %s" % (winner, detail))

    # --- text ------------------------------------------------------------------------------
    def action_str(self, action):
        if not isinstance(action, int):
            return repr(action)
        kind, arg, value = _fields(action)
        if kind == _DEAL:
            return "D%d:%s" % (arg, "?" if value == UNKNOWN else tile_str(value))
        if kind == _BID:
            return "B%d:%s" % (arg, call_text(value))
        if kind == _TRUMP:
            return trump_text(arg)
        return tile_str(value)

    def parse_action(self, text):
        """Inverse of ``action_str``. :raises IllegalAction: ``E_TILE`` for text that is no 42 action."""
        s = text.strip().upper()
        for suit in range(SEVENS + 1):
            if s == trump_text(suit):
                return _act(_TRUMP, suit, 0)
        if len(s) > 3 and s[0] in "BD" and s[1].isdigit() and s[2] == ":":
            seat = int(s[1])
            if seat > 3:
                raise IllegalAction(text, E_TURN, "no seat %d at a 4-player table" % seat)
            if s[0] == "D":
                return _act(_DEAL, seat, _parse_tile(text, s[3:]))
            call = parse_call(s[3:])
            if call is None:
                raise IllegalAction(text, E_BID, "a call is PASS, 30 to 41 or M<marks> (got %r)" % s[3:])
            return _act(_BID, seat, call)
        return _act(_PLAY, 0, _parse_tile(text, s, False))

    def describe(self, action):
        kind, arg, value = _fields(action)
        if kind == _DEAL:
            return "P%d is dealt %s" % (arg, "a tile face down" if value == UNKNOWN else tile_str(value))
        if kind == _BID:
            return "P%d %s" % (arg, call_words(value))
        if kind == _TRUMP:
            return "P%d names %s" % (self.current_player(), trump_words(arg))
        seat = self.current_player()
        if len(self.trick) < (2 if self.out_seat is not None else 3):
            return "P%d plays %s" % (seat, tile_str(value))
        taker = self.trick_winner(self.trick + [(seat, value)])
        return "P%d plays %s (P%d takes the trick)" % (seat, tile_str(value), taker)

    # --- what the table and the PC ask (runtime/play_fortytwo.py, the host's view) ---------
    def last_trick(self):
        """``(winner, tricks its side has taken this hand)`` of the trick just taken, while the
        next one is not begun; else None."""
        if self.trick or not self.trick_number or self.leader is None:
            return None
        return self.leader, self.side_tricks[side_of(self.leader)]

    def in_tricks(self):
        """Whether the hand is in its tricks: the mover lays a tile on the trick zone."""
        return self.phase == _TRICKS


def trump_text(suit):
    """The journal's text of a trump call: ``TRUMP4``, ``DOUBLES``, ``FOLLOWME``, ``NELLO``, ``SEVENS``."""
    if suit < NO_TRUMP:
        return "TRUMP%d" % suit
    return ("FOLLOWME", "DOUBLES", "NELLO", "SEVENS")[suit - NO_TRUMP]


def trump_words(suit):
    """Trumps for people: ``4s trumps``, ``doubles trumps``, ``follow-me (no trumps)``."""
    if suit == DOUBLES:
        return "doubles trumps"
    if suit == NO_TRUMP:
        return "follow-me (no trumps)"
    if suit == NELLO:
        return "nello (the partner sits out)"
    if suit == SEVENS:
        return "sevens"
    return "%ds trumps" % suit


def suit_name(suit):
    return "the doubles" if suit == DOUBLES else "suit %d" % suit


def _from_seven(tile):
    """How far a tile's pips are from 7 (sevens)."""
    pips = (tile >> 4) + (tile & 15)
    return pips - 7 if pips > 7 else 7 - pips


def _in_set(tile):
    return (tile & 15) <= 6 and (tile >> 4) <= (tile & 15)


def _parse_tile(text, body, unknown_ok=True):
    if unknown_ok and body == "?":
        return UNKNOWN
    try:
        tile = parse_tile(body)
    except ValueError:
        raise IllegalAction(text, E_TILE, "not a tile: %r" % body)
    if not _in_set(tile):
        raise IllegalAction(text, E_TILE, "%s is not a double-six tile" % tile_str(tile))
    return tile
