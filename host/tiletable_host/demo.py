"""``tiletable demo``: play and print a whole simulated match, every score change explained.

The default is what ``make run`` shows: a 4-player Muggins match to 200 between computer
players (seats alternate ``greedy``, which takes the action worth most to it right away,
and ``random``), dealt from a seeded shuffle, so the same seed prints the same match.
Each hand lists who sets, then every score change as ``who, rule, arithmetic`` with the
play that caused it, and ends with the hand and match totals. Seats count from 1 (``P1``).

    tiletable demo
"""
import random

from tiletable.engine.errors import RulesetError
from tiletable.engine.state import CHANCE
from tiletable_host.errors import CommandError
from tiletable_host.people import for_people, seat_name
from tiletable_host.simulate import choose, load_any_ruleset

MAX_ACTIONS = 20000  # far beyond any real match: stops a ruleset whose match never ends
NO_NAMES = ()  # computer players: seats are P1, P2 ... as people count them


def configure(parser):
    parser.add_argument("--ruleset", default="muggins", help="a preset name or a ruleset .json file (default: %(default)s)")
    parser.add_argument("--players", type=int, default=4, help="number of players (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the shuffle and of the players (default: %(default)s)")


def _points(state, points):
    """Points as the game counts them: Buki keeps half-chips and shows chips."""
    scale = getattr(state, "score_scale", 1)
    if scale == 1:
        return "%+d" % points
    whole, half = divmod(abs(points), scale)
    return "%s%d%s chips" % ("-" if points < 0 else "+", whole, ".5" if half else "")


def _totals(state, scores):
    return ", ".join("%s %s" % (seat_name(NO_NAMES, seat), _points(state, score).lstrip("+")) for seat, score in enumerate(scores))


def play_match(ruleset, players, seed, write):
    """Play one match, calling ``write(line)`` for each line of the account; return the final state."""
    try:
        state = ruleset.new_state(players)
    except RulesetError as exc:
        raise CommandError("%s: %s" % (exc.field, exc.reason))
    rng = random.Random(seed)
    strategies = ["greedy" if seat % 2 == 0 else "random" for seat in range(players)]
    write("%s (%s), %d players, seed %d" % (ruleset.name, ruleset.description or ruleset.family, players, seed))
    write("players: " + ", ".join("%s %s" % (seat_name(NO_NAMES, seat), strategies[seat]) for seat in range(players)))
    hand = -1
    for _ in range(MAX_ACTIONS):
        if state.is_over():
            break
        if state.hand_number != hand:
            hand = state.hand_number
            write("")
            write("hand %d" % (hand + 1))
            shown_setter = False
        player = state.current_player()
        action = choose(state, player, None if player == CHANCE else strategies[player], rng)
        text = for_people(state.describe(action), NO_NAMES)
        is_set = player != CHANCE and not shown_setter and state.action_str(action)[:1].isdigit()
        events = state.play(action)
        if is_set:
            shown_setter = True
            write("  %s" % text)
        for event in events:
            cause = text if player != CHANCE else "end of the hand"
            who = seat_name(NO_NAMES, event.seat)
            write("  %s %s %s: %s  [%s]" % (who, _points(state, event.points), event.rule, for_people(event.detail, NO_NAMES), cause))
        if state.hand_number != hand or state.is_over():
            finished = [e for e in state.score_events if e.hand == hand]
            gains = [0] * players
            for event in finished:
                gains[event.seat] += event.points
            write("  hand %d: %s | match: %s" % (hand + 1, _totals(state, gains), _totals(state, state.scores)))
    else:
        raise CommandError("%s: the match did not end within %d actions" % (ruleset.name, MAX_ACTIONS))
    outcome = state.outcome()
    winners = " and ".join(seat_name(NO_NAMES, seat) for seat in outcome.winners)
    write("")
    write("match over (%s) after %d hands: %s wins; %s" % (outcome.termination, state.hand_number + 1, winners, _totals(state, outcome.scores)))
    return state


def do_demo(args):
    ruleset = load_any_ruleset(args.ruleset)
    play_match(ruleset, args.players, args.seed, print)
