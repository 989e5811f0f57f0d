"""Card decks: the built-in decks of the five games and the standard deck, plus enrolled decks.

>>> get_deck("standard").codes[:3]
('AS', '2S', '3S')
"""

from __future__ import annotations

from collections.abc import Callable

from vision.decks.base import (
    Deck,
    UnknownBackError,
    UnknownCardError,
    UnknownDeckError,
    card_size_px,
)
from vision.decks.games import (
    make_slap_wacky,
    make_spite_and_malice,
    make_wackee_six,
    make_wig_out,
    make_wonky,
)
from vision.decks.standard import make_standard
from vision.decks.user import enrolled_names, load_enrolled

__all__ = ["Deck", "UnknownBackError", "UnknownCardError", "UnknownDeckError", "card_size_px",
           "deck_names", "get_deck", "builtin_names"]

_BUILTIN: dict[str, Callable[[], Deck]] = {
    "standard": make_standard,
    "wackee-six": make_wackee_six,
    "slap-wacky": make_slap_wacky,
    "wig-out": make_wig_out,
    "spite-and-malice": make_spite_and_malice,
    "wonky": make_wonky,
}
_built: dict[str, Deck] = {}


def builtin_names() -> list[str]:
    return list(_BUILTIN)


def deck_names() -> list[str]:
    """Built-in decks first, then the decks enrolled under the data directory."""
    return builtin_names() + [n for n in enrolled_names() if n not in _BUILTIN]


def get_deck(name: str) -> Deck:
    """The deck called name (built in, or enrolled with `referee enroll`)."""
    if name in _BUILTIN:
        deck = _built.get(name)
        if deck is None:
            deck = _built[name] = _BUILTIN[name]()
        return deck
    try:
        return load_enrolled(name)
    except FileNotFoundError:
        raise UnknownDeckError(
            f"unknown deck {name!r}; known decks: {', '.join(deck_names())} "
            "(enrol your own with `referee enroll NAME DIRECTORY`)") from None
