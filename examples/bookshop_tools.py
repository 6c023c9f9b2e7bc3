"""Example tools: a small in-memory bookshop.

`codemode run` turns every public, fully annotated function here into a tool
(its docstring becomes the description the model reads):

    codemode run examples/programs/bookshop.py --tools examples/bookshop_tools.py
"""

from __future__ import annotations

from typing import Literal, TypedDict


class Book(TypedDict):
    id: str
    title: str
    author: str
    year: int


_BOOKS: list[Book] = [
    {"id": "b1", "title": "The Hobbit", "author": "J. R. R. Tolkien", "year": 1937},
    {"id": "b2", "title": "The Fellowship of the Ring", "author": "J. R. R. Tolkien", "year": 1954},
    {"id": "b3", "title": "A Wizard of Earthsea", "author": "Ursula K. Le Guin", "year": 1968},
    {"id": "b4", "title": "The Left Hand of Darkness", "author": "Ursula K. Le Guin", "year": 1969},
    {"id": "b5", "title": "Dune", "author": "Frank Herbert", "year": 1965},
]
_PRICES_EUR = {"b1": 12.5, "b2": 14.0, "b3": 9.99, "b4": 11.0, "b5": 13.25}
_RATES = {"EUR": 1.0, "GBP": 0.86, "JPY": 162.0}


def search_books(query: str, limit: int = 5) -> list[Book]:
    """Find books whose title or author contains the query (case-insensitive)."""
    needle = query.casefold()
    hits = [b for b in _BOOKS if needle in f"{b['title']} {b['author']}".casefold()]
    return hits[:limit]


def get_price(book_id: str, currency: Literal["EUR", "GBP", "JPY"] = "EUR") -> float:
    """The price of one book in the given currency."""
    if book_id not in _PRICES_EUR:
        raise KeyError(f"no book with id {book_id!r}")
    return round(_PRICES_EUR[book_id] * _RATES[currency], 2)
