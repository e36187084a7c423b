"""What each history page shows, from the database: one place for the web app (``app.py``,
per request) and for ``tiletable publish`` (``publish.py``, every page into a folder), so a
published page is the page the server shows.

The templates name every page by its address on the server through ``href("/history/...")``:
the server's ``href`` gives the address as it is, ``publish`` gives a link relative to the
page's own file. ``live`` is false in a published page: the live tables, the filter that
asks the server and the organiser's sign-in are left out.
"""
import os
import threading

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from tiletable.families import FAMILIES
from tiletable_host import events as club_events
from tiletable_host import league
from tiletable_host.errors import CommandError
from tiletable_host.people import score_scale, score_value
from tiletable_host.plot import render_svg
from tiletable_host.register import registered
from tiletable_host.serve import history
from tiletable_host.sessionlog import replay_session

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")


def boards():
    """The registry's families whose board the live page loads: ``static/boards/<family>.js``."""
    return [family for family in FAMILIES if os.path.exists(os.path.join(STATIC, "boards", family + ".js"))]


def environment():
    """The templates, with a server's defaults: ``href`` an address as it is, ``live`` pages."""
    templates = Environment(loader=PackageLoader("tiletable_host.serve", "templates"), autoescape=select_autoescape())
    templates.globals.update(href=lambda address: address, live=True)
    return templates


class HandTotals:
    """Each session's ``history.hand_totals``, replayed once (again when a pull adds records
    to it): a player's page needs every hand of their sessions."""

    def __init__(self):
        self._kept = {}  # (id, records, hash) -> totals
        self._lock = threading.Lock()  # the server renders pages in a pool of threads

    def __call__(self, db, session):
        key = (session["id"], session["records"], session["hash"])
        with self._lock:
            totals = self._kept.get(key)
        if totals is None:
            try:
                totals = history.hand_totals(replay_session(db, session["id"]))
            except CommandError:  # its ruleset is not in this database: no hands to count
                totals = []
            with self._lock:
                self._kept[key] = totals
        return totals


class Views:
    """The history pages of ``db``: each method gives ``(template, context)``.

    :raises CommandError: for a session or a player the database does not have.
    """

    def __init__(self, db, hand_totals):
        self.db = db
        self.hand_totals = hand_totals
        self.names = db.register_names()
        self.scales = history.Scales(db)
        self._sessions = None

    def sessions_registered(self):
        """Every session, a merged name's under the register's name."""
        if self._sessions is None:
            self._sessions = registered(self.db.sessions(), self.names)
        return self._sessions

    def sessions(self, query=None):
        """The sessions found by ``query`` ({player, game, since, until}: empty, any)."""
        query = dict({key: "" for key in ("player", "game", "since", "until")}, **(query or {}))
        every = self.sessions_registered()
        try:
            found = history.find_sessions(every, **dict(query, player=self.names.get(query["player"], query["player"])))
            problem = ""
        except ValueError as exc:
            found, problem = [], str(exc)
        return "sessions.html", dict(
            title="Sessions",
            sessions=[history.session_row(s, self.scales) for s in reversed(found)],
            query=query,
            problem=problem,
            games=sorted({s["ruleset"] for s in every}),
            players=sorted({p for s in every for p in s["players"]}),
        )

    def session(self, session_id):
        """A session hand by hand with its board, its score sheets and its chart."""
        replay = replay_session(self.db, session_id)
        scale = score_scale(replay.ruleset, len(replay.session["players"]))
        hands, frames = history.session_story(replay)
        return "session.html", dict(
            title="Session %d" % session_id,
            session=history.session_row(replay.session, self.scales),
            result=history.result_words(replay.session, scale, replay.state),
            hands=hands,
            frames=frames,
            boards=boards(),
            final=[score_value(score, scale) for score in replay.state.scores],
            chart=Markup(render_svg(replay)),
            divergences=replay.divergences,
            violations=[v.text() for v in replay.violations],
        )

    def player_names(self):
        """Everyone with a page: the register and every name sessions are counted under."""
        return sorted({p["name"] for p in self.db.players()} | {p for s in self.sessions_registered() for p in s["players"]})

    def player(self, name):
        """A player's games, ratings in words and sessions (``name``: the register's name)."""
        every = self.sessions_registered()
        sessions, games = history.player_record(every, name, self.scales, lambda session: self.hand_totals(self.db, session))
        if not sessions and name not in self.names:
            raise CommandError("no session with a player named %r" % name)
        ratings = {game: row for game, rows in history.standings(every, self.scales).items() for row in rows if row["player"] == name}
        explained = [history.rating_words(name, game, ratings[game]) for game in sorted(ratings)]
        also = next((p["names"] for p in self.db.players() if p["name"] == name), [])
        return "player.html", dict(title=name, name=name, sessions=sessions, games=games, ratings=ratings, explained=explained, also=also)

    def players(self):
        rows = history.players_index(self.db.players(), self.sessions_registered(), self.scales)
        return "players.html", dict(title="Players", players=rows)

    def standings(self):
        return "standings.html", dict(title="Standings", standings=history.standings(self.sessions_registered(), self.scales))

    def events(self):
        """The club's nights and tournaments, the newest first."""
        return "events.html", dict(title="Events", events=club_events.events(self.db))

    def event(self, event_id):
        """An event's ranking of players and partnerships, and its rounds by table."""
        found = club_events.event(self.db, event_id)
        event_rounds = club_events.rounds(self.db, found["id"])
        players, pairs = club_events.event_ranking(self.db, event_rounds)
        rounds = [dict(r, sessions=[history.session_row(s, self.scales) for s in r["sessions"]]) for r in event_rounds]
        return "event.html", dict(title=found["name"], event=found, rounds=rounds, players=players, pairs=pairs)

    def leagues(self):
        """The league seasons."""
        return "leagues.html", dict(title="Leagues", seasons=league.seasons(self.db))

    def league(self, season_id):
        """A season's table, its teams, and each fixture's legs with the sessions that decided them."""
        view = league.season_view(self.db, season_id)
        for fixture in view["fixtures"]:
            for leg in fixture["legs"]:
                leg["words"] = league.result_text(leg)
        return "league.html", dict(view, title=view["season"]["name"])
