"""``tiletable run``: a whole session end to end, on the simulated table or a real one.

On the simulated table (the default): start it, sync every preset (and the ruleset files
given, a file of a preset's name in its place), start the game ``--game`` names (Muggins by
default; a preset or a ruleset of the files), and play it the way people would: hands are laid on the seat pads (a hand scan) and OK pressed,
tiles are laid on the pad of the seat to act (a choice of ends is stepped with the seat
button and confirmed with a long press), a press draws or passes, a double press claims.
The moves come from a simple greedy player; a copy of the engine on the PC follows along and
each step is checked against the table's STATE. A game of another family is played by its
scripted player (scripted.py), the same way: pieces on the zones, the buttons pressed. A line tells the scores after each hand and
the watch view is printed once at the end (after every play with ``--live``). Then the
journal is pulled into SQLite and the session's record printed.

With ``--port`` (a Pico): the same, except that the people at the table play any ruleset
installed on it (``--game``); the view is redrawn until the game is over (or Ctrl-C), then the
session is pulled and printed.

Each run on the simulated table starts a new one, with its own id and journal: runs into one
``--db`` are separate sessions of separate tables. ``--name`` names the table first, as
``tiletable name`` does.

The players are people of the register of ``--db`` (`tiletable players`): a name nobody has
is refused, with the closest ones, unless ``--new-player`` adds it (a new database takes any
names, and its register starts with them); another name of a player (merged into theirs)
plays as the register's name.

    tiletable run --players ann,bob --hands 2 --db club.db
    tiletable run --players ann,dee --new-player --db club.db
    tiletable run --players cy,dee --new-player --db club.db --name "Table 2"
    tiletable run house.json --game house --db club.db
"""
import difflib
import os
import random
import tempfile
import time

from tiletable.engine.line_actions import DRAW, K_CLAIM, K_PLAY, P_DEAL, P_LOT, PASS, kind_of, tile_of
from tiletable.engine.rulesets import find_ruleset
from tiletable.engine.state import CHANCE, TERMINAL
from tiletable.engine.tiles import tile_str
from tiletable.profiles import profile_for
from tiletable.proto.messages import E_NO_MEMORY, RESTARTS_INTO
from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host import sync as syncmod
from tiletable_host.connect import add_link_options, close_link, open_link
from tiletable_host.errors import CommandError
from tiletable_host.name import checked_name, set_name
from tiletable_host.pull import pull_journal
from tiletable_host.sessionlog import replay_session
from tiletable_host.show import render_session
from tiletable_host.transport import DeviceError, TransportError
from tiletable_host.watch import TableView

GAME = "muggins"  # what run plays unless --game says otherwise
_CATCH_UP_MS = 700  # table time for a deferred press (a claim window waits for a double press)


def configure(parser):
    parser.add_argument("paths", nargs="*", metavar="PATH", help="ruleset .json files or directories of them, synced with the presets (one of a preset's name in its place)")
    parser.add_argument("--game", default=GAME, help="the installed ruleset to play: a preset or a house ruleset (default: %(default)s)")
    parser.add_argument("--players", default="ann,bob", help="player names, comma-separated, from the register of --db (`tiletable players`; default: %(default)s)")
    parser.add_argument("--new-player", action="store_true", help="add the names of --players the register does not know yet (else each is checked against it)")
    parser.add_argument("--hands", type=int, default=2, help="hands to play on the simulated table (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=5, help="seed of the deals and the players' choices (default: %(default)s)")
    parser.add_argument("--db", default=None, help="database to pull into and keep, a SQLite file or postgresql:// URL (default: $%s, else a temporary one, removed at the end)" % dbtarget.ENV)
    parser.add_argument("--name", default=None, help='name the table first, as `tiletable name` does (e.g. "Table 3")')
    parser.add_argument("--runtime", choices=("cpython", "micropython"), default="cpython", help="interpreter of the simulated device")
    parser.add_argument("--live", action="store_true", help="print the table's view after every play (default: once, at the end)")
    parser.add_argument("--pace", type=float, default=0.0, help="seconds to wait after each play on the simulated table, to follow it in the browser (default: %(default)s)")
    parser.add_argument("--http-port", type=int, default=0, help="port of the live view in the browser (default: a free one; -1: no live view)")
    add_link_options(parser)


class ScriptedGame:
    """Plays a line game on the simulated table through its control side, with a PC-side
    engine (``state``) that makes the choices and must agree with the table at every step."""

    def __init__(self, control, link, ruleset, players, seed, on_play):
        self.control = control
        self.link = link
        self.state = ruleset.new_state(players)
        self.rng = random.Random(seed)
        self.zone = profile_for(ruleset.name, players, ruleset.family).seat_zone
        self.on_play = on_play

    def play(self, hands):
        """Play until ``hands`` hands are over or the match ends."""
        state = self.state
        while state.current_player() != TERMINAL and state.hand_number < hands:
            if state.phase == P_DEAL:
                self._deal()
            elif state.phase == P_LOT:
                self._lot()
            elif state.current_player() == CHANCE:
                raise CommandError("the script cannot act for the table at %r" % state)
            else:
                hand = state.hand_number
                self._turn(state.current_player())
                if state.hand_number != hand or state.is_over():
                    if self.link.state().get("prompt", "").startswith("hand over"):
                        self.control.press("ok")  # close the hand's summary
                    self.on_play(hand_over=True)

    def _apply(self, text):
        self.state.apply(self.state.parse_action(text))

    def _deal(self):
        prompt = self.link.state().get("prompt", "")
        if not prompt.startswith("deal"):
            raise CommandError("the script would deal, but the table says %r" % prompt)
        state = self.state
        tiles = list(state.tiles)
        self.rng.shuffle(tiles)
        for seat in range(state.players):
            hand = [tile_str(t) for t in tiles[seat * state.per_hand : (seat + 1) * state.per_hand]]
            self.control.place(self.zone[seat], *hand)
            self.control.remove(self.zone[seat])
            for tile in hand:
                self._apply("D%d:%s" % (seat, tile))
        self.control.press("ok")
        self._check("the deal")

    def _lot(self):
        """The next seat of a lot draw lays a tile on its pad; it goes back afterwards."""
        state = self.state
        seat = state.lot_seats[0]
        text = state.action_str(self.rng.choice(state.chance_outcomes()))
        self.control.place(self.zone[seat], text.split(":")[1])
        self.control.remove(self.zone[seat])
        self._apply(text)
        self._check("the lot")

    def _choose(self, seat):
        """The greedy choice: the most points for ``seat`` now (a waive has no button)."""
        state = self.state
        best, best_gain = [], None
        for action in state.legal_actions():
            kind = kind_of(action)
            if action not in (DRAW, PASS) and kind not in (K_PLAY, K_CLAIM):
                continue
            if kind == K_CLAIM and state.action_str(action) != "claim%d" % seat:
                continue
            trial = state.clone()
            trial.apply(action)
            gain = trial.scores[seat] - state.scores[seat]
            if best_gain is None or gain > best_gain:
                best, best_gain = [action], gain
            elif gain == best_gain:
                best.append(action)
        return self.rng.choice(best)

    def _turn(self, seat):
        state = self.state
        action = self._choose(seat)
        text = state.action_str(action)
        claim_open = bool(state.claim_points)
        if kind_of(action) == K_CLAIM:
            self.control.press(seat, "double")
            self._apply(text)
        elif kind_of(action) == K_PLAY:
            tile = tile_of(action)
            options = [a for a in state.legal_actions() if kind_of(a) == K_PLAY and tile_of(a) == tile]
            self.control.place(self.zone[seat], tile_str(tile))
            if len(options) > 1:
                for _ in range(options.index(action)):
                    self.control.press(seat)
                self.control.press(seat, "long")
            self.control.remove(self.zone[seat])
            self._apply(text)
        else:  # draw, or pass when drawing is not allowed: the seat button
            self.control.press(seat)
            if claim_open:
                self.control.wait(_CATCH_UP_MS)
            self._apply(text)
            if action == DRAW:
                drawn = self.rng.choice([a for a in state.chance_outcomes() if not state.action_str(a).endswith("?")])
                tile = state.action_str(drawn).split(":")[1]
                self.control.place(self.zone[seat], tile)
                self.control.remove(self.zone[seat])
                state.apply(drawn)
        self._check(text)
        self.on_play(hand_over=False)

    def _check(self, step):
        """The table must have taken exactly the actions the script made."""
        snap = self.link.state()
        if snap.get("actions") != len(self.state.history) or snap.get("scores") != self.state.scores:
            raise CommandError(
                "after %s the table has %s actions and scores %s, the script %d and %s"
                % (step, snap.get("actions"), snap.get("scores"), len(self.state.history), self.state.scores)
            )


def _print_view(view, live=None):
    view.refresh()
    if live is not None:
        live.publish(view)
    print("\n".join("  | " + line for line in view.render()), flush=True)


class LiveView:
    """The browser view beside the session (``tiletable serve``'s app on this command's own
    link and database; ``port`` None: none), and with a club's PostgreSQL database the same
    pictures published to the club (serve/club.py): the address is printed, and the table's
    picture published after every play."""

    def __init__(self, db_path, port, table_name):
        from tiletable_host.serve.command import WebServer
        from tiletable_host.serve.live import Hub

        self.hub = Hub()
        self.table_name = table_name
        self.server = WebServer(self.hub, db_path, port=port) if port is not None else None
        self.publisher = None
        if dbtarget.is_server(db_path):
            from tiletable_host.serve import club

            club.check(db_path)
            self.publisher = club.ClubPublisher(db_path)

    def start(self):
        if self.publisher is not None:
            self.publisher.start()
        if self.server is not None:
            print("live view in a browser: %s" % self.server.start(), flush=True)

    def publish(self, view):
        from tiletable_host.serve.live import picture_of

        picture = picture_of(view)
        self.hub.publish(self.table_name, picture)
        if self.publisher is not None:
            self.publisher.publish(self.table_name, picture)

    def stop(self):
        if self.server is not None:
            self.server.stop()
        if self.publisher is not None:
            self.publisher.stop()


def do_run(args):
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    if args.name is not None:
        args.name = checked_name(args.name)
    args.documents = _documents(args.paths)
    if not args.port and getattr(args, "link", None) is None:
        args.ruleset = _scripted_ruleset(args.documents, args.game)
        _check_players(args.ruleset, names)
    with tempfile.TemporaryDirectory(prefix="tiletable-run-") as scratch:
        args.db = dbtarget.resolve(args.db, None)  # --db, else $TILETABLE_DB, else a temporary file
        db_path = args.db or os.path.join(scratch, "tiletable.db")
        if args.db:  # a database kept: the players are people of its register
            names = _registered(db_path, names, args.new_player)
        table = None
        if not args.port and getattr(args, "link", None) is None:
            from tiletable_host.sim import start_table

            table = start_table(args.runtime)
            args.port = table.port
            print("simulated table started on %s" % table.port, flush=True)
        try:
            link = open_link(args)
            try:
                session_id = _session(args, link, table, names, db_path)
            finally:
                close_link(args, link)
        finally:
            if table is not None:
                table.stop()
        db = dbmod.Database.open(db_path, create=False)
        try:
            print("\n".join(render_session(replay_session(db, session_id))))
        finally:
            db.close()
    return 0


def _registered(db_path, names, add_new):
    """The register's names of the players ``names`` (``register.check_players``): a typo
    does not start a game for a new person."""
    from tiletable_host.register import check_players

    db = dbmod.Database.open(db_path)
    try:
        chosen = check_players(db, names, add_new)
    finally:
        db.close()
    for name, registered in zip(names, chosen):
        if name != registered:
            print("%s plays as %s, the register's name" % (name, registered), flush=True)
    return chosen


def _documents(paths):
    """The presets and the ruleset files at ``paths``, validated; a file's ruleset of a
    preset's name is synced in its place (as a house version of that game)."""
    own = syncmod.collect_documents(paths, False)
    names = set(d.ruleset.name for d in own)
    return [d for d in syncmod.collect_documents([], True) if d.ruleset.name not in names] + own


def _scripted_ruleset(documents, game):
    """The ruleset ``game`` names among ``documents`` (or by a preset's alias), which the
    simulated table's scripted players play (``script_for``).

    :raises CommandError: for a name that is none of them, or a game of a family they do not play.
    """
    for document in documents:
        if document.ruleset.name == game:
            ruleset = document.ruleset
            break
    else:
        try:
            ruleset = find_ruleset(game)
        except ValueError:
            raise CommandError(_unknown(game, [d.ruleset.name for d in documents], "a preset nor a ruleset of the files given"))
    script_for(ruleset)
    return ruleset


def _check_players(ruleset, names):
    """:raises CommandError: when the ruleset's rules are not for that many players."""
    counts = [str(n) for n in ruleset.player_counts()]
    if str(len(names)) not in counts:
        allowed = " or ".join([", ".join(counts[:-1]), counts[-1]] if len(counts) > 1 else counts)
        raise CommandError("%s is for %s players, not %d: name them with --players" % (ruleset.name, allowed, len(names)))


def script_for(ruleset):
    """The class of the scripted player of ``ruleset``'s family on the simulated table: the
    greedy ``ScriptedGame`` for the line family, scripted.py's for the others.

    :raises CommandError: for a family no script plays.
    """
    if ruleset.family == "line":
        return ScriptedGame
    from tiletable_host.scripted import SCRIPTS

    if ruleset.family not in SCRIPTS:
        raise CommandError("%s is a game of the %s family, which the simulated table's scripted players do not play; play it at a table (--port)" % (ruleset.name, ruleset.family))
    return SCRIPTS[ruleset.family]


def _unknown(game, names, where):
    close = difflib.get_close_matches(game, names, n=1)
    return "no ruleset %r: it is neither %s%s" % (game, where, " (did you mean %r?)" % close[0] if close else "")


def _installed_game(link, game):
    """The table's name of ruleset ``game``: installed on it, or a preset's alias.

    :raises CommandError: naming the closest installed one.
    """
    installed = link.ruleset_list()
    if game in installed:
        return game
    try:
        return find_ruleset(game).name
    except ValueError:
        raise CommandError(_unknown(game, sorted(installed), "installed on the table nor a preset (tiletable sync FILE installs one)"))


def _session(args, link, table, names, db_path):
    """Sync, play (or watch people play), pull; returns the session's id in the database."""
    if args.name is not None:
        set_name(link, args.name)
    extra = [d.source for d in args.documents if not d.source.startswith("preset ")]
    print("== sync: every preset%s" % "".join(", " + source for source in extra), flush=True)
    syncmod.sync_documents(link, args.documents, db_path)
    game = args.ruleset.name if table is not None else _installed_game(link, args.game)
    _start_game(link, game, names)
    print("== %s for %s" % (game, ", ".join(names)), flush=True)
    rulesets = dbmod.Database.open(db_path)  # sync noted the documents: a house ruleset's view is explained
    try:
        return _play_and_pull(args, link, table, names, db_path, TableView(link, rulesets))
    finally:
        rulesets.close()


def _play_and_pull(args, link, table, names, db_path, view):
    link.on_event = view.on_event
    live = None
    if args.http_port >= 0 or dbtarget.is_server(db_path):
        live = LiveView(db_path, args.http_port if args.http_port >= 0 else None, "simulated table" if table is not None else args.port)
        live.start()
    try:
        if table is not None:
            hand_numbers = iter(range(1, args.hands + 2))

            def on_play(hand_over):
                if args.live:
                    _print_view(view, live)
                else:
                    if live is not None:
                        view.refresh()
                        live.publish(view)
                    if hand_over:
                        scores = ", ".join("%s %d" % (name, score) for name, score in zip(names, game.state.scores))
                        print("hand %d over: %s" % (next(hand_numbers), scores), flush=True)
                time.sleep(args.pace)

            game = script_for(args.ruleset)(table.control, link, args.ruleset, len(names), args.seed, on_play)
            game.play(args.hands)
            print("== the table now", flush=True)
            _print_view(view, live)
            if not game.state.is_over():
                link.game_stop()
        else:
            _watch_until_over(link, view, live)
    finally:
        if live is not None:
            live.stop()
    print("== pull", flush=True)
    db = dbmod.Database.open(db_path)
    try:
        added, _, _ = pull_journal(link, db)
        kept = dbtarget.redact(db_path) if args.db else "a temporary database (pass --db to keep the session)"
        print("pulled %d records into %s" % (added, kept), flush=True)
        return db.sessions()[-1]["id"]
    finally:
        db.close()


RESTART_WAIT = 20.0  # seconds for a table that restarts into the game to be back with it


def _start_game(link, game, names):
    """GAME_START; a table whose heap games have cut up restarts into the game (the reply says
    so): wait until it is back with the game started."""
    try:
        link.game_start(game, names)
        return
    except DeviceError as exc:
        if exc.code != E_NO_MEMORY or RESTARTS_INTO not in exc.message:
            raise
    print("== the table restarts to make room for %s" % game, flush=True)
    deadline = time.monotonic() + RESTART_WAIT
    while True:
        try:
            if link.state().get("ruleset") == game:
                return
        except TransportError:
            pass  # gone while it resets: the next request re-opens the port
        if time.monotonic() > deadline:
            raise CommandError("the table did not come back with %s started within %.0f s" % (game, RESTART_WAIT))
        time.sleep(0.2)


def _watch_until_over(link, view, live):
    """People play at a real table: redraw the view until the game is over or Ctrl-C."""
    try:
        while True:
            view.refresh()
            if live is not None:
                live.publish(view)
            print("\n".join(view.render()) + "\n", flush=True)
            if view.snapshot.get("mode") != "game":
                return
            link.poll_events(1.0)
    except KeyboardInterrupt:
        link.game_stop()
        print("stopped the game", flush=True)

