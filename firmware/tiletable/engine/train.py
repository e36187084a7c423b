"""The Mexican Train family (MORE-GAMES.md §5): a double-twelve set, a train per seat and the
public Mexican train, markers, the open-double rule, 13 rounds, lowest total wins.

Round r's engine [k|k] (k = engine_max + 1 - r) is set aside in the hub before the deal; the
other tiles are dealt seat by seat from seat 0 and the rest is the boneyard. Seat (r - 1) mod N
plays first. Trains 0..N-1 are the seats' own, train N (``mexican(N)``) the Mexican train;
every train is empty at the start and open at k.

Canonical action text (what journals store)::

    5-9>T0  4-12>M     play a tile on seat 0's train, on the Mexican train
    draw  pass  end    draw one tile; pass (empty boneyard); end a first-turn run
    D2:5-6  D2:?       chance: seat 2 receives 5-6 (deal or draw); ``?`` a tile it did not show
    R2:5-6             chance: seat 2 shows 5-6 left in its hand when the round is over

Settled here where the supplement is open (§X-8, X-9; each is a parameter or noted): a drawn tile
that fits must be played; every failure to play or cover puts the seat's marker on its train;
equal lowest totals share the win; under ``pagat_free_second`` open doubles queue and are
covered oldest first; a tile drawn on a first turn under ``first_turn=run`` ends that turn.
Hands the table does not read: a seat holding unseen tiles may play any unseen tile, draw or
pass; its tiles left are shown (``R``) before the round is scored.
"""

from tiletable.engine.errors import (
    E_CHANCE, E_MUST_PLAY, E_NO_DRAW, E_NO_MATCH, E_NOT_HELD, E_OVER, E_PHASE, E_TILE, E_TURN, IllegalAction,
)
from tiletable.engine.holdings import UNKNOWN, Holding
from tiletable.engine.state import CHANCE, TERMINAL, GameState, Outcome
from tiletable.engine.tiles import has, is_double, other, parse_tile, pips, tile, tile_set, tile_str

# Deal sizes by players 2..8 (index players - 2), per ``deal`` parameter
DEALS = {
    "standard": (15, 15, 15, 12, 12, 10, 10),
    "celko": (15, 15, 15, 12, 12, 11, 11),
    "pagat_copy": (15, 15, 15, 11, 11, 10, 10),
    "sliding": (16, 15, 14, 13, 12, 11, 10),
}

# Action layout: kind << 16 | seat << 12 | train << 8 | tile (a tile id 0..204, UNKNOWN unseen)
K_PLAY = 0
K_DRAW = 1
K_PASS = 2
K_END = 3  # ends a first-turn run
K_DEAL = 4  # chance: a tile to a seat, dealt or drawn
K_REVEAL = 5  # chance: a tile left in a hand, shown for the score

DRAW = K_DRAW << 16
PASS = K_PASS << 16
END_TURN = K_END << 16

# Phases of a round
P_DEAL = 0
P_PLAY = 1  # the current seat plays, draws, passes (or ends its run)
P_DRAWN = 2  # the current seat has asked to draw: the drawn tile is chance's
P_PLAY_DRAWN = 3  # the drawn tile fits: the seat must play it
P_REVEAL = 4  # the round is over; unseen tiles left in hands are shown
P_OVER = 5

# Where a tile is (``State.loc``, indexed by tile id)
LOC_FREE = 0  # the boneyard, or a hand that has not shown it
LOC_HAND = 1  # in a hand that showed it
LOC_LAID = 2  # in the hub or on a train


def play_action(t, train):
    """Lay tile ``t`` on train ``train`` (a seat's, or ``mexican(players)``)."""
    return train << 8 | t


def deal_action(seat, t):
    """Chance: seat receives tile ``t`` (``UNKNOWN`` when it does not show it)."""
    return K_DEAL << 16 | seat << 12 | t


def reveal_action(seat, t):
    """Chance: seat shows tile ``t`` left in its hand at the round's end."""
    return K_REVEAL << 16 | seat << 12 | t


def fields(action):
    """(kind, seat, train, tile) of an action: the one place that reads the layout above."""
    return action >> 16, (action >> 12) & 15, (action >> 8) & 15, action & 255


def mexican(players):
    """The Mexican train's number: the trains after the seats' own."""
    return players


def deal_size(params, players):
    return DEALS[params["deal"]][players - 2]


def player_counts(params):
    """2 up to ``max_players``, as far as the set leaves a tile to deal (a double-six set deals 2)."""
    tiles = (params["engine_max"] + 1) * (params["engine_max"] + 2) // 2 - 1
    return tuple(n for n in range(2, params["max_players"] + 1) if n * deal_size(params, n) <= tiles)


def round_engine(params, round_number):
    """The engine value k of round ``round_number`` (from 1): [12|12] first, down by one a round."""
    return params["engine_max"] + 1 - round_number


def first_seat(round_number, players):
    """Who plays first in a round: seat (r - 1) mod N, the start passing left each round."""
    return (round_number - 1) % players


def hand_value(hand_tiles, double_blank):
    """Pips left in a hand, [0|0] counting ``double_blank``."""
    return sum(double_blank if t == 0 else pips(t) for t in hand_tiles)


class State(GameState):
    """A Mexican Train match. What a table or view reads: ``round``, ``engine``, ``trains``
    (tiles laid, hub outward), ``open_values``, ``markers``, ``open_doubles`` ((train, value,
    seat) oldest first), ``hands`` (``Holding``), ``boneyard``, ``out`` (seats out under
    ``last_double=cover_first``), ``scores`` (totals), ``last_round``."""

    family = "train"
    lowest_wins = True  # points are pips left in hand: a simulation's greedy player avoids them

    def __init__(self, ruleset, players):
        super().__init__(ruleset, players)
        params = ruleset.params
        self.tiles = tile_set(params["engine_max"])
        self.deal = deal_size(params, players)
        self.run_first_turn = params["first_turn"] == "run"
        self.round = 1
        self.last_round = None  # (how it ended: "out" or "blocked", seat out or None, pips a seat)
        self._outcome = None
        self._start_round()

    def _start_round(self):
        n = self.players
        self.engine = round_engine(self.ruleset.params, self.round)
        self.loc = bytearray(256)
        self.loc[tile(self.engine, self.engine)] = LOC_LAID
        self.hands = [Holding() for _ in range(n)]
        self.boneyard = len(self.tiles) - 1
        self.trains = [[] for _ in range(n + 1)]
        self.open_values = [self.engine] * (n + 1)
        self.markers = [False] * n
        self.open_doubles = []
        self.out = [False] * n
        self.first_done = [False] * n  # a seat's first turn is over (first_turn=run)
        self.turn = first_seat(self.round, n)
        self.laid = 0  # tiles laid this turn in a first-turn run
        self.free_extra = False  # pagat_free_second: the tile after one's double may go anywhere
        self.drawn = None  # the tile drawn this turn (UNKNOWN if not shown)
        self.passes = 0
        self.phase = P_DEAL

    # --- queries -------------------------------------------------------------------------
    def current_player(self):
        phase = self.phase
        if phase == P_OVER:
            return TERMINAL
        if phase in (P_DEAL, P_DRAWN, P_REVEAL):
            return CHANCE
        return self.turn

    def outcome(self):
        return self._outcome

    def mexican(self):
        return self.players

    def in_first_run(self, seat):
        """True while ``seat`` plays its first turn of the round as a run (first_turn=run)."""
        return self.run_first_turn and not self.first_done[seat]

    def obligation(self):
        """The open double the player to act must cover, ``(train, value, seat)``, or None: the
        oldest open one, except during the free tile after one's own double (pagat_free_second)
        and, under first_turn=run, until every seat has had its first turn."""
        if not self.open_doubles or self.free_extra:
            return None
        if self.run_first_turn and not all(self.first_done):
            return None
        return self.open_doubles[0]

    def trains_open_to(self, seat):
        """The trains ``seat`` may play on, the open double aside: its own, the Mexican train and
        the marked trains (only its own during a first-turn run, or before it starts its own
        train under own_train_first)."""
        if self.in_first_run(seat):
            return [seat]
        if self.ruleset.params["own_train_first"] and not self.trains[seat]:
            return [seat]
        return [seat] + [t for t in range(self.players) if t != seat and self.markers[t]] + [self.players]

    def _candidates(self, seat):
        """The tiles ``seat`` could lay now: the drawn tile when it must be played, else its hand
        (any unseen tile too, when it holds unseen ones)."""
        if self.phase == P_PLAY_DRAWN and self.drawn != UNKNOWN:
            return [self.drawn]
        hand = self.hands[seat]
        if self.phase == P_PLAY_DRAWN or hand.unknown:
            return [t for t in self.tiles if self.loc[t] == LOC_FREE or hand.holds(t)]
        return hand.known

    def plays(self, seat):
        """The plays open to ``seat`` now, as actions."""
        due = self.obligation()
        if due is not None:
            trains = [due[0]]
        else:
            trains = self.trains_open_to(seat)
        out = []
        for t in self._candidates(seat):
            for train in trains:
                if has(t, self.open_values[train]):
                    out.append(play_action(t, train))
        return out

    def chance_outcomes(self):
        """The shown tiles chance may give now (the unseen ``?`` is the table's, not a simulation's)."""
        phase = self.phase
        if phase == P_DEAL or phase == P_DRAWN:
            seat = self._dealt_seat()
            return [deal_action(seat, t) for t in self.tiles if self.loc[t] == LOC_FREE]
        if phase == P_REVEAL:
            seat = self._revealing_seat()
            return [reveal_action(seat, t) for t in self.tiles if self.loc[t] == LOC_FREE]
        return []

    def _dealt_seat(self):
        if self.phase == P_DRAWN:
            return self.turn
        for seat in range(self.players):
            if self.hands[seat].size() < self.deal:
                return seat
        return None

    def _revealing_seat(self):
        for seat in range(self.players):
            if self.hands[seat].unknown:
                return seat
        return None

    # --- legal actions ---------------------------------------------------------------------
    def generate_legal_actions(self):
        if self._outcome is not None:
            return []
        phase = self.phase
        if phase in (P_DEAL, P_DRAWN, P_REVEAL):
            out = self.chance_outcomes()
            if phase != P_REVEAL:
                out.append(deal_action(self._dealt_seat(), UNKNOWN))
            return sorted(out)
        seat = self.turn
        out = self.plays(seat)
        if phase == P_PLAY_DRAWN:
            if self.drawn == UNKNOWN:
                out.append(PASS)  # the unseen tile did not fit
        elif self.in_first_run(seat) and self.laid:
            out.append(END_TURN)
        elif not out or self.hands[seat].unknown:
            out.append(DRAW if self.boneyard else PASS)
        return sorted(out)

    def why_illegal(self, action):
        if self._outcome is not None:
            return (E_OVER, "the match is over")
        if not isinstance(action, int) or action < 0 or action >> 16 > K_REVEAL:
            return (E_TILE, "not a Mexican Train action: %r" % (action,))
        kind, seat, train, t = fields(action)
        if kind >= K_DEAL:
            return self._chance_problem(kind, seat, t)
        if self.phase not in (P_PLAY, P_PLAY_DRAWN):
            return (E_PHASE, "no play now (tiles are being dealt, drawn or shown)")
        if kind == K_PLAY:
            return self._play_problem(train, t)
        me = self.turn
        if self.phase == P_PLAY_DRAWN:
            if kind == K_PASS and self.drawn == UNKNOWN:
                return None
            return (E_MUST_PLAY, "seat %d must play the tile it drew" % (me + 1))
        if kind == K_END:
            if not (self.in_first_run(me) and self.laid):
                return (E_PHASE, "end closes a first-turn run after at least one tile")
            return None
        if self.in_first_run(me) and self.laid:
            return (E_PHASE, "seat %d is laying its first run: play on or end it" % (me + 1))
        plays = self.plays(me)
        if plays and not self.hands[me].unknown:
            return (E_MUST_PLAY, "seat %d can play (%s)" % (me + 1, self._play_text(plays[0])))
        if kind == K_DRAW and not self.boneyard:
            return (E_NO_DRAW, "the boneyard is empty: pass")
        if kind == K_PASS and self.boneyard:
            return (E_MUST_PLAY, "the boneyard has %d tiles: draw" % self.boneyard)
        return None

    def _chance_problem(self, kind, seat, t):
        phase = self.phase
        if kind == K_DEAL and phase not in (P_DEAL, P_DRAWN):
            return (E_PHASE, "no tile is being dealt or drawn")
        if kind == K_REVEAL and phase != P_REVEAL:
            return (E_PHASE, "hands are shown only when the round is over")
        due = self._dealt_seat() if kind == K_DEAL else self._revealing_seat()
        if seat != due:
            return (E_TURN, "the tile goes to seat %d, not seat %d" % (due + 1, seat + 1))
        if t == UNKNOWN and kind == K_DEAL:
            return None
        if not self._in_set(t):
            return (E_TILE, "%s is not in the double-%d set" % (tile_str(t), self.ruleset.params["engine_max"]))
        if self.loc[t] != LOC_FREE:
            return (E_CHANCE, "%s is already seen" % tile_str(t))
        return None

    def _play_problem(self, train, t):
        me = self.turn
        if not self._in_set(t):
            return (E_TILE, "%s is not in the double-%d set" % (tile_str(t), self.ruleset.params["engine_max"]))
        if train > self.players:
            return (E_TILE, "no train %d with %d players" % (train, self.players))
        if self.phase == P_PLAY_DRAWN and self.drawn != UNKNOWN and t != self.drawn:
            return (E_MUST_PLAY, "seat %d must play the tile it drew, %s" % (me + 1, tile_str(self.drawn)))
        hand = self.hands[me]
        if not hand.holds(t) and (self.loc[t] != LOC_FREE or not (hand.unknown or self.phase == P_PLAY_DRAWN)):
            return (E_NOT_HELD, "%s is not in seat %d's hand" % (tile_str(t), me + 1))
        due = self.obligation()
        if due is not None and train != due[0]:
            return (E_MUST_PLAY, "the open double %s on %s must be covered first" % (
                tile_str(tile(due[1], due[1])), self.train_name(due[0])))
        if due is None and train not in self.trains_open_to(me):
            return (E_PHASE, self._closed_reason(me, train))
        if not has(t, self.open_values[train]):
            return (E_NO_MATCH, "%s does not match %s, open at %d" % (tile_str(t), self.train_name(train), self.open_values[train]))
        return None

    def _closed_reason(self, seat, train):
        if self.in_first_run(seat):
            return "on its first turn seat %d plays on its own train only" % (seat + 1)
        if train != self.players and not self.markers[train]:
            return "%s carries no marker" % self.train_name(train)
        return "seat %d must start its own train first" % (seat + 1)

    def _in_set(self, t):
        return t < 256 and (t >> 4) <= (t & 15) <= self.ruleset.params["engine_max"]

    # --- applying --------------------------------------------------------------------------
    def _apply(self, action):
        kind, seat, train, t = fields(action)
        if kind == K_DEAL:
            self._receive(seat, t)
        elif kind == K_REVEAL:
            self.hands[seat].remove(t)
            self.hands[seat].add(t)
            self.loc[t] = LOC_HAND
            if self._revealing_seat() is None:
                self._score_round()
        elif kind == K_PLAY:
            self._lay(t, train)
        elif kind == K_DRAW:
            self.phase = P_DRAWN
        elif kind == K_PASS:
            self._fail(counts_as_pass=self.phase == P_PLAY)
        else:
            self._end_turn()

    def _receive(self, seat, t):
        self.hands[seat].add(t)
        self.boneyard -= 1
        if t != UNKNOWN:
            self.loc[t] = LOC_HAND
        if self.phase == P_DEAL:
            if self._dealt_seat() is None:
                self.phase = P_PLAY
            return
        self.drawn = t
        self.phase = P_PLAY_DRAWN
        if t != UNKNOWN and not self.plays(seat):
            self._fail(False)

    def _lay(self, t, train):
        seat = self.turn
        from_draw = self.phase == P_PLAY_DRAWN
        self.hands[seat].remove(t)
        self.loc[t] = LOC_LAID
        self.trains[train].append(t)
        self.open_values[train] = other(t, self.open_values[train])
        if train == seat:
            self.markers[seat] = False
        self.passes = 0
        self.free_extra = False
        self.phase = P_PLAY
        covered = [d for d in self.open_doubles if d[0] == train]
        for d in covered:
            self.open_doubles.remove(d)
        double = is_double(t)
        if double:
            self.open_doubles.append((train, t & 15, seat))
        if not self.hands[seat].size():
            if double and self.ruleset.params["last_double"] == "cover_first":
                self.out[seat] = True
                self._end_turn()
            else:
                self._end_round("out", seat)
            return
        if covered and True in self.out:  # cover_first: covering the last double ends the round
            self._end_round("out", self.out.index(True))
        elif self.in_first_run(seat):
            self.laid += 1
            if from_draw:
                self._end_turn()
        elif double:
            self.free_extra = self.ruleset.params["double_rule"] == "pagat_free_second"
        else:
            self._end_turn()

    def _fail(self, counts_as_pass):
        """No play: the seat's marker goes on its own train and its turn ends (a pass on an
        empty boneyard counts toward a blocked round)."""
        self.markers[self.turn] = True
        if counts_as_pass:
            self.passes += 1
            if self.passes >= self.out.count(False):
                self._end_round("blocked", None)
                return
        self._end_turn()

    def _end_turn(self):
        seat = self.turn
        self.first_done[seat] = True
        self.laid = 0
        self.free_extra = False
        self.drawn = None
        self.phase = P_PLAY
        seat = (seat + 1) % self.players
        while self.out[seat]:
            seat = (seat + 1) % self.players
        self.turn = seat

    def _end_round(self, how, seat):
        self.last_round = (how, seat, None)
        if self._revealing_seat() is None:
            self._score_round()
        else:
            self.phase = P_REVEAL

    def _score_round(self):
        """Every seat adds the pips left in its hand ([0|0]: ``double_blank``)."""
        blank = self.ruleset.params["double_blank"]
        left = []
        for seat in range(self.players):
            held = sorted(self.hands[seat].known)
            value = hand_value(held, blank)
            left.append(value)
            if held:
                detail = "round %d, left in hand %s = %d" % (self.round, " ".join(tile_str(t) for t in held), value)
            else:
                detail = "round %d, out" % self.round
            self.award(seat, value, "hand", detail)
        self.last_round = (self.last_round[0], self.last_round[1], tuple(left))
        if self.round == self.ruleset.params["rounds"]:
            self.phase = P_OVER
            low = min(self.scores)
            self._outcome = Outcome("rounds", [s for s in range(self.players) if self.scores[s] == low], self.scores)
            return
        self.round += 1
        self.hand_number += 1
        self._start_round()

    # --- text ------------------------------------------------------------------------------
    def train_name(self, train):
        """A train for people: ``the Mexican train``, ``seat 2's train``."""
        return "the Mexican train" if train == self.players else "seat %d's train" % (train + 1)

    def _play_text(self, action):
        _, _, train, t = fields(action)
        return "%s>%s" % (tile_str(t), "M" if train == self.players else "T%d" % train)

    def action_str(self, action):
        if not isinstance(action, int):
            return repr(action)
        kind, seat, _, t = fields(action)
        if kind == K_PLAY:
            return self._play_text(action)
        if kind in (K_DEAL, K_REVEAL):
            return "%s%d:%s" % ("D" if kind == K_DEAL else "R", seat, "?" if t == UNKNOWN else tile_str(t))
        return ("draw", "pass", "end")[kind - K_DRAW]

    def parse_action(self, text):
        """Inverse of ``action_str``. :raises IllegalAction: ``E_TILE`` for text that is no action."""
        s = text.strip()
        word = s.lower()
        if word in ("draw", "pass", "end"):
            return (DRAW, PASS, END_TURN)[("draw", "pass", "end").index(word)]
        if len(s) > 3 and s[0] in "DR" and s[1].isdigit() and s[2] == ":":
            seat = int(s[1])
            if seat >= self.players:
                raise IllegalAction(text, E_TURN, "no seat %d with %d players" % (seat + 1, self.players))
            if s[3:] == "?" and s[0] == "D":
                return deal_action(seat, UNKNOWN)
            t = self._parse_tile(text, s[3:])
            return deal_action(seat, t) if s[0] == "D" else reveal_action(seat, t)
        head, sep, where = s.partition(">")
        where = where.upper()
        if sep and where == "M":
            return play_action(self._parse_tile(text, head), self.players)
        if sep and len(where) > 1 and where[0] == "T" and where[1:].isdigit() and int(where[1:]) < self.players:
            return play_action(self._parse_tile(text, head), int(where[1:]))
        raise IllegalAction(text, E_TILE, "not a Mexican Train action: %r (e.g. 5-9>T0, 4-12>M, draw)" % text)

    def _parse_tile(self, text, body):
        try:
            t = parse_tile(body)
        except ValueError:
            raise IllegalAction(text, E_TILE, "not a tile: %r" % body)
        if not self._in_set(t):
            raise IllegalAction(text, E_TILE, "%s is not in the double-%d set" % (tile_str(t), self.ruleset.params["engine_max"]))
        return t

    def describe(self, action):
        """The action in words, seats as ``P<seat>`` from 0 like the other families' (the PC
        names the players: host ``people.for_people``)."""
        kind, seat, train, t = fields(action)
        me = self.turn
        if kind == K_DEAL:
            shown = "a tile face down" if t == UNKNOWN else tile_str(t)
            return "P%d %s %s" % (seat, "draws" if self.phase == P_DRAWN else "is dealt", shown)
        if kind == K_REVEAL:
            return "P%d shows %s" % (seat, tile_str(t))
        if kind == K_PLAY:
            where = "the Mexican train" if train == self.players else "P%d's train" % train
            text = "P%d plays %s on %s (open at %d)" % (me, tile_str(t), where, other(t, self.open_values[train]))
            return text + (", a double to cover" if is_double(t) else "")
        if kind == K_DRAW:
            return "P%d draws" % me
        if kind == K_END:
            return "P%d ends its first run" % me
        return "P%d passes (marker on its train)" % me
