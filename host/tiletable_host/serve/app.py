"""The web app (Starlette): live pages fed by server-sent events, history pages rendered on
the server from the database the other commands use (a SQLite file, or the club's server).

Routes::

    /                         live tables (``?big=1``: the big-screen layout for a club room)
    /live/stream              server-sent events: every table's picture, as JSON, at each change
    /night                    tonight's leaderboard, as JSON (the big screen shows it beside the tables)
    /history                  sessions, filtered by ?player= &game= &since= &until=
    /history/session/N        one session hand by hand, explained scores, score chart
    /history/session/N.tgr    its tile game record (docs/RECORD.md)
    /history/players          the register: every player, sessions, wins, a rating
    /history/player/NAME      a player's sessions and games, average hand, ratings in words
                              (another name of theirs redirects to the register's name)
    /history/standings        per-game standings and openskill ratings
    /events                   the club's nights and tournaments
    /events/N                 an event's ranking of players and partnerships, and its rounds by table
    /leagues                  the league seasons
    /leagues/N                a season's table, teams and each fixture's legs with their sessions
    /history/players/add      (POST, the organiser's) add a player to the register
    /history/players/rename   (POST, the organiser's) call a player by another name
    /history/players/merge    (POST, the organiser's) make two names one player
    /organiser/sign-in        the organiser signs in with the PC's password (serve/organiser.py)
    /organiser/sign-out       (POST) and signs out
"""
import asyncio
import json
import os
import threading
import time
from urllib.parse import quote

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.errors import CommandError
from tiletable_host.record import session_records_text
from tiletable_host.register import registered
from tiletable_host.serve import history
from tiletable_host.serve.organiser import Organiser
from tiletable_host.serve.pages import STATIC, HandTotals, Views, boards, environment
EVENT_POLL = 0.05  # seconds between looks at the hub: a play reaches the page well within a second
SESSION_PAGES_KEPT = 64  # session pages kept rendered (a few MB at most)


def create_app(hub, db_path, organiser_path=None):
    """The ASGI app showing ``hub``'s live tables and the history in the database at ``db_path``;
    the organiser's password is read from ``organiser_path`` (default: the PC's)."""
    templates = environment()
    hand_totals = HandTotals()  # a player's page needs every hand of their sessions: replayed once

    def page(template, status=200, **context):
        return HTMLResponse(templates.get_template(template).render(**context), status_code=status)

    organiser = Organiser(page, organiser_path)

    def with_db(handler):
        """Open the database for one request (a connection per thread, as sqlite3 wants);
        without one, or for an unknown session, say so on the page."""

        def endpoint(request):
            if not dbtarget.is_server(db_path) and not os.path.exists(db_path):
                return page("message.html", 404, title="History", message="No database at %s yet: pull a table's journal first (tiletable pull)." % db_path)
            try:
                db = dbmod.Database.open(db_path, create=False)
            except CommandError as exc:
                return page("message.html", 500, title="History", message=str(exc))
            try:
                return handler(request, db)
            except CommandError as exc:
                return page("message.html", 404, title="History", message=str(exc))
            finally:
                db.close()

        return endpoint

    def live(request):
        big = request.query_params.get("big") == "1"
        return page("live.html", big=big, boards=boards(), title="Live tables")

    async def events(request):
        async def stream():
            seen = -1
            while True:
                version, tables = hub.tables()
                if version != seen:
                    seen = version
                    yield {"event": "tables", "data": json.dumps(tables)}
                await asyncio.sleep(EVENT_POLL)

        return EventSourceResponse(stream(), ping=15)

    def night(request):
        """Tonight's leaderboard; without a database yet, an empty one that says why."""
        if not dbtarget.is_server(db_path) and not os.path.exists(db_path):
            return JSONResponse({"rows": [], "problem": "no database yet"})
        try:
            db = dbmod.Database.open(db_path, create=False)
        except CommandError as exc:
            return JSONResponse({"rows": [], "problem": str(exc)})
        try:
            every = registered(db.sessions(), db.register_names())
            return JSONResponse({"rows": history.night_leaderboard(every, time.time()), "hours": history.NIGHT_HOURS})
        finally:
            db.close()

    def shown(view, *args, status=200, **extra):
        """A page of the history as ``pages.Views`` says it; ``extra``: what only the server
        shows on it (the organiser's forms)."""
        template, context = view(*args)
        return page(template, status, **dict(context, **extra))

    def sessions_page(request, db):
        query = {key: request.query_params.get(key, "").strip() for key in ("player", "game", "since", "until")}
        return shown(Views(db, hand_totals).sessions, query)

    rendered = {}  # a session page's text by what it shows: (id, records, result, table, ...)
    rendered_lock = threading.Lock()  # the pages are rendered in a pool of threads

    def session_page(request, db):
        """A session hand by hand with its board, kept once rendered: a club night's screens and
        phones ask for the same few sessions again and again, and a session's page changes only
        when a pull adds records to it (or ends it, or its table is renamed)."""
        session_id = request.path_params["session"]
        session = db.session(session_id)
        key = json.dumps([session[k] for k in ("id", "records", "result", "table", "players", "hash", "started")], sort_keys=True)
        with rendered_lock:
            text = rendered.get(key)
        if text is None:
            template, context = Views(db, hand_totals).session(session_id)
            text = templates.get_template(template).render(**context)
            with rendered_lock:
                rendered[key] = text
                while len(rendered) > SESSION_PAGES_KEPT:
                    del rendered[next(iter(rendered))]  # the oldest first
        return HTMLResponse(text)

    def session_record(request, db):
        session_id = request.path_params["session"]
        text = "".join(session_records_text(db, [db.session(session_id)]))
        headers = {"Content-Disposition": 'inline; filename="session-%d.tgr"' % session_id}
        return PlainTextResponse(text, headers=headers)

    def player_page(request, db):
        return show_player(request, db, request.path_params["name"])

    def show_player(request, db, name, status=200, **form):
        """A player's page; ``form``: an organiser's form sent back with its ``problem``."""
        names = db.register_names()
        if names.get(name, name) != name:  # another name of a player: their page is under the register's name
            return RedirectResponse(player_address(names[name]), status_code=301)
        others = [p["name"] for p in db.players() if p["name"] != name]  # whom the organiser may merge them with
        return shown(Views(db, hand_totals).player, name, status=status, registered=name in names, others=others,
                     **organiser.context(request), **form)

    def players_page(request, db, status=200, **form):
        return shown(Views(db, hand_totals).players, status=status, **organiser.context(request), **form)

    # The register from the browser: the organiser's (``organiser.write``), as `tiletable players`

    def player_address(name):
        return "/history/player/%s" % quote(name, safe="")

    def add_player(request, db):
        typed = request.state.form.get("name", "")
        try:
            name = db.add_player(typed)
        except CommandError as exc:
            return players_page(request, db, 400, problem=str(exc), typed=typed)
        return RedirectResponse(player_address(name), status_code=303)

    def rename_player(request, db):
        form = request.state.form
        old, typed = form.get("name", ""), form.get("new", "")
        try:
            new = db.rename_player(old, typed)
        except CommandError as exc:
            return show_player(request, db, old, 400, problem=str(exc), typed=typed)
        return RedirectResponse(player_address(new), status_code=303)

    def merge_player(request, db):
        form = request.state.form
        source, into = form.get("name", ""), form.get("into", "")
        try:
            db.merge_players(source, into)
        except CommandError as exc:
            return show_player(request, db, source, 400, problem=str(exc), chosen=into)
        return RedirectResponse(player_address(into), status_code=303)

    def standings_page(request, db):
        return shown(Views(db, hand_totals).standings)

    def events_page(request, db):
        return shown(Views(db, hand_totals).events)

    def event_page(request, db):
        return shown(Views(db, hand_totals).event, request.path_params["event"])

    def leagues_page(request, db):
        return shown(Views(db, hand_totals).leagues)

    def league_page(request, db):
        return shown(Views(db, hand_totals).league, request.path_params["season"])

    def favicon(request):
        return Response(status_code=204)

    routes = [
        Route("/", live),
        Route("/live/stream", events),
        Route("/night", night),
        Route("/history", with_db(sessions_page)),
        Route("/history/session/{session:int}", with_db(session_page)),
        Route("/history/session/{session:int}.tgr", with_db(session_record)),
        Route("/history/players", with_db(players_page)),
        Route("/history/player/{name}", with_db(player_page)),
        Route("/history/standings", with_db(standings_page)),
        Route("/events", with_db(events_page)),
        Route("/events/{event:int}", with_db(event_page)),
        Route("/leagues", with_db(leagues_page)),
        Route("/leagues/{season:int}", with_db(league_page)),
        Route("/history/players/add", organiser.write(with_db(add_player)), methods=["POST"]),
        Route("/history/players/rename", organiser.write(with_db(rename_player)), methods=["POST"]),
        Route("/history/players/merge", organiser.write(with_db(merge_player)), methods=["POST"]),
        Route("/favicon.ico", favicon),
        *organiser.routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.session_pages = rendered  # bench/pages.py empties it to time a first look
    return app
