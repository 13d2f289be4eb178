"""The evidence of a verdict, for people: the round that breaks a property, or the two
states and the move of a counterexample to induction, in domino terms.

A VIOLATED verdict, whoever found it (the graph search or Z3's bounded model checking,
whose run :meth:`~dominoproof.proofs.z3.queries.Prover.decode_run` decodes and the engine
replays), carries a round: its deal, every move with its rule ID and the line as it
lies on the table (:func:`dominoproof.render.text.render_round`), then **where it fails**:
the move or the state at which the property breaks, judged again by the same
judge the search uses (:func:`~dominoproof.proofs.search.rounds.judge_round`: the
specification's rule book as the oracle, the declarative scoring for R5), and what fails,
in words; this module only presents what the judge finds.

A NOT INDUCTIVE verdict per instance (:class:`~dominoproof.proofs.z3.queries.CTI`) shows its
state before, the move and the state after, with tiles as ``[a|b]``, seats ``P0 ..``
and the ends by the number they show; the all-sizes model's counterexample is read on
a concrete small table by :mod:`dominoproof.render.concrete`.

:func:`of_result` gives the :class:`Evidence` of any result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dominoproof.model.engine import Trace
from dominoproof.model.fast import engine_for
from dominoproof.model.layout import CLOSED, layout_of
from dominoproof.model.moves import LEAD, Move, MoveKind, end_named, said
from dominoproof.model.outcome import Outcome
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.state import State, StateFlaw, Status, state_status
from dominoproof.model.tiles import Tile, bits, show_tiles, tiles_of
from dominoproof.model.variant import Variant
from dominoproof.options import counted, indented, shown_under, width
from dominoproof.options import wrap as _wrap
from dominoproof.proofs.allsizes import AbstractCounterexample
from dominoproof.proofs.properties import BY_ID, Result, Verdict
from dominoproof.proofs.search.rounds import Failure, judge_round, judge_step
from dominoproof.proofs.z3.queries import CTI, Run
from dominoproof.render.concrete import describe
from dominoproof.render.text import final_table, hand_lines, pack, render_round

__all__ = ["Evidence", "indented_evidence", "move_text", "of_result", "round_of",
           "state_lines"]

Scorer = Callable[[Variant, State], "Outcome | None"]


@dataclass(frozen=True)
class Evidence:
    """What a report prints under a VIOLATED or NOT INDUCTIVE verdict."""

    property: str
    kind: str  #: "round" (replayable), "cti" (per instance), "all sizes" (abstract model)
    text: str  #: for people: the round and where it fails, or the two states and the move
    fails: str  #: what fails, one sentence in domino terms
    trace: Trace | None = None  #: the round, replayable (kind "round")
    at: Failure | None = None


# ---------------------------------------------------------------------------
# A state and a move in domino terms
# ---------------------------------------------------------------------------


def _ends_shown(variant: Variant, s: State) -> str:
    """The open ends: by number on the one line; on a layout of several lines each slot
    by name, with what its marks say (a double to cover, an arm waiting for a side),
    and the markers out."""
    if not s.led:
        return "no open end yet"
    data = variant.slot_layout
    if data.width <= 2:
        return "ends " + " and ".join(map(str, s.open_ends))
    lay = layout_of(variant)
    pending = lay.pending(s.marks)
    parts = []
    for i, slot in enumerate(data.slots):
        if s.ends[i] == CLOSED:
            continue
        notes = (["to cover"] if pending >> i & 1 else []) + (
            ["waiting"] if any(not lay.covered(s.marks, j) for j in slot.after) else [])
        parts.append(f"{slot.name} {s.ends[i]}" + (f" ({', '.join(notes)})" if notes else ""))
    out = "ends " + ", ".join(parts)
    markers = [f"P{p}" for p in range(variant.players) if lay.marker_out(s.marks, p)]
    return out + (f"; markers out: {', '.join(markers)}" if markers else "")


def state_lines(variant: Variant, s: State, indent: str = "") -> list[str]:
    """A state in a few lines: who moves, the ends by number, the boneyard, R4's run,
    fouls, the status; each hand; the tiles on the table."""
    shown = _ends_shown(variant, s)
    bone = (f"boneyard {show_tiles(s.boneyard)}" if s.boneyard else "boneyard empty")
    parts = [f"P{s.turn} to move", shown, bone]
    if s.set_aside:
        parts.append(f"{s.set_aside.bit_count()} set aside")
    if s.confirmed:
        parts.append(f"{counted(s.confirmed, 'confirmation')} in succession, proposed by "
                     f"P{s.proposer} (R4.2)")
    if s.fouls:
        parts.append("fouls by " + ", ".join(f"P{p}" for p in bits(s.fouls)))
    parts.append({Status.PLAYING: "being played", Status.BLOCKED: "blocked",
                  Status.DOMINO: "ended by a domino"}[s.status])
    lines = [indent + x for x in _wrap("; ".join(parts), width() - 16)]
    for p, hand in enumerate(s.hands):  # a long hand (Mexican Train's) packed, tile by tile
        lines += hand_lines(variant, p, hand, indent, width=4)
    lines += (pack("table  ", [t.show() for t in tiles_of(s.table)], indent) if s.table
              else [f"{indent}table  (empty)"])
    return lines


def move_text(variant: Variant, rules: RuleBook, s: State, m: Move) -> str:
    """A move in words, with its rule ID, from the state it is made in."""
    p = m.player
    k = m.kind
    if k is MoveKind.PLAY:
        t = Tile.from_index(m.tile).show()
        if m.end == LEAD:
            return f"P{p} leads {t} (Terms)"
        on = f"P{p} plays {t} on {end_named(layout_of(variant), s, m.end)}"
        after = rules.step(s, m)
        if after.hands[p] and rules.layout.first_turn(after.marks):
            return f"{on}, their first turn going on (R2.3)"
        return f"{on} (R2.1)"
    if k is MoveKind.DRAW:
        return f"P{p} draws {Tile.from_index(m.tile).show()} (R3.1)"
    if k is MoveKind.PASS and rules.layout.first_turn(s.marks):
        return f"P{p} ends their first turn (R2.3)"
    if k is MoveKind.PASS:
        return f"P{p} passes after drawing (R3.1)"
    if k is MoveKind.CONFIRM:
        fit = rules.playable_mask(s, p) if s.hands[p] else 0
        if fit:
            return f"P{p} declares they cannot play, though {show_tiles(fit)} fits (R4.5)"
        if s.confirmed == 0:
            return f"P{p} cannot play and proposes the block (R4.1)"
        if rules.step(s, m).confirmed == 1:  # restart_on_marker: their train opens
            return f"P{p} cannot play and puts their marker out: the run starts again (R4.4)"
        return f"P{p} confirms they cannot play, {s.confirmed + 1} in succession (R4.2)"
    if k is MoveKind.ESTABLISH:
        return "the block is established (R4.4)"
    return f"P{p} has emptied their hand: a domino"


# ---------------------------------------------------------------------------
# The evidence of a result
# ---------------------------------------------------------------------------


def round_of(res: Result) -> Trace | None:
    """The round of a VIOLATED result: the search's trace, or the Z3 run's when the engine
    (or the fault's rule book) replays it; None otherwise."""
    ev = res.trace
    if isinstance(ev, Trace):
        return ev
    if isinstance(ev, Run) and ev.replayed:
        return ev.trace
    return None


def _round_evidence(res: Result, trace: Trace, scorer: Scorer | None) -> Evidence:
    at = judge_round(trace, res.property, scorer=scorer)
    fails = at.why if at is not None else res.detail
    moves = len(trace.moves)
    title = (f"Counterexample to {res.property} ({', '.join(BY_ID[res.property].rules)}): "
             f"a round of {counted(moves, 'move')}")
    try:
        text = render_round(trace, title=title)
    except Exception as e:  # the verdict stands; say why the round cannot be drawn
        text = f"(the counterexample cannot be drawn: {type(e).__name__}: {e})\n"
    states = trace.states()
    last = at.move if at is not None else moves
    lines = ["", "Where it fails"]
    lines += _wrap(f"{at.where() if at else 'at the end'}: {fails}", width(),
                           initial_indent="  ", subsequent_indent="    ")
    if at is not None and at.transition:
        s = states[last - 1]
        lines += _wrap(move_text(trace.variant, trace.rule_book, s,
                                         trace.moves[last - 1]), width(),
                               initial_indent="  the move: ", subsequent_indent="    ")
        lines.append("  the state before it:")
        lines += state_lines(trace.variant, s, "    ")
    else:
        lines.append("  the state:")
        lines += state_lines(trace.variant, states[last], "    ")
    return Evidence(res.property, "round", text + "\n".join(lines) + "\n", fails, trace, at)


#: what each flaw of TypeOK (``StateFlaw``) says of a state, for the lemma a CTI needs
_FLAW_WORDS = {
    StateFlaw.OVERLAP: "a tile in two places", StateFlaw.LOST_TILES: "a tile nowhere",
    StateFlaw.FOREIGN_TILES: "a tile outside the set", StateFlaw.BAD_TURN: "no such turn",
    StateFlaw.BAD_ENDS: "ends the tiles on the table cannot show",
    StateFlaw.BAD_STACK: "a draw order that is not the boneyard's",
    StateFlaw.BAD_PROCEDURE: "a run of confirmations no round has",
    StateFlaw.BAD_PLAYERS: "another number of players",
    StateFlaw.BAD_SCORE: "points in play or ends' weights out of shape",
}


def short_state(variant: Variant, s: State) -> str:
    """A state in one short line: who moves, the ends, the boneyard, how many tiles each
    hand holds, R4's run and the status (the tiles themselves left out)."""
    bone = f"boneyard {s.boneyard.bit_count()}" if s.boneyard else "boneyard empty"
    hands = "/".join(str(h.bit_count()) for h in s.hands)
    run = f"; {s.confirmed} confirmation(s) in succession" if s.confirmed else ""
    status = {Status.PLAYING: "", Status.BLOCKED: "; blocked",
              Status.DOMINO: "; ended by a domino"}[s.status]
    return (f"P{s.turn} to move; {_ends_shown(variant, s)}; {bone}; hands of {hands} "
            f"tiles{run}{status}")


def _cti_evidence(res: Result, variant: Variant, scorer: Scorer | None) -> Evidence:
    """A counterexample to induction per instance, as what it is: a state no round is
    known to reach, which the proof's invariant does not exclude, in two short lines --
    the move that breaks the property from it, and the lemma the proof would need."""
    cti = res.trace
    rules = engine_for(variant)
    why = judge_step(variant, res.property, cti.pre, cti.move, cti.post, scorer=scorer)
    fails = why if why is not None else f"{res.property} fails after the move ({res.detail})"
    flaws = state_status(variant, cti.pre)
    need = ("a lemma excluding " + ", ".join(w for f, w in _FLAW_WORDS.items() if f in flaws)
            + " (the type invariant)" if flaws else
            "one that excludes this state: none of the proved lemmas does (TUTORIAL.md, "
            "section 6)")
    out = _wrap(f"NOT INDUCTIVE: an unreachable state the proof's invariant does not "
                f"exclude ({short_state(variant, cti.pre)}); then "
                f"{move_text(variant, rules, cti.pre, cti.move)}: {fails}", width())
    out += _wrap(f"the lemma it needs: {need}", width(), initial_indent="  ",
                 subsequent_indent="    ")
    return Evidence(res.property, "cti", "\n".join(out) + "\n", fails)


def of_result(res: Result, variant: Variant | None = None, *,
              scorer: Scorer | None = None) -> Evidence | None:
    """The evidence of a VIOLATED or NOT INDUCTIVE result (None for other verdicts, or a
    counterexample that cannot be shown). ``variant`` is the one a per-instance CTI
    belongs to; ``scorer`` the scoring under test (a fault's), judged against the
    declarative reading of R5. Laid out in :func:`~dominoproof.options.width` columns:
    a caller that shows it under a prefix lays it out inside
    :func:`~dominoproof.options.shown_under`."""
    if res.verdict is Verdict.VIOLATED:
        trace = round_of(res)
        return _round_evidence(res, trace, scorer) if trace is not None else None
    if res.verdict is not Verdict.NOT_INDUCTIVE:
        return None
    if isinstance(res.trace, CTI) and variant is not None:
        return _cti_evidence(res, variant, scorer)
    if isinstance(res.trace, AbstractCounterexample):
        text, fails = describe(res.trace, res.property)
        return Evidence(res.property, "all sizes", text, fails)
    return None


def indented_evidence(res: Result, variant: Variant | None = None, *,
                      scorer: Scorer | None = None, what: str = "the round",
                      final: bool = False) -> list[str]:
    """The evidence of a failed result as lines indented by two, as ``prove`` and the
    pytest plugin show it under the verdict: :func:`of_result`'s, laid out for the
    indent; else, for a round of Z3's that the engine does not replay, ``what`` it is,
    its deal, its moves and its last state (with ``final``, the table at the last)."""
    with shown_under("  "):  # shown indented by two: it fits with them
        ev = of_result(res, variant, scorer=scorer)
    if ev is not None:
        return [f"  {line}" if line else "" for line in ev.text.rstrip("\n").splitlines()]
    if not isinstance(res.trace, Run):
        return []
    run = res.trace
    layout = layout_of(run.trace.variant)
    return [f"  {what} (replayed in the engine: no: {run.mismatch}):",
            f"    deal: {run.trace.deal.to_json()}",
            *(f"    {i:3}. {said(layout, s, m)}"
              for i, (m, s) in enumerate(zip(run.moves, run.states, strict=False), 1)),
            *indented(run.states[-1].describe(), "    "),
            *(final_table(run.trace, run.states, "    ") if final else ())]
