"""Proofs for every set size and every player count at once.

The per-instance encoding (``proofs/z3/encoding.py``) fixes N and P and asks Z3
about one finite round. Here nothing is fixed: players, tiles, numbers and open
ends are **uninterpreted sorts**, the state is a handful of **relations** over
them (``holds(player, tile)``, ``in_boneyard(tile)``, ``shows(end, value)``,
``confirmed(player)``, ``covered(end)``, ``pending(end)``, ...), and each action of
``docs/SEMANTICS.md`` is a two-state formula. A proof is an inductive invariant, written
with quantifiers, whose three obligations are unsatisfiable::

    Init & ~Inv                 (it holds after every deal)
    Inv & T_a & ~Inv'           (every action a preserves it; one query per
                                 action, then per conjunct where one fails, so a
                                 failure names both)
    Inv & ~Prop   or   Inv & T_a & ~Prop(pre, post)     (it implies the property)

Every query lies in many-sorted EPR, which Z3's model-based instantiation decides;
:func:`fragment_of` checks this for every query and records it. The invariant's
candidates are the lemmas of :mod:`dominoproof.proofs.z3.lemmas`, shared with the
per-instance proofs. The rule parameters that are not sizes select the actions and
guards; the layout's slots become rigid relations and axioms. ``docs/ALLSIZES.md``
explains the model, the fragment, the rule matrix, the sanity checks (``unknown`` is
UNKNOWN, never PROVED) and the faults' abstract twins for a teacher; each module's
docstring says its part.
"""

from __future__ import annotations

from .catalogue import CORE, METHOD, NOT_STATABLE
from .decode import AbstractCounterexample, distinct_tiles
from .fragment import fragment_of
from .model import AbstractModel
from .prove import Checker, Query, prove_all_sizes, prove_model
from .twins import TWINS
from .vocabulary import Action

__all__ = [
    "CORE",
    "METHOD",
    "NOT_STATABLE",
    "TWINS",
    "AbstractCounterexample",
    "AbstractModel",
    "Action",
    "Checker",
    "Query",
    "distinct_tiles",
    "fragment_of",
    "prove_all_sizes",
    "prove_model",
]
