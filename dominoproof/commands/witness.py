"""``dominoproof witness``: a question about a variant, answered by Z3 with a round.

QUESTION is one of:

* ``shortest-block``: the shortest possible blocked round (searched from a lower bound
  drawn from proved properties: a block needs the lead, the whole boneyard drawn, C
  confirmations and the establishment, and with every tile in play the ends' suits on
  the table);
* ``max-residual``: the largest residual count of one player at a block, among rounds
  of at most ``--depth`` moves (default: the shortest block's length), maximised by Z3;
* ``tie``: a block where two or more sides tie for the lowest total;
* ``block-before-empty-boneyard``: a block established while the boneyard still holds
  tiles (none for a sound variant; try ``--fault boneyard-check-off``);
* ``parity-refuted``: a block that breaks the parity theorem (a variant with tiles set
  aside, e.g. ``block-2p-d6``);
* ``readings-differ``: a round being played where no player has a legal move while a hand
  holds a tile matching an open end -- R2.3's two readings apart (a train whose owner's
  marker is in, an arm waiting for the spinner's sides, a double that must be covered
  first; none on a line without double rules).

The answer is printed step by step as a round a person can read, from a real deal, and
replayed in the engine (the fault's own engine with ``--fault``).

Exit codes are answers: 0 the question was answered -- a round was found and replays in
the engine, or every depth searched was decided and none exists (``no such round``); 1
the round Z3 found does not replay in the engine (the model and the engine disagree);
2 bad input; 3 UNKNOWN: a query ran out of its resource limit (``--rlimit``), of the
wall-clock safety net (``--timeout-ms``) or the search of its ``--seconds`` before it
could say.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from dominoproof import api
from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.errors import DominoproofError
from dominoproof.model.layout import layout_of
from dominoproof.model.moves import said
from dominoproof.options import (
    PositiveNumber,
    budget_options,
    check_output_path,
    console,
    lists_in_help,
    overrides_option,
    resolve_variant,
    variant_argument,
    verbosity,
    verbosity_options,
    write_out,
)
from dominoproof.progress import progress
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.z3.queries import QUESTIONS, Prover, witness
from dominoproof.render.text import final_table, render_round

if TYPE_CHECKING:
    from dominoproof.proofs.z3.queries import Witness


def _questions() -> tuple[str, list[tuple[str, str]]]:
    return "Questions (QUESTION)", list(QUESTIONS.items())


@click.command("witness", cls=lists_in_help(_questions, "faults"),
               short_help="Answer a question about a variant with a round Z3 "
               "finds (shortest block, largest residual, tie, ...).")
@variant_argument
@click.argument("question", metavar="QUESTION")
@overrides_option
@click.option("--fault", default=None, metavar="ID",
              help="Ask about a deliberately broken rule set of proofs/faults.py (its demo "
                   "configuration, its Z3 twin and its engine) instead of VARIANT.")
@click.option("--depth", type=click.IntRange(min=0), default=None, metavar="K",
              help="The longest round searched (max-residual: the horizon).")
@click.option("--z3-seed", "seed", type=int, default=0, show_default=True,
              help="Z3's random seed (apart from a deal's --seed).")
@budget_options
@click.option("--seconds", type=PositiveNumber(), default=120.0, show_default=True,
              help="Budget of the whole bounded search.")
@click.option("--trace-out", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the round as a replayable trace (JSON) to FILE.")
@verbosity_options
@json_option
def command(variant: str, question: str, overrides: tuple[str, ...], fault: str | None,
            depth: int | None, seed: int, timeout_ms: int, rlimit: int, seconds: float,
            trace_out: str | None, quiet: bool, verbose: bool, as_json: str | None) -> None:
    """Answer QUESTION about VARIANT|FILE with a round found by Z3. On a terminal a
    progress display runs while Z3 searches; -q prints the answer only, -v the solver's
    statistics too."""
    if question not in QUESTIONS:
        raise DominoproofError(
            f"no question {question!r}; ask one of: {', '.join(QUESTIONS)}")
    check_output_path(trace_out, "--trace-out")
    spec = variant if fault is not None else resolve_variant(variant, overrides)
    prover = api.prover(spec, fault=fault, seed=seed, timeout_ms=timeout_ms, rlimit=rlimit,
                        depth=depth if depth is not None else 40, seconds=seconds)
    with progress(f"witness {question}: searching rounds with Z3", quiet=quiet):
        w = witness(prover.search, question, depth=depth)
    if trace_out is not None and w.run is not None:
        write_out(trace_out, w.run.trace.dumps() if w.run.replayed and fault is None
                  else json.dumps(w.run.to_json(), indent=1))
    if as_json:
        emit("witness", w.to_json(), as_json)
    if text_too(as_json):
        _print(prover, question, w, fault, verbosity(quiet, verbose))
    raise SystemExit(exit_code(w))


def exit_code(w: Witness) -> int:
    """0 answered (a round that replays, or none within every depth decided), 1 the round
    found does not replay in the engine, 3 the search stopped before it could say."""
    if w.run is not None:
        return 0 if w.run.replayed else 1
    return 0 if w.complete else 3


def _answer(w: Witness) -> str:
    if w.run is not None:
        return (f"found: a round of {len(w.run.moves)} moves"
                + ("" if w.run.replayed else f", which does NOT replay: {w.run.mismatch}"))
    if w.complete:
        return f"no such round of at most {w.depth} moves"
    return f"UNKNOWN: {w.stop or 'the search stopped early'}"


def _print(prover: Prover, question: str, w: Witness, fault: str | None,
           level: int = 0) -> None:
    out = console()
    if level < 0:
        out.print(f"witness {question} for {prover.label}: {_answer(w)}", markup=False)
        return
    out.print(f"witness {question} for {prover.label}: {QUESTIONS[question]}")
    out.print(f"  {w.configuration}")
    if w.note:
        out.print(f"  {w.note}")
    if w.figures:
        out.print("  " + ", ".join(f"{k} = {v}" for k, v in w.figures.items()))
    out.print(f"  {w.seconds:.2f}s, {int(w.stats.get('checks', 0))} Z3 queries "
              f"(seed {prover.seed}, resource limit {prover.rlimit:,} each, wall-clock "
              f"safety net {prover.timeout_ms:,} ms)")
    if level > 0:
        out.print("  solver: " + ", ".join(f"{k} = {v}" for k, v in sorted(w.stats.items())),
                  markup=False)
    if w.run is None:
        if w.complete:
            out.print(f"\nno such round of at most {w.depth} moves")
        else:
            answered = (f"every depth up to {w.depth} answered" if w.depth >= 0
                        else "no depth answered")
            out.print(f"\nUNKNOWN: no such round found before the search stopped ({answered}); "
                      f"{w.stop or 'stopped early'}. Raise --rlimit or --seconds, or bound "
                      "the search with --depth.")
        return
    run = w.run
    out.print("\nreplayed in the engine" + (" (the fault's own rule book)" if fault else "")
              + ": " + ("yes, to the same states" if run.replayed
                        else f"NO: {run.mismatch}"))
    # a fault's trace carries its broken rule book, not its scorer
    plain = fault is None or FAULTS_BY_ID[fault].scorer is None
    if run.replayed and plain:
        out.print()
        out.print(render_round(run.trace, title=f"A round of {prover.variant.name} answering "
                               f"{question}"), end="")
        return
    # a broken rule set: the engine of the correct rules would refuse the round, so tell
    # it from the decoded states, and the table at the last
    out.print(f"\ndeal: {run.trace.deal.to_json()}")
    layout = layout_of(run.trace.variant)
    for i, (m, before, s) in enumerate(zip(run.moves, run.states, run.states[1:],
                                           strict=False), 1):
        out.print(f"  {i:3}. {said(layout, before, m)}")
        for line in s.describe().splitlines():
            out.print(f"         {line}")
    for line in final_table(run.trace, run.states, "  "):
        out.print(line, markup=False)
