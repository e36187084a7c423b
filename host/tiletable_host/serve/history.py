"""The club's history as the browser shows it: sessions found by player, game and date,
one session hand by hand, a player's record, and per-game standings with ratings.

Ratings are openskill's Plackett-Luce model (a multiplayer generalisation of TrueSkill-like
ratings): every finished session is one match whose ranking is its final scores, in the order
the sessions were played. The page shows the ordinal (mu - 3 sigma), the conservative figure
players are sorted by.
"""
import calendar
import time

from openskill.models import PlackettLuce

from tiletable_host.people import chance_text, for_people, score_scale, score_value
from tiletable_host.serve.live import explained_scores
from tiletable_host.sessionlog import elapsed_text, result_of, session_scale


class Scales:
    """Each session's score units per point or chip (Buki: 2 half-chips), looked up once per
    ruleset version and player count: the pages show every score in the unit people read."""

    def __init__(self, db):
        self.db = db
        self._known = {}

    def __call__(self, session):
        key = (session["ruleset"], session["hash"], len(session["players"]))
        if key not in self._known:
            self._known[key] = session_scale(self.db, session)
        return self._known[key]


def _final_scores(session, scale_of):
    return [score_value(score, scale_of(session)) for score in session["result"]["scores"]]


def session_row(session, scale_of):
    """What a list of sessions shows of one; ``scale_of``: a session's score units per point or
    chip (``Scales``), here and in the functions below."""
    return {
        "id": session["id"],
        "started": session["started"],
        "ruleset": session["ruleset"],
        "table": session["table"],  # its name as people set it (`tiletable name`), else its id
        "players": session["players"],
        "result": result_of(session, scale_of(session)),
        "records": session["records"],
    }


def find_sessions(sessions, player="", game="", since="", until=""):
    """The sessions that have ``player`` at the table, are of ruleset ``game``, and started on
    or after ``since`` and on or before ``until`` (``YYYY-MM-DD``, UTC); empty means any.

    :raises ValueError: for a date that is not ``YYYY-MM-DD``.
    """
    low = _day_start(since) if since else None
    high = _day_start(until) + 86400 if until else None
    found = []
    for session in sessions:
        if player and player not in session["players"]:
            continue
        if game and session["ruleset"] != game:
            continue
        started = session["time"]
        if (low is not None or high is not None) and started is None:
            continue
        if (low is not None and started < low) or (high is not None and started >= high):
            continue
        found.append(session)
    return found


def _day_start(text):
    try:
        return calendar.timegm(time.strptime(text, "%Y-%m-%d"))
    except ValueError:
        raise ValueError("date %r is not YYYY-MM-DD" % text)


def finished(session):
    result = session["result"]
    return result is not None and isinstance(result.get("scores"), list) and len(result["scores"]) == len(session["players"])


def standings(sessions, scale_of):
    """Per ruleset, one row per player: sessions finished, wins (a top score, shared or not),
    points (Buki: chips) in total, and the openskill rating after all of them, best ordinal first."""
    model = PlackettLuce()
    games = {}
    for session in sessions:
        if not finished(session):
            continue
        table = games.setdefault(session["ruleset"], {})
        scores = _final_scores(session, scale_of)
        rows = [table.setdefault(name, {"player": name, "played": 0, "wins": 0, "points": 0, "rating": model.rating(name=name)}) for name in session["players"]]
        rated = model.rate([[row["rating"]] for row in rows], scores=list(scores))
        for row, [rating], score in zip(rows, rated, scores):
            row["rating"] = rating
            row["played"] += 1
            row["points"] += score
            row["wins"] += score == max(scores)
    result = {}
    for game in sorted(games):
        rows = sorted(games[game].values(), key=lambda r: -r["rating"].ordinal())
        for row in rows:
            rating = row.pop("rating")
            row.update(mu=round(rating.mu, 2), sigma=round(rating.sigma, 2), ordinal=round(rating.ordinal(), 2))
        result[game] = rows
    return result


def player_record(sessions, name, scale_of):
    """A player's sessions (newest first) and, per ruleset, sessions, wins and points (Buki: chips)."""
    own = [s for s in sessions if name in s["players"]]
    games = {}
    for session in own:
        row = games.setdefault(session["ruleset"], {"game": session["ruleset"], "played": 0, "finished": 0, "wins": 0, "points": 0})
        row["played"] += 1
        if finished(session):
            scores = _final_scores(session, scale_of)
            mine = scores[session["players"].index(name)]
            row["finished"] += 1
            row["points"] += mine
            row["wins"] += mine == max(scores)
    return [session_row(s, scale_of) for s in reversed(own)], [games[g] for g in sorted(games)]


def hands_of(replay):
    """The session hand by hand: each hand's plays (chance actions gathered on one line), with
    the scores they caused and the scores at the end of the hand."""
    names = replay.session["players"]
    scale = score_scale(replay.ruleset, len(names))
    hands = []
    chance = []
    for entry in replay.entries:
        if entry.kind == "score":
            continue
        if entry.kind == "action" and (not hands or hands[-1]["number"] != entry.hand + 1):
            _close_chance(hands, chance, names)
            hands.append({"number": entry.hand + 1, "steps": [], "scores": None})
        if not hands:
            continue
        if entry.kind == "action" and entry.actor is None and not entry.engine_scores:
            chance.append(entry.description or entry.text)
            continue
        _close_chance(hands, chance, names)
        hands[-1]["steps"].append(
            {
                "seq": entry.seq,
                "at": "" if entry.tenths is None else elapsed_text(entry.tenths),
                "player": names[entry.actor] if entry.actor is not None and entry.actor < len(names) else "",
                "text": entry.description if entry.kind == "end" else for_people(entry.description or entry.text, names),
                "undone": entry.undone,
                "scores": explained_scores(entry.engine_scores, names, scale),
            }
        )
        if entry.scores_after is not None and not entry.undone:
            hands[-1]["scores"] = [score_value(score, scale) for score in entry.scores_after]
    _close_chance(hands, chance, names)
    return hands


def _close_chance(hands, chance, names):
    if chance and hands:
        text = "chance: " + chance_text(chance, names)
        hands[-1]["steps"].append({"seq": None, "at": "", "player": "", "text": text, "undone": False, "scores": []})
    del chance[:]
