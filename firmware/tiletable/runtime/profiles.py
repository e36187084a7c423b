"""Table profiles: which zone of the tray plays which role in which game.

The same data as ``hardware/trays.json`` (``tests/runtime/test_profiles.py`` fails when they
differ), written as tuples so the Pico does not parse JSON at boot. Each zone entry is
``(zone, role, a, b)``:

==========  ==========================================
role        a, b
==========  ==========================================
``seat``    seat, -
``end``     line end (0 = L, 1 = R), -
``arm``     spinner arm 0-3 (the line's slots L, R, S1, S2), -
``field``   column, -
``assign``  column, seat
``trick``   -, -
``widow``   -, -
==========  ==========================================
"""

SEAT = "seat"
END = "end"
ARM = "arm"
FIELD = "field"
ASSIGN = "assign"
TRICK = "trick"
WIDOW = "widow"

_LINE_GAMES_2P = ("block", "draw", "bergen", "muggins", "sniff", "matador")

# name -> (players, games, zones)
PROFILES = {
    "line-2p": (2, _LINE_GAMES_2P, ((0, SEAT, 0, 0), (2, SEAT, 1, 0), (1, END, 0, 0), (3, END, 1, 0))),
    "line-3p": (
        3,
        ("block", "draw", "muggins", "sniff", "matador"),
        ((0, SEAT, 0, 0), (1, SEAT, 1, 0), (2, SEAT, 2, 0), (5, END, 0, 0), (7, END, 1, 0)),
    ),
    "line-4p": (
        4,
        ("block", "draw", "muggins", "sniff", "matador", "buki"),
        ((0, SEAT, 0, 0), (1, SEAT, 1, 0), (2, SEAT, 2, 0), (3, SEAT, 3, 0), (5, END, 0, 0), (7, END, 1, 0)),
    ),
    "spinner-4p": (
        4,
        ("sebastopol", "sniff"),
        (
            (0, SEAT, 0, 0),
            (1, SEAT, 1, 0),
            (2, SEAT, 2, 0),
            (3, SEAT, 3, 0),
            (6, ARM, 0, 0),
            (7, ARM, 1, 0),
            (8, ARM, 2, 0),
            (5, ARM, 3, 0),
        ),
    ),
    "column-2p": (
        2,
        ("columns",),
        (
            (5, ASSIGN, 0, 0),
            (1, FIELD, 0, 0),
            (6, ASSIGN, 0, 1),
            (0, ASSIGN, 1, 0),
            (4, FIELD, 1, 0),
            (2, ASSIGN, 1, 1),
            (8, ASSIGN, 2, 0),
            (3, FIELD, 2, 0),
            (7, ASSIGN, 2, 1),
        ),
    ),
    "trick-3p": (3, ("moon",), ((0, SEAT, 0, 0), (1, SEAT, 1, 0), (2, SEAT, 2, 0), (4, TRICK, 0, 0), (3, WIDOW, 0, 0))),
    "climb-3p": (3, ("dasan",), ((0, SEAT, 0, 0), (1, SEAT, 1, 0), (2, SEAT, 2, 0))),
}


class Profile:
    """One profile, looked up both ways: ``role_of[zone]`` and ``seat_zone[seat]`` etc."""

    def __init__(self, name):
        players, games, zones = PROFILES[name]
        self.name = name
        self.players = players
        self.games = games
        self.zones = zones
        self.zone_ids = tuple(zone[0] for zone in zones)
        self.role_of = {}
        self.seat_zone = {}
        self.end_zone = {}  # line slot -> zone (end zones and spinner arms)
        self.field_zone = {}
        self.assign_zone = {}  # (column, seat) -> zone
        self.trick_zone = -1
        self.widow_zone = -1
        for zone, role, a, b in zones:
            self.role_of[zone] = (role, a, b)
            if role == SEAT:
                self.seat_zone[a] = zone
            elif role in (END, ARM):
                self.end_zone[a] = zone
            elif role == FIELD:
                self.field_zone[a] = zone
            elif role == ASSIGN:
                self.assign_zone[(a, b)] = zone
            elif role == TRICK:
                self.trick_zone = zone
            elif role == WIDOW:
                self.widow_zone = zone

    def seat_leds(self, players):
        """The LED beside each seat: its pad, or for the column game its centre assignment slot."""
        if self.seat_zone:
            return [self.seat_zone[s] for s in range(players)]
        return [self.assign_zone[(1, s)] for s in range(players)]

    def end_leds(self):
        """The LED of each line slot that has a zone, in slot order (slots without one are skipped)."""
        return [self.end_zone[slot] for slot in sorted(self.end_zone)]


# A ruleset installed from the PC under its own name plays on the tray of a preset of its family.
FAMILY_STAND_IN = {"line": "block", "trick": "moon", "column": "columns", "climb": "dasan"}


def seatings(game):
    """The player counts the tray has a profile for ``game`` with, fewest first: what the menu
    offers (tests/runtime/test_profiles.py checks they are the counts its rules allow). The
    menu browses games without importing their families' code."""
    return sorted(set(PROFILES[name][0] for name in PROFILES if game in PROFILES[name][1]))


def profile_for(game, players, family=None):
    """The profile for ``game`` with ``players`` seats: the one made for it with that many seats,
    else the smallest one listing the game that has more seats; when none lists the game with
    enough seats (a ruleset installed from the PC, Bergen for three), the tray of ``family``'s
    stand-in preset.

    :raises ValueError: when no profile fits.
    """
    found = _smallest_fit(game, players)
    if found is None and family in FAMILY_STAND_IN:
        found = _smallest_fit(FAMILY_STAND_IN[family], players)
    if found is None:
        raise ValueError("no tray profile for %r with %d players" % (game, players))
    return Profile(found)


def _smallest_fit(game, players):
    best = None
    for name in PROFILES:
        count, games, _ = PROFILES[name]
        if game in games and count >= players and (best is None or count < PROFILES[best][0]):
            best = name
    return best
