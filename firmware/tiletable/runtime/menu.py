"""The table's menu: which game, for how many players (``MUGG 4P`` on the first two groups).

It lists every ruleset the table can play, presets and house rules alike (``Menu``); the label
a 4-digit group draws for a ruleset installed under a name of its own is derived from its name
by runtime/menu_label.py, imported only when a menu has one to show (on a stock build its
bytecode is heap). Kept apart from runtime/table.py so that the menu's rules can be tried
without the rest of the runtime.
"""
from tiletable import families
from tiletable.profiles import seatings


class Menu:
    """Choose a game and a player count: seat button press = next game, long press = next count.

    The games are every ruleset the table can play: the presets in the registry's menu order
    (``families.games()``; an installed one of a preset's name plays in its place), then the
    rulesets installed from the PC under names of their own (house rules), by name, each on its
    family's stand-in trays (``families.stand_in``). The menu opens on the game played last
    (``select``), Muggins on a table that never played. It keeps names and each house ruleset's
    family (the rule store's index gives them), never a document: the idle table's heap is tight.
    """

    def __init__(self, rulestore=None):
        self.rulestore = rulestore
        self.names = []
        self.house = {}  # name -> family of each ruleset installed under a name of its own
        self._seen = None  # the rule store's ``changes`` when the names were read
        self.index = 0
        self.players = 4
        self.refresh()
        if "muggins" in self.names:
            self.index = self.names.index("muggins")

    def refresh(self):
        """Read the installed rulesets again if they changed since (a sync, a removal); the
        game shown stays shown while it is installed."""
        store = self.rulestore
        if self.names and (store is None or store.changes == self._seen):
            return
        shown = self.names[self.index] if self.names else None
        house = {}
        if store is not None:
            self._seen = store.changes
            for name, family in store.playable():
                if families.game(name) is None:
                    house[name] = family
        self.house = house
        self.names = [preset[0] for preset in families.games()] + sorted(house)
        if shown in self.names:
            self.index = self.names.index(shown)
        else:
            self.index = self.names.index("muggins") if "muggins" in self.names else 0
            self._fit_players()

    @property
    def name(self):
        return self.names[self.index]

    def label(self):
        """What the menu's first group shows for the game: a preset's label, a house ruleset's
        derived from its name (runtime/menu_label.py), distinct from every game's before it."""
        preset = families.game(self.name)
        if preset is not None:
            return preset[2]
        from tiletable.runtime.menu_label import house_label, shape

        shapes = [shape(entry[2]) for entry in families.games()]
        for name in self.names[len(shapes) : self.index + 1]:
            label = house_label(name, shapes)
            shapes.append(shape(label))
        return label

    def select(self, name, players):
        """Show the game being played when the menu opens (one the menu lists)."""
        self.refresh()
        if name in self.names:
            self.index = self.names.index(name)
            self.players = players

    def next_game(self):
        self.refresh()
        self.index = (self.index + 1) % len(self.names)
        self._fit_players()

    def next_players(self):
        counts = self.player_counts()
        self.players = counts[(counts.index(self.players) + 1) % len(counts)] if self.players in counts else counts[0]

    def player_counts(self):
        return seatings(self.name, self.house.get(self.name))

    def _fit_players(self):
        counts = self.player_counts()
        if self.players not in counts and counts:
            self.players = counts[-1]
