"""The club's history as the browser shows it: sessions found by player, game and date,
one session hand by hand, a player's record, and per-game standings with ratings.

Ratings are openskill's Plackett-Luce model (a multiplayer generalisation of TrueSkill-like
ratings): every finished session is one match whose ranking is its final scores, in the order
the sessions were played. The page shows the ordinal (mu - 3 sigma), the conservative figure
players are sorted by.
"""
import calendar
import re
import time

from openskill.models import PlackettLuce

from tiletable_host.people import chance_text, for_people, score_scale, score_value
from tiletable_host.register import player_counts, winners
from tiletable_host.serve.live import explained_scores
from tiletable_host.sessionlog import elapsed_text, end_words, result_of, session_scale
from tiletable_host.views import replay_pictures


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
        "result": result_words(session, scale_of(session)),
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
    """Per ruleset, one row per player: sessions finished, wins (the table's winners, else a top
    score, shared or not: as the register's pages count them),
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
        won = winners(session)
        for seat, (row, [rating], score) in enumerate(zip(rows, rated, scores)):
            row["rating"] = rating
            row["played"] += 1
            row["points"] += score
            row["wins"] += seat in won
    result = {}
    for game in sorted(games):
        rows = sorted(games[game].values(), key=lambda r: -r["rating"].ordinal())
        for row in rows:
            rating = row.pop("rating")
            row.update(mu=round(rating.mu, 2), sigma=round(rating.sigma, 2), ordinal=round(rating.ordinal(), 2))
        result[game] = rows
    return result


NIGHT_HOURS = 12  # a club night: the sessions started this long before the big screen looks


def night_leaderboard(sessions, now, hours=NIGHT_HOURS):
    """Tonight's players, best first: matches finished among the sessions started in the last
    ``hours`` before ``now`` (Unix seconds), and wins (the table's winners of each; a shared
    top score where the record names none), ranked by wins, then by fewer matches to get them."""
    rows = {}
    for session in sessions:
        if session["time"] is None or session["time"] < now - hours * 3600 or not finished(session):
            continue
        scores = session["result"]["scores"]
        winners = session["result"].get("winners")
        if winners is None:
            winners = [seat for seat, score in enumerate(scores) if score == max(scores)]
        for seat, name in enumerate(session["players"]):
            row = rows.setdefault(name, {"player": name, "played": 0, "wins": 0})
            row["played"] += 1
            row["wins"] += seat in winners
    return sorted(rows.values(), key=lambda r: (-r["wins"], r["played"], r["player"]))


def player_record(sessions, name, scale_of, hands_of=None):
    """A player's sessions (newest first) and, per ruleset, sessions, wins (the table's winners,
    else a top score), points (Buki: chips) and the average of their hands (``hands_of``: a
    session's ``hand_totals``, else no average). ``sessions``: with the register's names
    (``register.registered``), so a name merged into ``name`` counts as ``name``."""
    own = [s for s in sessions if name in s["players"]]
    games = {}
    for session in own:
        row = games.setdefault(session["ruleset"], {"game": session["ruleset"], "played": 0, "finished": 0, "wins": 0, "points": 0,
                                                    "hands": 0, "hand_points": 0, "average": None})
        row["played"] += 1
        seat = session["players"].index(name)
        if finished(session):
            scores = _final_scores(session, scale_of)
            row["finished"] += 1
            row["points"] += scores[seat]
            row["wins"] += seat in winners(session)
        for hand in hands_of(session) if hands_of is not None else ():
            row["hands"] += 1
            row["hand_points"] += hand[seat]
    for row in games.values():
        if row["hands"]:
            row["average"] = round(row["hand_points"] / row["hands"], 1)
    return [session_row(s, scale_of) for s in reversed(own)], [games[g] for g in sorted(games)]


def hand_totals(replay):
    """Each hand's points for every seat (Buki: chips), for the hands of the session that
    ended: a hand the session stopped in is left out, its points are not a hand's."""
    names = replay.session["players"]
    scale = score_scale(replay.ruleset, len(names))
    after = {}  # hand -> the scores after its last action in effect
    for entry in replay.entries:
        if entry.kind == "action" and not entry.undone and entry.scores_after is not None:
            after[entry.hand] = entry.scores_after
    hands = sorted(after)
    if hands and not (replay.state.is_over() or replay.state.hand_number > hands[-1]):
        hands.pop()
    totals, before = [], [0] * len(names)
    for hand in hands:
        totals.append([score_value(now - then, scale) for now, then in zip(after[hand], before)])
        before = after[hand]
    return totals


def players_index(players, sessions, scale_of):
    """The register for its index page: each player (by name) with sessions, wins, and the
    rating of the game they finished most (``sessions`` with the register's names)."""
    counts = player_counts(sessions, {})
    rated = standings(sessions, scale_of)
    rows = []
    for player in players:
        row = dict(counts.get(player["name"], {"played": 0, "finished": 0, "wins": 0}), player=player["name"], names=player["names"])
        best = None
        for game, game_rows in rated.items():
            for rating in game_rows:
                if rating["player"] == player["name"] and (best is None or rating["played"] > best["played"]):
                    best = dict(rating, game=game)
        row["rating"] = best
        rows.append(row)
    return rows


def rating_words(name, game, rating):
    """A player's openskill rating in a game in one sentence of plain words: the rating is the
    low end (mean less three deviations) of the best guess of their skill."""
    played = rating["played"]
    return (
        "A %s rating of %s means: after %d finished match%s, the best guess of %s's skill is %s, give or take %s,"
        " and %s is the low end of that, a level %s almost surely plays at or above; it grows with wins (above all"
        " over strong players) and as more matches make the guess surer." % (
            game, _number(rating["ordinal"]), played, "" if played == 1 else "es", name, _number(rating["mu"]),
            _number(3 * rating["sigma"]), _number(rating["ordinal"]), name)
    )


def _number(value):
    return "%.1f" % value


def session_story(replay):
    """The session hand by hand for its page: ``(hands, frames)``.

    Each hand has its steps in order: the plays in effect and the chance steps (a deal, a
    draw) numbered from 1 through the session, the one numbering people see and link to
    (``#play-12``); plays taken back, and the end, unnumbered. Each hand has its score sheet
    and the scores at its end. ``frames[n - 1]`` is what the board shows after step ``n``:
    the family's picture of the table, the scores and the step in words."""
    names = replay.session["players"]
    scale = score_scale(replay.ruleset, len(names))
    pictures = {id(entry): picture for entry, picture in replay_pictures(replay)}
    hands, frames, chance = [], [], []

    def number(step, last_entry):
        """Give ``step`` the next number and its frame, when the board can show it."""
        picture = pictures.get(id(last_entry))
        if picture is None:
            return
        step["play"] = len(frames) + 1
        frames.append({"play": step["play"], "hand": hands[-1]["number"], "text": step["text"], "player": step["player"],
                       "scores": [score_value(score, scale) for score in last_entry.scores_after], "table": picture})

    def close_chance():
        if chance and hands:
            opening = not any(s["player"] for s in hands[-1]["steps"])
            step = _step(chance[0], "", chance_words([e.description or e.text for e in chance], names, opening), [])
            step["chance"] = True
            hands[-1]["steps"].append(step)
            number(step, chance[-1])
        del chance[:]

    for entry in replay.entries:
        if entry.kind in ("score", "undo"):  # scores go with their play; an undone play says so itself
            continue
        if entry.kind == "action" and (not hands or hands[-1]["number"] != entry.hand + 1):
            close_chance()
            hands.append({"number": entry.hand + 1, "steps": [], "scores": None})
        if not hands:
            continue
        if entry.kind == "action" and entry.actor is None and not entry.engine_scores and not entry.undone:
            chance.append(entry)
            continue
        close_chance()
        player = names[entry.actor] if entry.actor is not None and entry.actor < len(names) else ""
        text = entry.description if entry.kind == "end" else for_people(entry.description or entry.text, names)
        step = _step(entry, player, text, explained_scores(entry.engine_scores, names, scale))
        hands[-1]["steps"].append(step)
        if entry.kind == "action" and not entry.undone:
            number(step, entry)
        if entry.scores_after is not None and not entry.undone:
            hands[-1]["scores"] = [score_value(score, scale) for score in entry.scores_after]
    close_chance()
    for hand in hands:
        hand["sheet"] = score_sheet(hand, names)
    return hands, frames


def _step(entry, player, text, scores):
    return {
        "play": None,
        "at": "" if entry.tenths is None else elapsed_text(entry.tenths),
        "player": player,
        "text": text,
        "undone": entry.undone,
        "scores": scores,
        "chance": False,
        "end": entry.kind == "end",
    }


_CHANCE_TO_SEAT = re.compile(r"^(.+) (?:receives|is dealt|draws) (\S+)$")


def chance_words(descriptions, names, opening):
    """Chance steps in a few words: ``the deal`` for those that open a hand (with any that
    are not a tile given to a seat: the widow, cuts, draws for the set), ``ann draws 3-4
    1-2`` for tiles drawn later, else the engine's sentences gathered (``chance_text``)."""
    words, given = [], []
    for text in descriptions:
        said = for_people(text, names)
        match = _CHANCE_TO_SEAT.match(said)
        if match and match.group(1) in names:
            given.append((match.group(1), match.group(2)))
        else:
            words.append(said)
    if opening:
        return "; ".join(["the deal"] + words)
    drawn = []
    for name, tile in given:
        if drawn and drawn[-1][0] == name:
            drawn[-1][1].append(tile)
        else:
            drawn.append((name, [tile]))
    parts = ["%s draws %s" % (name, " ".join(tiles)) for name, tiles in drawn]
    return "; ".join(parts + ([chance_text(words, names)] if words else []))


def score_sheet(hand, names):
    """A hand's score sheet: a row for each numbered step that scored (each player's points
    from it, by rule), the hand's total per player."""
    rows = []
    totals = [0] * len(names)
    for step in hand["steps"]:
        if step["undone"] or not step["scores"]:
            continue
        points = [[] for _ in names]
        for score in step["scores"]:
            if score["player"] in names:
                seat = names.index(score["player"])
                points[seat].append(score)
                totals[seat] += score["points"]
        rows.append({"play": step["play"], "text": step["text"], "points": points})
    return {"rows": rows, "totals": totals}


def result_words(session, scale, state=None):
    """The match's result in words (``bob won 203-171``); ``state``, the engine's at the end
    of the replay, names the winners when the table's record of the end does not."""
    result = session["result"]
    if result is None:
        return "in progress"
    if not result.get("winners") and state is not None and state.is_over() and result.get("scores"):
        result = dict(result, winners=list(state.outcome().winners))
    if result.get("winners") and result.get("scores"):
        return end_words(result, session["players"], scale)
    return result_of(session, scale)
