"""Texas 42 on the table (docs/TEXAS-42.md): Moon's controller (runtime/play_trick.py) with
42's calls, on the trick-4p tray (four seat pads and the trick zone, no widow).

* **Deal**: hand scans on the seat pads, OK deals the rest face down.
* **Bidding**: the calling seat shows ``PASS``, ``b 30``..``b 41``, ``Mk 1``.. (marks), ``PLUn``
  (plunge, where played); press = next, long press = call. The bidder (a plunger's partner) then
  names trumps the same way: ``tr 0``..``tr 6``, ``FoLo`` (follow-me), ``dbLS`` (doubles), or a
  contract where played: ``nELO`` (nello: the partner's seat is skipped), ``SEvn`` (sevens).
* **Tricks**: each tile is laid on the trick zone by the seat to play (a lead makes its own
  suit: nothing to name). A finished trick shows, on its winner's display, the tricks its
  side has taken (``tr 3``) until the trick zone is cleared.
"""
from tiletable.runtime.play_trick import TrickController

_CALLS = ["PASS"] + [str(points) for points in range(30, 42)] + ["M%d" % marks for marks in range(1, 11)] + ["PLUNGE"]
_TRUMPS = ["TRUMP%d" % number for number in range(7)] + ["FOLLOWME", "DOUBLES", "NELLO", "SEVENS"]
_LABELS = {"DOUBLES": "dbLS", "FOLLOWME": "FoLo", "NELLO": "nELO", "SEVENS": "SEvn", "PLUNGE": "PLUn"}


class FortytwoController(TrickController):
    def call_texts(self, seat):
        return ["B%d:%s" % (seat, word) for word in _CALLS] + _TRUMPS

    def call_label(self, text):
        word = text.split(":")[-1]
        if word.isdigit():
            return "b " + word
        if word[0] == "M" and word[1:].isdigit():
            return "Mk%2s" % word[1:]
        if text.startswith("TRUMP"):
            return "tr " + text[5:]
        return _LABELS.get(word, word)
