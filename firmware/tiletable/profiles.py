"""Table profiles: which zone of the tray plays which role in which game.

The same data as ``hardware/trays.json`` (``tests/runtime/test_profiles.py`` fails when they
differ), written as Python data so the Pico does not parse JSON at boot. Which games play on a
profile is said by each preset's document ("trays": tiletable/families.py). Each zone entry is
``(zone, role, a, b)``, kept as four characters of a string (``zones_of``): on a stock build,
whose module constants live in the heap, a tuple per zone took 1.6 KB more of it (unix port).

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
``mexican`` -, -  (Mexican Train's public train: a tile laid here plays on it)
``hub``     -, -  (Mexican Train's engine, scanned once a round)
==========  ==========================================
"""
from tiletable import families

SEAT = "seat"
END = "end"
ARM = "arm"
FIELD = "field"
ASSIGN = "assign"
TRICK = "trick"
WIDOW = "widow"
ROLES = (SEAT, END, ARM, FIELD, ASSIGN, TRICK, WIDOW, "mexican", "hub")
ROLE_LETTERS = "seafctwmh"  # each role's letter in a zone, in the order of ROLES (not a dict: heap)

# Every profile as "<name> <players> <zones>;", each zone four characters, "<zone><role><a><b>",
# the role as its letter in ROLE_LETTERS. One string, not a dict of tuples: on a stock build, whose
# module constants live in the heap, the dict took 1 KB more of it (unix port), which a Buki
# start after the menu did not have to spare (tests/sim/test_main_boot.py).
PROFILES = (
    "line-2p 2 0s00 2s10 1e00 3e10;"
    "line-3p 3 0s00 1s10 2s20 5e00 7e10;"
    "line-4p 4 0s00 1s10 2s20 3s30 5e00 7e10;"
    "spinner-4p 4 0s00 1s10 2s20 3s30 6a00 7a10 8a20 5a30;"
    "column-2p 2 5c00 1f00 6c01 0c10 4f10 2c11 8c20 3f20 7c21;"
    "trick-3p 3 0s00 1s10 2s20 4t00 3w00;"
    "trick-4p 4 0s00 1s10 2s20 3s30 4t00;"
    "climb-3p 3 0s00 1s10 2s20;"
    "train-2p 2 0s00 2s10 4h00 8m00;"
    "train-3p 3 0s00 1s10 2s20 4h00 8m00;"
    "train-4p 4 0s00 1s10 2s20 3s30 4h00 8m00;"
)


def profile_names():
    """The names of every profile, in PROFILES' order."""
    return [entry[: entry.find(" ")] for entry in PROFILES.split(";") if entry]


def profile_entry(name):
    """``(players, zones)`` of profile ``name``, its zones as the string ``zones_of`` reads.

    :raises KeyError: for a name that is no profile.
    """
    start = (";" + PROFILES).find(";" + name + " ")
    if start < 0:
        raise KeyError(name)
    entry = PROFILES[start + len(name) + 1 : PROFILES.find(";", start)]
    return int(entry[0]), entry[2:]


class Profile:
    """One profile, looked up both ways: ``role_of[zone]`` and ``seat_zone[seat]`` etc."""

    def __init__(self, name):
        players, spec = profile_entry(name)
        self.name = name
        self.players = players
        self.zones = zones = zones_of(spec)
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


def zones_of(spec):
    """A profile's zones as ``(zone, role, a, b)`` tuples, from its string in PROFILES."""
    return [(int(spec[i]), ROLES[ROLE_LETTERS.index(spec[i + 1])], int(spec[i + 2]), int(spec[i + 3])) for i in range(0, len(spec), 5)]


def seatings(game, family=None):
    """The player counts the tray has a profile for ``game`` with, fewest first: what the menu
    offers (tests/runtime/test_profiles.py checks they are the counts its rules allow); for a
    ruleset installed under a name of its own, of ``family``, those of the family's stand-in
    (``profile_for``). The menu browses games without importing their families' code."""
    preset = families.game(game) or (families.stand_in(family) if family else None)
    return sorted(set(profile_entry(tray)[0] for tray in preset[3:])) if preset else []


def profile_for(game, players, family=None):
    """The profile for ``game`` with ``players`` seats: the smallest of the trays its preset
    document lists that has that many seats or more; when none has enough (a ruleset installed
    from the PC, Bergen for three), the same among the trays of ``family``'s first preset
    (``families.stand_in``).

    :raises ValueError: when no profile fits.
    """
    found = _smallest_fit(families.game(game), players)
    if found is None and family is not None:
        found = _smallest_fit(families.stand_in(family), players)
    if found is None:
        raise ValueError("no tray profile for %r with %d players" % (game, players))
    return Profile(found)


def _smallest_fit(preset, players):
    best = None
    for tray in preset[3:] if preset else ():
        count = profile_entry(tray)[0]
        if count >= players and (best is None or count < profile_entry(best)[0]):
            best = tray
    return best
