"""dominoproof.model: the round of dominoes as a specification you can run.

:mod:`.spec` is the specification, read top to bottom like a TLA+ module (the
constants, ``TypeOK``, ``Init``, the named actions, ``Next``, the predicates of R1-R4);
``legal_moves``, ``apply`` and the predicates exported here run it. Beside it: the
variant (:mod:`.variant`), the values (:mod:`.tiles`, :mod:`.state`, :mod:`.moves`),
the layout's slots and marks (:mod:`.layout`), R5 (:mod:`.outcome`), and the fast
engine (:mod:`.fast`, :func:`engine_for`) with its seeded rounds and traces
(:mod:`.engine`). Nothing here imports ``dominoproof.proofs``.
"""

from .engine import Trace, initial_state, random_round, random_rounds, shuffled_deal
from .errors import (
    DominoproofError,
    FalseDeclarationError,
    IllegalMoveError,
    TraceError,
    VariantError,
)
from .fast import engine_for
from .moves import Move, MoveKind
from .outcome import Outcome, outcome
from .spec import (
    Rules,
    apply,
    boneyard_supplies_nothing,
    ends_unplayable,
    is_blocked,
    legal_moves,
    successors,
)
from .state import Deal, Ending, State, StateFlaw, Status, state_status
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
