"""The peer's Promela models of ``dominoproof bench spin``: where they are, the deal each
header states (checked against the model's own code), and the same game as a variant and a
deal of ours.

The models (``domino_N{3,4,6}.pml``) are copies of ``../shared/peers/spin`` shipped in
``bench/spin_models``; ``DOMINOPROOF_SPIN_MODELS`` names another folder.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dominoproof.model.errors import DominoproofError
from dominoproof.model.state import Deal
from dominoproof.model.tiles import MAX_SET, Tile, mask_of, tile_count, tile_set
from dominoproof.model.variant import Variant, find_variant

DEFAULT_MODELS = Path(__file__).resolve().parent / "spin_models"
MODELS_ENV = "DOMINOPROOF_SPIN_MODELS"

SIZES = (3, 4, 6)

# ---------------------------------------------------------------------------
# The Promela model's deal
# ---------------------------------------------------------------------------

_TILE = re.compile(r"\[(\d+)\|(\d+)\]")


@dataclass(frozen=True)
class PromelaDeal:
    """The deal of a Promela model, read from its header (and checked against its code)."""

    n: int  #: the set is double-N
    hands: tuple[tuple[Tile, ...], ...]  #: P0, P1, as listed
    boneyard: tuple[Tile, ...]  #: draw order, top (next drawn) first
    source: str = ""

    @property
    def opening(self) -> Tile:
        return Tile(self.n, self.n)

    def describe(self) -> str:
        hands = " / ".join(f"P{p} " + " ".join(t.show() for t in h)
                           for p, h in enumerate(self.hands))
        return f"{hands} / boneyard (draw order) " + " ".join(t.show() for t in self.boneyard)


def models_dir(given: str | Path | None = None) -> Path:
    """The folder of the ``domino_N*.pml`` models: ``given``, ``$DOMINOPROOF_SPIN_MODELS``,
    or the copies shipped with the package (``bench/spin_models``)."""
    if given:
        return Path(given)
    env = os.environ.get(MODELS_ENV)
    return Path(env) if env else DEFAULT_MODELS


def model_path(n: int, models: str | Path | None = None) -> Path:
    path = models_dir(models) / f"domino_N{n}.pml"
    if not path.is_file():
        raise DominoproofError(
            f"{path}: no such Promela model (give the folder with --models or "
            f"${MODELS_ENV}; the peer models are domino_N3/4/6.pml)")
    return path


def _header_line(text: str, label: str, source: str) -> list[Tile]:
    m = re.search(rf"^\s*(?:/\*)?\s*{re.escape(label)}(.*)$", text, re.M)
    if m is None:
        raise DominoproofError(f"{source}: the header has no line '{label} ...'")
    return [Tile.of(int(a), int(b)) for a, b in _TILE.findall(m.group(1))]


def parse_header(text: str, source: str = "<promela>") -> PromelaDeal:
    """The deal in a model's header comment, checked three ways: it is a deal of the
    whole double-N set, P0 holds [N|N] (the forced opening), and the model's
    initialisation (``loc[i] = p``, ``stk[k] = i`` in Spin's own tile numbering, given
    in the header) places every tile where the header says."""
    head = re.match(r"\s*/\*(.*?)\*/", text, re.S)
    if head is None:
        raise DominoproofError(f"{source}: no header comment")
    header = head.group(1)
    m = re.search(r"double-(\d+),\s*(\d+) players", header)
    if m is None:
        raise DominoproofError(f"{source}: the header does not say 'double-N, 2 players'")
    n, players = int(m.group(1)), int(m.group(2))
    if players != 2:
        raise DominoproofError(f"{source}: {players} players; the peer models have 2")
    hands = (tuple(_header_line(header, "P0:", source)),
             tuple(_header_line(header, "P1:", source)))
    boneyard = tuple(_header_line(header, "boneyard (draw order):", source))
    deal = PromelaDeal(n, hands, boneyard, source)
    everything = [*hands[0], *hands[1], *boneyard]
    if n > MAX_SET or sorted(everything) != sorted(tile_set(n).tiles):
        raise DominoproofError(f"{source}: the header's hands and boneyard are not the "
                               f"double-{n} set, each tile once")
    if len(hands[0]) != len(hands[1]):
        raise DominoproofError(f"{source}: hands of {len(hands[0])} and {len(hands[1])} "
                               "tiles (dominoproof deals equal hands)")
    if deal.opening not in hands[0]:
        raise DominoproofError(f"{source}: P0 does not hold {deal.opening.show()}, which the "
                               "model's forced opening lays")
    _check_init(text, header, deal, source)
    return deal


def _check_init(text: str, header: str, deal: PromelaDeal, source: str) -> None:
    numbering = {int(i): Tile.of(int(a), int(b))
                 for i, a, b in re.findall(r"(\d+)=\[(\d+)\|(\d+)\]", header)}
    if len(numbering) != tile_count(deal.n):
        raise DominoproofError(f"{source}: the header's tile numbering is incomplete")
    define = {k: int(v) for k, v in re.findall(r"#define\s+(T|NB)\s+(\d+)", text)}
    if define.get("T") != tile_count(deal.n) or define.get("NB") != len(deal.boneyard):
        raise DominoproofError(f"{source}: #define T/NB disagree with the header's deal")
    where = {int(i): int(p) for i, p in re.findall(r"loc\[(\d+)\]\s*=\s*(\d)\s*;", text)}
    stack = {int(k): int(i) for k, i in re.findall(r"stk\[(\d+)\]\s*=\s*(\d+)\s*;", text)}
    for p, hand in enumerate(deal.hands):
        for t in hand:
            i = next(k for k, u in numbering.items() if u == t)
            if where.get(i) != p:
                raise DominoproofError(f"{source}: the header gives {t.show()} to P{p}, "
                                       "the model's init does not")
    if [numbering.get(stack.get(k, -1)) for k in range(len(deal.boneyard))] != \
            list(deal.boneyard):
        raise DominoproofError(f"{source}: the model's stk[] is not the header's draw order")
    if f"lays [{deal.n}|{deal.n}]" not in text or "passes == 2 -> status = BLOCKED" not in text:
        raise DominoproofError(f"{source}: not the peer model this benchmark knows (no "
                               "forced opening with the top double, or no two-pass block)")


def load_deal(n: int, models: str | Path | None = None) -> PromelaDeal:
    path = model_path(n, models)
    return parse_header(path.read_text(encoding="utf-8"), str(path))


def variant_for(deal: PromelaDeal, overrides: dict[str, Any] | None = None) -> Variant:
    """The dominoproof variant of the Promela model's round (see the module docstring)."""
    n = deal.n
    settings: dict[str, Any] = {
        "set.max": n, "deal.players": 2, "deal.hand_size": len(deal.hands[0]),
        "deal.set_aside": 0, "draw.rule": "until-playable",
        "lead.rule": "tile", "lead.tile": f"{n}-{n}", "lead.fallback": "heaviest-tile",
        "layout.kind": "line", "block.confirmations": "all",
        "block.boneyard_must_be_empty": True, "fouls.rule": "impossible",
        **(overrides or {}),
    }
    v = find_variant("draw-2p-d6").with_overrides(settings, source=f"spin peer N={n}")
    return v


def deal_for(deal: PromelaDeal) -> Deal:
    """The same deal as a model :class:`Deal`: hands, the boneyard in draw order."""
    return Deal(tuple(mask_of(t.idx for t in h) for h in deal.hands),
                tuple(t.idx for t in deal.boneyard), 0)
