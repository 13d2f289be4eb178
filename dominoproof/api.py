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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dominoproof.proofs.budgets import (
    CROSSCHECK_STATES,
    DEFAULT_RLIMIT,
    DEFAULT_SEED,
    DEFAULT_TIMEOUT_MS,
    EXPLORE_MAX_STATES,
)

if TYPE_CHECKING:
    from dominoproof.model.engine import Trace
    from dominoproof.model.moves import Move
    from dominoproof.model.state import Deal
    from dominoproof.model.variant import Variant
    from dominoproof.proofs.analysis.checklog import LogCheck
    from dominoproof.proofs.analysis.figures import RoundFigures
    from dominoproof.proofs.analysis.policies import Policy
    from dominoproof.proofs.analysis.simulate import Statistics
    from dominoproof.proofs.properties import Result
    from dominoproof.proofs.runner import Runner
    from dominoproof.proofs.search.verification import Verification
    from dominoproof.proofs.z3.queries import Prover, SanityCheck
    from dominoproof.verify import Report

def variant(spec: Variant | str | Path, overrides: Mapping[str, Any] | None = None) -> Variant:
    """A variant from a preset name, an alias, a TOML path or a Variant, with
    ``overrides`` (``{"section.key": value}``) applied and validated."""
    from dominoproof.model.variant import Variant, find_variant

    v = spec if isinstance(spec, Variant) else find_variant(str(spec))
    return v.with_overrides(dict(overrides), source=f"{v.source} with overrides") \
        if overrides else v


def verify(variants: Iterable[Variant | str | Path] | None = None, *, faults: bool = True,
           seed: int = DEFAULT_SEED, rlimit: int = DEFAULT_RLIMIT,
           timeout_ms: int = DEFAULT_TIMEOUT_MS, crosscheck: int = CROSSCHECK_STATES,
           workers: int | None = None,
           progress: Callable[[str, list[Any]], None] | None = None,
           runner: Runner | None = None) -> Report:
    """The main job (:mod:`dominoproof.verify`) on ``variants`` (default: every preset):
    a :class:`~dominoproof.verify.Report` whose ``exit_code`` is the CLI's (0 every
    verdict as expected, 1 a violation or an uncaught fault, 3 only UNKNOWN). ``runner``
    (:mod:`dominoproof.proofs.runner`): run each variant and fault on a cluster."""
    from dominoproof.model.variant import presets
    from dominoproof.verify import verify as run

    chosen = ([variant(v) for v in variants] if variants is not None
              else list(presets().values()))
    return run(chosen, faults=faults, seed=seed, timeout_ms=timeout_ms, rlimit=rlimit,
               crosscheck=crosscheck, workers=workers, progress=progress, runner=runner)


@dataclass
class ProofReport:
    """What :func:`prove` found: a verdict per property (and per property for every size,
    with ``all_sizes``), the sanity checks of the premises, and the prover itself (its
    invariant, lemmas and solver statistics)."""

    prover: Prover
    results: list[Result]
    sizes: list[Result] = field(default_factory=list)
    sanity: list[SanityCheck] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def exit_code(self) -> int:
        """The CLI's: 1 violated or not inductive (or a sanity check answered wrongly), 3
        UNKNOWN (a verdict or a sanity check: a budget ran out), else 0."""
        from dominoproof.proofs.properties import Verdict
        from dominoproof.proofs.z3.session import premises

        verdicts = {r.verdict for r in [*self.results, *self.sizes]}
        sound = premises(self.sanity)
        if verdicts & {Verdict.VIOLATED, Verdict.NOT_INDUCTIVE} or sound == "FAILED":
            return 1
        if Verdict.UNKNOWN in verdicts or sound == "UNKNOWN":
            return 3
        return 0


def prover(spec: Variant | str | Path, *, fault: str | None = None,
           overrides: Mapping[str, Any] | None = None, seed: int = DEFAULT_SEED,
           rlimit: int = DEFAULT_RLIMIT, timeout_ms: int = DEFAULT_TIMEOUT_MS,
           depth: int = 12, together: bool | None = None) -> Prover:
    """The Z3 prover of a variant (or, with ``fault``, of a deliberately broken rule set's
    demo configuration and Z3 twin)."""
    from dominoproof.proofs.z3.queries import Prover

    kw: dict[str, Any] = {"seed": seed, "timeout_ms": timeout_ms, "rlimit": rlimit,
                          "bmc_depth": depth, "together": together}
    if fault is not None:
        from dominoproof.proofs.z3.encoding_faults import twin_prover

        return twin_prover(fault, **kw)
    return Prover(variant(spec, overrides), **kw)


def prove(spec: Variant | str | Path, properties: Sequence[str] | None = None, *,
          fault: str | None = None, all_sizes: bool = False,
          overrides: Mapping[str, Any] | None = None, seed: int = DEFAULT_SEED,
          rlimit: int = DEFAULT_RLIMIT, timeout_ms: int = DEFAULT_TIMEOUT_MS, depth: int = 12,
          together: bool | None = None, workers: int = 1,
          progress: Callable[[str], None] | None = None) -> ProofReport:
    """Prove ``properties`` (default: the catalogue) of a variant by induction with Z3,
    the sanity checks of the premises included; with ``all_sizes``, also for every set
    size and player count at once. ``progress`` is told each phase as it starts."""
    import time

    from dominoproof.proofs.properties import CATALOGUE, find_property

    for pid in properties or ():
        find_property(pid)
    ids = list(properties) if properties else [p.id for p in CATALOGUE]
    pr = prover(spec, fault=fault, overrides=overrides, seed=seed, rlimit=rlimit,
                timeout_ms=timeout_ms, depth=depth, together=together)
    t0 = time.perf_counter()
    if progress:
        progress(f"proving {len(ids)} properties of {pr.label} (Z3)")
    results = pr.prove_all(ids, workers=workers, sanity=True)
    sizes: list[Result] = []
    if all_sizes:
        from dominoproof.proofs.allsizes import prove_all_sizes

        if progress:
            progress("proving them for every set size and player count (Z3)")
        sizes = prove_all_sizes(pr.variant, ids, timeout_ms=timeout_ms, seed=seed,
                                rlimit=rlimit)
    return ProofReport(pr, results, sizes, pr.last_sanity, time.perf_counter() - t0)


def deal(spec: Variant | str | Path, given: Deal | Mapping[str, Any] | str | Path, *,
         overrides: Mapping[str, Any] | None = None) -> Deal:
    """A deal of a variant, checked exactly like a deal read from a file: ``given`` is a
    :class:`~dominoproof.model.engine.Deal` value (hands and set-aside tiles as bitmasks,
    the stack as tile indices, top first), its JSON (``{"hands": [["6-6", ...], ...],
    "stack": [...], "set_aside": [...]}``), the text ``play --deal`` reads (``"P0: 6-6
    5-6 ...; P1: ...; stack: ..."``) or the path of a file holding either. Every tile of
    the set once, hands of the variant's size, a deal the lead rule does not void; else
    one located :class:`~dominoproof.model.errors.DominoproofError` naming the deal, the
    key, the value and what is allowed."""
    return _checked(variant(spec, overrides), given)


def _checked(v: Variant, given: Any) -> Deal:
    from dominoproof.model.dealtext import parse_deal
    from dominoproof.model.engine import checked_deal
    from dominoproof.model.state import Deal

    if isinstance(given, Deal | Mapping):
        return checked_deal(v, given, "deal")
    if isinstance(given, str | Path):
        return checked_deal(v, parse_deal(v, str(given)), "deal")
    from dominoproof.model.errors import DominoproofError, brief

    raise DominoproofError(f"deal = {brief(given)}: not a deal (allowed: a Deal, its JSON "
                           "as a mapping, the text of play --deal, or a file)")


def play(spec: Variant | str | Path, *, seed: int = 0,
         deal: Deal | Mapping[str, Any] | str | Path | None = None,
         overrides: Mapping[str, Any] | None = None) -> Trace:
    """One round of uniformly random legal moves (seeded), from a shuffled deal of
    ``seed`` or from ``deal`` (checked by :func:`deal`): what ``dominoproof play`` plays."""
    import random

    from dominoproof.model.engine import Trace, initial_state, playout, random_round
    from dominoproof.model.fast import engine_for

    v = variant(spec, overrides)
    if deal is None:
        return random_round(v, seed)
    d = _checked(v, deal)
    rules = engine_for(v)
    moves: list[Move] = []
    playout(rules, initial_state(v, d, rules=rules), random.Random(seed).random, moves)
    return Trace(v, d, tuple(moves), seed)


def explore(spec: Variant | str | Path, *, seed: int = 0, all_deals: bool = False,
            free_draw: bool = False, properties: Sequence[str] | None = None,
            max_states: int | None = EXPLORE_MAX_STATES, max_seconds: float | None = None,
            overrides: Mapping[str, Any] | None = None, workers: int = 1,
            deal: Deal | Mapping[str, Any] | str | Path | None = None,
            runner: Runner | None = None, parts: int | None = None) -> Verification:
    """Exhaustive search of one seeded deal (or ``deal``, checked by :func:`deal`; or
    ``all_deals``) of a small configuration, every property of the catalogue judged on
    the graph (HOLDS only when every state was examined; a budget is UNKNOWN). Every
    deal with ``workers > 1`` or a ``runner`` (a cluster,
    :mod:`dominoproof.proofs.runner`) is searched by deal, in ``parts``."""
    from dominoproof.model.engine import seeded_deal
    from dominoproof.model.errors import DominoproofError
    from dominoproof.model.spec import Init
    from dominoproof.proofs.search.statespace import feasibility
    from dominoproof.proofs.search.verification import verify as check

    v = variant(spec, overrides)
    if all_deals and deal is not None:
        raise DominoproofError("explore: all_deals and deal exclude each other")
    one = seeded_deal(v, seed) if deal is None else _checked(v, deal)
    init = Init.every(free_draw) if all_deals else Init.one(one, free_draw)
    ok, why = feasibility(v, init)
    if not ok:
        raise DominoproofError(f"{v.name}: {why}")
    return check(v, init, properties=properties, max_states=max_states,
                 max_seconds=max_seconds, workers=workers, inapplicable=True,
                 how=None if all_deals else f"the deal of seed {seed}", runner=runner,
                 parts=parts)


def simulate(spec: Variant | str | Path, rounds: int = 10_000, *, seed: int = 0,
             top: int = 10, overrides: Mapping[str, Any] | None = None,
             progress: Callable[[int], None] | None = None,
             policy: str | Policy = "random", runner: Runner | None = None) -> Statistics:
    """Monte-Carlo statistics of ``rounds`` seeded random rounds (uniformly random moves,
    or those of ``policy``, :mod:`dominoproof.proofs.analysis.policies`), in batches played here or
    on
    ``runner`` (a pool or a cluster: the same figures)."""
    from dominoproof.model.errors import DominoproofError
    from dominoproof.proofs.analysis.simulate import simulate as run

    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise DominoproofError(f"rounds = {rounds!r}: must be a whole number >= 1")
    return run(variant(spec, overrides), rounds, seed, top=top, progress=progress,
               every=max(1, min(2000, rounds // 100)), policy=policy, runner=runner)


def exact_figures(spec: Variant | str | Path, policy: str | Policy = "random", *,
                  free_draw: bool = True, deal: Deal | None = None,
                  max_deals: int | None = None, max_states: int | None = None,
                  max_seconds: float | None = None,
                  overrides: Mapping[str, Any] | None = None) -> RoundFigures:
    """The exact figures of a small configuration under ``policy``
    (:func:`dominoproof.stats.exact_figures`; ``None`` budgets: the defaults, never "no
    limit"). Too many deals: a DominoproofError; a budget run out:
    :class:`~dominoproof.stats.FiguresUnknown`."""
    from dominoproof.proofs.analysis import stats

    return stats.exact_figures(
        variant(spec, overrides), policy, free_draw=free_draw, deal=deal,
        max_deals=stats.MAX_EXACT_DEALS if max_deals is None else max_deals,
        max_states=stats.DEFAULT_MAX_STATES if max_states is None else max_states,
        max_seconds=max_seconds)


def sampled_figures(spec: Variant | str | Path, policy: str | Policy = "random",
                    rounds: int = 10_000, seed: int = 0, *, level: float = 0.95,
                    overrides: Mapping[str, Any] | None = None,
                    runner: Runner | None = None) -> RoundFigures:
    """The same figures measured on ``rounds`` seeded rounds, with ``level`` intervals
    (:func:`dominoproof.stats.sampled_figures`; ``runner``: where the batches run)."""
    from dominoproof.proofs.analysis.stats import sampled_figures as run

    return run(variant(spec, overrides), policy, rounds, seed, level=level, runner=runner)


def check_log(log: str | Path, spec: Variant | str | Path, *, format: str = "trace",
              overrides: Mapping[str, Any] | None = None) -> LogCheck:
    """Another engine's logged rounds (a file; ``format``: ``trace``, ``openspiel`` or
    ``dominoes``, docs/CHECKLOG.md) replayed under a variant: per round agrees, or the
    first deviation with its rule ID; a summary by rule (what ``check-log`` prints)."""
    from dominoproof.model.errors import TraceError
    from dominoproof.proofs.analysis.checklog import check_log as run

    try:
        text = Path(log).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise TraceError(f"{log}: cannot read the log ({e.__class__.__name__})") from None
    return run(variant(spec, overrides), text, str(log), format)


def fault_rule_book(name: object) -> Callable[[Variant], Any] | None:
    """The rule book a trace names (``"rules": "ConfirmWhilePlayable"``) when it is one of
    the deliberately broken rule books of :mod:`dominoproof.proofs.faults` (a fault's
    counterexample, as ``verify --traces`` writes it); None for any other name."""
    if not isinstance(name, str):
        return None
    from dominoproof.proofs.faults import FAULTS

    for f in FAULTS:
        if f.engine is not None and f.engine.__name__ == name:
            engine: Callable[[Variant], Any] = f.engine
            return engine
    return None


def replay(trace: str | Path | Mapping[str, Any]) -> Trace:
    """A trace (a file, or its JSON data) read and replayed with every legality check: the
    deal must be a deal of its variant and the recorded final state must be reached.
    A trace recorded under a fault's broken rule book (it names it) replays under that
    rule book, and the trace keeps it (:attr:`Trace.rules`); a rule book of any other
    name is refused. Anything else is a located
    :class:`~dominoproof.model.errors.TraceError`."""
    from dominoproof.model.engine import Trace
    from dominoproof.model.errors import TraceError
    from dominoproof.model.reading import read_json

    if isinstance(trace, Mapping):
        data = dict(trace)
        t = Trace.from_json(data, rules=fault_rule_book(data.get("rules")))
    else:
        source = str(trace)
        try:
            text = Path(trace).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise TraceError(f"{source}: cannot read the trace ({e.__class__.__name__}: "
                             f"{getattr(e, 'strerror', None) or e})") from None
        try:
            data = read_json(text, source, TraceError)
            book = fault_rule_book(data.get("rules")) if isinstance(data, dict) else None
            t = Trace.from_json(data, source, rules=book)
        except TraceError as e:
            msg = str(e)
            raise TraceError(msg if msg.startswith(source) else f"{source}: {msg}") from None
    t.states()  # every move replayed with apply's checks (cached for rendering)
    return t


__all__ = ["ProofReport", "check_log", "deal", "exact_figures", "explore", "fault_rule_book",
           "play", "prove", "prover", "replay", "sampled_figures", "simulate", "variant",
           "verify"]
