"""The column family: the two-player column battle game of seed 001 (rule book §3.9, §4.3).

The 28 tiles ("cards") split into a private deck of 10 per player and a field deck of
8. Each round both players secretly put one hand card on each column (left, centre,
right) at once; column by column the better card takes the column's score pile. A
drawn column keeps its pile plus both battle cards, and two or more drawn columns
merge into one pile. The field refills to three columns, hands to four.

Canonical action text::

    D0:2-3  D0:?      seat 0 draws 2-3 from its private deck (``?``: not scanned)
    F:2-3             the field deck turns 2-3 up into the leftmost empty column
    A0:1-1,6-6,0-2    seat 0's cards for the left, centre and right columns; ``-`` for a
                      column that is empty (``A1:-,3-4,5-5``)

``current_player()`` is ``SIMULTANEOUS`` while the players assign. The first ASSIGN is
held face down (its cards leave the hand; ``pending`` keeps it); the second triggers the
battle. Field cards must be named (they are face up and scored); hands may be unscanned.

Settled ambiguities (parameters): ``compare`` follows the written rules (Appendix A),
``fig1_override`` takes Fig. 1's result for [1|6] against [0|6] instead (the 1-5/0-5
cell of Fig. 1 is a misprint either way); ``end`` is reading (a), the game ends after a
battle that leaves the field deck empty (U-001-3), or ``hands_empty``, play on while
cards and piles remain; piles left on the field are unclaimed; equal totals are a
draw (``Outcome.winners`` is empty).
"""

from tiletable.engine.errors import E_CHANCE, E_NOT_HELD, E_OVER, E_PHASE, E_TILE, E_TURN, IllegalAction
from tiletable.engine.holdings import UNKNOWN, Holding
from tiletable.engine.state import CHANCE, SIMULTANEOUS, TERMINAL, GameState, Outcome
from tiletable.engine.tiles import is_double, named_set, parse_tile, pips, tile_str

# The family contract (rulesets.py): PARAMS, PRESETS and check_params live in column_params,
# which validating a ruleset imports instead of this module.

PRIVATE_DECK = 10
FIELD_DECK = 8
HAND = 4
COLUMNS = 3
TILES = named_set("d6")
SLOT_NAMES = "LCR"
EMPTY = 126  # no card: the column is empty

# Action kinds: action = kind << 24 | seat << 21 | left << 14 | centre << 7 | right.
_DRAW = 1
_FIELD = 2
_ASSIGN = 3


def _deal(kind, seat, tile):
    """A ``_DRAW`` into seat's hand or a ``_FIELD`` card (seat 0)."""
    return kind << 24 | seat << 21 | tile


def _assign(seat, cards):
    return _ASSIGN << 24 | seat << 21 | cards[0] << 14 | cards[1] << 7 | cards[2]


def _fields(action):
    """(kind, seat, tile) of an action (an assignment's tile is its right-hand card): the one
    place besides ``_cards`` that reads the layout above."""
    return action >> 24, (action >> 21) & 7, action & 127


def _cards(action):
    return ((action >> 14) & 127, (action >> 7) & 127, action & 127)


WIN = 1
DRAW = 0
LOSS = -1
_BLANK = 0  # the tile [0|0]


def player_counts(params):
    return (2,)


def _sign(n):
    return (n > 0) - (n < 0)


def judge(me, opp):
    """``(result, rule)``: my card against the opponent's by the written rules, and which rule decided.

    Rules (§3.9): 1 a [0|0] draws; 2 two doubles, higher wins; 3 two [0|x], higher wins;
    4 [0|x] against [d|d], smaller of x and d wins; 5 a double beats a normal card unless
    the card contains its number; 6 [0|x] against a normal card, smaller total wins;
    7 two normal cards, higher total wins.

    >>> judge(0x66, 0x16)
    (-1, 5)
    """
    if me == _BLANK or opp == _BLANK:
        return DRAW, 1
    me_double, opp_double = is_double(me), is_double(opp)
    me_zero, opp_zero = me >> 4 == 0, opp >> 4 == 0
    if me_double and opp_double:
        return _sign(me - opp), 2
    if me_zero and opp_zero:
        return _sign(me - opp), 3
    if me_zero and opp_double:
        return _sign((opp & 15) - (me & 15)), 4
    if me_double and opp_zero:
        return _sign((opp & 15) - (me & 15)), 4
    if me_double:
        d = me & 15
        return (LOSS if (opp >> 4 == d or opp & 15 == d) else WIN), 5
    if opp_double:
        d = opp & 15
        return (WIN if (me >> 4 == d or me & 15 == d) else LOSS), 5
    if me_zero or opp_zero:
        return _sign(pips(opp) - pips(me)), 6
    return _sign(pips(me) - pips(opp)), 7


_FIG1_PAIR = (0x16, 0x06)  # Fig. 1 has [1|6] beating [0|6]; rule 6 says the reverse


def compare(me, opp, fig1_override=False):
    """My result (WIN 1, DRAW 0, LOSS -1) with card ``me`` against ``opp``.

    With ``fig1_override`` the one genuine Fig. 1 conflict, [1|6] against [0|6], goes
    the table's way (U-001-1).
    """
    if fig1_override and (me, opp) == _FIG1_PAIR:
        return WIN
    if fig1_override and (opp, me) == _FIG1_PAIR:
        return LOSS
    return judge(me, opp)[0]


class State(GameState):
    family = "column"

    def __init__(self, ruleset, players):
        super().__init__(ruleset, players)
        self._fig1 = ruleset.params["fig1_override"]
        self.hands = [Holding(), Holding()]
        self.decks = [PRIVATE_DECK, PRIVATE_DECK]  # cards left in each private deck
        self.field_deck = FIELD_DECK
        self.columns = [None, None, None]  # each a score pile (list of tiles) or None
        self.pending = None  # the first ASSIGN of the round, held face down
        self.last_battle = []  # (slot, card of seat 0, card of seat 1, result for seat 0)
        self.won = [[], []]  # score cards taken by each seat
        self.discards = []  # battle cards out of the game
        self._seen = bytearray(128)
        self._outcome = None
        self._refilling = True  # steps II and V: dealing until the field and hands are full

    # --- queries -------------------------------------------------------------------------
    def _needs_refill(self):
        if not self._refilling:
            return False
        if self.field_deck and None in self.columns:
            return True
        for seat in (0, 1):
            if self.decks[seat] and self.hands[seat].size() < HAND:
                return True
        return False

    def current_player(self):
        if self._outcome is not None:
            return TERMINAL
        if self._needs_refill():
            return CHANCE
        return SIMULTANEOUS

    def outcome(self):
        return self._outcome

    def assigned(self, seat):
        """Whether seat's assignment of this round is in (held face down until the other's)."""
        return self.pending is not None and _fields(self.pending)[1] == seat

    def pile_value(self, slot):
        return sum(pips(t) for t in self.columns[slot])

    def chance_outcomes(self):
        if self.current_player() != CHANCE:
            return []
        unseen = [t for t in TILES if not self._seen[t]]
        if self.field_deck and None in self.columns:
            return [_deal(_FIELD, 0, t) for t in unseen]
        seat = 0 if self.decks[0] and self.hands[0].size() < HAND else 1
        return [_deal(_DRAW, seat, t) for t in unseen]

    # --- legal actions ---------------------------------------------------------------------
    def generate_legal_actions(self):
        player = self.current_player()
        if player == TERMINAL:
            return
        if player == CHANCE:
            unseen = [t for t in TILES if not self._seen[t]]
            for seat in (0, 1):
                if self.decks[seat] and self.hands[seat].size() < HAND:
                    for t in unseen + [UNKNOWN]:
                        yield _deal(_DRAW, seat, t)
            if self.field_deck and None in self.columns:
                for t in unseen:
                    yield _deal(_FIELD, 0, t)
            return
        for seat in (0, 1):
            if self.assigned(seat):
                continue
            for action in self._assignments(seat):
                yield action

    def _assignments(self, seat):
        hand = self.hands[seat]
        pool = [t for t in TILES if hand.holds(t) or (hand.unknown and not self._seen[t])]
        slots = [slot for slot in range(COLUMNS) if self.columns[slot] is not None]
        chosen = [EMPTY, EMPTY, EMPTY]

        def fill(i):
            if i == len(slots):
                action = _assign(seat, chosen)
                if self._hand_problem(seat, chosen) is None:
                    yield action
                return
            for t in pool:
                if t not in chosen:
                    chosen[slots[i]] = t
                    for action in fill(i + 1):
                        yield action
            chosen[slots[i]] = EMPTY

        return fill(0)

    def why_illegal(self, action):
        if self._outcome is not None:
            return (E_OVER, "the game is over")
        if not isinstance(action, int) or action < 0:
            return (E_TILE, "not a column-game action: %r" % (action,))
        kind, seat, tile = _fields(action)
        refilling = self._needs_refill()
        if kind in (_DRAW, _FIELD) and not refilling:
            return (E_PHASE, "cards are dealt only before a round, until the field and hands are full")
        if kind == _DRAW:
            if seat > 1:
                return (E_CHANCE, "no seat %d in a 2-player game" % seat)
            if not self.decks[seat]:
                return (E_CHANCE, "seat %d's deck is empty" % seat)
            if self.hands[seat].size() >= HAND:
                return (E_CHANCE, "seat %d already holds %d cards" % (seat, HAND))
            return self._unseen_problem(tile, True)
        if kind == _FIELD:
            if not self.field_deck:
                return (E_CHANCE, "the field deck is empty")
            if None not in self.columns:
                return (E_CHANCE, "all three columns hold a pile")
            return self._unseen_problem(tile, False)
        if kind != _ASSIGN or seat > 1:
            return (E_TILE, "not a column-game action: %r" % action)
        if refilling:
            return (E_PHASE, "the field and hands are still being refilled")
        if self.assigned(seat):
            return (E_TURN, "seat %d has already assigned this round" % seat)
        return self._hand_problem(seat, _cards(action))

    def _unseen_problem(self, tile, unknown_ok):
        if tile == UNKNOWN:
            return None if unknown_ok else (E_TILE, "field cards are face up: name the card")
        if tile > 0x66 or tile not in TILES:
            return (E_TILE, "not a double-six tile: %r" % tile)
        if self._seen[tile]:
            return (E_CHANCE, "%s is already out" % tile_str(tile))
        return None

    def _hand_problem(self, seat, cards, taken=()):
        """Why ``seat``'s hand cannot give ``cards``; ``taken``: cards another assignment of the
        round gives first (out of the unseen pool, as though seen)."""
        hand = self.hands[seat]
        unseen_used = 0
        for slot in range(COLUMNS):
            card = cards[slot]
            if self.columns[slot] is None:
                if card != EMPTY:
                    return (E_PHASE, "column %s is empty: no card goes there" % SLOT_NAMES[slot])
                continue
            if card == EMPTY:
                return (E_PHASE, "column %s needs a card" % SLOT_NAMES[slot])
            if card > 0x66 or card not in TILES:
                return (E_TILE, "not a double-six tile: %r" % card)
            if cards.count(card) > 1:
                return (E_TILE, "%s is assigned twice" % tile_str(card))
            if not hand.holds(card):
                if self._seen[card] or card in taken:
                    return (E_NOT_HELD, "%s is not in seat %d's hand" % (tile_str(card), seat))
                unseen_used += 1
                if unseen_used > hand.unknown:
                    return (E_NOT_HELD, "%s is not in seat %d's hand" % (tile_str(card), seat))
        return None

    # --- applying --------------------------------------------------------------------------
    def _apply(self, action):
        kind, seat, tile = _fields(action)
        if kind == _DRAW:
            self.decks[seat] -= 1
            self.hands[seat].add(tile)
            if tile != UNKNOWN:
                self._seen[tile] = 1
        elif kind == _FIELD:
            self.field_deck -= 1
            self.columns[self.columns.index(None)] = [tile]
            self._seen[tile] = 1
        else:
            for card in _cards(action):
                if card != EMPTY:
                    self.hands[seat].remove(card)
                    self._seen[card] = 1
            if self.pending is None:
                self.pending = action
                return
            first, self.pending = self.pending, None
            if seat == 0:
                first, action = action, first
            self._battle(_cards(first), _cards(action))
            self._refilling = True
        if self._outcome is None and not self._needs_refill():
            self._refilling = False
            self._final_merge()

    def _battle(self, mine, theirs):
        """Step IV: every column at once; winners take piles, draws merge into one pile."""
        self.last_battle = []
        drawn = []
        for slot in range(COLUMNS):
            pile = self.columns[slot]
            if pile is None:
                continue
            me, opp = mine[slot], theirs[slot]
            if pile == [_BLANK]:
                result, rule = DRAW, "a [0|0] pile"
            else:
                result = compare(me, opp, self._fig1)
                rule = "rule %d" % judge(me, opp)[1] if result == judge(me, opp)[0] else "Fig. 1"
            self.last_battle.append((slot, me, opp, result))
            if result == DRAW:
                pile.append(me)
                pile.append(opp)
                drawn.append(slot)
                continue
            winner = 0 if result == WIN else 1
            value = self.pile_value(slot)
            self.won[winner].extend(pile)
            self.discards.append(me)
            self.discards.append(opp)
            best, worst = (me, opp) if winner == 0 else (opp, me)
            self.award(winner, value, "column", "%s: %s beats %s (%s), pile %s = %d" % (
                SLOT_NAMES[slot], tile_str(best), tile_str(worst), rule,
                "+".join(tile_str(t) for t in pile), value))
            self.columns[slot] = None
        for slot in drawn[1:]:
            self.columns[drawn[0]].extend(self.columns[slot])
            self.columns[slot] = None
        self._check_end()

    def _check_end(self):
        hands_empty = not self.hands[0].size() and not self.hands[1].size()
        if hands_empty:
            self._finish("hands_empty")
        elif not self.field_deck and self.ruleset.params["end"] == "field_deck_empty_after_battle":
            self._finish("field_deck_empty")
        elif not self.field_deck and self.columns == [None, None, None]:
            self._finish("field_empty")

    def _final_merge(self):
        """Each player down to one card facing two or more columns: one last battle on one pile."""
        occupied = [slot for slot in range(COLUMNS) if self.columns[slot] is not None]
        if len(occupied) < 2 or self.hands[0].size() != 1 or self.hands[1].size() != 1:
            return
        for slot in occupied[1:]:
            self.columns[occupied[0]].extend(self.columns[slot])
            self.columns[slot] = None

    def _finish(self, termination):
        a, b = self.scores
        winners = () if a == b else ((0,) if a > b else (1,))
        self._outcome = Outcome(termination, winners, self.scores)

    # --- text ------------------------------------------------------------------------------
    def action_str(self, action):
        if not isinstance(action, int):
            return repr(action)
        kind, seat, tile = _fields(action)
        if kind == _DRAW:
            return "D%d:%s" % (seat, "?" if tile == UNKNOWN else tile_str(tile))
        if kind == _FIELD:
            return "F:" + tile_str(tile)
        return "A%d:%s" % (seat, ",".join("-" if c == EMPTY else tile_str(c) for c in _cards(action)))

    def parse_action(self, text):
        """Inverse of ``action_str``. :raises IllegalAction: ``E_TILE`` for text that is no action."""
        s = text.strip().upper()
        if len(s) < 3 or s[0] not in "DFA":
            raise IllegalAction(text, E_TILE, "not a column-game action")
        if s[0] == "F":
            if s[1] != ":":
                raise IllegalAction(text, E_TILE, "not a column-game action")
            return _deal(_FIELD, 0, _parse_card(text, s[2:], False))
        if not (s[1] in "01" and s[2] == ":"):
            raise IllegalAction(text, E_TILE, "a seat is 0 or 1 in a 2-player game")
        seat = int(s[1])
        if s[0] == "D":
            return _deal(_DRAW, seat, _parse_card(text, s[3:], True))
        parts = s[3:].split(",")
        if len(parts) != COLUMNS:
            raise IllegalAction(text, E_TILE, "an assignment names 3 columns, '-' for an empty one")
        return _assign(seat, [EMPTY if p == "-" else _parse_card(text, p, False) for p in parts])

    def describe(self, action):
        text = self.action_str(action)
        kind, seat, _ = _fields(action)
        if kind == _ASSIGN:
            return "P%d assigns %s" % (seat, text[3:])
        if kind == _FIELD:
            return "the field turns up %s" % text[2:]
        return "P%d draws %s" % (seat, "a card unseen" if text[3:] == "?" else text[3:])


    # --- what the table asks (runtime/play_column.py): named questions, never the attributes
    def has_pile(self, slot):
        """Whether column ``slot`` holds a pile (an empty column takes no card)."""
        return self.columns[slot] is not None

    def refused_assignment(self, actions):
        """``(index, (code, reason))`` of the first of ``actions``, assignments laid at the same
        time, that is refused, each checked as though those before it were made; None when all
        may be. Asked without playing them."""
        taken = []
        for i in range(len(actions)):
            problem = self.why_illegal(actions[i])
            if problem is None and taken:
                problem = self._hand_problem(_fields(actions[i])[1], _cards(actions[i]), taken)
            if problem is not None:
                return i, problem
            taken.extend(_cards(actions[i]))
        return None

def _parse_card(text, body, unknown_ok):
    if unknown_ok and body == "?":
        return UNKNOWN
    try:
        tile = parse_tile(body)
    except ValueError:
        raise IllegalAction(text, E_TILE, "not a tile: %r" % body)
    if tile > 0x66 or tile not in TILES:
        raise IllegalAction(text, E_TILE, "%s is not a double-six tile" % tile_str(tile))
    return tile
