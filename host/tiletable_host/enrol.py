"""``tiletable enrol``: write each piece's identity into its tag, one piece at a time.

The command names the next piece (``lay 3-5 on zone 0``); a person lays that piece on the pad
and lifts it once the command says it is written. The table writes the 16-byte record
(hardware/TAGS.md) into the tag with four NTAG WRITEs and reads it back; the command then
checks that the table reads the tag as that piece and that no other tag claims it.

What it will not do without being told: overwrite a tag that already names another piece, or
holds someone else's data (``--rewrite`` allows both). A tag already enrolled as the piece asked
for is kept as it is. A tag that refuses writes (locked pages, or no NTAG at all) is enrolled
by its UID in the table's UID table instead, which the table consults for tags without a
record. ``--only 3-5,6-6`` enrols just those pieces (a replacement sticker). The table must
have no game in progress.

    tiletable enrol --set 1 --only 3-5,6-6
"""
import time

from tiletable import tagrecord
from tiletable.proto.messages import EV_TAG_WRITE, EV_ZONE, message_name
from tiletable.tagrecord import BLANK, DAMAGED, DUPLICATE, NO_RECORD, WRITE_REFUSED
from tiletable_host.connect import add_link_options, close_link, open_link
from tiletable_host.errors import CommandError
from tiletable_host.pieces import PIECE_SETS, identity_text, parse_item, row_identity, set_items
from tiletable_host.transport import DeviceError

POLL_S = 0.2
WRITE_WAIT_S = 5.0  # the write runs within one scan cycle of the tray (tens of ms)
CONFIRM_WAIT_S = 3.0  # until the table reports the tag as its new piece
WRITE_TRIES = 3
_TAG_WRITE_EVENT = message_name(EV_TAG_WRITE)
_ZONE_EVENT = message_name(EV_ZONE)


def configure(parser):
    parser.add_argument("--set", type=int, required=True, dest="set_id", help="the set's number, 1..65535 (two boxes of the same game need two numbers)")
    parser.add_argument("--pieces", default="d6", choices=sorted(PIECE_SETS), help="which pieces the set holds (default: %(default)s)")
    parser.add_argument("--only", help="enrol only these pieces, comma-separated (e.g. 3-5,6-6 or H4,SA)")
    parser.add_argument("--zone", type=int, default=0, help="the pad to lay each piece on (default: %(default)s)")
    parser.add_argument("--rewrite", action="store_true", help="also overwrite tags that name another piece or hold other data")
    parser.add_argument("--wait", type=float, default=120.0, help="seconds to wait for each piece (default: %(default)s)")
    add_link_options(parser)


def _wanted(args):
    if not 1 <= args.set_id <= 0xFFFF:
        raise CommandError("set %d is out of range 1..65535" % args.set_id)
    kind, items = set_items(args.pieces)
    if not args.only:
        return kind, list(items)
    chosen = []
    for text in args.only.split(","):
        try:
            item = parse_item(kind, text)
        except ValueError as exc:
            raise CommandError("--only: %s" % exc)
        if item not in items:
            raise CommandError("--only: %s is not one of the %s" % (text.strip(), PIECE_SETS[args.pieces][1]))
        if item not in chosen:
            chosen.append(item)
    return kind, chosen


class Enrolment:
    """One run: the link, the pad, what was enrolled (identity -> uid) and how."""

    def __init__(self, link, zone, rewrite, wait):
        self.link = link
        self.zone = zone
        self.rewrite = rewrite
        self.wait = wait
        self.enrolled = {}
        self.counts = {"written": 0, "already": 0, "by uid": 0}
        self.writes = {}  # uid -> failure text of the finished write ("" when written)
        self.must_lift = None  # a tag that was dealt with: the next piece is another tag
        self.must_lift_item = None  # what the table reads it as (its zone event says when it is lifted)
        link.on_event = self._on_event

    def _on_event(self, name, fields):
        if name == _TAG_WRITE_EVENT and fields["zone"] == self.zone:
            self.writes[fields["uid"]] = fields["failure"]
        elif name == _ZONE_EVENT and fields["zone"] == self.zone and not fields["present"] and fields["tag"] == self.must_lift_item:
            # lifted: laid again, however soon, it is a new piece to judge (not "lift the last piece")
            self.must_lift = self.must_lift_item = None

    def say(self, text):
        print(text, flush=True)

    def next_tag(self, label):
        """Wait for exactly one new tag on the pad; returns its TAG_SCAN row."""
        deadline = time.monotonic() + self.wait
        said = None
        while True:
            rows = self.link.tag_scan(self.zone)
            uids = [row["uid"] for row in rows]
            if self.must_lift in uids:
                note = "lift the last piece off zone %d" % self.zone
            else:
                self.must_lift = None
                if len(rows) == 1:
                    return rows[0]
                note = "%d tags on zone %d: lay one piece at a time" % (len(rows), self.zone) if rows else None
            if note and note != said:
                self.say("  " + note)
            said = note or said
            if time.monotonic() > deadline:
                raise CommandError("no new tag on zone %d within %.0f s while waiting for %s" % (self.zone, self.wait, label))
            self.link.poll_events(POLL_S)

    def enrol(self, identity):
        """Enrol one piece: wait for a tag, decide, write (or use the UID table), confirm."""
        label = tagrecord.item_text(identity[0], identity[2])
        while True:
            row = self.next_tag(label)
            uid = row["uid"]
            self.must_lift = uid
            settled = self._settle(identity, row)
            reads_as = identity if settled else row_identity(row)
            self.must_lift_item = tagrecord.item_text(reads_as[0], reads_as[2]) if reads_as else None
            if settled:
                self.enrolled[identity] = uid
                return

    def _settle(self, identity, row):
        """True when the tag on the pad is now ``identity``; False asks for another tag."""
        uid = row["uid"]
        status = row["status"]
        claims = row_identity(row)
        if claims == identity and status == "":
            self.counts["already"] += 1
            self.say("  tag %s is %s already: kept" % (uid, identity_text(identity)))
            return True
        if claims is not None and claims in self.enrolled and self.enrolled[claims] != uid and status != DUPLICATE:
            self.say("  tag %s was enrolled as %s a moment ago: lay another tag" % (uid, identity_text(claims)))
            return False
        if not self.rewrite and claims is not None and claims != identity:
            self.say("  tag %s is %s: lift it, or run with --rewrite to enrol it again" % (uid, identity_text(claims)))
            return False
        if not self.rewrite and status not in ("", BLANK, DAMAGED, DUPLICATE) and status not in NO_RECORD:
            self.say("  tag %s holds other data (%s): lift it, or run with --rewrite to overwrite it" % (uid, status))
            return False
        if status in NO_RECORD:
            return self._by_uid(identity, uid, "it cannot be read as an NTAG213 (%s)" % status)
        return self._write(identity, uid)

    def _write(self, identity, uid):
        record = tagrecord.encode(*identity)
        for attempt in range(WRITE_TRIES):
            failure = self._write_once(uid, record)
            if failure is None:
                if not self._confirm(identity, uid):
                    return False
                self.counts["written"] += 1
                self.say("  %s written to tag %s: lift it" % (identity_text(identity), uid))
                return True
            if failure.startswith(WRITE_REFUSED):
                return self._by_uid(identity, uid, failure)
            self.say("  write failed: %s%s" % (failure, "; trying again" if attempt + 1 < WRITE_TRIES else ""))
        self.say("  could not write tag %s: lay it again, or another tag" % uid)
        return False

    def _write_once(self, uid, record):
        self.writes.pop(uid, None)
        try:
            self.link.tag_write(self.zone, uid, record)
        except DeviceError as exc:
            return exc.message
        deadline = time.monotonic() + WRITE_WAIT_S
        while uid not in self.writes:
            if time.monotonic() > deadline:
                return "the table did not report the write within %.0f s" % WRITE_WAIT_S
            self.link.poll_events(POLL_S)
        failure = self.writes.pop(uid)
        return failure or None

    def _by_uid(self, identity, uid, why):
        entries = self.link.uid_put(uid, identity)
        if not self._confirm(identity, uid):
            return False
        self.counts["by uid"] += 1
        self.say("  %s: enrolled tag %s as %s by its UID (the table's UID table has %d): lift it" % (why, uid, identity_text(identity), entries))
        return True

    def _confirm(self, identity, uid):
        """Wait until the table reads the tag as ``identity`` (a person lifts it only after the
        command says so); a duplicate is said, not hidden."""
        deadline = time.monotonic() + CONFIRM_WAIT_S
        while time.monotonic() < deadline:
            for row in self.link.tag_scan(self.zone):
                if row["uid"] == uid and row_identity(row) == identity:
                    if row["status"] == DUPLICATE:
                        self.say("  warning: another tag also claims %s on this table (a lost piece found again?)" % identity_text(identity))
                    return True
            self.link.poll_events(POLL_S)
        self.say("  the table does not read tag %s as %s yet: lay it again" % (uid, identity_text(identity)))
        return False


def do_enrol(args):
    kind, items = _wanted(args)
    link = open_link(args)
    try:
        if not link.has_capability("tags"):
            raise CommandError("this table's firmware cannot write tags (update it with `tiletable deploy`)")
        if link.state().get("mode") == "game":
            raise CommandError("a game is in progress on the table: stop it before enrolling tags")
        run = Enrolment(link, args.zone, args.rewrite, args.wait)
        print(
            "enrolling %d of the %s as set %d on zone %d of %s: lay each piece when asked, lift it once it is written"
            % (len(items), PIECE_SETS[args.pieces][1], args.set_id, args.zone, link.device_info["device"]),
            flush=True,
        )
        for n, item in enumerate(items):
            print("[%d/%d] lay %s on zone %d" % (n + 1, len(items), tagrecord.item_text(kind, item), args.zone), flush=True)
            run.enrol((kind, args.set_id, item))
    finally:
        close_link(args, link)
    counts = run.counts
    print(
        "set %d: %d piece%s enrolled (%d written, %d already enrolled, %d by UID)"
        % (args.set_id, len(run.enrolled), "" if len(run.enrolled) == 1 else "s", counts["written"], counts["already"], counts["by uid"])
    )
    return 0
