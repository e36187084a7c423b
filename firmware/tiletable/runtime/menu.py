"""The table's menu: which game, for how many players (``MUGG 4P`` on the first two groups).

It lists every ruleset the table can play, presets and house rules alike (``Menu``); the label
a 4-digit group draws for a ruleset installed under a name of its own is derived from its name
by runtime/menu_label.py, imported only when a menu has one to show (on a stock build its
bytecode is heap). Kept apart from runtime/table.py so that the menu's rules can be tried
without the rest of the runtime.
"""
from tiletable import families
from tiletable.profiles import seatings


# The game a table that never played opens on
FIRST_GAME = "muggins"


class Menu:
    """Choose a game and a player count: seat button press = next game, long press = next count.

    The games are every ruleset the table can play: the presets in the registry's menu order
    (``families.games()``; an installed one of a preset's name plays in its place), then the
    rulesets installed from the PC under names of their own (house rules), by name, each on its
    family's stand-in trays (``families.stand_in``). The menu opens on the game played last
    (``select``), Muggins on a table that never played. It keeps names and each house ruleset's
    family (the rule store's index gives them), never a document: the idle table's heap is tight.

    The whole list (``names``) is read ahead at boot where the heap has room to spare for it
    (``read_ahead``); else, and on a boot into the game a restart is for, the menu knows only the
    game it shows, its label and player counts until someone browses it (``next_game``): every
    family's schema module read for the whole list leaves its names interned in a stock build's
    heap for good, and a start after a restart is to have all the room a fresh heap gives. Every read of the registry goes through the heap policy
    (``policy``, tiletable/heap.py; by default ``build_policy()``'s), which unloads what it
    imported.
    """

    def __init__(self, rulestore=None, policy=None):
        if policy is None:
            from tiletable.heap import build_policy

            policy = build_policy()
        self.rulestore = rulestore
        self.policy = policy
        self.house = {}  # name -> family of each house ruleset, once the whole list was read
        self._names = None  # every game in the menu's order, once read (``names``)
        self._seen = rulestore.changes if rulestore is not None else None  # when what is shown was read
        self.name = None
        self.players = 4
        self._label = None  # the label of the game shown (a house ruleset's: once drawn)
        self._counts = []  # its player counts
        if not self._show(FIRST_GAME):
            self._show(self.names[0])

    @property
    def names(self):
        """Every game the menu lists, in its order, read the first time something needs them all."""
        if self._names is None:
            self.policy.reading_every_family(self._read_names)
        return self._names

    def read_ahead(self):
        """Read the whole list at boot, where the heap is whole and has room to spare for it
        (the heap policy's ``reading_ahead``), else at the first browse. Read only when
        browsed, it came on a heap games had cut up: after two hands of Muggins a Pico's 124 KB
        had no room left for it (tests/sim/test_device_micropython.py). A boot into the game a
        restart is for reads none of it (runtime/table.py)."""
        if self._names is None:
            try:
                self.policy.reading_ahead(self._read_names)
            except MemoryError:
                self._names = None

    def _read_names(self):
        store = self.rulestore
        presets = [preset[0] for preset in families.games()]
        house = {}
        if store is not None:
            self._seen = store.changes
            for name, family in store.playable():
                if families.game(name) is None:
                    house[name] = family
        self.house = house
        self._names = presets + sorted(house)

    def refresh(self):
        """Read the installed rulesets again if they changed since (a sync, a removal); the
        game shown stays shown while it is installed."""
        store = self.rulestore
        if store is None or store.changes == self._seen:
            return
        self._seen = store.changes
        self._names = None  # read again when needed (the registry's own list is kept)
        self.house = {}
        if not self._show(self.name):
            if not self._show(FIRST_GAME):
                self._show(self.names[0])
            self._fit_players()

    def label(self):
        """What the menu's first group shows for the game: a preset's label, a house ruleset's
        derived from its name (runtime/menu_label.py), distinct from every game's before it."""
        if self._label is None:
            names = self.names
            from tiletable.runtime.menu_label import house_label, shape

            shapes = [shape(entry[2]) for entry in families.games()]
            for name in names[len(shapes) : names.index(self.name) + 1]:
                label = house_label(name, shapes)
                shapes.append(shape(label))
            self._label = label
        return self._label

    def select(self, name, players):
        """Show the game being played when the menu opens (one the menu lists)."""
        self.refresh()
        if name == self.name or self._show(name):
            self.players = players

    def next_game(self):
        self.refresh()
        names = self.names
        self._show(names[(names.index(self.name) + 1) % len(names)])
        self._fit_players()

    def next_players(self):
        counts = self.player_counts()
        self.players = counts[(counts.index(self.players) + 1) % len(counts)] if self.players in counts else counts[0]

    def player_counts(self):
        return self._counts

    def _fit_players(self):
        counts = self.player_counts()
        if self.players not in counts and counts:
            self.players = counts[-1]

    def _show(self, name):
        """Show game ``name`` if the menu lists it (else False): its label and player counts
        read (a house ruleset's label once it is drawn: it needs every game's, ``label``)."""
        found = self.policy.releasing(self._look_up, name)
        if found is None:
            return False
        self.name = name
        self._label, self._counts = found
        return True

    def _look_up(self, name):
        preset = families.game(name)
        family = None
        if preset is None:
            family = self._house_family(name)
            if family is None:
                return None
        return (preset[2] if preset else None), seatings(name, family)

    def _house_family(self, name):
        """The family of house ruleset ``name``, or None when none is installed under it."""
        if self._names is not None:
            return self.house.get(name)
        if self.rulestore is not None:
            for installed, family in self.rulestore.playable():
                if installed == name:
                    return family
        return None
