"""``tiletable plot SESSION``: each seat's score over the session as an SVG line chart.

Drawn by hand (no plotting library): one polyline per seat over the actions, dashed lines
where a hand ends, a legend with the players' names. The scores are the engine's, replayed
from the journal, so undone actions do not appear.
"""
from xml.sax.saxutils import escape

from tiletable_host import db as dbmod
from tiletable_host.people import score_scale, score_text
from tiletable_host.sessionlog import replay_session

WIDTH, HEIGHT = 720, 360
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 30, 40
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b")


def configure(parser):
    parser.add_argument("session", type=int, metavar="SESSION", help="session id (see `tiletable sessions`)")
    parser.add_argument("-o", "--output", default=None, help="SVG file to write (default: session-<SESSION>.svg)")
    parser.add_argument("--db", default=None, help="SQLite database (default: %s)" % dbmod.default_path())


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


def render_svg(replay):
    """The chart as SVG text."""
    names = replay.session["players"]
    scale = score_scale(replay.ruleset, len(names))
    points, hand_starts = score_series(replay)
    totals = points[-1]
    points = [[v / scale for v in p] for p in points]  # chips for Buki (half-chips in the journal)
    low = min(0, min(min(p) for p in points))
    high = max(1, max(max(p) for p in points))
    steps = max(len(points) - 1, 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i):
        return LEFT + plot_w * i / steps

    def y(v):
        return TOP + plot_h * (high - v) / (high - low)

    title = "session %d: %s (%s)" % (replay.session["id"], replay.session["ruleset"], ", ".join(names))
    out = [
        '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">'
        % (WIDTH, HEIGHT, WIDTH, HEIGHT),
        '<rect width="100%" height="100%" fill="white"/>',
        '<text x="%d" y="18" font-size="14">%s</text>' % (LEFT, escape(title)),
        '<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="black"/>' % (LEFT, y(low), LEFT + plot_w, y(low)),
        '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>' % (LEFT, TOP, LEFT, TOP + plot_h),
    ]
    for tick in _ticks(low, high):
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (LEFT, y(tick), LEFT + plot_w, y(tick)))
        out.append('<text x="%d" y="%.1f" text-anchor="end">%d</text>' % (LEFT - 6, y(tick) + 4, tick))
    for number, start in enumerate(hand_starts, 2):
        out.append(
            '<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#999" stroke-dasharray="4 3"/>' % (x(start), TOP, x(start), TOP + plot_h)
        )
        out.append('<text x="%.1f" y="%d" fill="#666">hand %d</text>' % (x(start) + 3, TOP + plot_h + 14, number))
    out.append('<text x="%d" y="%d" text-anchor="middle">actions</text>' % (LEFT + plot_w // 2, HEIGHT - 6))
    for seat, name in enumerate(names):
        colour = COLOURS[seat % len(COLOURS)]
        path = " ".join("%.1f,%.1f" % (x(i), y(p[seat])) for i, p in enumerate(points))
        out.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>' % (colour, path))
        legend_y = TOP + 16 * seat + 8
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>' % (WIDTH - RIGHT + 14, legend_y - 10, colour))
        out.append(
            '<text x="%d" y="%d">%s: %s</text>' % (WIDTH - RIGHT + 32, legend_y, escape(name), score_text(totals[seat], scale))
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _ticks(low, high):
    """About five round values from low to high."""
    span = high - low
    step = 1
    while span / step > 6:
        for factor in (2, 5, 10):
            if span / (step * factor) <= 6:
                step *= factor
                break
        else:
            step *= 10
    first = int(-(-low // step) * step)
    return list(range(first, int(high) + 1, step))  # Buki's chips may end in .5


def do_plot(args):
    db = dbmod.Database.open(args.db or dbmod.default_path(), create=False)
    try:
        replay = replay_session(db, args.session)
    finally:
        db.close()
    path = args.output or "session-%d.svg" % args.session
    with open(path, "w") as f:
        f.write(render_svg(replay))
    print("wrote %s" % path)
    return 0
