"""A scripted table player: deals physical (virtual) pieces, lays them on the simulated table
and presses its buttons, choosing every move with the engine from its full knowledge.

The player keeps its own "god" state of the match (every hand known, draws dealt from its own
shuffled stock) and only ever touches the table as people do: ``place``/``remove`` on zones,
``press`` on buttons, through a control client (``SimulatedTable.control``, or
``LocalControl`` around an in-process ``Device``). The table knows the hands only as far as
they are scanned or revealed, so at the end its scores must equal the god state's, and both
must equal an engine replay of the table's journal.
"""
import io
import os
import random

from tiletable.board import pins
from tiletable.engine.line_actions import DRAW, K_BET, K_CLAIM, K_DEAL, K_LOT, K_PLAY, K_SETTER, K_SHOW_DOUBLES, K_STAKES
from tiletable.engine.line_actions import P_BERGEN, P_DEAL, P_DECLARE, P_LOT, P_OVER, PASS
from tiletable.engine.line_actions import amount_of, chance_action, kind_of, seat_of, tile_of
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.tiles import has, tile, tile_str
from tiletable.engine import train
from tiletable.families import game, games
from tiletable.profiles import profile_for
from tiletable.record import iter_records
from tiletable.record_read import InEffect, visit
from tiletable.runtime.play_climb import ClimbController

from tiletable.drivers.segments import glyph
from tiletable_host.people import score_value
from tiletable_host.scripted import ScriptedClimbGame, ScriptedColumnGame, ScriptedFortytwoGame, ScriptedTrickGame
from tiletable_host.simtable import ControlCommands


SETTLE_MS = ClimbController.stable_ms + 100
SETTLED = "wait %d" % SETTLE_MS  # Da San cards lay still: taken


def table_scores(god):
    """The god state's scores as the table's STATE gives them: in the unit people read (Buki's
    half-chips as chips, ``37.5`` for a half)."""
    return [score_value(score, getattr(god, "score_scale", 1)) for score in god.scores]


def at_budget(colour):
    """How the simulated strip shows ``colour`` at the power-budget brightness (LED_MAX_LEVEL)."""
    return "".join("%02x" % (channel * pins.LED_MAX_LEVEL // 255) for channel in colour)


def reads(shown, text):
    """Whether a group that reads ``shown`` looks like ``text`` (5 and S share a glyph, ...)."""
    text = text.rjust(len(shown))
    return len(shown) == len(text) and all(glyph(a) == glyph(b) for a, b in zip(shown, text))


def local_table(root, control=None, fast=True, flash=False, policy=None):
    """A simulated device in this process (its USB port an idle pipe), driven through
    ``LocalControl``: the same commands as the control port, without a socket or a pty.
    ``control(power_on)`` makes another kind of control (``chaos.ChaosControl``); ``fast``
    scans only zones with a change to confirm (sim/device.py: device time is not the chip's).
    Its clock moves only with the commands (no wall clock), so a loaded machine plays the same
    match. ``flash``: its files on littlefs at the chip's costs (sim/flashfs.py), kept over
    its power-ons. ``policy``: the class of the firmware's heap policy (tiletable/heap.py; by
    default the runtime's), e.g. ``heap.StockHeap`` for a stock build's unloading."""
    import device

    usb_in, _ = os.pipe()
    pieces = device.Pieces()
    usb = os.fdopen(usb_in, "rb", buffering=0)
    chip = None
    if flash:
        import flashfs

        flashfs.install()
        chip = flashfs.FlashFs(str(root)).mount()
    return (control or LocalControl)(lambda: device.Device(str(root), _NoControlPort(), pieces, usb, io.BytesIO(), fast=fast, flash=chip, policy=policy))


class _NoControlPort:
    def poll(self):
        return None

    def reply(self, text):
        pass


class LocalControl(ControlCommands):
    """The control commands of an in-process ``sim.device.Device`` (no socket, no pty);
    ``power_on`` makes a Device, again when the firmware restarts the board into a game."""

    def __init__(self, power_on):
        self.power_on = power_on
        self.device = self._boot()

    def _boot(self):
        """Power on, and start the game a restart was for as ``App.run()`` does."""
        device = self.power_on()
        device.app.start_pending(device.clock())
        return device

    def command(self, line):
        reply = self.device.command(line)
        if self.device.app.restart_requested:  # main.py closes the app and resets the board
            self.device.app.close()
            self.device = self._boot()
        if reply is None or reply.startswith("err"):
            raise AssertionError("%s: %s" % (line, reply))
        return reply[3:]


def choose_game(control, name, players, label=None, listed=None):
    """Use the menu: seat press steps the game, seat long press the player count, OK starts.
    ``label``: what the menu shows for the game (by default its preset's label); the menu's
    name is checked too, so that a label read by its glyphs (5 and S alike) cannot stop on
    another game. ``listed``: how many games the menu lists (by default the presets)."""
    label = label or game(name)[2]
    for _ in range(listed or len(games())):
        if reads(control.display()[0], label) and control.state()["menu"][0] == name:
            break
        control.press(0)
    for _ in range(4):
        if reads(control.display()[1], "%dP" % players):
            break
        control.press(0, "long")
    control.press("ok")
    assert control.state()["ruleset"] == name


class LinePlayer:
    """Plays a whole match of a line game on the table; ``scan`` lists seats that hand-scan;
    ``show_rate``: how often a seat that may show its doubles (Latin Double-Nine) does."""

    def __init__(self, control, name, players, seed=1, scan=(), show_rate=0.5):
        self.control = control
        self.name = name
        self.players = players
        self.rng = random.Random(seed)
        self.scan = scan
        self.god = find_ruleset(name).new_state(players)
        self.profile = profile_for(name, players, "line")
        self.stock = []
        self.stakes = {}  # seat -> the stake it chose last (Buki)
        self.moves = 0
        self.show_rate = show_rate

    def pad(self, seat):
        return self.profile.seat_zone[seat]

    def play_match(self, max_moves=3000):
        choose_game(self.control, self.name, self.players)
        while self.god.phase != P_OVER and self.moves < max_moves:
            self.play_hand()
        return self.god

    def play_hand(self):
        god = self.god
        hand = god.hand_number
        while god.phase == P_LOT:  # a lot before the deal (Fives and Threes): one tile per seat
            self._move()
        self._deal()
        while god.hand_number == hand and god.phase != P_OVER:
            self.moves += 1
            self._move()
        if god.phase != P_OVER:
            self.control.press("ok")  # the hand's summary

    def _deal(self, order=None):
        """Deal a hand (``order``: the tiles as dealt, seat by seat, then the stock with its
        first draw last; a shuffle when None), scan the scanning seats' hands, press OK."""
        god = self.god
        tiles = list(order) if order else list(god.tiles)
        if not order:
            self.rng.shuffle(tiles)
        per = god.per_hand
        hands = [tiles[s * per : (s + 1) * per] for s in range(self.players)]
        self.stock = tiles[self.players * per :]
        for seat in self.scan:
            names = [tile_str(t) for t in hands[seat]]
            self.control.place(self.pad(seat), *names)
            self.control.remove(self.pad(seat))
        for seat in range(self.players):
            for t in hands[seat]:
                god.play(chance_action(K_DEAL, seat, t))
        self.hands_unscanned = [s not in self.scan for s in range(self.players)]
        self.control.press("ok")

    def _move(self):
        god = self.god
        legal = list(god.legal_actions())
        if god.phase == P_DEAL:  # doubles were shown: the deal was thrown in
            self._deal()
            return
        shows = [a for a in legal if kind_of(a) == K_SHOW_DOUBLES]
        if shows and self.rng.random() < self.show_rate:
            self.control.press(seat_of(shows[0]), "long")
            god.play(shows[0])
            return
        if god.phase == P_DECLARE:  # a side names its leader: who it chose lays the first tile
            declares = [a for a in legal if kind_of(a) == K_SETTER]
            declare = declares[self.rng.randrange(len(declares))]
            god.play(declare)
            sets = [a for a in god.legal_actions() if kind_of(a) == K_PLAY]
            self._lay(seat_of(declare), sets[self.rng.randrange(len(sets))])
            return
        if god.phase == P_LOT:
            seat = god.lot_seats[0]
            t = tile_of(legal[self.rng.randrange(len(legal))])
            self.control.place(self.pad(seat), tile_str(t))
            self.control.remove(self.pad(seat))
            god.play(chance_action(K_LOT, seat, t))
            return
        if god.phase == P_BERGEN:
            seat = god.bergen_next
            self.control.press(seat)
            god.play(chance_action(K_DEAL, seat, self.stock.pop()))
            return
        kinds = set(kind_of(a) for a in legal)
        if kinds <= {K_STAKES} or kinds <= {K_BET}:
            seat = god.setter if K_STAKES in kinds else god.turn
            self._stake(seat, legal)
            return
        claims = [a for a in legal if kind_of(a) == K_CLAIM and seat_of(a) == god.claim_mover]
        if claims:
            self.control.press(god.claim_mover, "double")
            god.play(claims[0])
            return
        seat = god.turn
        plays = [a for a in legal if kind_of(a) == K_PLAY]
        if plays:
            self._lay(seat, plays[self.rng.randrange(len(plays))])
        else:
            self._press(seat, legal)

    def _stake(self, seat, legal):
        """A stake as people choose one: mostly the same as last time, now and then another;
        the seat steps to it the shortest way (a press steps one, a double press jumps to
        the next round figure), from the stake the table offers first (its prompt, as the
        blinking display may be dark when read), then long-presses."""
        last = self.stakes.get(seat)
        keep = [a for a in legal if amount_of(a) == last]
        chosen = keep[0] if keep and self.rng.random() < 0.8 else legal[self.rng.randrange(len(legal))]
        amounts = [amount_of(a) for a in legal]
        offered = int(self.control.state()["prompt"].rsplit(": ", 1)[1])
        for how in shortest_steps(amounts, amounts.index(offered), amounts.index(amount_of(chosen))):
            self.control.press(seat, how)
        assert self.control.state()["prompt"].endswith(": %d" % amount_of(chosen))
        self.control.press(seat, "long")
        self.stakes[seat] = amount_of(chosen)
        self.god.play(chosen)

    def _lay(self, seat, action):
        god = self.god
        t = tile_of(action)
        options = [a for a in god.legal_actions() if kind_of(a) == K_PLAY and tile_of(a) == t]
        pad = self.pad(seat)
        self.control.place(pad, tile_str(t))
        if len(options) > 1:
            for _ in range(options.index(action)):
                self.control.press(seat)
            self.control.press(seat, "long")
        self.control.remove(pad)
        hands = [list(h) for h in god.hands]
        hands[seat].remove(t)
        hand_before = god.hand_number
        god.play(action)
        self._after(hand_before, hands)

    def _press(self, seat, legal):
        god = self.god
        hand_before = god.hand_number
        hands = [list(h) for h in god.hands]
        self.control.press(seat)
        if DRAW in legal:
            god.play(DRAW)
            t = self.stock.pop()
            if not self.hands_unscanned[seat]:  # a scanned hand: the table is shown the drawn tile
                self.control.place(self.pad(seat), tile_str(t))
                self.control.remove(self.pad(seat))
            god.play(chance_action(K_DEAL, seat, t))
        else:
            god.play(PASS)
        self._after(hand_before, hands)

    def _after(self, hand_before, final_hands):
        """When the hand ended, every unscanned hand is revealed on its pad; then the table
        must have ended the hand too."""
        god = self.god
        if god.hand_number == hand_before and god.phase != P_OVER:
            return
        for seat in range(self.players):
            if self.hands_unscanned[seat] and final_hands[seat]:
                self.control.place(self.pad(seat), *[tile_str(t) for t in final_hands[seat]])
                self.control.remove(self.pad(seat))
        table = self.control.state()
        if table["hand"] == hand_before and table["mode"] == "game":
            raise AssertionError("the table did not end the hand: %r" % table)


def shortest_steps(amounts, start, goal, round_figure=5):
    """The fewest button gestures from option ``start`` to ``goal`` of a stake choice: "short"
    steps to the next amount, "double" jumps to the next multiple of ``round_figure`` (both
    round the end)."""
    count = len(amounts)

    def jump(i):
        for ahead in range(1, count + 1):
            if amounts[(i + ahead) % count] % round_figure == 0:
                return (i + ahead) % count
        return i

    paths = {start: []}
    frontier = [start]
    while goal not in paths:
        reached = []
        for i in frontier:
            for how, j in (("short", (i + 1) % count), ("double", jump(i))):
                if j not in paths:
                    paths[j] = paths[i] + [how]
                    reached.append(j)
        frontier = reached
    return paths[goal]


def journal_sessions(root):
    """Every session file of a simulated table's journal as (header, [action texts]) with the
    undo amendments applied, oldest first."""
    folder = os.path.join(root, "journal")
    out = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".tjs"):
            continue
        with open(os.path.join(folder, name), "rb") as f:
            data = f.read()
        session = InEffect()
        visit(iter_records(data), session)
        out.append((session.start, [text for _, text in session.actions]))
    return out


def replay(header, actions):
    state = find_ruleset(header["ruleset"]).new_state(len(header["players"]))
    for text in actions:
        state.play(text)
    return state


class TextPlayer:
    """Plays a match of Moon, the column game or Da San on the table with the host's scripted
    player of its family (tiletable_host/scripted.py, mixed in after this class): chance it
    deals itself in its god state, the rest it picks at random among the legal actions and
    performs the way docs/TABLE.md says. The game is found by name and chosen on the menu as
    people do; the match is played to its end or ``max_moves`` steps, unchecked until then."""

    def __init__(self, control, name, players, seed=1):
        super().__init__(control, control, find_ruleset(name), players, seed, on_play=None)
        self.name = name
        self.players = players
        self.moves = 0

    @property
    def god(self):
        """The script's engine state, which knows every hand."""
        return self.state

    @god.setter
    def god(self, state):
        """Play another ruleset's state (bench/chip_matches.py ends a match early)."""
        self.state = state

    def play_match(self, max_moves=2000):
        choose_game(self.control, self.name, self.players)
        self.begin()
        while not self.god.is_over() and self.moves < max_moves:
            self.moves += 1
            hand = self.god.hand_number
            self.step()
            if self.god.hand_number != hand and not self.god.is_over():
                self.next_hand()
        return self.god


class MoonPlayer(TextPlayer, ScriptedTrickGame):
    pass


class FortytwoPlayer(TextPlayer, ScriptedFortytwoGame):
    pass


class ColumnPlayer(TextPlayer, ScriptedColumnGame):
    pass


class ClimbPlayer(TextPlayer, ScriptedClimbGame):
    settle_ms = SETTLE_MS  # the table's own wait, not the host's copy of it


class TrainPlayer:
    """Plays a whole Mexican Train match on the table (docs/TABLE.md "Mexican Train"); ``scan``
    lists seats that hand-scan at each deal (the others' hands stay unseen, revealed after each
    round). ``deals``: the tiles of the first rounds as dealt (seat by seat, then the boneyard
    with its first draw last), for tests that need a known deal; later rounds are shuffled."""

    def __init__(self, control, name, players, seed=1, scan=(), deals=()):
        self.control = control
        self.name = name
        self.players = players
        self.rng = random.Random(seed)
        self.scan = scan
        self.deals = list(deals)
        self.god = find_ruleset(name).new_state(players)
        self.profile = profile_for(name, players, "train")
        self.mexican_zone = [zone for zone, role, _, _ in self.profile.zones if role == "mexican"][0]
        self.stock = []
        self.moves = 0

    def pad(self, seat):
        return self.profile.seat_zone[seat]

    def play_match(self, max_moves=5000):
        choose_game(self.control, self.name, self.players)
        while not self.god.is_over() and self.moves < max_moves:
            self.play_round()
        return self.god

    def play_round(self):
        god = self.god
        round_number = god.hand_number
        self.deal()
        while god.hand_number == round_number and not god.is_over():
            self.moves += 1
            self.move()
        if not god.is_over():
            self.control.press("ok")  # the round's summary

    def deal(self):
        """Deal a round, scan the scanning seats' hands, press OK."""
        god = self.god
        if self.deals:
            tiles = list(self.deals.pop(0))
        else:
            tiles = [t for t in god.tiles if t != tile(god.engine, god.engine)]
            self.rng.shuffle(tiles)
        per = god.deal
        hands = [tiles[s * per : (s + 1) * per] for s in range(self.players)]
        self.stock = tiles[self.players * per :]
        for seat in self.scan:
            self.control.place(self.pad(seat), *[tile_str(t) for t in hands[seat]])
            self.control.remove(self.pad(seat))
        for seat in range(self.players):
            for t in hands[seat]:
                god.play(train.deal_action(seat, t))
        self.control.press("ok")

    def move(self):
        """One move of the seat to act, chosen at random among its legal ones."""
        god = self.god
        legal = list(god.legal_actions())
        action = legal[self.rng.randrange(len(legal))]
        if train.fields(action)[0] == train.K_PLAY:
            self.lay(god.turn, action)
        else:
            self.press(god.turn, action)

    def options(self, seat, t):
        """The trains the table offers for ``t`` on the seat's pad, in its order (play_train.py)."""
        god = self.god
        due = god.obligation()
        trains = [due[0]] if due is not None else god.trains_open_to(seat)
        return [train.play_action(t, line) for line in trains if has(t, god.open_values[line])]

    def lay(self, seat, action, on_zone=None):
        """Lay the tile of ``action`` on the seat's pad and choose its train with the button,
        or (now and then, or ``on_zone`` True) a Mexican train's tile on the Mexican zone."""
        god = self.god
        t, line = train.fields(action)[3], train.fields(action)[2]
        final_hands = [list(hand.known) for hand in god.hands]
        final_hands[seat].remove(t)
        to_mexican = line == god.mexican() and (on_zone if on_zone is not None else self.rng.random() < 0.5)
        zone = self.mexican_zone if to_mexican else self.pad(seat)
        self.control.place(zone, tile_str(t))
        options = self.options(seat, t)
        if not to_mexican and len(options) > 1:
            for _ in range(options.index(action)):
                self.control.press(seat)
            self.control.press(seat, "long")
        self.control.remove(zone)
        self._after(god.hand_number, action, final_hands)

    def press(self, seat, action):
        """The seat's press: draw (the drawn tile shown on the pad of a scanning seat), pass,
        or end a first-turn run."""
        god = self.god
        final_hands = [list(hand.known) for hand in god.hands]
        self.control.press(seat)
        if action != train.DRAW:
            self._after(god.hand_number, action, final_hands)
            return
        god.play(action)
        t = self.stock.pop()
        if seat in self.scan:
            self.control.place(self.pad(seat), tile_str(t))
            self.control.remove(self.pad(seat))
        god.play(train.deal_action(seat, t))
        if god.turn != seat and seat not in self.scan:
            self.control.press(seat)  # the table does not know the drawn tile: it passes
        elif god.phase == train.P_PLAY_DRAWN:
            self.lay(seat, god.plays(seat)[self.rng.randrange(len(god.plays(seat)))])

    def _after(self, round_before, action, final_hands):
        """Play ``action`` in the god state; when the round ended, every unscanned hand is shown
        on its pad, and the table must have ended the round too."""
        god = self.god
        god.play(action)
        if god.hand_number == round_before and not god.is_over():
            return
        for seat in range(self.players):
            if seat not in self.scan and final_hands[seat]:
                self.control.place(self.pad(seat), *[tile_str(t) for t in final_hands[seat]])
                self.control.remove(self.pad(seat))
        table = self.control.state()
        if table["hand"] == round_before and table["mode"] == "game":
            raise AssertionError("the table did not end the round: %r" % table)
