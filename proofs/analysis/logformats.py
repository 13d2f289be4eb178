"""Other engines' logs, read into rounds that ``check-log`` replays
(:mod:`dominoproof.proofs.analysis.checklog`).

A log is a file of rounds; each format here turns one round into a
:class:`LoggedRound`: the deal (as dominoproof's deal JSON), the steps the log records
(a :class:`Play` of a tile on the end showing a number, or an explicit :class:`Pass`),
what the log scores, and each step as the log wrote it. Nothing here knows our rules:
the replay decides what agrees. The formats are documented, with the line a user of each
engine writes per round, in ``docs/CHECKLOG.md``.

* ``openspiel``: OpenSpiel's ``python_block_dominoes`` and ``python_team_dominoes``, one
  JSON object a line: ``{"game": NAME, "history": state.history(), "returns":
  state.returns()}`` (or ``"actions"``: the action strings instead of the history). The
  action numbering is OpenSpiel's own (``_DECK`` and ``_ACTIONS`` of
  ``open_spiel/python/games/{block,team}_dominoes.py``), rebuilt here so a log is read
  without OpenSpiel installed; ``tests/test_log_formats.py`` holds it to the installed
  package where the bench extra is present.
* ``dominoes``: the ``dominoes`` package's ``Game``, one JSON object a line:
  ``{"game": "dominoes", "starting_player": g.starting_player, "moves": [[a, b, left] or
  null, ...], "hands": [[[a, b], ...], ...], "result": [player, won, points]}`` with the
  hands as they are at the end of the game; the deal is those hands plus the tiles each
  player laid.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from dominoproof.model.errors import DominoproofError, TraceError, brief
from dominoproof.model.moves import Move, MoveKind, read_move
from dominoproof.model.reading import read_json
from dominoproof.model.tiles import Tile


class Play(NamedTuple):
    """A logged play: ``player`` lays ``tile`` (an index) on the open end showing
    ``shows`` (``None``: the lead, nothing is open yet)."""

    player: int
    tile: int
    shows: int | None
    slot: str | None = None  #: the slot's name, where the number does not say which
    #: the number a turned matador leaves showing (R2.1, Matador), where the log says
    leaves: int | None = None

    def __str__(self) -> str:
        t = Tile.from_index(self.tile).show()
        leaving = "" if self.leaves is None else f", leaving {self.leaves}"
        return (f"P{self.player} leads {t}" if self.shows is None
                else f"P{self.player} plays {t} on {self.shows}{leaving}")


class Pass(NamedTuple):
    """A logged pass: ``player`` says they cannot play (R4.2)."""

    player: int

    def __str__(self) -> str:
        return f"P{self.player} passes"


#: a step of a log: one of our moves (dominoproof's own traces) or another engine's
Step = Move | Play | Pass


@dataclass
class LoggedRound:
    """One round of a log, in the terms the replay needs."""

    deal: dict[str, Any]  #: dominoproof's deal JSON: hands, stack, set_aside
    steps: list[Step]
    where: str  #: where the round is in the log ("log.jsonl: line 3")
    game: str  #: the engine's game ("dominoproof", "python_block_dominoes", "dominoes")
    #: what the log scores: per side of the variant (``per_side``) or per player, or None
    scores: list[int] | None = None
    per_side: bool = False
    #: each step as the log wrote it (an action string, a move's JSON), for the report
    written: list[str] = field(default_factory=list)


FORMATS = ("trace", "openspiel", "dominoes")


def documents(text: str, source: str) -> Iterator[tuple[str, Any]]:
    """The JSON values of a log: one document (a list is its items), or JSON Lines; each
    with where it is (``source``, ``source: line N``)."""
    stripped = text.strip()
    if not stripped:
        raise TraceError(f"{source}: the log is empty")
    try:
        data = read_json(stripped, source, TraceError)
    except TraceError as e:
        if "not JSON" not in str(e) or "\n" not in stripped:
            raise
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                yield f"{source}: line {i}", read_json(line, f"{source}: line {i}", TraceError)
        return
    items = data if isinstance(data, list) else [data]
    for i, item in enumerate(items):
        yield (f"{source}: round {i}" if isinstance(data, list) else source), item


def read_log(text: str, source: str, fmt: str) -> list[LoggedRound]:
    """Every round of a log written in ``fmt`` (a :data:`FORMATS` name)."""
    readers = {"trace": _trace_round, "openspiel": _openspiel_round,
               "dominoes": _dominoes_round}
    if fmt not in readers:
        raise DominoproofError(f"--format {brief(fmt)}: unknown (allowed: "
                               f"{', '.join(FORMATS)})")
    return [readers[fmt](data, where) for where, data in documents(text, source)]


def _object(data: Any, where: str, keys: set[str], required: set[str], what: str
            ) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise TraceError(f"{where}: {brief(data)} is not a round (allowed: {what})")
    extra = sorted(set(data) - keys)
    if extra:
        raise TraceError(f"{where}: {brief(extra[0], quote=False)}: unknown key (allowed: "
                         f"{', '.join(sorted(keys))})")
    missing = sorted(required - set(data))
    if missing:
        raise TraceError(f"{where}: {missing[0]}: missing ({what})")
    return data


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _points(x: Any) -> int | None:
    """A logged score as a whole number (OpenSpiel's returns are floats), or None."""
    if _whole(x):
        return int(x)
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return None


def _names(tiles: list[int]) -> list[str]:
    return [str(Tile.from_index(t)) for t in tiles]


# -- dominoproof's own traces ----------------------------------------------------------
def _trace_round(data: Any, where: str) -> LoggedRound:
    if not isinstance(data, dict) or "deal" not in data or not isinstance(data.get("moves"),
                                                                          list):
        raise TraceError(f"{where}: not a round (allowed: an object with a deal and a list "
                         "of moves)")
    moves: list[Step] = []
    written: list[str] = []
    for i, m in enumerate(data["moves"]):
        try:
            w = read_move(m)
        except ValueError as e:
            raise TraceError(f"{where}: moves[{i}]{e}") from None
        if w.kind is MoveKind.PLAY:  # the end by the number it shows, read in the state
            moves.append(Play(w.player, w.tile, w.number, w.slot, w.leaves))
        else:
            moves.append(Move(w.kind, w.player, w.tile))
        written.append(w.show())
    final = data.get("final")
    outcome = final.get("outcome") if isinstance(final, dict) else None
    scores = outcome.get("scores") if isinstance(outcome, dict) else None
    if scores is not None and (not isinstance(scores, list) or not all(map(_whole, scores))):
        raise TraceError(f"{where}: final.outcome.scores = {brief(scores)}: must be a list "
                         "of whole numbers, one per side")
    return LoggedRound(data["deal"], moves, where, "dominoproof", scores, per_side=True,
                       written=written)


# -- OpenSpiel: python_block_dominoes, python_team_dominoes ----------------------------
@dataclass(frozen=True)
class OpenSpielGame:
    """What check-log needs of one of OpenSpiel's dominoes games."""

    name: str
    players: int
    hand_size: int
    round_robin: bool  #: the deal: one tile per seat in turn (else 7 to P0, then 7 to P1)

    @property
    def deck(self) -> list[tuple[int, int]]:
        """OpenSpiel's ``_DECK``: ``combinations_with_replacement(0..6, 2)``; a chance
        outcome is an index into it."""
        return [(a, b) for a in range(7) for b in range(a, 7)]

    @property
    def actions(self) -> list[tuple[int, tuple[int, int], int | None]]:
        """OpenSpiel's ``_ACTIONS``: for each player, tile of the deck and edge in
        ``[None, 0, ..., 6]``, the edge being None or a half of the tile; an action is an
        index into it."""
        return [(p, t, e) for p in range(self.players) for t in self.deck
                for e in (None, *range(7)) if e is None or e in t]

    def deal_of(self, tiles: list[int]) -> dict[str, Any]:
        """The deal the chance outcomes make: OpenSpiel fills the hands as it says, and
        leaves the tiles it does not deal out of play."""
        p, h = self.players, self.hand_size
        hands = ([tiles[i::p] for i in range(p)] if self.round_robin
                 else [tiles[i * h:(i + 1) * h] for i in range(p)])
        rest = [t for t in range(28) if t not in tiles]
        return {"hands": [_names(x) for x in hands], "stack": [], "set_aside": _names(rest)}


OPENSPIEL_GAMES = {g.name: g for g in (
    OpenSpielGame("python_block_dominoes", 2, 7, round_robin=False),
    OpenSpielGame("python_team_dominoes", 4, 7, round_robin=True),
)}

_DEAL_RE = re.compile(r"Deal \((\d)(?:\.0)?, (\d)(?:\.0)?\)")
_ACTION_RE = re.compile(r"p(\d+) tile:\((\d)(?:\.0)?, (\d)(?:\.0)?\) pip:(None|\d(?:\.0)?)")


def _openspiel_round(data: Any, where: str) -> LoggedRound:
    games = ", ".join(OPENSPIEL_GAMES)
    what = f'{{"game": one of {games}, "history": [...] or "actions": [...], "returns"}}'
    data = _object(data, where, {"game", "history", "actions", "returns"}, {"game"}, what)
    game = OPENSPIEL_GAMES.get(data["game"]) if isinstance(data["game"], str) else None
    if game is None:
        raise TraceError(f"{where}: game = {brief(data['game'])}: not a dominoes game of "
                         f"OpenSpiel's (allowed: {games})")
    if ("history" in data) == ("actions" in data):
        raise TraceError(f"{where}: give one of history (state.history()) and actions (the "
                         "action strings)")
    key = "history" if "history" in data else "actions"
    items = data[key]
    if not isinstance(items, list):
        raise TraceError(f"{where}: {key} = {brief(items)}: must be a list")
    deck, actions = game.deck, game.actions
    size = game.players * game.hand_size  # the tiles of the deal
    dealt: list[int] = []
    steps: list[Step] = []
    written: list[str] = []
    for i, item in enumerate(items):
        at = f"{where}: {key}[{i}]"
        if key == "history":
            dealing = len(dealt) < size
            top = len(deck) if dealing else len(actions)
            if not _whole(item) or not 0 <= item < top:
                kind = "a chance outcome" if dealing else "an action"
                raise TraceError(f"{at} = {brief(item)}: not {kind} of {game.name} "
                                 f"(allowed: 0..{top - 1})")
            if dealing:
                a, b = deck[item]
                text = f"Deal ({a}.0, {b}.0)"
                chance: tuple[int, int] | None = (a, b)
            else:
                p, (a, b), e = actions[item]
                text = f"p{p} tile:({a}.0, {b}.0) pip:{'None' if e is None else f'{e}.0'}"
                chance = None
        else:
            if not isinstance(item, str):
                raise TraceError(f"{at} = {brief(item)}: not an action string (allowed: "
                                 '"Deal (a, b)" or "pP tile:(a, b) pip:E")')
            text = item
            dm, am = _DEAL_RE.fullmatch(item), _ACTION_RE.fullmatch(item)
            if dm is None and am is None:
                raise TraceError(f"{at} = {brief(item)}: not an action string of "
                                 f"{game.name} (allowed: \"Deal (a, b)\" or \"pP tile:(a, b) "
                                 "pip:E\", as state.action_to_string writes them)")
            if dm is not None:
                chance = (min(int(dm[1]), int(dm[2])), max(int(dm[1]), int(dm[2])))
            else:
                assert am is not None
                chance = None
                p, a, b = int(am[1]), int(am[2]), int(am[3])
                e = None if am[4] == "None" else int(float(am[4]))
                if p >= game.players:
                    raise TraceError(f"{at} = {brief(item)}: no player p{p} in {game.name}")
        shown = f"{item} ({text})" if key == "history" else brief(text)
        if chance is not None:
            if steps or len(dealt) == size:
                raise TraceError(f"{at} = {shown}: a deal after the deal is complete")
            t = Tile.of(*chance).idx
            if t in dealt:
                raise TraceError(f"{at} = {shown}: {Tile.of(*chance)} is dealt twice")
            dealt.append(t)
            continue
        if len(dealt) < size:
            raise TraceError(f"{at} = {shown}: a play before the deal is complete "
                             f"({len(dealt)} of {size} tiles dealt)")
        steps.append(Play(p, Tile.of(a, b).idx, e))
        written.append(text)
    if len(dealt) < size:
        raise TraceError(f"{where}: {key}: the deal is incomplete ({len(dealt)} of {size} "
                         "tiles)")
    scores = None
    if "returns" in data:
        returns = data["returns"]
        won = [_points(r) for r in returns] if isinstance(returns, list) else None
        if won is None or len(won) != game.players or None in won:
            raise TraceError(f"{where}: returns = {brief(returns)}: must be "
                             f"{game.players} whole numbers (state.returns())")
        # zero-sum utilities: a winner's positive return is what it wins (R5.4), the
        # losers' negative returns are its mirror image
        scores = [max(0, r or 0) for r in won]
    return LoggedRound(game.deal_of(dealt), steps, where, game.name, scores, written=written)


# -- The dominoes package: dominoes.Game (4 players, teams 0+2 and 1+3, double-6) ------
def _pair(x: Any) -> tuple[int, int] | None:
    if (isinstance(x, list) and len(x) == 2 and all(_whole(v) and 0 <= v <= 6 for v in x)):
        return int(x[0]), int(x[1])
    return None


def _dominoes_round(data: Any, where: str) -> LoggedRound:
    what = ('{"game": "dominoes", "starting_player", "moves", "hands", "result"} '
            "(docs/CHECKLOG.md)")
    data = _object(data, where, {"game", "starting_player", "moves", "hands", "result"},
                   {"game", "starting_player", "moves", "hands"}, what)
    if data["game"] != "dominoes":
        raise TraceError(f"{where}: game = {brief(data['game'])}: not the dominoes package's "
                         'game (allowed: "dominoes")')
    start = data["starting_player"]
    if not _whole(start) or not 0 <= start < 4:
        raise TraceError(f"{where}: starting_player = {brief(start)}: not a player (allowed: "
                         "0..3)")
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != 4 or not all(isinstance(h, list)
                                                                 for h in hands):
        raise TraceError(f"{where}: hands = {brief(hands)}: must be the 4 hands at the end "
                         "of the game, each a list of [a, b]")
    held: list[list[int]] = []
    for p, hand in enumerate(hands):
        held.append([])
        for j, d in enumerate(hand):
            ab = _pair(d)
            if ab is None:
                raise TraceError(f"{where}: hands[{p}][{j}] = {brief(d)}: not a domino "
                                 "(allowed: [a, b], 0 <= a, b <= 6)")
            held[p].append(Tile.of(*ab).idx)
    moves = data["moves"]
    if not isinstance(moves, list):
        raise TraceError(f"{where}: moves = {brief(moves)}: must be a list of [a, b, left] "
                         "or null (a pass)")
    steps: list[Step] = []
    written: list[str] = []
    ends: list[int] = []  # the board's left and right ends, as the package keeps them
    for i, m in enumerate(moves):
        p = (start + i) % 4  # the package records a pass too: the turn moves on each entry
        if m is None:
            steps.append(Pass(p))
            written.append("None (a pass)")
            continue
        ab = _pair(m[:2]) if isinstance(m, list) and len(m) == 3 else None
        if ab is None or not isinstance(m[2], bool):
            raise TraceError(f"{where}: moves[{i}] = {brief(m)}: not a move (allowed: [a, b, "
                             "left] with left true or false, or null for a pass)")
        a, b = ab
        left = m[2]
        written.append(f"([{a}|{b}], {left})")
        if not ends:
            steps.append(Play(p, Tile.of(a, b).idx, None))
            ends = [a, b]  # Board.add on an empty board: left_end a, right_end b
        else:
            k = 0 if left else 1
            shows = ends[k]
            steps.append(Play(p, Tile.of(a, b).idx, shows))
            if shows in (a, b):
                ends[k] = b if a == shows else a
        held[p].append(Tile.of(a, b).idx)
    deal = {"hands": [_names(h) for h in held], "stack": [], "set_aside": []}
    scores = None
    if "result" in data:
        result = data["result"]
        points: Any
        if isinstance(result, dict):
            points = result.get("points")
        elif isinstance(result, list) and len(result) == 3:
            points = result[2]
        else:
            points = None
        if not _whole(points):
            raise TraceError(f"{where}: result = {brief(result)}: must be the game's Result "
                             "[player, won, points] (points: a whole number)")
        won = int(points)  # > 0: the team of players 0 and 2 scored it; < 0: 1 and 3
        scores = [max(0, won) if p % 2 == 0 else max(0, -won) for p in range(4)]
    return LoggedRound(deal, steps, where, "dominoes", scores, written=written)


__all__ = ["FORMATS", "OPENSPIEL_GAMES", "LoggedRound", "OpenSpielGame", "Pass", "Play",
           "Step", "documents", "read_log"]
