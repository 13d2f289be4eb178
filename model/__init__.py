"""dominoproof.model: the round of dominoes as a specification you can run.

Read it like a TLA+ spec: :mod:`.tiles` (the constants), :mod:`.variant` (the
parameters), :mod:`.state` (the variables and ``TypeOK``), :mod:`.moves` (the
actions), :mod:`.rules` (legality, ``Next``, the predicates of R1-R4),
:mod:`.outcome` (R5), :mod:`.engine` (Init from a seeded deal, traces).
Nothing here imports ``dominoproof.proofs``.
"""

from .engine import Deal, Trace, initial_state, random_round, random_rounds, shuffled_deal
from .errors import (
    DominoproofError,
    FalseDeclarationError,
    IllegalMoveError,
    TraceError,
    VariantError,
)
from .moves import Move, MoveKind
from .outcome import Outcome, outcome
from .rules import (
    Rules,
    apply,
    boneyard_supplies_nothing,
    ends_unplayable,
    engine_for,
    is_blocked,
    legal_moves,
    successors,
)
from .state import Ending, State, StateFlaw, Status, state_status
from .tiles import Tile, TileSet, tile_count, tile_index, tile_set
from .variant import Variant, find_variant, load_variant, load_variant_data, presets

__all__ = [
    "Deal",
    "DominoproofError",
    "Ending",
    "FalseDeclarationError",
    "IllegalMoveError",
    "Move",
    "MoveKind",
    "Outcome",
    "Rules",
    "State",
    "StateFlaw",
    "Status",
    "Tile",
    "TileSet",
    "Trace",
    "TraceError",
    "Variant",
    "VariantError",
    "apply",
    "boneyard_supplies_nothing",
    "ends_unplayable",
    "engine_for",
    "find_variant",
    "initial_state",
    "is_blocked",
    "legal_moves",
    "load_variant",
    "load_variant_data",
    "outcome",
    "presets",
    "random_round",
    "random_rounds",
    "shuffled_deal",
    "state_status",
    "successors",
    "tile_count",
    "tile_index",
    "tile_set",
]
