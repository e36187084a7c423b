"""``tiletable plot SESSION``: each seat's score over the session as an SVG line chart (pygal).

One line per seat over the actions, each drawn with its own dash pattern and points so that
seats whose scores run together stay visible, with a marker where each hand ends; the x axis
marks where each hand starts, the y axis is the score, a dashed line the match's target (for
a game played to one), the legend gives each player's final score. The text is in the
web pages' font. The scores are the
engine's, replayed from the journal, so undone actions do not appear.

    tiletable plot 12 -o match.svg
"""
import pygal
from pygal.style import Style

from tiletable_host import db as dbmod
from tiletable_host import dbtarget
from tiletable_host.people import score_scale, score_text
from tiletable_host.sessionlog import replay_session

WIDTH, HEIGHT = 900, 480
DASHES = ("", "8,4", "2,3", "10,3,2,3", "5,5", "1,4")  # one per seat: overlapping lines stay apart
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"  # the web pages' (serve/static/style.css); sizes read at 660 px wide
COLOURS = ("#0f5132", "#b42318", "#1f4e99", "#8a4b00", "#6b2d91", "#00606b")  # one per seat
TARGET_COLOUR = "#555555"
STYLE = dict(
    font_family=FONT,
    background="#ffffff",
    plot_background="#ffffff",
    foreground="#1b1b1b",
    foreground_strong="#1b1b1b",
    foreground_subtle="#767676",
    title_font_size=26,
    label_font_size=22,
    major_label_font_size=22,
    legend_font_size=22,
    tooltip_font_size=22,
)


def configure(parser):
    parser.add_argument("session", type=int, metavar="SESSION", help="session id (see `tiletable sessions`)")
    parser.add_argument("-o", "--output", default=None, help="SVG file to write (default: session-<SESSION>.svg)")
    parser.add_argument("--db", default=None, help=dbtarget.HELP % dbmod.default_path())


def score_series(replay):
    """``(points, hand_starts)``: points[i] is the scores after the i-th action in effect
    (points[0] the start), hand_starts the indices where a new hand begins."""
    players = len(replay.session["players"])
    points = [[0] * players]
    hand_starts = []
    hand = 0
    for entry in replay.actions():
        if entry.undone or entry.scores_after is None:
            continue
        if entry.hand != hand:
            hand_starts.append(len(points) - 1)
            hand = entry.hand
        points.append(list(entry.scores_after))
    return points, hand_starts


def turning_points(points, hand_starts):
    """The indices of ``points`` the lines need: the first and last, the hands' starts, and
    each side of every change. The points between lie on the straight line joining them, so
    the chart looks the same, and draws a long match (Moon: 800 actions) in far less time."""
    last = len(points) - 1
    keep = {0, last} | set(hand_starts)
    for i in range(1, last + 1):
        if points[i] != points[i - 1]:
            keep.update((i - 1, i))
    return sorted(keep)


def match_target(ruleset):
    """The score that ends the match, for a ruleset played to one (None: to a number of hands
    or games, or until the tiles run out)."""
    params = getattr(ruleset, "params", None) or {}
    if "target" in params and params.get("match_end", "target") == "target":
        return params["target"]
    return None


def render_svg(replay):
    """The chart as SVG text."""
    names = replay.session["players"]
    scale = score_scale(replay.ruleset, len(names))
    points, hand_starts = score_series(replay)
    totals = points[-1]
    points = [[v / scale for v in p] for p in points]  # chips for Buki (half-chips in the journal)
    hand_ends = sorted({start - 1 for start in hand_starts if start > 0} | {len(points) - 1})
    target = match_target(replay.ruleset)
    seats = [COLOURS[seat % len(COLOURS)] for seat in range(len(names))]
    # series in this order: each seat's line, the target, each seat's hand-end markers
    colours = seats + ([TARGET_COLOUR] if target is not None else []) + seats
    chart = pygal.XY(
        style=Style(colors=tuple(colours), **STYLE),
        width=WIDTH,
        height=HEIGHT,
        title="session %d: %s (%s)" % (replay.session["id"], replay.session["ruleset"], ", ".join(names)),
        x_title="hands: each starts at its number (the line steps at every score)",
        y_title="score",
        legend_at_bottom=True,
        show_dots=False,
        dots_size=5,
        legend_at_bottom_columns=3,
        show_x_guides=True,
        disable_xml_declaration=True,
        js=[],  # a file that opens anywhere, without fetching pygal's script from the web
    )
    chart.x_labels = [{"label": str(number), "value": start} for number, start in enumerate([0] + hand_starts, 1)]
    shown = turning_points(points, hand_starts)
    for seat, name in enumerate(names):
        chart.add(
            "%s: %s" % (name, score_text(totals[seat], scale)),
            [(i, points[i][seat]) for i in shown],
            stroke_style={"width": 3, "dasharray": DASHES[seat % len(DASHES)]},
        )
    if target is not None:
        chart.add("target: %s" % target, [(0, target), (len(points) - 1, target)], stroke_style={"width": 2, "dasharray": "12,6"})
    for seat in range(len(names)):  # no legend entry of their own (pygal leaves out a series titled None)
        chart.add(None, [(i, points[i][seat]) for i in hand_ends], stroke=False, show_dots=True)
    return chart.render(is_unicode=True) + "\n"


def do_plot(args):
    db = dbmod.Database.open(dbtarget.resolve(args.db, dbmod.default_path()), create=False)
    try:
        replay = replay_session(db, args.session)
    finally:
        db.close()
    path = args.output or "session-%d.svg" % args.session
    with open(path, "w") as f:
        f.write(render_svg(replay))
    print("wrote %s" % path)
    return 0
