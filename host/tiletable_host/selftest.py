"""``tiletable selftest``: run the table's hardware self test and print its report.

The table tests every part of its pin map in turn (hardware/README.md, "First-run self test"):
the nine readers, the display, the LEDs, the buzzer, then the buttons. For the buttons a person
at the table presses each one the display asks for (``PUSH S1`` ... ``PUSH UNDO``), within 10 s
each; this command prints the same prompts as they come. At the end it prints every result;
the exit status is 1 when a part failed (warnings, e.g. a clone reader, do not count). The
display, the LEDs and the buzzer are judged by the person watching ("check" in the report).

``--last`` prints the table's last report again without testing (the table keeps it until it
restarts). A game in progress must be stopped first.

    tiletable selftest --last
"""
import time

from tiletable.proto.messages import SELF_TEST
from tiletable_host.connect import add_link_options, close_link, open_link
from tiletable_host.errors import CommandError

DEFAULT_WAIT = 150.0  # seconds: about 16 s of tests, 7 buttons x 10 s at most, the result
STATUS_WORDS = {"ok": "ok", "warn": "WARNING", "fail": "FAILED", "check": "check"}


def configure(parser):
    parser.add_argument("--last", action="store_true", help="print the last report again instead of running the test")
    parser.add_argument(
        "--wait", type=float, default=DEFAULT_WAIT, help="seconds to wait for the report (default: %(default)s)"
    )
    parser.add_argument("--quiet", action="store_true", help="print only the report, not the display's progress")
    add_link_options(parser)


class _Progress:
    """Collects the table's self-test events; prints what its display shows meanwhile."""

    def __init__(self, quiet):
        self.quiet = quiet
        self.report = None

    def on_event(self, name, fields):
        if name != "self test event":
            return
        if fields["done"]:
            self.report = fields
        elif not self.quiet:
            shows = fields["shows"]
            if shows.startswith("PUSH "):
                print("table shows %-10s -> press %s on the table (10 s)" % (shows, shows[5:]), flush=True)
            else:
                print("table shows %s" % shows, flush=True)


def format_report(report):
    """The report as lines of text: the result, then one line per row, then the counts."""
    lines = ["self test: %s" % report["shows"]]
    for row in report["results"]:
        status = STATUS_WORDS.get(row["status"], row["status"])
        lines.append(("  %-8s %-5s %-8s %s" % (row["part"], row["item"], status, row["detail"])).rstrip())
    failures = [row for row in report["results"] if row["status"] == "fail"]
    warnings = [row for row in report["results"] if row["status"] == "warn"]
    checks = [row["part"] for row in report["results"] if row["status"] == "check"]
    summary = "%d failed, %d warning%s" % (len(failures), len(warnings), "" if len(warnings) == 1 else "s")
    if checks:
        summary += "; judged by the person watching: %s" % ", ".join(checks)
    lines.append(summary)
    return lines


def do_selftest(args):
    progress = _Progress(args.quiet)
    link = open_link(args, on_event=progress.on_event)
    try:
        if not link.has_capability("selftest"):
            raise CommandError("this table's firmware has no self test (update it with `tiletable deploy`)")
        if args.last:
            link.request(SELF_TEST, {"run": 0})
        else:
            link.request(SELF_TEST, {"run": 1})
            if not args.quiet:
                print("self test started on %s: watch the table" % link.device_info["device"], flush=True)
        deadline = time.monotonic() + args.wait
        while progress.report is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CommandError("no self-test report within %.0f s (is someone pressing the buttons?)" % args.wait)
            link.poll_events(min(left, 0.2))
    finally:
        close_link(args, link)
    report = progress.report
    for line in format_report(report):
        print(line)
    failed = [row for row in report["results"] if row["status"] == "fail"]
    if failed:
        raise CommandError("%d part%s failed, the first: %s" % (len(failed), "" if len(failed) == 1 else "s", report["shows"]))
    return 0
