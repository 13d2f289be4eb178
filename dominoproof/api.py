"""The Python API of dominoproof: what the command line does, as functions returning reports.

A CI pipeline, a notebook or another tool calls these instead of parsing the CLI's text;
the CLI (``dominoproof verify``, ``prove``, ``replay``, ``simulate``) and the pytest plugin
(:mod:`dominoproof.pytest_plugin`) are clients of them. Every function takes a variant as
a :class:`~dominoproof.model.variant.Variant`, a preset name or alias, or a path to a TOML
file, with optional overrides (``{"deal.players": 4}``), validated exactly as a file is:
every error a user can cause is a :class:`~dominoproof.model.errors.DominoproofError`
naming the file, the key, the value and what is allowed. A deal given to :func:`deal`,
:func:`play` or :func:`explore` is checked the same way as a deal read from a file
(:func:`~dominoproof.model.engine.checked_deal`), before anything is played.

Z3's budgets are the CLI's: ``rlimit`` (deterministic, decides) and ``timeout_ms`` (a
wall-clock safety net); a budget that runs out is UNKNOWN, never a proof.

Example::

    from dominoproof import api

    report = api.verify(["my-variant.toml"], faults=False)
    assert report.exit_code == 0, [r.property for r in report.failures]

    proof = api.prove("block-2p-d6", ["blocked-sound"])
    print(proof.results[0].verdict)          # Verdict.PROVED

A round move by move (:mod:`dominoproof.game`)::

    r = api.new_round("mextrain-4p-d12", seed=3)
    while not r.is_over():
        r.push(r.legal_moves()[0])
    print(r.ending, r.returns())
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names as the type checker sees them; at run time, __getattr__
    from dominoproof.game import Round, new_round
    from dominoproof.proving import ProofReport, explore, prove, prover
    from dominoproof.rounds import check_log, deal, fault_rule_book, play, replay, variant
    from dominoproof.simulation import exact_figures, sampled_figures, simulate
    from dominoproof.verify import verify

#: Each name's home, by concern; a home is loaded when one of its names is first used,
#: so a command loads what it calls and no more (``verify`` does not load the prover).
_HOMES = {
    "dominoproof.rounds": ("check_log", "deal", "fault_rule_book", "play", "replay",
                           "variant"),
    "dominoproof.game": ("Round", "new_round"),
    "dominoproof.proving": ("ProofReport", "explore", "prove", "prover"),
    "dominoproof.simulation": ("exact_figures", "sampled_figures", "simulate"),
    "dominoproof.verify": ("verify",),
}
_HOME = {name: home for home, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOME[name]), name)
    globals()[name] = value
    return value


__all__ = ["ProofReport", "Round", "check_log", "deal", "exact_figures", "explore",
           "fault_rule_book", "new_round", "play", "prove", "prover", "replay",
           "sampled_figures", "simulate", "variant", "verify"]
