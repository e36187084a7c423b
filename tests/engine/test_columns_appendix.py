"""The embedded Appendix A copy (tests/engine/column_matrix.py) still matches the rule book.

CPython only: MicroPython checks the engine against the copy; this proves the copy.
"""
import os

import pytest

from engine.column_matrix import APPENDIX_A

RULES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "rules", "RULES.md")


def _book_matrix():
    if not os.path.exists(RULES):
        pytest.skip("the rule book is not checked out next to the repository (../shared/rules/RULES.md)")
    with open(RULES, encoding="utf-8") as handle:
        text = handle.read()
    section = text[text.index("## Appendix A") :]
    block = section[section.index("opp\\me") :]
    return block[: block.index("```")]


def test_embedded_matrix_is_the_rule_books_appendix_A():
    book = [line.split() for line in _book_matrix().strip().splitlines()]
    copy = [line.split() for line in APPENDIX_A.strip().splitlines()]
    assert len(book) == 29 and copy == book
