"""Scripted players of the trick, fortytwo, column and climb families for ``tiletable run`` on the
simulated table (run.py's ``ScriptedGame`` plays the line family).

Each plays the game the way people do at the table (docs/TABLE.md): pieces laid on the zones,
seat buttons pressed to step a call and held to confirm it, OK for a deal or a hand's summary.
It keeps its own engine state of the match, knowing every hand (the table deals what it
cannot see itself, unseen, and learns each piece as it is laid); its moves are random among
the legal ones (bids kept low, so that a match ends). Before each player's move (when the table
waits for it, having done what it does by itself), the table's STATE must have taken exactly
the actions the script made, with the same scores; at the end, the same scores.

The simulated table's tests play whole matches with these same players (tests/sim/player.py),
so that one script of each family's moves serves ``tiletable run`` and the tests alike.
"""
import random

from tiletable.engine.cards import HEARTS, card_str, rank_of, suit_of
from tiletable.profiles import profile_for
from tiletable_host.errors import CommandError
from tiletable_host.people import score_value

# Da San cards that lie still this long are taken: runtime/play_climb.py's ClimbController
# stable_ms (1200; the PC cannot import the table's runtime) and a margin
SETTLE_MS = 1300


class ScriptedTextGame:
    """What the families' scripts share: the engine state, the choices by action text, the
    calls stepped on a seat's display, and the check against the table. ``step`` makes one
    move; ``begin`` and ``next_hand`` press what the table waits for around the hands."""

    family = ""  # the ruleset family the script plays

    def __init__(self, control, link, ruleset, players, seed, on_play):
        self.control = control
        self.link = link
        self.state = ruleset.new_state(players)
        self.rng = random.Random(seed)
        self.profile = profile_for(ruleset.name, players, ruleset.family)
        self.on_play = on_play
        self.shown = 0  # actions the table took that the script's engine, knowing every hand, needs not

    def play(self, hands):
        """Play until ``hands`` hands are over or the match ends."""
        state = self.state
        self.begin()
        while not state.is_over() and state.hand_number < hands:
            hand = state.hand_number
            if state.current_player() >= 0 and self.waited_for():
                self._check(len(state.history) + self.shown)
            if self.step():
                self.on_play(hand_over=False)
            if state.hand_number != hand or state.is_over():
                self.on_play(hand_over=True)
                if not state.is_over() and state.hand_number < hands:
                    self.next_hand()
        self._check(None)

    def begin(self):
        """The game was just started: what the table waits for first."""
        self.control.press("ok")  # the deal

    def next_hand(self):
        self.control.press("ok")  # the hand's summary
        self.control.press("ok")  # the next deal

    def waited_for(self):
        """Whether the table has taken every move the script made (see ScriptedClimbGame)."""
        return True

    def texts(self):
        return [self.state.action_str(a) for a in self.state.legal_actions()]

    def choose_call(self, seat, chosen, prefixes):
        """Step the seat's call display to ``chosen`` and confirm it with a long press."""
        options = [t for t in self.texts() if t.startswith(prefixes)]
        for _ in range(options.index(chosen)):
            self.control.press(seat)
        self.control.press(seat, "long")
        self.state.play(chosen)

    def _check(self, actions):
        """The table's scores must be the script's, and its actions ``actions`` (None: any)."""
        snap = self.link.state()
        scores = [score_value(points, getattr(self.state, "score_scale", 1)) for points in self.state.scores]
        if (actions is not None and snap.get("actions") != actions) or snap.get("scores") != scores:
            raise CommandError(
                "the table has %s actions and scores %s, the script %d and %s"
                % (snap.get("actions"), snap.get("scores"), len(self.state.history), scores)
            )


class ScriptedTrickGame(ScriptedTextGame):
    """Moon: bids, the trump call, the widow, tiles led and followed on the trick zone."""

    family = "trick"
    calls = ("B", "TRUMP", "NOTRUMP")  # the texts of the calls made on a seat's display

    def next_hand(self):
        self.control.remove(self.profile.trick_zone)  # the last trick is cleared
        ScriptedTextGame.next_hand(self)

    def step(self):
        """One move; True when it was a player's (False: a deal or a draw)."""
        state = self.state
        texts = self.texts()
        seat = state.current_player()
        if seat < 0:  # the deal: the table deals unseen tiles itself
            state.play(self.rng.choice([t for t in texts if not t.endswith("?")]))
            return False
        chosen = self.rng.choice(texts)
        bids = [t for t in texts if t.startswith("B")]
        if bids:  # the first to speak bids the least, the others pass: bids are mostly made
            chosen = bids[1] if bids[0].endswith("PASS") and state.bidder is None else bids[0]
        if chosen.startswith(self.calls):
            self.choose_call(seat, chosen, self.calls)
        elif chosen == "KEEP":
            self.control.press(seat)
            state.play(chosen)
        elif chosen.startswith("X:"):  # a discard, on the seat's pad
            pad = self.profile.seat_zone[seat]
            self.control.place(pad, chosen[2:])
            self.control.remove(pad)
            state.play(chosen)
        else:
            if not state.trick:
                self.control.remove(self.profile.trick_zone)  # the last trick is cleared
            tile = chosen.split("/")[0]
            options = [t for t in texts if t == tile or t.startswith(tile + "/")]
            self.control.place(self.profile.trick_zone, tile)
            if len(options) > 1:  # the suit it is played as: stepped, then held
                for _ in range(options.index(chosen)):
                    self.control.press(seat)
                self.control.press(seat, "long")
            state.play(chosen)
        return True


class ScriptedFortytwoGame(ScriptedTrickGame):
    """Texas 42: Moon's script with 42's calls (no widow; every lead makes its own suit)."""

    family = "fortytwo"
    calls = ("B", "TRUMP", "DOUBLES", "FOLLOWME", "NELLO", "SEVENS")


class ScriptedColumnGame(ScriptedTextGame):
    """The column game: the field turned up, both players' cards laid on their columns."""

    family = "column"

    def step(self):
        state = self.state
        texts = self.texts()
        draws = [t for t in texts if t.startswith("D") and not t.endswith("?")]
        if draws:  # the table deals the private decks unseen; the script draws at random, in the same order
            first = draws[0].split(":")[0]
            state.play(self.rng.choice([t for t in draws if t.startswith(first + ":")]))
            return False
        turned = [t for t in texts if t.startswith("F:")]
        if turned:
            chosen = self.rng.choice(turned)
            self.control.place(self.profile.field_zone[0], chosen[2:])
            state.play(chosen)
            return False  # turned up by the table's hand, no player's move
        first = self.rng.choice([t for t in texts if t.startswith("A0:")])
        state.play(first)
        second = self.rng.choice([t for t in self.texts() if t.startswith("A1:")])
        for seat, text in ((0, first), (1, second)):
            for column, card in enumerate(text[3:].split(",")):
                if card != "-":
                    self.control.place(self.profile.assign_zone[(column, seat)], card)
        state.play(second)
        for seat in (0, 1):
            for column in range(3):
                self.control.remove(self.profile.assign_zone[(column, seat)])
        return True


class ScriptedClimbGame(ScriptedTextGame):
    """Da San: the cut and the opener's heart shown on the pads, calls stepped, combinations
    laid on the player's pad; a pass is pressed only when a play follows it in the same trick
    (the passes that end a trick are left to the winner's next lead, docs/TABLE.md)."""

    family = "climb"
    settle_ms = SETTLE_MS  # how long a laid combination is left lying before it is lifted

    def __init__(self, control, link, ruleset, players, seed, on_play):
        ScriptedTextGame.__init__(self, control, link, ruleset, players, seed, on_play)
        self.unpressed = []  # seats whose pass the script made and nobody has pressed yet

    def begin(self):
        pass  # the cut comes first: cards laid on the pads

    def next_hand(self):
        self.control.press("ok")  # the summary; the next deal needs nothing

    def pad(self, seat):
        return self.profile.seat_zone[seat]

    def waited_for(self):
        return not self.unpressed  # a pass not pressed yet is one the table has not taken

    def step(self):
        state = self.state
        texts = self.texts()
        seat = state.current_player()
        if seat < 0:
            cuts = [t for t in texts if t.startswith("C")]
            if cuts:
                chosen = self.rng.choice(cuts)
                self.control.place(self.pad(int(chosen[1])), chosen[3:])
                self.control.remove(self.pad(int(chosen[1])))
            else:
                chosen = self.rng.choice([t for t in texts if not t.endswith("?")])
            state.play(chosen)
            if state.current_player() >= 0 and self.link.state()["to_act"] == "chance":
                opener = state.opener  # the table cannot tell the opener: it shows its lowest heart
                hearts = [c for c in state.hands[opener].known if suit_of(c) == HEARTS]
                lowest = min(hearts, key=lambda c: (rank_of(c) - 4) % 13)
                self.control.place(self.pad(opener), card_str(lowest))
                self.control.remove(self.pad(opener))
                self.shown += 1
            return False
        if any(t.startswith("B") for t in texts):
            self.choose_call(seat, self.rng.choice(texts), ("B",))
            return True
        plays = [t for t in texts if t != "PASS"]
        if plays and (self.rng.random() < 0.8 or "PASS" not in texts):
            chosen = self.rng.choice(plays)
            if "PASS" in texts:  # a beat: the passes before it are pressed (a lead takes them)
                for passer in self.unpressed:
                    self.control.press(passer)
            self.unpressed = []
            self.control.place(self.pad(seat), *chosen.split("+"))
            self.control.wait(self.settle_ms)
            self.control.remove(self.pad(seat))
        else:
            chosen = "PASS"
            self.unpressed.append(seat)
        state.play(chosen)
        return True


SCRIPTS = {script.family: script for script in (ScriptedTrickGame, ScriptedFortytwoGame, ScriptedColumnGame, ScriptedClimbGame)}
