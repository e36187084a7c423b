"""Pips race's table controller: a tile laid on a seat's pad is that seat's play."""
from tiletable import tagrecord
from tiletable.runtime.controller import Controller


class PipsController(Controller):
    def on_zone(self, role, a, b, event, now_ms):
        if role == "seat" and self.is_placed(event):
            for tile in self.items(event, tagrecord.KIND_TILE, a, now_ms):
                self.act((a, tile), a, now_ms)

    def on_button(self, seat, kind, now_ms):
        pass

    def draw(self):
        for seat in range(self.state.players):
            self.draw_score(seat)
        self.blank_unused()
        actor = self.state.current_player()
        self.ui.turn(actor if actor >= 0 else None)

    def play_prompt(self):
        return "%s to lay a tile" % self.table.seat_name(self.state.current_player())
