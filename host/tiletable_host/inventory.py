"""``tiletable inventory``: is a set complete and healthy? Lay its pieces on the pads and see.

Lay the pieces on any pads, several at a time (a pad reads a stack of a few tags), moving on
to the next batch whenever you like; the command lists each tag the table reads. It stops
when every piece of the set has been seen, or after ``--wait`` seconds without a new tag (or
on Ctrl-C), and reports: pieces missing, pieces claimed by two tags (duplicates), tags of
another set, and tags the table cannot use (blank, damaged, foreign, unreadable) with the
reason. The exit status is 1 unless the set is complete and clean.

    tiletable inventory --set 1
"""
import time

from tiletable.tagrecord import DUPLICATE
from tiletable.tagrecord import item_text
from tiletable_host.connect import add_link_options, close_link, open_link
from tiletable_host.errors import CommandError
from tiletable_host.pieces import PIECE_SETS, identity_text, row_identity, set_items
from tiletable_host.transport import DeviceError

POLL_S = 0.25


def configure(parser):
    parser.add_argument("--set", type=int, required=True, dest="set_id", help="the set's number")
    parser.add_argument("--pieces", default="d6", choices=sorted(PIECE_SETS), help="which pieces the set holds (default: %(default)s)")
    parser.add_argument("--zones", help="the pads to read, comma-separated (default: every zone)")
    parser.add_argument("--wait", type=float, default=60.0, help="stop after this many seconds without a new tag (default: %(default)s)")
    add_link_options(parser)


def _zones(args, link):
    """The zones to read: those named, else every zone the table has (it refuses the first
    number past its last zone)."""
    if args.zones:
        try:
            return [int(z) for z in args.zones.split(",")]
        except ValueError:
            raise CommandError("--zones: %r is not a list of zone numbers" % args.zones)
    zones = []
    while len(zones) < 256:
        try:
            link.tag_scan(len(zones))
        except DeviceError:
            break
        zones.append(len(zones))
    return zones


class Census:
    """Every tag seen: uid -> (zone, status, identity or None), the latest reading."""

    def __init__(self, set_id, kind, items):
        self.set_id = set_id
        self.kind = kind
        self.items = items
        self.tags = {}

    def add(self, zone, row):
        """Record a TAG_SCAN row; returns a line to print when the tag or its reading is new."""
        seen = (zone, row["status"], row_identity(row))
        before = self.tags.get(row["uid"])
        self.tags[row["uid"]] = seen
        if before is not None and before[1:] == seen[1:]:
            return None
        identity = seen[2]
        what = identity_text(identity) if identity else "no piece"
        status = " (%s)" % row["status"] if row["status"] else ""
        return "zone %d: %s, tag %s%s" % (zone, what, row["uid"], status)

    def claims(self):
        """identity -> [uids] for the tags that name a piece of this set."""
        out = {}
        for uid, (_, _, identity) in sorted(self.tags.items()):
            if identity is not None and identity[0] == self.kind and identity[1] == self.set_id:
                out.setdefault(identity[2], []).append(uid)
        return out

    def complete(self):
        claims = self.claims()
        return all(item in claims for item in self.items)

    def report(self):
        """The report's lines, and whether the set is complete and clean."""
        claims = self.claims()
        found = [item for item in self.items if item in claims]
        missing = [item for item in self.items if item not in claims]
        lines = ["set %d: %d of %d pieces found, %d missing" % (self.set_id, len(found), len(self.items), len(missing))]
        if missing:
            lines.append("  missing: " + " ".join(item_text(self.kind, item) for item in missing))
        twice = [(item, uids) for item, uids in sorted(claims.items()) if len(uids) > 1]
        for item, uids in twice:
            lines.append("  duplicate: %s on tags %s" % (item_text(self.kind, item), ", ".join(uids)))
        strays = [item for item in claims if item not in self.items]
        for item in strays:
            lines.append("  not of this set's kind: %s on tag %s" % (item_text(self.kind, item), ", ".join(claims[item])))
        others = []
        unusable = []
        for uid, (zone, status, identity) in sorted(self.tags.items()):
            if identity is not None and (identity[0] != self.kind or identity[1] != self.set_id):
                others.append("  other set: tag %s is %s" % (uid, identity_text(identity)))
            elif identity is None or (status and status != DUPLICATE):
                unusable.append("  unusable: tag %s on zone %d: %s" % (uid, zone, status or "no identity"))
        lines += others + unusable
        healthy = not (missing or twice or strays or others or unusable)
        lines.append("set %d is complete and every tag reads well" % self.set_id if healthy else "set %d needs attention" % self.set_id)
        return lines, healthy


def do_inventory(args):
    kind, items = set_items(args.pieces)
    census = Census(args.set_id, kind, items)
    link = open_link(args)
    try:
        if not link.has_capability("tags"):
            raise CommandError("this table's firmware cannot list tags (update it with `tiletable deploy`)")
        zones = _zones(args, link)
        print(
            "inventory of set %d (%s, %d pieces): lay the pieces on zones %s, a few at a time; Ctrl-C ends it"
            % (args.set_id, PIECE_SETS[args.pieces][1], len(items), ",".join(str(z) for z in zones)),
            flush=True,
        )
        last_new = time.monotonic()
        try:
            while not census.complete() and time.monotonic() - last_new < args.wait:
                for zone in zones:
                    for row in link.tag_scan(zone):
                        line = census.add(zone, row)
                        if line:
                            print(line, flush=True)
                            last_new = time.monotonic()
                link.poll_events(POLL_S)
        except KeyboardInterrupt:
            print("stopped", flush=True)
    finally:
        close_link(args, link)
    lines, healthy = census.report()
    for line in lines:
        print(line)
    return 0 if healthy else 1
