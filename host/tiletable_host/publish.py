"""tiletable publish: the club's history as static pages, for any web host, with no server.

Writes into DIR the pages `tiletable serve` shows of the history, from the same templates:
the sessions (index.html), every session with its board to step through and its chart (the
plays' pictures are in the page itself: nothing is fetched), its record (.tgr), the players,
every player's page, the standings, the events and the league seasons with each one's page,
with the style sheet and scripts they load. Every link is
relative, so the folder works from any sub-folder of a web site and opened from the disk
(file://). The live tables and the big screen need the server: they are left out, and so
is the sessions filter (it asks the server).

The site is written into a new folder beside DIR, then put in DIR's place: a visitor never
meets half an old site and half a new one, and a publish that fails (an error, Ctrl-C, a
full disk) leaves the last one as it was. DIR must be a previous publish, empty, or new: any
other folder is refused, never replaced.

    tiletable publish site/
    tiletable publish /var/www/club/results --db postgresql://club@clubhouse/club
"""
import io
import json
import os
import posixpath
import shutil
import tempfile
import time
from urllib.parse import quote, unquote

from rich import box
from rich.console import Console
from rich.table import Table

from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host import events as club_events
from tiletable_host import league
from tiletable_host.errors import CommandError
from tiletable_host.progress import Progress
from tiletable_host.record import session_records_text
from tiletable_host.serve.pages import STATIC, HandTotals, Views, environment

MARKER = ".tiletable-publish"  # in DIR: what makes a folder a previous publish, safe to replace

# The published site, a row per kind of page: its name in the summary; each page of that kind
# in this database as (its address on the server, its file in DIR, what its view is given);
# and its text from those (``Site.page`` renders a view of ``pages.Views`` with its template).
SITE = [
    ("sessions list", lambda v: [("/history", "index.html", ())], lambda site: site.page(site.views.sessions)),
    ("sessions", lambda v: [("/history/session/%d" % s["id"], "sessions/%d.html" % s["id"], (s["id"],)) for s in v.sessions_registered()],
     lambda site, session_id: site.page(site.views.session, session_id)),
    ("records (.tgr)", lambda v: [("/history/session/%d.tgr" % s["id"], "sessions/%d.tgr" % s["id"], (s["id"],)) for s in v.sessions_registered()],
     lambda site, session_id: "".join(session_records_text(site.db, [site.db.session(session_id)]))),
    ("players list", lambda v: [("/history/players", "players.html", ())], lambda site: site.page(site.views.players)),
    ("players", lambda v: [("/history/player/" + name, "players/%s.html" % file_name(name), (name,)) for name in v.player_names()],
     lambda site, name: site.page(site.views.player, name)),
    ("standings", lambda v: [("/history/standings", "standings.html", ())], lambda site: site.page(site.views.standings)),
    ("events list", lambda v: [("/events", "events.html", ())], lambda site: site.page(site.views.events)),
    ("events", lambda v: [("/events/%d" % e["id"], "events/%d.html" % e["id"], (e["id"],)) for e in club_events.events(v.db)],
     lambda site, event_id: site.page(site.views.event, event_id)),
    ("league seasons list", lambda v: [("/leagues", "leagues.html", ())], lambda site: site.page(site.views.leagues)),
    ("league seasons", lambda v: [("/leagues/%d" % s["id"], "leagues/%d.html" % s["id"], (s["id"],)) for s in league.seasons(v.db)],
     lambda site, season_id: site.page(site.views.league, season_id)),
]


def configure(parser):
    parser.add_argument("dir", metavar="DIR", help="the folder to write the site into: new, empty, or a previous publish")
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())


def file_name(name):
    """A player's name as a file name on any disk and web host: the characters that cannot
    be in one (and ``%``, and a leading dot: a hidden file) written as ``%XX``."""
    safe = "".join("%%%02X" % ord(c) if c in '/\\:*?"<>|%' else c for c in name)
    return "%2E" + safe[1:] if safe.startswith(".") else safe


class Site:
    """The pages of the history of ``db`` as files: ``addresses`` maps each published address
    on the server (percent-decoded) to its file, so that a page's links become relative."""

    def __init__(self, db):
        self.db = db
        self.views = Views(db, HandTotals())
        self.templates = environment()
        self.pages = [(kind, address, path, args, render) for kind, listed, render in SITE for address, path, args in listed(self.views)]
        self.addresses = {address: path for _, address, path, _, _ in self.pages}
        self.static = set()  # the static files the pages load (not the live page's script)
        names = self.db.register_names()  # a name merged into a player's: the page is theirs (the server redirects)
        for other, name in names.items():
            if "/history/player/" + name in self.addresses:
                self.addresses.setdefault("/history/player/" + other, self.addresses["/history/player/" + name])
        self.here = None  # the file of the page being rendered

    def href(self, address):
        """``address`` on the server as a link from the page being rendered.

        :raises LookupError: for a page the site does not publish (a template that links to
            one would leave a broken link)."""
        address = unquote(address)
        path = self.addresses.get(address)
        if path is None and address.startswith("/static/") and os.path.isfile(os.path.join(STATIC, *address.split("/")[2:])):
            path = address[1:]
            self.static.add(path)
        if path is None:
            raise LookupError("%s links to %s, which is not published" % (self.here, address))
        return quote(posixpath.relpath(path, posixpath.dirname(self.here) or "."))

    def page(self, view, *args):
        template, context = view(*args)
        return self.templates.get_template(template).render(context, href=self.href, live=False)

    def write(self, folder, progress=None):
        """Write every page and the static files into ``folder``; per kind, (pages, bytes)."""
        written = {}
        for done, (kind, _, path, args, render) in enumerate(self.pages, 1):
            self.here = path
            data = render(self, *args).encode("utf-8")
            target = os.path.join(folder, *path.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(data)
            count, size = written.get(kind, (0, 0))
            written[kind] = (count + 1, size + len(data))
            if progress is not None:
                progress.update(done)
        for path in sorted(self.static):
            target = os.path.join(folder, *path.split("/"))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(os.path.join(STATIC, *path.split("/")[1:]), target)
        written["style and scripts"] = (len(self.static), sum(os.path.getsize(os.path.join(STATIC, *p.split("/")[1:])) for p in self.static))
        return written


def check_destination(folder):
    """:raises CommandError: when ``folder`` is a file, a link, or a folder with files in it
    that no publish wrote (never replaced: they are someone's)."""
    if not os.path.lexists(folder):
        return
    if os.path.islink(folder):  # replaced, it would stop leading where a web server may look
        raise CommandError("%s is a link; give the folder it leads to, %s" % (folder, os.path.realpath(folder)))
    if not os.path.isdir(folder):
        raise CommandError("%s is not a folder; give a new folder, an empty one, or a previous publish" % folder)
    if os.listdir(folder) and not os.path.isfile(os.path.join(folder, MARKER)):
        raise CommandError("%s has files that tiletable publish did not write; give a new folder, an empty one, or a previous publish" % folder)


def replace(folder, new):
    """Put the folder ``new`` in ``folder``'s place, then remove the old one (two renames: the
    site is missing only between them)."""
    old = None
    if os.path.lexists(folder):
        old = tempfile.mkdtemp(prefix=".%s-old-" % os.path.basename(folder), dir=os.path.dirname(folder))
        os.rmdir(old)
        os.rename(folder, old)
    os.rename(new, folder)
    if old is not None:
        shutil.rmtree(old)


def do_publish(args):
    folder = os.path.abspath(args.dir)
    check_destination(folder)
    db = dbmod.Database.open(dbtarget.resolve(args.db, dbmod.default_path()), create=False)
    parent = os.path.dirname(folder)
    os.makedirs(parent, exist_ok=True)
    new = tempfile.mkdtemp(prefix=".%s-new-" % os.path.basename(folder), dir=parent)
    try:
        site = Site(db)
        with Progress("publish", len(site.pages), "pages") as bar:
            written = site.write(new, bar)
        with open(os.path.join(new, MARKER), "w") as f:
            json.dump({"written": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "pages": len(site.pages)}, f)
        os.chmod(new, os.stat(folder).st_mode & 0o7777 if os.path.isdir(folder) else 0o777 & ~_umask())  # mkdtemp's 0700 would hide it from a web server
        check_destination(folder)  # another program may have written there meanwhile
        replace(folder, new)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    finally:
        db.close()
    print("\n".join(summary(written)))
    print("published into %s: open %s" % (folder, os.path.join(folder, "index.html")))
    return 0


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def summary(written):
    """What was written, per kind of page, as a table drawn by rich (plain text)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for heading in ("pages", "files", "size"):
        table.add_column(heading, justify="left" if heading == "pages" else "right")
    for kind, (count, size) in written.items():
        table.add_row(kind, str(count), size_text(size))
    table.add_row("all", str(sum(c for c, _ in written.values())), size_text(sum(s for _, s in written.values())), style="bold")
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(table)
    return [line.rstrip() for line in console.file.getvalue().split("\n") if line.strip()]


def size_text(size):
    """``size`` bytes as people read it: ``840 B``, ``12.3 kB``, ``4.1 MB``."""
    if size < 1000:
        return "%d B" % size
    if size < 1000 * 1000:
        return "%.1f kB" % (size / 1000)
    return "%.1f MB" % (size / 1000 / 1000)
