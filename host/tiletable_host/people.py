"""Seats and scores as a person reads them on the PC.

Seats count from 1 (``P1`` is the first seat) and carry the player's name when the session
has one; the engine and the journal count seats and hands from 0 (``P0``, ``hand 0``), so
every engine sentence shown is passed through ``for_people``. Buki's scores are kept in
half-chips (``score_scale`` 2) and read as chips.

>>> for_people("hand 0, action 5, P1: must play", ["ann", "bob"])
'hand 1, action 5, bob: must play'
>>> score_text(-75, 2), score_text(12, signed=True)
('-37.5', '+12')
"""
import re

import tiletable_host  # noqa: F401  (puts firmware/ on sys.path)
from tiletable.engine.betting import chips_text

_ENGINE_COUNT = re.compile(r"\bP(\d)\b|\bhand (\d+)\b")


def seat_name(names, seat):
    """The name of ``seat`` (from 0): the session's name for it, else ``P<seat + 1>``."""
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return "P%d" % (seat + 1)


def for_people(text, names):
    """An engine sentence with each seat (``P0``, from 0) named and each hand counted from 1."""

    def recount(match):
        if match.group(1) is not None:
            return seat_name(names, int(match.group(1)))
        return "hand %d" % (int(match.group(2)) + 1)

    return _ENGINE_COUNT.sub(recount, text)


def score_scale(ruleset, players):
    """How many score units make one point or chip in this ruleset (Buki: 2 half-chips)."""
    return getattr(ruleset.new_state(players), "score_scale", 1)


def score_text(score, scale=1, signed=False):
    """A score for people: ``-37.5`` chips from half-chips, a sign in front when ``signed``."""
    text = chips_text(score) if scale == 2 else str(score)
    return "+" + text if signed and score >= 0 else text


def score_event_text(event, names, scale=1):
    """``ann +10 fives: ends 4 + 6 = 10``: a ScoreEvent with its rule and arithmetic."""
    points = score_text(event.points, scale, signed=True)
    return "%s %s %s: %s" % (seat_name(names, event.seat), points, event.rule, for_people(event.detail, names))


def scores_text(names, scores, scale=1):
    """``ann 13, bob -20``: every seat's score with its name."""
    return ", ".join("%s %s" % (seat_name(names, seat), score_text(score, scale)) for seat, score in enumerate(scores))
