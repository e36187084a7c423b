"""Appendix A of the rule book: the column game's 28x28 comparison matrix (portable test data).

Rows are the opponent's card, columns mine; each cell is my result: W, D, L, or ``-`` on
the diagonal. A copy of the rule book's text so MicroPython can check it too;
``test_columns_appendix.py`` proves on CPython that the copy still matches the book.
"""

APPENDIX_A = r"""opp\me 00 01 02 03 04 05 06 11 12 13 14 15 16 22 23 24 25 26 33 34 35 36 44 45 46 55 56 66
0-0     -  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D  D
0-1     D  -  W  W  W  W  W  D  L  L  L  L  L  L  L  L  L  L  L  L  L  L  L  L  L  L  L  L
0-2     D  L  -  W  W  W  W  W  L  L  L  L  L  D  L  L  L  L  L  L  L  L  L  L  L  L  L  L
0-3     D  L  L  -  W  W  W  W  D  L  L  L  L  W  L  L  L  L  D  L  L  L  L  L  L  L  L  L
0-4     D  L  L  L  -  W  W  W  W  D  L  L  L  W  L  L  L  L  W  L  L  L  D  L  L  L  L  L
0-5     D  L  L  L  L  -  W  W  W  W  D  L  L  W  D  L  L  L  W  L  L  L  W  L  L  D  L  L
0-6     D  L  L  L  L  L  -  W  W  W  W  D  L  W  W  D  L  L  W  L  L  L  W  L  L  W  L  D
1-1     D  D  L  L  L  L  L  -  W  W  W  W  W  W  L  L  L  L  W  L  L  L  W  L  L  W  L  W
1-2     D  W  W  D  L  L  L  L  -  W  W  W  W  L  W  W  W  W  W  W  W  W  W  W  W  W  W  W
1-3     D  W  W  W  D  L  L  L  L  -  W  W  W  W  W  W  W  W  L  W  W  W  W  W  W  W  W  W
1-4     D  W  W  W  W  D  L  L  L  L  -  W  W  W  D  W  W  W  W  W  W  W  L  W  W  W  W  W
1-5     D  W  W  W  W  W  D  L  L  L  L  -  W  W  L  D  W  W  W  W  W  W  W  W  W  L  W  W
1-6     D  W  W  W  W  W  W  L  L  L  L  L  -  W  L  L  D  W  W  D  W  W  W  W  W  W  W  L
2-2     D  W  D  L  L  L  L  L  W  L  L  L  L  -  W  W  W  W  W  L  L  L  W  L  L  W  L  W
2-3     D  W  W  W  W  D  L  W  L  L  D  W  W  L  -  W  W  W  L  W  W  W  W  W  W  W  W  W
2-4     D  W  W  W  W  W  D  W  L  L  L  D  W  L  L  -  W  W  W  W  W  W  L  W  W  W  W  W
2-5     D  W  W  W  W  W  W  W  L  L  L  L  D  L  L  L  -  W  W  D  W  W  W  W  W  L  W  W
2-6     D  W  W  W  W  W  W  W  L  L  L  L  L  L  L  L  L  -  W  L  D  W  W  W  W  W  W  L
3-3     D  W  W  D  L  L  L  L  L  W  L  L  L  L  W  L  L  L  -  W  W  W  W  L  L  W  L  W
3-4     D  W  W  W  W  W  W  W  L  L  L  L  D  W  L  L  D  W  L  -  W  W  L  W  W  W  W  W
3-5     D  W  W  W  W  W  W  W  L  L  L  L  L  W  L  L  L  D  L  L  -  W  W  W  W  L  W  W
3-6     D  W  W  W  W  W  W  W  L  L  L  L  L  W  L  L  L  L  L  L  L  -  W  D  W  W  W  L
4-4     D  W  W  W  D  L  L  L  L  L  W  L  L  L  L  W  L  L  L  W  L  L  -  W  W  W  L  W
4-5     D  W  W  W  W  W  W  W  L  L  L  L  L  W  L  L  L  L  W  L  L  D  L  -  W  L  W  W
4-6     D  W  W  W  W  W  W  W  L  L  L  L  L  W  L  L  L  L  W  L  L  L  L  L  -  W  W  L
5-5     D  W  W  W  W  D  L  L  L  L  L  W  L  L  L  L  W  L  L  L  W  L  L  W  L  -  W  W
5-6     D  W  W  W  W  W  W  W  L  L  L  L  L  W  L  L  L  L  W  L  L  L  W  L  L  L  -  L
6-6     D  W  W  W  W  W  D  L  L  L  L  L  W  L  L  L  L  W  L  L  L  W  L  L  W  L  W  -
"""
