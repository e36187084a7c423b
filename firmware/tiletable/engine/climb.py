"""The climbing family: Da San, "Big Three" (rule book §3.11, §4.4).

Three players, 52 cards, play counter-clockwise: the next player is the seat to the
right, ``(seat - 1) % 3``. A cut picks the first dealer; cards are taken one at a time
from the dealer round to the right, 16 each and a kitty of 4. The holder of the four of
hearts (else the lowest heart) must open the auction with 1, 2 or 3; the high bidder
takes the kitty and plays alone against the other two; the opener leads. A
combination beats only one of the same type and size with a higher (top) rank
(engine/climb_combos.py). The first player out ends the hand and chips change hands; the
winner deals next.

Canonical action text::

    C0:H4              seat 0 cuts the four of hearts (choosing the first dealer)
    D2:SA   D2:?       a card taken by seat 2 (``?``: not scanned)
    K:S3    K:?        a kitty card
    O1:H6              seat 1 shows the lowest heart it holds to open (needed only when
                       the table cannot tell the opener from scanned cards)
    B1:2    B1:PASS    seat 1's call in the auction
    H4+S4   C9+D10+SJ  a combination: its cards by rank then suit, joined by ``+``
    PASS               pass in the card play

A combination action is the sorted tuple of its card ids (hashable); PASS is ``()``.
Hands are never fully scanned at a table, so live checks are the combination, that it
beats the last one, and hand sizes; cards shown before must not reappear.

Settled ambiguities (parameters): the forced-bid house rule of the seed (a win by a
forced 1 collects 2 from each, a loss pays 1 each) is ``forced_bid_house_rule``; a
match ends after ``hands`` hands or when a player's stack (``chips`` plus winnings)
reaches 0 (U-003-4); the kitty is not shown (U-003-3); cut ties redraw among the tied
players, with cards not drawn before in the cut.
"""

from tiletable.engine.cards import HEARTS, card, card_str, parse_card, rank_of
from tiletable.engine.climb_combos import beat_problem, classify, combo_name, combo_str, generate_combinations
from tiletable.engine.errors import (
    E_BID,
    E_CHANCE,
    E_COMBO,
    E_MUST_PLAY,
    E_NOT_HELD,
    E_OVER,
    E_PHASE,
    E_TILE,
    E_TURN,
    IllegalAction,
)
from tiletable.engine.holdings import UNKNOWN, Holding
from tiletable.engine.state import CHANCE, TERMINAL, GameState, Outcome

# The family contract (rulesets.py): PARAMS, PRESETS and check_params live in climb_params,
# which validating a ruleset imports instead of this module.

HAND = 16
KITTY = 4
PASS = ()
HEARTS_BY_RANK = tuple(card(HEARTS, rank) for rank in (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2, 3))  # who opens

# Action kinds for the non-play actions: action = kind << 9 | seat << 7 | card.
_CUT = 1
_DEAL = 2
_KITTY = 3
_SHOW = 4
_BID = 5  # card field holds the call: 0 pass, 1..3

# Phases.
_CUTTING = 0
_DEALING = 1
_SHOWING = 2
_AUCTION = 3
_PLAY = 4
_OVER = 5


def _act(kind, seat, item):
    return kind << 9 | seat << 7 | item


def _fields(action):
    """(kind, seat, item) of a non-play action: the one place that reads the layout above."""
    return action >> 9, (action >> 7) & 3, action & 127


def player_counts(params):
    return (3,)


def cut_value(c):
    """A card's value in the cut for the first dealer: A 1, pictures 0, others their number."""
    rank = rank_of(c)
    return 0 if rank > 10 else rank


def settlement(bidder, bid, winner, forced_house=False):
    """The chip moves of a hand, ``[(seat, points, detail)]``, zero-sum.

    The bidder out first collects the bid from each opponent; an opponent out first
    makes the bidder pay the bid to each. With the seed's house rule for a forced 1
    nobody overcalled (``forced_house``), a win collects 2 from each, a loss pays 1 each.

    >>> settlement(0, 2, 1)[:2]
    [(0, -2, 'P1 out first: bidder P0 pays P1 the bid 2'), (1, 2, 'P1 out first: bidder P0 pays P1 the bid 2')]
    """
    moves = []
    for seat in range(3):
        if seat == bidder:
            continue
        if winner == bidder:
            amount = 2 if forced_house else bid
            why = "bidder P%d out first: P%d pays %s" % (
                bidder, seat, "2 (forced bid won)" if forced_house else "the bid %d" % amount)
            moves.append((seat, -amount, why))
            moves.append((bidder, amount, why))
        else:
            amount = 1 if forced_house else bid
            why = "P%d out first: bidder P%d pays P%d %s" % (
                winner, bidder, seat, "1 (forced bid lost)" if forced_house else "the bid %d" % amount)
            moves.append((bidder, -amount, why))
            moves.append((seat, amount, why))
    return moves


class State(GameState):
    family = "climb"

    def __init__(self, ruleset, players):
        super().__init__(ruleset, players)
        self.dealer = None
        self.phase = _CUTTING
        self._contenders = [0, 1, 2]
        self._cut = {}  # seat -> card in this round of the cut
        self._cut_seen = bytearray(52)
        self._outcome = None
        self._start_hand()

    def _start_hand(self):
        self.hands = [Holding() for _ in range(3)]
        self.kitty = []
        self._seen = bytearray(128)
        self.opener = None
        self.bidder = None
        self.bid = 0
        self._speaker = None
        self._passes = 0
        self._opened = False
        self.turn = None
        self.last = None  # classify() of the combination to beat, None when leading
        self.last_cards = PASS
        self.last_player = None
        self.cards_played = 0
        if self.dealer is not None:
            self.phase = _DEALING

    @staticmethod
    def next_seat(seat):
        """Counter-clockwise: the player on the right."""
        return (seat + 2) % 3

    # --- queries -------------------------------------------------------------------------
    def current_player(self):
        phase = self.phase
        if phase == _OVER:
            return TERMINAL
        if phase in (_CUTTING, _DEALING, _SHOWING):
            return CHANCE
        if phase == _AUCTION:
            return self._speaker
        return self.turn

    def outcome(self):
        return self._outcome

    def chance_outcomes(self):
        phase = self.phase
        if phase == _CUTTING:
            seat = [s for s in self._contenders if s not in self._cut][0]
            return [_act(_CUT, seat, c) for c in range(52) if not self._cut_seen[c]]
        if phase == _DEALING:
            unseen = [c for c in range(52) if not self._seen[c]]
            seat = self._next_deal_seat()
            if seat is None:
                return [_act(_KITTY, 0, c) for c in unseen]
            return [_act(_DEAL, seat, c) for c in unseen]
        if phase == _SHOWING:
            return list(self.generate_legal_actions())
        return []

    def _next_deal_seat(self):
        """The sequential deal: the dealer first, then round to the right; None: the kitty."""
        best, seat = None, self.dealer
        for _ in range(3):
            size = self.hands[seat].size()
            if size < HAND and (best is None or size < self.hands[best].size()):
                best = seat
            seat = self.next_seat(seat)
        return best

    def _find_opener(self):
        """The seat known to open, or None when an unscanned heart leaves it open."""
        for heart in HEARTS_BY_RANK:
            for seat in range(3):
                if self.hands[seat].holds(heart):
                    return seat
            if heart not in self.kitty:
                return None
        return None

    # --- legal actions ---------------------------------------------------------------------
    def generate_legal_actions(self):
        if self._outcome is not None:
            return
        phase = self.phase
        if phase == _CUTTING:
            for seat in self._contenders:
                if seat not in self._cut:
                    for c in range(52):
                        if not self._cut_seen[c]:
                            yield _act(_CUT, seat, c)
        elif phase == _DEALING:
            unseen = [c for c in range(52) if not self._seen[c]] + [UNKNOWN]
            for seat in range(3):
                if self.hands[seat].size() < HAND:
                    for c in unseen:
                        yield _act(_DEAL, seat, c)
            if len(self.kitty) < KITTY:
                for c in unseen:
                    yield _act(_KITTY, 0, c)
        elif phase == _SHOWING:
            for seat in range(3):
                for heart in HEARTS_BY_RANK:
                    if self._show_problem(seat, heart) is None:
                        yield _act(_SHOW, seat, heart)
        elif phase == _AUCTION:
            for call in range(4):
                action = _act(_BID, self._speaker, call)
                if self._call_problem(self._speaker, call) is None:
                    yield action
        else:
            if self.last is not None:
                yield PASS
            hand = self.hands[self.turn]
            if not hand.unknown:
                for cards in generate_combinations(hand.known, self.last):
                    yield cards
                return
            pool = [c for c in range(52) if hand.holds(c) or not self._seen[c]]
            for cards in generate_combinations(pool, self.last):
                if self._held_problem(self.turn, cards) is None:
                    yield cards

    def why_illegal(self, action):
        if self._outcome is not None:
            return (E_OVER, "the match is over")
        if isinstance(action, tuple):
            return self._play_problem(action, self.turn, self.last)
        if not isinstance(action, int) or action < 0:
            return (E_TILE, "not a da san action: %r" % (action,))
        kind, seat, item = _fields(action)
        if seat > 2:
            return (E_TURN, "no seat %d at a 3-player table" % seat)
        if item != UNKNOWN and item >= 52 and kind != _BID:
            return (E_TILE, "not a card: %d" % item)
        if kind == _CUT:
            if self.phase != _CUTTING:
                return (E_PHASE, "the first dealer is already chosen")
            if seat not in self._contenders or seat in self._cut:
                return (E_TURN, "seat %d does not cut now" % seat)
            if item == UNKNOWN or self._cut_seen[item]:
                return (E_CHANCE, "cut cards are shown and not drawn twice")
            return None
        if kind in (_DEAL, _KITTY):
            if self.phase != _DEALING:
                return (E_PHASE, "no deal now")
            if kind == _DEAL and self.hands[seat].size() >= HAND:
                return (E_CHANCE, "seat %d already holds %d cards" % (seat, HAND))
            if kind == _KITTY and len(self.kitty) >= KITTY:
                return (E_CHANCE, "the kitty already holds %d cards" % KITTY)
            if item != UNKNOWN and self._seen[item]:
                return (E_CHANCE, "%s is already dealt" % card_str(item))
            return None
        if kind == _SHOW:
            if self.phase != _SHOWING:
                return (E_PHASE, "the opener is known: nothing to show")
            return self._show_problem(seat, item)
        if kind == _BID:
            if self.phase != _AUCTION:
                return (E_PHASE, "no auction now")
            return self._call_problem(seat, item)
        return (E_TILE, "not a da san action: %r" % action)

    def _show_problem(self, seat, heart):
        if heart == UNKNOWN or heart // 13 != HEARTS:
            return (E_TILE, "the opener shows a heart")
        hand = self.hands[seat]
        if not hand.holds(heart) and (self._seen[heart] or not hand.unknown):
            return (E_NOT_HELD, "%s is not in P%d's hand" % (card_str(heart), seat))
        for lower in HEARTS_BY_RANK:
            if lower == heart:
                return None
            for other in range(3):
                if self.hands[other].holds(lower):
                    return (E_BID, "P%d holds the lower %s and opens" % (other, card_str(lower)))
        return None

    def _call_problem(self, seat, call):
        if seat != self._speaker:
            return (E_TURN, "seat %d speaks now, not seat %d" % (self._speaker, seat))
        if call == 0:
            if not self._opened:
                return (E_BID, "the opener must bid 1, 2 or 3")
            return None
        if not 1 <= call <= 3:
            return (E_BID, "a bid is 1, 2 or 3 (got %d)" % call)
        if call <= self.bid:
            return (E_BID, "bid %d is not above the high bid %d" % (call, self.bid))
        return None

    def _held_problem(self, seat, cards):
        hand = self.hands[seat]
        if len(cards) > hand.size():
            return (E_NOT_HELD, "P%d holds only %d cards" % (seat, hand.size()))
        unseen_used = 0
        for c in cards:
            if not hand.holds(c):
                if self._seen[c]:
                    return (E_NOT_HELD, "%s is not in P%d's hand" % (card_str(c), seat))
                unseen_used += 1
        if unseen_used > hand.unknown:
            return (E_NOT_HELD, "P%d does not hold %s" % (seat, combo_str(cards)))
        return None

    def _play_problem(self, cards, seat, last):
        """Why ``seat`` may not play ``cards`` against ``last`` (None: a lead)."""
        if self.phase != _PLAY:
            return (E_PHASE, "no card play now")
        if not cards:
            if last is None:
                return (E_MUST_PLAY, "the leader must play a combination")
            return None
        for i in range(len(cards)):
            c = cards[i]
            if not isinstance(c, int) or not 0 <= c < 52:
                return (E_TILE, "not a card: %r" % (c,))
            if i and c <= cards[i - 1]:
                return (E_TILE, "a combination lists distinct cards in order")
        kind = classify(cards)
        if kind is None:
            return (E_COMBO, "%s is not a combination" % combo_str(cards))
        if last is not None:
            problem = beat_problem(kind, last)
            if problem:
                return (E_COMBO, problem)
        return self._held_problem(seat, cards)

    # --- applying --------------------------------------------------------------------------
    def _apply(self, action):
        if isinstance(action, tuple):
            self._apply_play(action)
            return
        kind, seat, item = _fields(action)
        if kind == _CUT:
            self._apply_cut(seat, item)
        elif kind == _DEAL or kind == _KITTY:
            if item != UNKNOWN:
                self._seen[item] = 1
            if kind == _DEAL:
                self.hands[seat].add(item)
            else:
                self.kitty.append(item)
            if len(self.kitty) == KITTY and all(h.size() == HAND for h in self.hands):
                self.opener = self._find_opener()
                self.phase = _SHOWING if self.opener is None else _AUCTION
                self._speaker = self.opener
        elif kind == _SHOW:
            hand = self.hands[seat]
            if not hand.holds(item):
                hand.unknown -= 1
                hand.known.append(item)
                self._seen[item] = 1
            self.opener = seat
            self.phase = _AUCTION
            self._speaker = self.opener
        else:
            self._apply_call(seat, item)

    def _apply_cut(self, seat, c):
        self._cut[seat] = c
        self._cut_seen[c] = 1
        if len(self._cut) < len(self._contenders):
            return
        best = max(cut_value(x) for x in self._cut.values())
        self._contenders = [s for s in self._contenders if cut_value(self._cut[s]) == best]
        self._cut = {}
        if len(self._contenders) == 1:
            self.dealer = self._contenders[0]
            self.phase = _DEALING

    def _apply_call(self, seat, call):
        if call:
            self.bid = call
            self.bidder = seat
            self._passes = 0
        else:
            self._passes += 1
        self._opened = True
        if call == 3 or self._passes == 2:
            for c in self.kitty:
                self.hands[self.bidder].add(c)
            self.kitty = []
            self.phase = _PLAY
            self.turn = self.opener
            self._passes = 0
        else:
            self._speaker = self.next_seat(seat)

    def _apply_play(self, cards):
        seat = self.turn
        if not cards:
            self._passes += 1
            if self._passes == 2:  # everyone else passed: the last player takes the trick and leads
                self.turn = self.last_player
                self.last = None
                self.last_cards = PASS
                self._passes = 0
            else:
                self.turn = self.next_seat(seat)
            return
        hand = self.hands[seat]
        for c in cards:
            hand.remove(c)
            self._seen[c] = 1
        self.cards_played += len(cards)
        self.last = classify(cards)
        self.last_cards = cards
        self.last_player = seat
        self._passes = 0
        if hand.size():
            self.turn = self.next_seat(seat)
        else:
            self._end_hand(seat)

    def _end_hand(self, winner):
        forced = self.ruleset.params["forced_bid_house_rule"] and self.bid == 1
        for seat, points, detail in settlement(self.bidder, self.bid, winner, forced):
            self.award(seat, points, "settle", detail)
        params = self.ruleset.params
        if params["hands"] and self.hand_number + 1 >= params["hands"]:
            self._finish("hands")
        elif params["chips"] and min(self.scores) + params["chips"] <= 0:
            self._finish("chips")
        else:
            self.dealer = winner
            self.hand_number += 1
            self._start_hand()

    def _finish(self, termination):
        best = max(self.scores)
        self.phase = _OVER
        self._outcome = Outcome(termination, [s for s in range(3) if self.scores[s] == best], self.scores)

    # --- text ------------------------------------------------------------------------------
    def action_str(self, action):
        if isinstance(action, tuple):
            return combo_str(action)
        kind, seat, item = _fields(action)
        text = "?" if item == UNKNOWN else (card_str(item) if item < 52 else str(item))
        if kind == _CUT:
            return "C%d:%s" % (seat, text)
        if kind == _DEAL:
            return "D%d:%s" % (seat, text)
        if kind == _KITTY:
            return "K:" + text
        if kind == _SHOW:
            return "O%d:%s" % (seat, text)
        return "B%d:%s" % (seat, "PASS" if item == 0 else str(item))

    def parse_action(self, text):
        """Inverse of ``action_str``. :raises IllegalAction: ``E_TILE`` for text that is no Da San action."""
        s = text.strip().upper()
        if s == "PASS":
            return PASS
        if len(s) > 3 and s[0] in "CDOB" and s[1].isdigit() and s[2] == ":":
            seat = int(s[1])
            if seat > 2:
                raise IllegalAction(text, E_TURN, "no seat %d at a 3-player table" % seat)
            body = s[3:]
            if s[0] == "B":
                if body == "PASS":
                    return _act(_BID, seat, 0)
                if len(body) == 1 and body.isdigit():
                    return _act(_BID, seat, int(body))
                raise IllegalAction(text, E_BID, "a call is PASS, 1, 2 or 3 (got %r)" % body)
            kind = {"C": _CUT, "D": _DEAL, "O": _SHOW}[s[0]]
            return _act(kind, seat, _parse_one(text, body, kind == _DEAL))
        if s.startswith("K:"):
            return _act(_KITTY, 0, _parse_one(text, s[2:], True))
        cards = sorted(_parse_one(text, part, False) for part in s.split("+"))
        for i in range(1, len(cards)):
            if cards[i] == cards[i - 1]:
                raise IllegalAction(text, E_TILE, "%s twice" % card_str(cards[i]))
        return tuple(cards)

    def describe(self, action):
        if isinstance(action, tuple):
            if not action:
                if self._passes == 1:  # the second pass in a row ends the round
                    return "P%d passes (P%d takes the trick and leads)" % (self.turn, self.last_player)
                return "P%d passes" % self.turn
            kind = classify(action)
            name = combo_name(kind) if kind else "no combination"
            return "P%d plays %s (%s)" % (self.turn, combo_str(action), name)
        text = self.action_str(action)
        kind, seat, _ = _fields(action)
        item = text.split(":")[1]
        if kind == _BID:
            return "P%d passes" % seat if item == "PASS" else "P%d bids %s" % (seat, item)
        if kind == _CUT:
            return "P%d cuts %s" % (seat, item)
        if kind == _SHOW:
            return "P%d shows %s and opens the auction" % (seat, item)
        unseen = "a card face down" if item == "?" else item
        if kind == _KITTY:
            return "the kitty gets " + unseen
        return "P%d is dealt %s" % (seat, unseen)


    # --- what the table asks (runtime/play_climb.py): named questions, never the attributes
    def passes_before_lead(self, seat):
        """How many seats must pass before ``seat`` leads: nonzero only while the play to beat
        is its own (it cannot beat itself, so cards it lays now mean a new lead)."""
        if self.phase != _PLAY or self.last is None or self.last_player != seat:
            return 0
        count = 0
        waiting = self.turn
        while waiting != seat:
            count += 1
            waiting = self.next_seat(waiting)
        return count

    def lead_problem(self, seat, cards):
        """Why ``seat`` may not lead ``cards`` (a tuple) once the others passed; None when it
        may. Asked without playing the passes."""
        return self._play_problem(cards, seat, None)

def _parse_one(text, body, unknown_ok):
    if unknown_ok and body == "?":
        return UNKNOWN
    try:
        return parse_card(body)
    except ValueError:
        raise IllegalAction(text, E_TILE, "not a card: %r" % body)
