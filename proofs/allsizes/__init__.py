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

Every query lies in many-sorted EPR (the Bernays-Schönfinkel-Ramsey class with
a stratified sort graph): after negation and Skolemisation, the only functions
are constants and ``Tile -> Player``, ``Tile -> Value``, ``End -> Value``
(acyclic), so Z3's model-based instantiation decides them. :func:`fragment_of`
checks this for every query and records it. The invariant's candidates are the
lemmas of :mod:`dominoproof.proofs.z3.lemmas`, shared with the per-instance proofs. The
model and its invariant are explained for a teacher in ``docs/ALLSIZES.md``.

The rule *parameters* that are not sizes (the variant's own values) select the
actions and guards: ``DRAW`` (R3.1), ``C`` and ``EMPTY`` (R4.4), ``FOULS`` (R4.5),
``READING`` (R2.3); the layout's slots (``LAYOUT``) become rigid relations and
axioms. ``"all"`` confirmations is ``forall p. confirmed(p)``; ``"all-others"`` is
``forall p. p != turn -> confirmed(p)`` (and is shown unsound); a numeric count
is not first-order over an uninterpreted sort of players, so the properties
that depend on it are N/A here and proved per instance (``dominoproof prove``).

Honesty: every query has a resource limit, a timeout and a fixed seed; ``unknown``
gives UNKNOWN, never PROVED; ``Init``, ``Inv`` and every action are checked
satisfiable (a proof from an empty premise is a defect), and every live state
of ``Inv`` enables some action. Each result records the solver's time and
statistics of the queries it rests on.

The modules, along the model's seams:

=======================  ==========================================================================
``vocabulary``           the sorts, the rigid relations, one state, an action
``layout``               the variant's slot data as rigid relations, generated axioms and
                         formulas over the slot constants (a spinner's waiting arms, pending
                         slots); what the fragment cannot state (trains, toes), and why
``model``                :class:`AbstractModel`: one variant's rules, axioms, Init, predicates
``actions``              the actions, guards 1-8 of SEMANTICS.md
``twins``                the abstract twins of the faults, registered by fault id
``catalogue``            which properties are stated here, the transition properties
``layout_properties``    the layout's properties (doubles-covered, spinner-arms,
                         uncoverable-double, readings-agree)
``fragment``             :func:`fragment_of`: is a query in EPR?
``prove``                Houdini, the sanity checks, :func:`prove_model`, :func:`prove_all_sizes`
``decode``               counterexamples decoded into a small state of the round
=======================  ==========================================================================
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
