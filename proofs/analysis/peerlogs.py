"""Logs of other engines' games, written the way ``check-log`` reads them (docs/CHECKLOG.md).

Each function plays seeded random games with the other engine's own public API -- its
deal, its legal moves, its turn order, its scoring -- and returns one JSON line per
round, exactly what a user of that engine would dump. ``scripts/make-log-fixtures``
writes small files of them under ``tests/data/logs/`` (so the fast tier checks the
readers without the engines); the bench-extra tests call them directly. The engines
(``open-spiel``, ``dominoes``) are the ``bench`` extra: imported here, when called.
"""

from __future__ import annotations

import importlib
import json
import random
from typing import Any


def openspiel_lines(game: str, rounds: int, seed: int, *, strings: bool = False) -> list[str]:
    """``rounds`` games of OpenSpiel's ``game`` (``python_block_dominoes`` or
    ``python_team_dominoes``): chance outcomes and actions drawn uniformly with a
    ``random.Random(seed)``; per game ``{"game", "history": state.history(), "returns":
    state.returns()}``, or with ``strings`` ``"actions"``: each action as
    ``state.action_to_string`` writes it for the player to move."""
    pyspiel: Any = importlib.import_module("pyspiel")
    importlib.import_module("open_spiel.python.games")  # registers the Python games
    g = pyspiel.load_game(game)
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        state = g.new_initial_state()
        said: list[str] = []
        while not state.is_terminal():
            action = rng.choice([a for a, _ in state.chance_outcomes()]
                                if state.is_chance_node() else state.legal_actions())
            said.append(state.action_to_string(state.current_player(), action))
            state.apply_action(action)
        line: dict[str, Any] = {"game": game}
        line["actions" if strings else "history"] = said if strings else state.history()
        line["returns"] = state.returns()
        out.append(json.dumps(line))
    return out


def dominoes_lines(rounds: int, seed: int, *, starting_player: int | None = None) -> list[str]:
    """``rounds`` games of the ``dominoes`` package (``dominoes.Game.new``: the holder of
    6-6 leads it, or with ``starting_player`` that player leads any tile), each move
    drawn uniformly from ``game.valid_moves`` with a ``random.Random(seed)`` (the package
    deals with the global ``random``, seeded here and restored after); per game
    ``{"game": "dominoes", "starting_player", "moves", "hands", "result"}``."""
    dominoes: Any = importlib.import_module("dominoes")
    saved = random.getstate()
    random.seed(seed)
    rng = random.Random(seed)
    out = []
    try:
        for _ in range(rounds):
            if starting_player is None:
                game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
            else:
                game = dominoes.Game.new(starting_player=starting_player)
            while game.result is None:
                game.make_move(*rng.choice(game.valid_moves))
            out.append(json.dumps({
                "game": "dominoes",
                "starting_player": game.starting_player,
                "moves": [None if m is None else [m[0].first, m[0].second, m[1]]
                          for m in game.moves],
                "hands": [[[d.first, d.second] for d in hand] for hand in game.hands],
                "result": list(game.result),
            }))
    finally:
        random.setstate(saved)
    return out


__all__ = ["dominoes_lines", "openspiel_lines"]
