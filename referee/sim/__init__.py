"""Simulated players and tables: one simulator per game, found by name."""

from __future__ import annotations

import importlib

from referee.rules.match import MatchHeader

from .base import SimOutcome, TableSimulator

_MODULES = {
    "wackee-six": "wackee_six",
    "slap-wacky": "slap_wacky",
    "wig-out": "wig_out",
    "spite-and-malice": "spite_and_malice",
    "wonky": "wonky",
}


def make_simulator(header: MatchHeader, seed: int, **kw: object) -> TableSimulator:
    """A seeded simulator of ``header.game`` (kw: game-specific knobs like rounds, mistakes)."""
    module = importlib.import_module(f"referee.sim.{_MODULES[header.game]}")
    sim: TableSimulator = module.Simulator(header, seed, **kw)
    return sim


__all__ = ["SimOutcome", "TableSimulator", "make_simulator"]
