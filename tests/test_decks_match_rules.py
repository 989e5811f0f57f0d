"""Every card the project's printed decks (and the standard deck) can show means something to the
referee: vision and the rules core agree on the card codes."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from referee.rules import Seat
from referee.rules.games import slap_wacky, spite_and_malice, wackee_six, wig_out, wonky
from vision.decks import get_deck

_wonky = wonky.GAME((Seat(1, "A", "red"), Seat(2, "B", "blue")), {})
KNOWS: dict[str, Callable[[str], bool]] = {
    "wackee-six": lambda c: wackee_six.parse_card(c) is not None,
    "slap-wacky": lambda c: c in slap_wacky.CARDS,
    "wig-out": lambda c: c in wig_out.CHARACTERS,
    "spite-and-malice": lambda c: spite_and_malice.card_value(c) is not None,
    "wonky": lambda c: _wonky.card(c) is not None,
}
# Games a standard deck can play (rulings.md): every one but Wonky.
STANDARD_PLAYS = ["wackee-six", "slap-wacky", "wig-out", "spite-and-malice"]


@pytest.mark.parametrize("game", list(KNOWS))
def test_every_code_of_the_games_printed_deck_is_a_card_of_the_game(game: str) -> None:
    unknown = [code for code in get_deck(game).codes if not KNOWS[game](code)]
    assert unknown == []


@pytest.mark.parametrize("game", STANDARD_PLAYS)
def test_every_standard_card_is_a_card_of_the_game(game: str) -> None:
    # Wig Out has no WILD: there a joker is no card of the game (and stays out of the deck).
    codes = [c for c in get_deck("standard").codes if not (c == "JK" and game == "wig-out")]
    unknown = [code for code in codes if not KNOWS[game](code)]
    assert unknown == []


@pytest.mark.parametrize("game", list(KNOWS))
def test_every_card_the_simulated_players_lay_is_printed_in_its_deck(game: str) -> None:
    """The demo acts the simulators' moves out with the printed cards, so every code they play
    must be one of the deck's (a '?' is a card the camera could not read)."""
    from referee.rules import MatchHeader
    from referee.sim import make_simulator

    header = MatchHeader(game, tuple(Seat(i + 1, f"P{i + 1}", "red") for i in range(4)))
    played: set[str] = set()
    for seed in range(2):
        for ev in make_simulator(header, seed).events():
            card = getattr(ev, "card", None)
            if card:
                played.add(card)
            for cards in getattr(ev, "layout", {}).values():
                played.update(cards)
    assert played - {"?"} <= set(get_deck(game).codes)
