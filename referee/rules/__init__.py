"""The pure rules core: table events in, verdicts and scores out. No clock, camera, GPIO, web or
randomness is imported here: time and randomness come in as values."""

from .errors import EventError, LogError, OptionError, RefereeError, UnknownGameError
from .events import (
    BlockAdded,
    CardPlaced,
    CardRevealed,
    CardTakenBack,
    Clock,
    Deal,
    Event,
    ManualEntry,
    PadPress,
    RoundStart,
    RoundStop,
    Tilt,
    TowerFell,
    TurnEnd,
    event_from_dict,
)
from .game import Game, Seat
from .match import Match, MatchHeader
from .places import Place
from .registry import find_game, game_names
from .verdicts import IGNORED, ILLEGAL, INFO, LATE, LEGAL, Verdict

__all__ = [
    "BlockAdded", "CardPlaced", "CardRevealed", "CardTakenBack", "Clock", "Deal", "Event",
    "EventError", "Game", "IGNORED", "ILLEGAL", "INFO", "LATE", "LEGAL", "LogError",
    "ManualEntry", "Match", "MatchHeader", "OptionError", "PadPress", "Place", "RefereeError",
    "RoundStart", "RoundStop", "Seat", "Tilt", "TowerFell", "TurnEnd", "UnknownGameError",
    "Verdict", "event_from_dict", "find_game", "game_names",
]
