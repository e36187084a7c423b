"""Da San's combinations (rule book §3.11): a card's rank in the game, what a combination is,
which combination beats which, and every combination a pool of cards holds (the legal plays).

Ranks, low to high: 4 5 6 7 8 9 10 J Q K A 2 3. A combination is one rank's single, pair,
triple or four, or a sequence of three or more consecutive ranks of 4..K with the same number
of cards at each rank; it beats only one of the same type and size with a higher top rank.
"""

from tiletable.engine.cards import card_str

TOP_SEQUENCE_RANK = 9  # K: A, 2 and 3 never appear in a sequence
_RANK_NAMES = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "3")
_TYPE_NAMES = ("single", "pair", "triple", "four")


def game_rank(c):
    """0 for a 4 .. 9 for a K, 10 for an A, 11 for a 2, 12 for a 3 (the highest)."""
    return (c % 13 - 3) % 13


def classify(cards):
    """``(width, length, top)`` of a combination, or None when the cards are none.

    width: cards per rank (1 single .. 4 four of a kind); length: how many consecutive
    ranks (1, or 3 and more for a sequence, which may not use A, 2 or 3); top: the
    game rank of the highest rank.

    >>> classify((card(0, 4), card(1, 5), card(2, 6)))
    (1, 3, 2)
    """
    if not cards:
        return None
    counts = [0] * 13
    for c in cards:
        counts[game_rank(c)] += 1
    ranks = [r for r in range(13) if counts[r]]
    width = counts[ranks[0]]
    for r in ranks:
        if counts[r] != width:
            return None
    length = len(ranks)
    if length == 1:
        return (width, 1, ranks[0])
    if length < 3 or ranks[-1] > TOP_SEQUENCE_RANK or ranks[-1] - ranks[0] != length - 1:
        return None
    return (width, length, ranks[-1])


def combo_name(kind):
    width, length, top = kind
    if length == 1:
        return "%s of %s" % (_TYPE_NAMES[width - 1], _RANK_NAMES[top])
    name = "sequence" if width == 1 else _TYPE_NAMES[width - 1] + " sequence"
    return "%s %s-%s" % (name, _RANK_NAMES[top - length + 1], _RANK_NAMES[top])


def beat_problem(kind, last):
    """None when combination ``kind`` beats ``last`` (both from ``classify``), else the reason."""
    if kind[0] != last[0] or (kind[1] == 1) != (last[1] == 1):
        return "%s is not the same type as %s (no bombs)" % (combo_name(kind), combo_name(last))
    if kind[1] != last[1]:
        return "%s is not the same length as %s" % (combo_name(kind), combo_name(last))
    if kind[2] <= last[2]:
        return "%s is not higher than %s" % (combo_name(kind), combo_name(last))
    return None


def combo_str(cards):
    """Canonical text: the cards by game rank then suit, joined by ``+``; ``PASS`` for ()."""
    if not cards:
        return "PASS"
    order = sorted(cards, key=lambda c: game_rank(c) * 4 + c // 13)
    return "+".join(card_str(c) for c in order)


def _choose(items, k, start=0):
    if k == 0:
        yield ()
        return
    for i in range(start, len(items) - k + 1):
        for rest in _choose(items, k - 1, i + 1):
            yield (items[i],) + rest


def _product(groups, width, index=0):
    """Every way of taking ``width`` cards from each rank group in turn."""
    if index == len(groups):
        yield ()
        return
    for part in _choose(groups[index], width):
        for rest in _product(groups, width, index + 1):
            yield part + rest


def generate_combinations(pool, last=None):
    """Every combination from the cards of ``pool`` that beats ``last`` (any when None), as sorted tuples."""
    by_rank = [[] for _ in range(13)]
    for c in sorted(pool):
        by_rank[game_rank(c)].append(c)
    for width in range(1, 5):
        if last is not None and last[0] != width:
            continue
        if last is None or last[1] == 1:
            for r in range(0 if last is None else last[2] + 1, 13):
                if len(by_rank[r]) >= width:
                    for cards in _choose(by_rank[r], width):  # in card order already
                        yield cards
            if last is not None:
                continue
        runs = []  # runs[r]: how many consecutive ranks up to r hold ``width`` cards each
        run = 0
        for r in range(TOP_SEQUENCE_RANK + 1):
            run = run + 1 if len(by_rank[r]) >= width else 0
            runs.append(run)
        for length in range(3, TOP_SEQUENCE_RANK + 2) if last is None else (last[1],):
            lowest_top = length - 1 if last is None else max(length - 1, last[2] + 1)
            for top in range(lowest_top, TOP_SEQUENCE_RANK + 1):
                if runs[top] >= length:
                    for cards in _product(by_rank[top - length + 1 : top + 1], width):
                        yield tuple(sorted(cards))


