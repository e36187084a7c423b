"""Playing cards as small integers (the 52 cards of Da San, rule book §3.11).

A card is ``suit * 13 + (rank - 1)``: rank 1 = A, 2..10, 11 = J, 12 = Q, 13 = K; suits
0..3 = clubs, diamonds, hearts, spades. RFID tag records store this id, so it must
never change. The text form is the suit letter then the rank: ``"H4"``, ``"SA"``,
``"D10"``.

>>> c = parse_card("H4"); c, suit_of(c), rank_of(c), card_str(c)
(29, 2, 4, 'H4')
"""

CLUBS = 0
DIAMONDS = 1
HEARTS = 2
SPADES = 3
SUIT_LETTERS = "CDHS"
RANK_TEXT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = tuple(range(52))


def card(suit, rank):
    """The card of a suit (0..3) and a rank (1 = A .. 13 = K)."""
    return suit * 13 + rank - 1


def suit_of(c):
    return c // 13


def rank_of(c):
    return c % 13 + 1


def card_str(c):
    return SUIT_LETTERS[c // 13] + RANK_TEXT[c % 13]


def parse_card(text):
    """Parse ``"H4"``, ``"sa"``, ``"D10"`` (or ``"DT"``).

    :raises ValueError: ``not a card: 'x'``
    """
    s = text.strip().upper()
    if len(s) < 2 or s[0] not in SUIT_LETTERS:
        raise ValueError("not a card: %r" % text)
    rank = "10" if s[1:] == "T" else s[1:]
    if rank not in RANK_TEXT:
        raise ValueError("not a card: %r" % text)
    return card(SUIT_LETTERS.index(s[0]), RANK_TEXT.index(rank) + 1)
