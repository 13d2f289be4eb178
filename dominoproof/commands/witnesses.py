"""``dominoproof witnesses``: the witness table -- every witness question for every
variant, each answered within a budget with bounds from both sides.

For each variant (default: every preset) and each question (default: shortest-block,
max-residual, tie, block-before-empty-boneyard), the engine's rounds (guided play-outs
and every round of chosen deals) and Z3 over the proved invariant run side by side for
``--seconds`` of wall clock (docs/WITNESSES.md). A row says the value found (a round
that replays in the engine), whether it is proved optimal (or, for a question of
existence, proved by the round or proved impossible), the gap between the two bounds
when it is not, and the time.

Exit codes: 0 every answer proved; 1 a contradiction (a round that does not replay, or
a value beyond a bound Z3 proved: the two readings of the rules disagree); 2 bad input;
3 an answer left with a gap or UNKNOWN (its bounds reached are printed).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from dominoproof.jsonout import emit, json_option, text_too
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import system_under_test
from dominoproof.model.variant import Variant, preset_names
from dominoproof.options import (
    PositiveNumber,
    aligned,
    check_output_folder,
    console,
    overrides_option,
    resolve_variant,
    verbosity,
    verbosity_options,
    write_out,
)
from dominoproof.progress import progress
from dominoproof.proofs.analysis.witness_table import QUESTION_ORDER, answer, exit_code
from dominoproof.proofs.faults import FAULTS_BY_ID

if TYPE_CHECKING:
    from dominoproof.proofs.analysis.witness_table import Answer, Invariants


@click.command("witnesses", short_help="The witness table: every question for every "
               "variant, bounds from search and from Z3, optimal or the gap.")
@click.argument("variants", nargs=-1, metavar="[VARIANT|FILE]...")
@overrides_option
@click.option("--question", "questions", multiple=True, metavar="QUESTION",
              help="Ask only this question (repeatable; default: shortest-block, "
                   "max-residual, tie, block-before-empty-boneyard).")
@click.option("--seconds", type=PositiveNumber(), default=60.0, show_default=True,
              help="Wall-clock budget of each answer (search and Z3 together).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the play-outs' deals.")
@click.option("--z3-seed", type=int, default=0, show_default=True, help="Z3's random seed.")
@click.option("--fault", default=None, metavar="ID",
              help="The search plays by this fault's broken engine (proofs/faults.py) while "
                   "Z3 reads the variant's own rules: the table must find a contradiction.")
@click.option("--traces", "trace_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, metavar="DIR",
              help="Write each round found as a replayable trace to DIR "
                   "(VARIANT.QUESTION.json).")
@verbosity_options
@json_option
def command(variants: tuple[str, ...], overrides: tuple[str, ...],
            questions: tuple[str, ...], seconds: float, seed: int, z3_seed: int,
            fault: str | None, trace_dir: Path | None, quiet: bool, verbose: bool,
            as_json: str | None) -> None:
    """Answer every witness question for each VARIANT|FILE (default: every preset), each
    within --seconds: the value of a round that replays in the engine, whether it is
    proved optimal, and the gap between the bounds from search and from Z3 when it is
    not. -v prints how each answer was reached, and each answer on standard error as it
    lands."""
    for q in questions:
        if q not in QUESTION_ORDER:
            raise DominoproofError(f"--question {q}: no such question (allowed: "
                                   f"{', '.join(QUESTION_ORDER)})")
    engine = None
    if fault is not None:
        f = FAULTS_BY_ID.get(fault)
        if f is None or f.engine is None:
            with_engine = ", ".join(k for k, x in FAULTS_BY_ID.items() if x.engine)
            raise DominoproofError(f"--fault {fault}: not a fault with a broken engine "
                                   f"(allowed: {with_engine})")
        engine = f.engine
    check_output_folder(trace_dir, "--traces")
    chosen: list[Variant] = [resolve_variant(v, overrides) for v in variants or preset_names()]
    asked = questions or QUESTION_ORDER
    err = console(stderr=True, markup=False)  # the console never highlights
    answers: list[Answer] = []
    invariants: Invariants = {}  # Houdini once per variant, across its questions
    with progress("witnesses", total=len(chosen) * len(asked), quiet=quiet) as bar:
        for v in chosen:
            for q in asked:
                bar.update(f"witnesses: {v.name} {q}")
                a = answer(v, q, seconds, rules=system_under_test(v, engine) if engine else None,
                           seed=seed, z3_seed=z3_seed, invariants=invariants)
                answers.append(a)
                bar.advance()
                if verbose:  # as it lands, on standard error: a long table shows its rows
                    ran = f" [play-outs: {a.found.played_by}]" if a.found else ""
                    err.print(f"answered {a.variant} {a.question}: {a.cell()} "
                              f"({a.status}, {a.seconds:.1f}s): {a.why}{ran}")
    if trace_dir is not None:
        trace_dir.mkdir(parents=True, exist_ok=True)
        for a in answers:
            if a.trace is not None:
                write_out(trace_dir / f"{a.variant}.{a.question}.json", a.trace)
    code = exit_code(answers)
    if as_json:
        emit("witnesses", {"seconds": seconds, "seed": seed, "z3_seed": z3_seed,
                           "fault": fault, "exit_code": code,
                           "answers": [a.to_json() for a in answers]}, as_json)
    if text_too(as_json):
        _print(answers, verbosity(quiet, verbose))
    raise SystemExit(code)


def _print(answers: list[Answer], level: int) -> None:
    out = console(markup=False)  # the console never highlights
    header = ("variant", "question", "value", "proved", "gap", "time")
    rows = [(a.variant, a.question, a.cell(),
             "yes" if a.proved else ("NO" if a.status == "contradiction" else "no"),
             "" if a.gap is None else str(a.gap), f"{a.seconds:.1f}s") for a in answers]
    head, *lines = aligned([header, *rows], right={3, 4, 5})
    out.print(head)
    out.print("-" * len(head))
    for a, shown in zip(answers, lines, strict=True):
        out.print(shown)
        if level > 0 or a.status == "contradiction":
            out.print(f"    {a.why}")
    if level >= 0:
        budget = answers[0].budget if answers else 0
        out.print(f"\nvalue: the best round found (it replays in the engine) -- moves for "
                  f"shortest-block and the existence questions, the residual for "
                  f"max-residual; a..b: the bounds from search and from Z3 when they do not "
                  f"meet. Each answer within {budget:g} s.")
