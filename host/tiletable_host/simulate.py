"""``tiletable simulate RULESET -n N``: play N hands with computer players, engine only, and report statistics.

Any preset or ruleset file works, line, trick, column and climbing games alike. The computer
players: ``random`` picks any legal move; ``greedy`` takes the move that gains its own seat the
most points right away (ties broken at random), as a beginner would; in a game whose lowest
total wins (Mexican Train) it takes the fewest, and a hand's winner is the seat with the
fewest. Where everyone chooses at once (the column game's hidden assignments) the choice is
random, whatever the strategy.
Matches restart when one ends until N hands have been played. The report gives each seat's
points per hand, the spread of scores, how often the first player won and match wins.

    tiletable simulate moon -n 1000 --strategies greedy,random --seed 1
"""
import copy
import copyreg
import io
import math
import random
import statistics
import time

from rich import box
from rich.console import Console
from rich.table import Table

from tiletable.engine.errors import RulesetError
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE, SIMULTANEOUS, TERMINAL
from tiletable_host.errors import CommandError
from tiletable_host.people import seat_name
from tiletable_host.progress import Progress
from tiletable_host.schema import read_ruleset_file

STRATEGIES = ("random", "greedy")
MAX_ACTIONS_PER_HAND = 20000  # far beyond any real hand; stops a ruleset that never ends a hand


def configure(parser):
    parser.add_argument("ruleset", metavar="RULESET", help="a preset name (muggins, moon, ...) or a ruleset .json file")
    parser.add_argument("-n", "--hands", type=int, default=100, help="hands to play (default: %(default)s)")
    parser.add_argument("--players", type=int, default=None, help="number of players (default: the ruleset's)")
    parser.add_argument(
        "--strategies",
        default="greedy,random",
        help="strategy of each seat, comma-separated and repeated as needed: random, greedy (default: %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=None, help="random seed, for a repeatable run")


def load_any_ruleset(spec):
    """A preset by name or alias, or a ruleset document from a .json file.

    :raises CommandError: naming the file or preset and the reason.
    """
    if spec.endswith(".json"):
        return read_ruleset_file(spec)
    try:
        return find_ruleset(spec)
    except ValueError as exc:
        raise CommandError(str(exc))


class Stats:
    """What the simulation measured: per hand, its length, points per seat, first actor."""

    def __init__(self, players, strategies):
        self.players = players
        self.strategies = strategies
        self.hand_lengths = []  # player decisions per hand (chance excluded)
        self.hand_points = []  # a list of points per seat, per hand
        self.first_actors = []  # the seat that made the hand's first decision (None: simultaneous)
        self.match_winners = []  # winners of each finished match
        self.matches = 0
        self.lowest_wins = False  # the game's points count against a seat (Mexican Train)

    def add_hand(self, length, points, first_actor):
        self.hand_lengths.append(length)
        self.hand_points.append(points)
        self.first_actors.append(first_actor)

    def report(self):
        """The statistics as lines of text."""
        hands = len(self.hand_lengths)
        lines = ["%d hands in %d matches (%d finished), %d players: %s" % (
            hands, self.matches, len(self.match_winners), self.players,
            ", ".join("%s %s" % (seat_name((), i), s) for i, s in enumerate(self.strategies)))]
        if not hands:
            return lines
        lines.append("hand length: %.1f player actions on average (min %d, max %d)" % (
            statistics.mean(self.hand_lengths), min(self.hand_lengths), max(self.hand_lengths)))
        lines.extend(self._seat_table())
        lines.extend(histogram([v for p in self.hand_points for v in p]))
        decided = [(first, points) for first, points in zip(self.first_actors, self.hand_points) if first is not None]
        wins = sum(1 for first, points in decided if _sole_best(points, self.lowest_wins) == first)
        if decided:
            lines.append("first player advantage: the seat that acted first won %d of %d hands (%.1f%%; an even share is %.1f%%)" % (
                wins, len(decided), 100.0 * wins / len(decided), 100.0 / self.players))
        else:
            lines.append("first player advantage: no hand has a first player (every decision is simultaneous)")
        if self.match_winners:
            counts = [sum(1 for w in self.match_winners if seat in w) for seat in range(self.players)]
            lines.append("match wins by seat: " + ", ".join("%s %d" % (seat_name((), i), c) for i, c in enumerate(counts)))
        return lines


    def _seat_table(self):
        """Points per hand by seat, as a table drawn by rich (plain text, no colours)."""
        table = Table(title="points per hand by seat:", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
        for heading in ("seat", "strategy", "mean", "sd", "min", "median", "max"):
            table.add_column(heading, justify="left" if heading in ("seat", "strategy") else "right")
        for seat in range(self.players):
            values = [p[seat] for p in self.hand_points]
            table.add_row(
                seat_name((), seat), self.strategies[seat], "%.2f" % statistics.mean(values), "%.2f" % statistics.pstdev(values),
                str(min(values)), "%.1f" % statistics.median(values), str(max(values)),
            )
        console = Console(file=io.StringIO(), width=100, color_system=None)
        console.print(table)
        return [line.rstrip() for line in console.file.getvalue().split("\n") if line.strip()]


def _sole_best(points, lowest_wins):
    best = min(points) if lowest_wins else max(points)
    seats = [i for i, p in enumerate(points) if p == best]
    return seats[0] if len(seats) == 1 else None


def histogram(values, bins=8, width=40):
    """A text histogram of ``values`` (the score distribution), one line per bin."""
    low, high = min(values), max(values)
    size = max(1, int(math.ceil((high - low + 1) / bins)))
    counts = {}
    for v in values:
        start = low + (v - low) // size * size
        counts[start] = counts.get(start, 0) + 1
    top = max(counts.values())
    lines = ["score distribution (points per seat per hand):"]
    for start in sorted(counts):
        bar = "#" * max(1, int(round(width * counts[start] / top)))
        label = "%d" % start if size == 1 else "%d..%d" % (start, start + size - 1)
        lines.append("  %12s %6d %s" % (label, counts[start], bar))
    return lines


def choose(state, player, strategy, rng):
    """The action for the node ``player`` (a seat, CHANCE or SIMULTANEOUS)."""
    if player == CHANCE:
        return rng.choice(list(state.chance_outcomes()))
    actions = list(state.legal_actions())
    if not actions:
        raise CommandError("%s: no legal action for %s after %d actions" % (state.ruleset.name, player, len(state.history)))
    if player == SIMULTANEOUS or strategy == "random" or len(actions) == 1:
        return rng.choice(actions)
    best, best_gain = [], None
    sense = -1 if getattr(state, "lowest_wins", False) else 1
    for action in actions:
        gain = sense * immediate_gain(state, action, player)
        if best_gain is None or gain > best_gain:
            best, best_gain = [action], gain
        elif gain == best_gain:
            best.append(action)
    return rng.choice(best)


def _reduce_bytearray(data):
    """How ``copy.deepcopy`` rebuilds a bytearray (registered with copyreg below). The built-in
    way asks ``copyreg._slotnames`` every time, which cannot cache its answer on a built-in type
    and wraps the attempt in a bare ``except: pass``: a Ctrl-C landing there was swallowed, and
    ``immediate_gain`` copies the engine's bytearrays at every trial move."""
    return bytearray, (bytes(data),)


copyreg.pickle(bytearray, _reduce_bytearray)


def immediate_gain(state, action, player):
    """The points ``action`` gains ``player`` right away, tried on a copy of ``state``.

    ``state.clone()`` replays the whole match, so a greedy player's every decision would cost
    more as the match grows (moon: 80 hands took 15 times as long as 20). The copy here costs
    the size of the position instead: the lists that only grow over a match (the history and
    the score events) and the ruleset are shared with the original rather than copied, and
    what the trial appended to them is cut off again.
    """
    history, events = state.history, state.score_events
    kept = len(history), len(events)
    memo = {id(state.ruleset): state.ruleset, id(history): history, id(events): events}
    trial = copy.deepcopy(state, memo)
    try:
        trial.apply(action)
        return trial.scores[player] - state.scores[player]
    finally:
        del history[kept[0]:]
        del events[kept[1]:]


def simulate(ruleset, hands, players=None, strategies=("greedy", "random"), seed=None, on_hand=None):
    """Play ``hands`` hands; returns ``Stats``. ``on_hand(done)`` follows the progress."""
    rng = random.Random(seed)
    state = ruleset.new_state(players)
    seats = [strategies[i % len(strategies)] for i in range(state.players)]
    stats = Stats(state.players, seats)
    stats.lowest_wins = getattr(state, "lowest_wins", False)
    stats.matches = 1
    while len(stats.hand_lengths) < hands:
        if state.current_player() == TERMINAL:
            stats.match_winners.append(state.outcome().winners)
            state = state.fresh()
            stats.matches += 1
        _play_hand(state, seats, rng, stats)
        if on_hand is not None:
            on_hand(len(stats.hand_lengths))
    if state.current_player() == TERMINAL:
        stats.match_winners.append(state.outcome().winners)
    return stats


def _play_hand(state, seats, rng, stats):
    hand = state.hand_number
    start = list(state.scores)
    decisions = 0
    first = None
    moved = False
    for _ in range(MAX_ACTIONS_PER_HAND):
        player = state.current_player()
        if player == TERMINAL or state.hand_number != hand:
            stats.add_hand(decisions, [s - b for s, b in zip(state.scores, start)], first)
            return
        if player != CHANCE:
            decisions += 1
            if not moved:
                first = player if player >= 0 else None
                moved = True
        state.apply(choose(state, player, seats[player] if player >= 0 else "random", rng))
    raise CommandError("%s: a hand did not end after %d actions" % (state.ruleset.name, MAX_ACTIONS_PER_HAND))


def do_simulate(args):
    if args.hands < 1:
        raise CommandError("-n must be at least 1 (got %d)" % args.hands)
    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    for strategy in strategies:
        if strategy not in STRATEGIES:
            raise CommandError("unknown strategy %r (known: %s)" % (strategy, ", ".join(STRATEGIES)))
    ruleset = load_any_ruleset(args.ruleset)
    try:
        ruleset.new_state(args.players)
    except RulesetError as exc:
        raise CommandError("%s: %s" % (ruleset.name, exc.reason))
    started = time.monotonic()
    with Progress("simulate", args.hands, "hands") as bar:
        stats = simulate(ruleset, args.hands, args.players, strategies or STRATEGIES, args.seed, bar.update)
    print("%s (hash %s), %.1f s" % (ruleset.name, ruleset.hash, time.monotonic() - started))
    print("\n".join(stats.report()))
    return 0
