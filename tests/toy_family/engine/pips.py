"""Pips race, the toy family's engine (tests/sim/test_toy_family.py): the seats take turns
laying one tile of a double-six set each; a tile scores its pips and is spent; the first seat
to reach the target wins. It asks nothing of the table but seat pads, and uses only the state
API every family shares (engine/state.py)."""
from tiletable.engine.errors import E_OVER, E_TILE, E_TURN, IllegalAction
from tiletable.engine.state import TERMINAL, GameState, Outcome
from tiletable.engine.tiles import parse_tile, pips, tile_set, tile_str


def player_counts(params):
    return [2]


class State(GameState):
    family = "pips"

    def __init__(self, ruleset, players):
        GameState.__init__(self, ruleset, players)
        self.target = ruleset.params["target"]
        self.spent = set()

    def current_player(self):
        return TERMINAL if self.is_over() else len(self.history) % self.players

    def generate_legal_actions(self):
        return [] if self.is_over() else [t for t in tile_set() if t not in self.spent]

    def why_illegal(self, action):
        if self.is_over():
            return (E_OVER, "the match is over")
        if not isinstance(action, tuple) or len(action) != 2 or action[1] not in tile_set():
            return (E_TILE, "not a tile of the set")
        if action[0] != self.current_player():
            return (E_TURN, "P%d is not to play" % (action[0] + 1))
        if action[1] in self.spent:
            return (E_TILE, "%s was laid already" % tile_str(action[1]))
        return None

    def _apply(self, action):
        seat, tile = action
        self.spent.add(tile)
        self.award(seat, pips(tile), "pips", "%s = %d" % (tile_str(tile), pips(tile)))

    def outcome(self):
        winners = [seat for seat in range(self.players) if self.scores[seat] >= self.target]
        return Outcome("target", winners, self.scores) if winners else None

    def action_str(self, action):
        return "%d:%s" % (action[0], tile_str(action[1]))

    def parse_action(self, text):
        try:
            seat, tile = text.split(":")
            return (int(seat), parse_tile(tile))
        except ValueError:
            raise IllegalAction(text, E_TILE, "not a pips race play")
