"""Games found by name, like python-chess's find_variant."""

from __future__ import annotations

import importlib

from .errors import UnknownGameError
from .game import Game

# name -> module under referee.rules.games; imported on first use.
_MODULES = {
    "wackee-six": "wackee_six",
    "slap-wacky": "slap_wacky",
    "wig-out": "wig_out",
    "spite-and-malice": "spite_and_malice",
    "wonky": "wonky",
}


def game_names() -> list[str]:
    return list(_MODULES)


def find_game(name: str) -> type[Game]:
    """The game class for ``name``; an unknown name is an error listing the known ones."""
    module_name = _MODULES.get(name)
    if module_name is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(_MODULES)}")
    module = importlib.import_module(f"referee.rules.games.{module_name}")
    game: type[Game] = module.GAME
    return game
