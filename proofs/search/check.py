"""The catalogue checked on an explored graph, by the one judge.

:func:`check_properties` takes a :class:`~dominoproof.proofs.search.result.SearchResult`
and returns one :class:`~dominoproof.proofs.properties.Result` per property of the
catalogue (``dominoproof.proofs.properties``):

* **HOLDS** when the search was complete and nothing failed (the result says how
  many states were examined, and on which configuration);
* **VIOLATED** with a counterexample: the deal and every move up to the state (or
  transition) where the property fails, as a :class:`~dominoproof.model.engine.Trace`.
  The search is breadth first and the checks scan states in BFS order, so the
  trace is a shortest one. With the variant's own rules the engine replays it
  with every legality check; with a mutant rule book,
  :func:`~dominoproof.proofs.search.rounds.replay` does;
* **UNKNOWN** when a budget stopped the search and no counterexample was found;
* **N/A** when the property does not apply to the variant (``inapplicable=True``
  checks it anyway: that is how the search shows that parity fails where tiles
  are left out of play).

One pass over the graph (:func:`_scan`) has :class:`~dominoproof.proofs.search.judge.Judge`
check every state invariant, transition property and terminal property at once. On a
kernel search the judge's accelerator, the kernel's screen (:mod:`.compiled`), reads every
state's invariants and the moves of the states still being played on the key array, and
names the few the judge must read; the judge reads those, and the round's ends for a
called block and R5, so its verdicts are the same with or without it.
The liveness properties use the graph analyses of the search (a cycle, a topological
order, bounded walks from every state where R2 and R3 hold).

On a kernel search the graph is the kernel's reading and the judge's is the
specification's. Where the two could differ -- the states on the way to each failure,
and the state where the screen, or the engine's moves, do not match the graph -- both
readings are asked again (:func:`_readings_agree`); where they differ the check stops
with :class:`~dominoproof.proofs.readings.ReadingsDisagree` naming them, never a verdict.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from dominoproof.model.constants import constants_of
from dominoproof.model.fast import is_own
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import spec_for
from dominoproof.model.state import Ending, Status
from dominoproof.model.variant import DrawRule, FoulRule, Variant
from dominoproof.proofs.bounds import move_count_measure
from dominoproof.proofs.oracles import KernelOracle, compare, spec_oracle
from dominoproof.proofs.properties import (
    BY_ID,
    CATALOGUE,
    Kind,
    Property,
    Result,
    Verdict,
    find_property,
)
from dominoproof.proofs.readings import ReadingsDisagree
from dominoproof.proofs.search.coverage import of_init
from dominoproof.proofs.search.judge import Findings, Judge, ReadsScoring
from dominoproof.proofs.search.result import Figures, SearchResult, kind_code

if TYPE_CHECKING:
    from dominoproof.proofs.search.compiled import Screen

__all__ = ["blocked_sound_detail", "check_properties", "checked_verdict", "partial_detail",
           "round_bound", "screen_search", "selected", "unjudged"]


# -- The termination bound -------------------------------------------------------------


def round_bound(variant: Variant) -> tuple[int, str]:
    """The move-count bound: an upper bound on the moves of any round, from the rules,
    and how it is made (:func:`~dominoproof.proofs.bounds.move_count_measure` at Init;
    ``proofs/bounds.py`` relates it to the ranking function's bound).

    With ``I = P*H + B`` tiles in play (hands and boneyard), ``B`` in the boneyard,
    ``F`` possible fouls (``P`` where fouls are penalised, else 0): at most ``I``
    plays, ``B`` draws, ``B`` passes (draw-one games), ``F`` fouls; confirmations
    happen only once the boneyard is empty (R4.1) and a run of them is ended by a
    play, a foul or the establishment after at most ``P`` (R4.4), so at most
    ``P*(I + F + 1)``; and one final move (Establish or Domino). Where a first turn
    lays several tiles (R2.3), each play may be followed by the pass that ends one: at
    most ``I`` more.
    """
    c = constants_of(variant)
    p, h, b = c.P, c.H, c.B
    i = p * h + b
    passes = b if c.DRAW is DrawRule.ONE else 0
    f = p if c.FOULS is FoulRule.PENALISED else 0
    restart = c.RESTART and c.LAYOUT.markers  # R4.4: one more confirmation per marker put out
    first = c.LAYOUT.first_turn  # R2.3: a pass may end the first turn a play goes on with
    bound = move_count_measure(p, c.DRAW, c.FOULS, restart, first).at_init(p, h, b, c.K)
    more, what = (("", "") if not restart else  # the markers in at the deal, the plays
                  (" + (P - 1)(P + I)", f" + {p - 1}*({p} + {i})"))
    if first:
        more, what = more + " + I", what + f" + {i}"
    text = (f"I + B + passes + F + P(I + F + 1){more} + 1 = {i} + {b} + {passes} + {f} + "
            f"{p}*({i} + {f} + 1){what} + 1 = {bound} (I = P*H + B = {i} tiles in play, "
            f"B = {b} in the boneyard, P = {p}, F = {f} possible fouls)")
    return bound, text



class _Context(Findings):
    """The findings of one graph: the result judged, the oracle, the notes of the
    verdicts, and the states where R2 and R3 hold (blocked-complete's premise)."""

    def __init__(self, result: SearchResult, oracle: RuleBook, wanted: set[str]) -> None:
        super().__init__(wanted)
        self.result, self.oracle = result, oracle
        self.notes: dict[str, str] = {}
        self.r2_r3: list[int] = []  #: ids of states where R2 and R3 hold


def screen_search(result: SearchResult, wanted: set[str], readings: bool) -> Screen | None:
    """The judge's accelerator on ``result`` (:func:`.compiled.screen_search`), or ``None``
    where the judge reads every state itself (not a kernel search, and see there)."""
    if not result.on_kernel:
        return None
    # numba (optional): the accelerator is compiled, loaded only for a kernel search
    from dominoproof.proofs.search import compiled

    return compiled.screen_search(result, wanted, readings)


def _scan(ctx: _Context, reader: ReadsScoring | None) -> None:
    """One pass over the graph: state invariants, transition and terminal properties.
    On a kernel search the kernel's screen reads every state's invariants and the moves
    of the states still being played (:mod:`.compiled`); the judge words the failure of
    each state the screen names, and reads the round's ends for the rest (R4.7, R5)."""
    r = ctx.result
    judge = Judge(ctx, r.variant, ctx.oracle, r.scorer, reader)
    scr = screen_search(r, ctx.wanted, judge.readings)
    # the layout's transition properties: every move of every state, the judge's alone
    layout = judge.layout if judge.layout is not None and judge.layout.transition_ids else None
    state = r.state  # (a kernel search's reads its key array directly)
    ptr, to = r.edge_ptr, r.edge_to
    moves_of = r.rules.moves  # the edges of a state follow the order of its moves
    n_exp = r.expanded
    # Only terminal states matter to blocked-sound and the terminal properties; the
    # other properties need every state (and its transitions).
    ids: Iterable[int] = range(len(r.codes))
    if scr is not None:
        if layout is None:
            ids = scr.ids
        ctx.r2_r3.extend(scr.premise)
        for key, n in scr.counts.items():
            ctx.count(key, n)
    elif not Judge.EVERY_STATE & ctx.wanted:
        kinds = r.kind
        still = (kind_code(None), kind_code(Ending.STUCK))  # no round over: nothing to judge
        ids = [i for i in range(len(r.codes)) if i >= n_exp or kinds[i] not in still]
    transitions = bool(judge.transition_ids)
    named = {at for at, _ in scr.first.values()} if scr is not None else set()
    for i in ids:
        s = state(i)
        full = scr is None or i in named  # the judge reads all of it
        if scr is None:
            if judge.state(i, s):
                ctx.r2_r3.append(i)
        else:
            if full:
                # a state the screen names: its failure, worded by the judge (the screen
                # already counted its readings and its premise)
                counts = dict(ctx.counts)
                judge.invariants(i, s)
                ctx.counts = counts
            if s.status is not Status.PLAYING:  # what the screen leaves: R4.7, R5, layout
                judge.ended(i, s)
        if i < n_exp and transitions:
            moves = moves_of(s)
            if len(moves) != ptr[i + 1] - ptr[i]:
                raise r.edges_differ(i, len(moves))
            for e, m in zip(range(ptr[i], ptr[i + 1]), moves, strict=True):
                j = to[e]
                if full:
                    judge.transition(i, s, m, j, state(j))
                elif layout is not None:
                    layout.transition(i, s, m, j, state(j))
    if scr is not None:
        scr.check({pid: f.at for pid, f in ctx.found.items()})



def _readings_agree(r: SearchResult, ids: list[int],
                    thens: list[tuple[int, ...]] | None = None) -> None:
    """On a kernel search under the variant's own rules: the kernel that made the graph
    and the specification agree on every state of the shortest path to each of ``ids``
    (then along ``thens``): the same moves, successors and terminal verdict; else
    :class:`ReadingsDisagree`, naming the first state (root first) where they differ."""
    kernel = KernelOracle(r.variant, getattr(r.codec, "tb", None))
    spec = spec_oracle(r.variant)
    for k, at in enumerate(ids):
        path = r.path_to(at) + list(thens[k] if thens else ())
        cmp = compare(r.variant, (r.state(i) for i in path), kernel, spec, keep=1)
        if not cmp.ok:
            m = cmp.mismatches[0]
            what = m.kind.replace(" A", " the kernel").replace(" B", " the specification")
            raise ReadingsDisagree("kernel", "specification", f"{what}: {m.detail}",
                                   state=m.state)


def _bounded_walk(r: SearchResult, start: int, budget: int) -> tuple[bool | None, list[int]]:
    """Whether every path from ``start`` reaches an established block within ``budget``
    moves: (True, []), (False, a failing path), or (None, []) if it leaves the explored
    part."""
    stack: list[tuple[int, int, list[int]]] = [(start, budget, [])]
    unknown = False
    blocked, being_played = kind_code(Ending.BLOCKED), kind_code(None)
    ptr, to, kind, expanded = r.edge_ptr, r.edge_to, r.kind, r.expanded
    while stack:
        v, left, path = stack.pop()
        if v >= expanded:
            unknown = True
            continue
        k = kind[v]
        if k == blocked:
            continue
        if k != being_played or left == 0:
            return False, path
        for e in range(ptr[v], ptr[v + 1]):  # the successors' ids: no move is needed
            stack.append((to[e], left - 1, [*path, to[e]]))
    return (None if unknown else True), []


def _check_liveness(ctx: _Context) -> None:
    r, v = ctx.result, ctx.result.variant
    players = v.players
    if "blocked-complete" in ctx.wanted:
        checked = 0
        unknown = 0
        for i in ctx.r2_r3:
            if i >= r.expanded:
                continue
            checked += 1
            ok, path = _bounded_walk(r, i, players + 1)
            if ok is None:
                unknown += 1
            elif not ok:
                ctx.fail("blocked-complete", i, f"R2 and R3 hold, but after {len(path)} more "
                         f"move(s) the block is not established (bound: {players} "
                         "confirmations and the establishment)", tuple(path))
                break
        ctx.counts["states where R2 and R3 hold"] = checked
        if unknown:
            ctx.counts["bounded walks leaving the explored part"] = unknown
    if "termination" in ctx.wanted:
        stuck_kind = kind_code(Ending.STUCK)
        stuck = next((i for i in r.over() if r.kind[i] == stuck_kind), None)
        if stuck is not None:
            ctx.fail("termination", stuck, "a round still being played where no move is "
                     "enabled: it can never end")
            return
        cycle = r.find_cycle()
        if cycle is not None:
            entry = min(cycle, key=lambda k: (r.depth[k], k))
            at = cycle.index(entry)
            loop = cycle[at:] + cycle[:at]
            ctx.fail("termination", entry, f"a cycle of {len(loop)} move(s): the round can go "
                     "on for ever", (*loop[1:], entry))
            return
        if not r.complete:
            return
        bound, text = round_bound(v)
        dist = r.longest_from_roots()
        assert dist is not None
        longest = max(dist)
        ctx.notes["termination"] = f"longest round {longest} moves <= bound {text}"
        if longest > bound:
            path = _longest_path_to(r, dist, dist.index(longest))
            ctx.fail("termination", path[0],
                     f"a round of {longest} moves exceeds the bound {text}", tuple(path[1:]))


def _longest_path_to(r: SearchResult, dist: list[int], target: int) -> list[int]:
    """A longest path from an initial state to ``target`` (ids), from ``dist``."""
    preds: dict[int, int] = {}
    for i, j in r.arcs():
        if dist[i] + 1 == dist[j]:
            preds.setdefault(j, i)
    path = [target]
    while dist[path[-1]] > 0:
        path.append(preds[path[-1]])
    path.reverse()
    return path


# -- check_properties ------------------------------------------------------------------


def selected(properties: Iterable[str | Property] | None) -> list[Property]:
    """The properties named (default: the whole catalogue); an unknown id raises."""
    if properties is None:
        return list(CATALOGUE)
    return [p if isinstance(p, Property) else find_property(p) for p in properties]


def check_properties(result: SearchResult,
                     properties: Iterable[str | Property] | None = None, *,
                     inapplicable: bool = False,
                     reader: ReadsScoring | None = None) -> list[Result]:
    """One :class:`Result` per property (default: the whole catalogue), in catalogue order.

    A property that does not apply to the variant is N/A. With ``inapplicable`` it is
    checked anyway: the verdict stays N/A, ``stats["checked anyway"]`` holds what the
    check found and a counterexample comes with its trace (how the search shows that
    parity fails where tiles are left out of play). ``reader`` reads R5 declaratively
    (:mod:`.judge`), needed where a terminal property is wanted
    (:func:`.verification.check_properties` passes the Z3 one)."""
    start = time.perf_counter()
    v = result.variant
    chosen = selected(properties)
    applies = {p.id: p.applies_to(v) for p in chosen}
    wanted = {p.id for p in chosen if applies[p.id] or inapplicable}
    cannot = unjudged(v, wanted, reader)
    wanted -= set(cannot)
    ctx = _Context(result, spec_for(v), wanted)
    try:
        _scan(ctx, reader)
        _check_liveness(ctx)
    except ReadingsDisagree as e:  # the graph's edges, or the screen, not the judge's
        if result.on_kernel and is_own(result.rules) and e.at is not None:
            _readings_agree(result, [e.at])
        raise
    if result.on_kernel and is_own(result.rules):
        _readings_agree(result, [f.at for f in ctx.found.values()],
                        [f.then for f in ctx.found.values()])
    figures = result.counts()
    seconds = time.perf_counter() - start
    method = of_init(v, result.init).method()  # exhaustive only over every deal
    out = []
    for p in chosen:
        res = Result(p.id, Verdict.NOT_APPLICABLE, method, figures.configuration,
                     states=result.size, seconds=seconds)
        out.append(res)
        if p.id not in wanted and p.id not in cannot:
            res.detail = p.not_applicable()
            continue
        found = ctx.found.get(p.id)
        if found is not None:
            res.verdict = Verdict.VIOLATED
            res.trace = result.trace_to(found.at, found.then)
            res.detail = found.why
            res.stats = {"state": found.at, "moves": len(res.trace.moves)}
        elif p.id in cannot:
            res.verdict = Verdict.UNKNOWN
            res.detail = cannot[p.id]
        elif result.complete:
            res.verdict = Verdict.HOLDS
            res.detail = _holds_detail(p.id, ctx, figures)
        else:
            res.verdict = Verdict.UNKNOWN
            res.detail = partial_detail(figures.stop_reason, result.size)
        if p.id in ("blocked-sound", "blocked-complete", "parity", "tie", "called-block"):
            res.stats.update(ctx.counts)
        if not applies[p.id]:
            res.stats["checked anyway"] = res.verdict.value
            res.detail = (f"the premise fails (it applies to {p.applies_doc}); checked anyway: "
                          f"{res.verdict.value}: {res.detail}")
            res.verdict = Verdict.NOT_APPLICABLE
    return out


def unjudged(variant: Variant, wanted: Iterable[str],
             reader: ReadsScoring | None = None) -> dict[str, str]:
    """The wanted properties no judge can read on this variant's states, each with why:
    the terminal properties of R5 where the declarative reading of the scoring (a Z3
    encoding, ``reader``) does not state the layout's slots yet. They are UNKNOWN,
    never judged against nothing."""
    r5 = Judge.TERMINAL & set(wanted)
    if not r5:
        return {}
    if reader is None:
        raise ValueError(f"judging {', '.join(sorted(r5))} needs the declarative reading "
                         "of R5 (reader=score_reader)")
    try:
        reader(variant)
    except NotImplementedError as e:
        why = (f"the declarative reading of R5 (the Z3 encoding) does not state this "
               f"layout yet ({e}): no terminal state was scored, nothing is claimed")
        return dict.fromkeys(sorted(r5), why)
    return {}


def checked_verdict(r: Result) -> Verdict:
    """The verdict, or for an N/A property checked anyway, what the check found."""
    return Verdict(r.stats.get("checked anyway", r.verdict.value))


def partial_detail(stop_reason: str, states: int) -> str:
    """What a search stopped by a budget says of a property it found no counterexample
    to."""
    return (f"partial search ({stop_reason}): no counterexample among {states:,} states, "
            "nothing is claimed")


def blocked_sound_detail(counts: dict[str, int], terminals: dict[str, int], n: str) -> str:
    """Why blocked-sound holds: the blocked states checked and the census of the R2.3
    readings (``counts``), then ``n`` (what was examined)."""
    differ = counts.get("R2.3 readings differ", 0)
    compared = counts.get("R2.3 readings compared", 0)
    readings = (f"the two R2.3 readings agree in all {compared:,} states compared"
                if not differ else f"the R2.3 readings differ in {differ:,} of "
                f"{compared:,} states compared")
    return f"{terminals.get('blocked', 0):,} blocked states checked; {readings}; {n}"


def _holds_detail(pid: str, ctx: _Context, f: Figures) -> str:
    kind = BY_ID[pid].kind
    ends = sum(f.terminals.values())
    n = {Kind.STATE: f"{f.states:,} states", Kind.TRANSITION: f"{f.transitions:,} transitions",
         Kind.TERMINAL: f"{ends:,} terminal states"}.get(kind, f"{f.states:,} states")
    if pid == "blocked-sound":
        return blocked_sound_detail(ctx.counts, f.terminals, n)
    if pid == "blocked-complete":
        return (f"{ctx.counts.get('states where R2 and R3 hold', 0):,} states where R2 and R3 "
                f"hold all reach the block within {ctx.result.variant.players + 1} moves; {n}")
    if pid == "termination":
        return f"acyclic, no stuck state; {ctx.notes.get('termination', '')}"
    if pid == "tie":
        return f"{ctx.counts.get('ties', 0):,} tied blocked states checked; {n}"
    if pid == "parity":
        return f"{ctx.counts.get('parity blocks', 0):,} blocked states checked; {n}"
    if pid == "called-block":
        return f"{ctx.counts.get('called blocks', 0):,} called blocks checked; {n}"
    return n

