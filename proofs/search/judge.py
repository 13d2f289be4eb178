"""The property catalogue checked on an explored state graph.

:func:`check_properties` takes a :class:`~dominoproof.proofs.search.statespace.SearchResult`
and returns one :class:`~dominoproof.proofs.properties.Result` per property of
the catalogue (``dominoproof.proofs.properties``):

* **HOLDS** when the search was complete and nothing failed (the result says how
  many states were examined, and on which configuration);
* **VIOLATED** with a counterexample: the deal and every move up to the state (or
  transition) where the property fails, as a :class:`~dominoproof.model.engine.Trace`.
  The search is breadth first and the checks scan states in BFS order, so the
  trace is a shortest one. With the variant's own rules the engine replays it
  with every legality check; with a mutant rule book, :func:`replay` does;
* **UNKNOWN** when a budget stopped the search and no counterexample was found;
* **N/A** when the property does not apply to the variant (``inapplicable=True``
  checks it anyway: that is how the search shows that parity fails where tiles
  are left out of play).

The system under test is the result's rule book and scorer (possibly a fault);
the properties are judged against *oracles*: the variant's own rule book for
the predicates of R2/R3/R4.5 and the lead, and for R5 the declarative reading of
the scoring (:class:`~dominoproof.proofs.z3.scoring.ScoreReader`, the Z3 terms of
SEMANTICS "Scoring" evaluated on each terminal state), never the engine's own
:func:`~dominoproof.model.outcome.outcome`: a bug in the engine's scoring is a
disagreement between two independent readings, and fails a terminal property.

One pass over the graph checks every state invariant, transition property and
terminal property at once; the liveness properties use the graph analyses of
the search (a cycle, a topological order, bounded walks from every state where
R2 and R3 hold).

:func:`verify` is the one call the CLI makes: explore (in a process pool by deal
when there are many deals), check, and merge, returning the figures and the
verdicts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from dominoproof.model.constants import constants_of
from dominoproof.model.engine import Trace, initial_state
from dominoproof.model.errors import TraceError
from dominoproof.model.fast import engine_for
from dominoproof.model.layout import CLOSED
from dominoproof.model.moves import LEAD, Move, MoveKind
from dominoproof.model.outcome import Outcome
from dominoproof.model.spec import Init, Rules
from dominoproof.model.state import Ending, State, StateFlaw, Status, state_status
from dominoproof.model.tiles import Tile
from dominoproof.model.variant import (
    DrawRule,
    ExtendReading,
    FoulRule,
    Variant,
)
from dominoproof.proofs.bounds import move_count_measure
from dominoproof.proofs.properties import (
    BY_ID,
    CATALOGUE,
    Kind,
    Property,
    Result,
    Verdict,
    find_property,
)
from dominoproof.proofs.runner import Runner
from dominoproof.proofs.search.by_deal import explore_by_deal
from dominoproof.proofs.search.coverage import Coverage, of_init
from dominoproof.proofs.search.layout_judge import LayoutJudge
from dominoproof.proofs.search.screen import screen_search
from dominoproof.proofs.search.statespace import (
    Figures,
    Scorer,
    SearchResult,
    explore,
    kind_code,
    system_under_test,
)

if TYPE_CHECKING:
    from dominoproof.proofs.z3.scoring import Scored

__all__ = [
    "Verification",
    "check_properties",
    "checked_verdict",
    "replay",
    "round_bound",
    "verify",
]

#: the method of a search of every deal; one of some deals says "sampled" (proofs.coverage)
METHOD = "exhaustive search"
PLAY, DRAW, PASS, CONFIRM, ESTABLISH, DOMINO = MoveKind


# ---------------------------------------------------------------------------
# Replaying a counterexample
# ---------------------------------------------------------------------------


def replay(trace: Trace, rules: Rules | None = None) -> list[State]:
    """Every state of ``trace`` under ``rules`` (default: the variant's own), each move
    checked against ``rules.moves``: how a mutant's counterexample is replayed."""
    rules = rules or engine_for(trace.variant)
    s = initial_state(trace.variant, trace.deal, free_draw=trace.free_draw, rules=rules)
    out = [s]
    for n, m in enumerate(trace.moves, 1):
        if m not in rules.moves(s):
            raise TraceError(f"move {n} ({m!r}) is not enabled under {type(rules).__name__}")
        s = rules.step(s, m)
        out.append(s)
    return out


# ---------------------------------------------------------------------------
# The termination bound
# ---------------------------------------------------------------------------


def round_bound(variant: Variant) -> tuple[int, str]:
    """The move-count bound: an upper bound on the moves of any round, from the rules,
    and how it is made (:func:`~dominoproof.proofs.bounds.move_count_measure` at Init;
    ``proofs/bounds.py`` relates it to the ranking function's bound).

    With ``I = P*H + B`` tiles in play (hands and boneyard), ``B`` in the boneyard,
    ``F`` possible fouls (``P`` where fouls are penalised, else 0): at most ``I``
    plays, ``B`` draws, ``B`` passes (draw-one games), ``F`` fouls; confirmations
    happen only once the boneyard is empty (R4.1) and a run of them is ended by a
    play, a foul or the establishment after at most ``P`` (R4.4), so at most
    ``P*(I + F + 1)``; and one final move (Establish or Domino).
    """
    c = constants_of(variant)
    p, h, b = c.P, c.H, c.B
    i = p * h + b
    passes = b if c.DRAW is DrawRule.ONE else 0
    f = p if c.FOULS is FoulRule.PENALISED else 0
    bound = move_count_measure(p, c.DRAW, c.FOULS).at_init(p, h, b, c.K)
    text = (f"I + B + passes + F + P(I + F + 1) + 1 = {i} + {b} + {passes} + {f} + "
            f"{p}*({i} + {f} + 1) + 1 = {bound} (I = P*H + B = {i} tiles in play, "
            f"B = {b} in the boneyard, P = {p}, F = {f} possible fouls)")
    return bound, text


# ---------------------------------------------------------------------------
# The checks
# ---------------------------------------------------------------------------


@dataclass
class _Found:
    """The first failure of one property: where, and why."""

    at: int  #: the state id (or the source of the transition)
    then: tuple[int, ...] = ()  #: ids after ``at`` that complete the counterexample
    why: str = ""


@dataclass
class _Context:
    result: SearchResult
    oracle: Rules
    wanted: set[str]
    found: dict[str, _Found] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    r2_r3: list[int] = field(default_factory=list)  #: ids of states where R2 and R3 hold

    def fail(self, pid: str, at: int, why: str, then: tuple[int, ...] = ()) -> None:
        if pid in self.wanted and pid not in self.found:
            self.found[pid] = _Found(at, then, why)

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n


#: what each flaw of a state means, for a failure's text (conservation, Terms)
_FLAWS = {StateFlaw.OVERLAP: "a tile is in two places",
          StateFlaw.LOST_TILES: "a tile of the set is nowhere (in no hand, not in the "
                                "boneyard, not set aside, not on the table)",
          StateFlaw.FOREIGN_TILES: "a tile outside the set is in play",
          StateFlaw.BAD_ENDS: "the open ends are not those of a line of the tiles laid"}


class Judge:
    """The catalogue's local checks: one state, or one transition, at a time.

    The system under test is the rules and the scorer of a search; the judge is
    ``oracle`` (the variant's own rule book) and, for R5, the declarative scoring
    (:class:`~dominoproof.proofs.z3.scoring.ScoreReader`), independent of the engine's
    :func:`~dominoproof.model.outcome.outcome`. Failures go to
    ``ctx.fail(pid, at, why, then)``, where ``at`` and ``then`` name states the way
    the caller does (ids in a graph, codes in a partitioned search).
    """

    TERMINAL = frozenset({"winner-lowest", "award", "tie", "pips", "foul-penalty",
                          "final-scores", "parity"})
    TRANSITION = frozenset({"boneyard-monotone", "opening", "no-false-confirmation",
                            "procedure"}) | LayoutJudge.TRANSITION
    #: properties that need every state, not just the terminal ones
    EVERY_STATE = TRANSITION | {"conservation", "blocked-complete"}
    #: properties that need R2 under both readings of R2.3 (the census of the readings)
    READINGS = frozenset({"blocked-sound", "blocked-complete"})

    def __init__(self, ctx: Any, variant: Variant, oracle: Rules, scorer: Scorer) -> None:
        self.ctx, self.v, self.oracle, self.scorer = ctx, variant, oracle, scorer
        want: set[str] = ctx.wanted
        self.want = want
        self.terminal_ids = self.TERMINAL & want
        self.transition_ids = self.TRANSITION & want
        self.readings = bool(self.READINGS & want)
        self._reference: Any = None
        #: the layout properties (markers, doubles, a spinner's arms), where wanted
        self.layout = (LayoutJudge(ctx, variant, oracle, want)
                       if (LayoutJudge.TRANSITION | LayoutJudge.TERMINAL) & want else None)

    def reference(self, s: State) -> Scored | None:
        """The declarative reading of R5 at ``s`` (built on first use: a Z3 encoding)."""
        if self._reference is None:
            from dominoproof.proofs.z3.scoring import score_reader

            self._reference = score_reader(self.v)
        got: Scored | None = self._reference.read(s)
        return got

    def state(self, at: Any, s: State) -> bool:
        """Check the state invariants and, at a terminal state, the terminal
        properties; return whether R2 and R3 hold in a round still being played
        where no domino is due (the premise of blocked-complete)."""
        ctx, v, oracle, want = self.ctx, self.v, self.oracle, self.want
        premise = False
        if "conservation" in want:
            flaws = state_status(v, s)
            if flaws is not StateFlaw.OK:
                what = ", ".join(_FLAWS.get(f, f.name or str(f)) for f in StateFlaw
                                 if f & flaws)
                ctx.fail("conservation", at, f"the state is not well formed: {what} "
                         f"({flaws!r})")
            # every slot, whatever opened it (the lead, a spinner's double, a toe's):
            # an open end shows a half of some tile on the table
            suit, slots = v.tiles.suit, v.slot_layout.slots
            for k, x in enumerate(s.ends):
                if x != CLOSED and (not 0 <= x < len(suit) or not suit[x] & s.table):
                    name = slots[k].name if k < len(slots) else f"slot {k}"
                    ctx.fail("conservation", at, f"the open end {name} shows {x}, which "
                             "no tile on the table carries")
                    break
        # R2 under both readings of R2.3 (before the lead, no end is unplayable)
        a = b = False
        if s.led and self.readings:
            a = oracle.ends_unplayable(s, ExtendReading.HOLDS_MATCHING_TILE)
            b = oracle.ends_unplayable(s, ExtendReading.HAS_LEGAL_MOVE)
            ctx.count("R2.3 readings compared")
            if a != b:
                ctx.count("R2.3 readings differ")
            premise = (s.status is Status.PLAYING and not s.boneyard and bool(s.hands[s.turn])
                       and (a if oracle.constants.READING is ExtendReading.HOLDS_MATCHING_TILE
                            else b))
        if s.status is Status.BLOCKED and "blocked-sound" in want:
            why = []
            if s.boneyard:
                why.append(f"the boneyard still holds {s.boneyard.bit_count()} tile(s) (R3.2)")
            if not a:
                why.append("a hand holds a tile matching an open end (R2.1, reading "
                           "holds-matching-tile)")
            if not b:
                why.append("a player has a legal move (R2.3, reading has-legal-move)")
            if why:
                ctx.fail("blocked-sound", at, "block established, but " + "; ".join(why))
        if s.status is not Status.PLAYING and self.terminal_ids:
            _check_terminal(ctx, v, at, s, self.scorer(v, s), self.reference(s), v.teams,
                            v.tiles.suit, v.n % 2 == 0)
        if self.layout is not None:
            self.layout.state(at, s)
        return premise

    def transition(self, at: Any, s: State, m: Move, j: Any, t: State) -> None:
        """Check the transition properties of ``s --m--> t`` (``j`` names ``t``, the
        successor the system under test gives)."""
        if not self.transition_ids:
            return
        ctx, oracle, want, players = self.ctx, self.oracle, self.want, self.v.players
        kind = m.kind
        if "boneyard-monotone" in want:
            if t.boneyard & ~s.boneyard:
                ctx.fail("boneyard-monotone", at, f"{m} makes the boneyard grow", (j,))
            elif kind is DRAW and not s.boneyard >> m.tile & 1:
                ctx.fail("boneyard-monotone", at,
                         f"{m}: that tile is not in the boneyard"
                         + (" (the boneyard is empty)" if not s.boneyard else ""), (j,))
            elif t.set_aside != s.set_aside:
                ctx.fail("boneyard-monotone", at, f"{m} changes the set-aside tiles", (j,))
        if "opening" in want and not s.led and not s.table:
            leader, tile = oracle.opening(s.hands)
            if kind is not PLAY or m.end != LEAD or m.player != leader or (
                    tile is not None and m.tile != tile):
                named = f" with {Tile.from_index(tile).show()}" if tile is not None else ""
                first = (f"P{m.player} leads {Tile.from_index(m.tile).show()}"
                         if kind is PLAY and m.end == LEAD else repr(m))
                ctx.fail("opening", at, f"the first move is {first}; the variant's lead is "
                         f"P{leader}{named} (Terms)", (j,))
        if kind is CONFIRM:
            playable = oracle.playable_mask(s, m.player)
            recorded = (oracle.fouls_possible and not s.fouls >> m.player & 1
                        and t.fouls >> m.player & 1 and t.confirmed == 0)
            if "no-false-confirmation" in want and playable and not recorded:
                ctx.fail("no-false-confirmation", at,
                         f"P{m.player} confirms inability holding a playable tile, and no "
                         "foul is recorded (R4.5)", (j,))
            if "procedure" in want and not playable and (
                    t.confirmed != s.confirmed + 1 or m.player != s.turn
                    or t.turn != (s.turn + 1) % players):
                ctx.fail("procedure", at, f"{m} does not extend the run of confirmations "
                         f"clockwise ({s.confirmed} -> {t.confirmed}) (R4.2)", (j,))
        elif kind is PLAY and "procedure" in want and t.confirmed != 0:
            ctx.fail("procedure", at, f"{m}: a play does not end the run of confirmations "
                     "(R4.3)", (j,))
        elif kind is ESTABLISH and "procedure" in want:
            why = []
            if s.confirmed < players:
                why.append(f"only {s.confirmed} of the {players} players confirmed (R4.4)")
            if s.boneyard:
                why.append("the boneyard is not empty (R4.4)")
            if not oracle.is_blocked(s):
                why.append("R2/R3 do not hold: the procedure and the conditions disagree")
            if why:
                ctx.fail("procedure", at, "the block is established, but "
                         + "; ".join(why), (j,))
        if self.layout is not None:
            self.layout.transition(at, s, m, j, t)


def _scan(ctx: _Context) -> None:
    """One pass over the graph: state invariants, transition and terminal properties.
    On a kernel search the kernel's screen reads the states still being played
    (:mod:`.screen`), and the judge reads the rest and each state the screen names."""
    r = ctx.result
    judge = Judge(ctx, r.variant, ctx.oracle, r.scorer)
    scr = screen_search(r, ctx.wanted, judge.readings, judge.layout is not None)
    state = r.state  # (a kernel search's reads its key array directly)
    ptr, to = r.edge_ptr, r.edge_to
    moves_of = r.rules.moves  # the edges of a state follow the order of its moves
    n_exp = r.expanded
    # Only terminal states matter to blocked-sound and the terminal properties; the
    # other properties need every state (and its transitions).
    ids: Iterable[int] = range(len(r.codes))
    if scr is not None:
        ids = scr.ids
        ctx.r2_r3.extend(scr.premise)
        for key, n in scr.counts.items():
            ctx.count(key, n)
    elif not Judge.EVERY_STATE & ctx.wanted:
        kinds = r.kind
        still = (kind_code(None), kind_code(Ending.STUCK))  # no round over: nothing to judge
        ids = [i for i in range(len(r.codes)) if i >= n_exp or kinds[i] not in still]
    transitions = bool(judge.transition_ids)
    for i in ids:
        s = state(i)
        if scr is not None and s.status is Status.PLAYING:
            # a state the screen names: its failure, worded by the judge (the screen
            # already counted its readings and its premise)
            counts = dict(ctx.counts)
            judge.state(i, s)
            ctx.counts = counts
        elif judge.state(i, s):
            ctx.r2_r3.append(i)
        if i < n_exp and transitions:
            for e, m in zip(range(ptr[i], ptr[i + 1]), moves_of(s), strict=True):
                j = to[e]
                judge.transition(i, s, m, j, state(j))
    if scr is not None:
        scr.check({pid: f.at for pid, f in ctx.found.items()})


def _check_terminal(ctx: Any, v: Variant, i: Any, s: State, got: Outcome | None,
                    want: Scored | None, sides: Sequence[Sequence[int]],
                    suit: Sequence[int], even: bool) -> None:
    """R4.5, R5.2-R5.5 and parity at one terminal state.

    The scorer under test (a fault's, or the engine's own) is judged against the
    declarative reading of R5 (:mod:`dominoproof.proofs.z3.scoring`): the rules of R5
    are written once in the engine and once declaratively, and every terminal state
    the search reaches compares the two, not a third copy here. What is checked here
    is each property's statement: the winners are the lowest totals, the award is the
    variant's, ties are settled the variant's way, residuals count the tiles left in
    hand, fouls are charged to the seats that made them, and a side's score is its
    award less its seats' penalties. ``got`` is the scorer's outcome, ``want`` the
    declarative reading's."""
    if got is None:
        ctx.fail("pips", i, "the round is over but the scorer gives no outcome")
        return
    assert want is not None  # s is terminal
    residuals, totals = list(want.residuals), list(want.totals)
    if list(got.residuals) != residuals or list(got.totals) != totals:
        ctx.fail("pips", i, f"the engine scores residuals {list(got.residuals)} (side "
                 f"totals {list(got.totals)}); the tiles left in hand count {residuals} "
                 f"(side totals {totals}, sides {[list(x) for x in sides]}) (R5.3)")
    if list(got.penalties) != list(want.penalties):
        fouled = [p for p in range(len(want.penalties)) if s.fouls >> p & 1]
        ctx.fail("foul-penalty", i, f"the engine charges penalties {list(got.penalties)} "
                 f"per seat; R4.5 charges {list(want.penalties)} (fouls by "
                 f"{', '.join(f'P{p}' for p in fouled) or 'nobody'})")
    owed = [got.awards[k] - sum(got.penalties[p] for p in side)
            for k, side in enumerate(sides)]
    if list(got.scores) != owed:
        ctx.fail("final-scores", i, f"the engine's final scores are {list(got.scores)} per "
                 f"side; its awards {list(got.awards)} less its penalties "
                 f"{list(got.penalties)} per seat give {owed}")
    winners, awards = list(got.winners), list(got.awards)
    if s.status is Status.BLOCKED:
        low = min(totals)
        tied = [k for k, t in enumerate(totals) if t == low]
        if any(w not in tied for w in winners) or (len(tied) == 1 and winners != tied):
            ctx.fail("winner-lowest", i, f"winners {winners} with totals {totals}: the lowest "
                     f"total is {low}, held by {tied} (R5.2)")
        if len(tied) == 1:
            if awards[tied[0]] != want.awards[tied[0]]:
                ctx.fail("award", i, f"award {awards[tied[0]]}, the rule "
                         f"{v.scoring.block_award.value} gives {want.awards[tied[0]]} (R5.4)")
        else:
            ctx.count("ties")
            if winners != list(want.winners) or awards != list(want.awards):
                ctx.fail("tie", i, f"tie of {tied} at {low}: winners {winners}, awards {awards}; "
                         f"rule {v.scoring.tie.value} gives winners {list(want.winners)}, "
                         f"awards {list(want.awards)} (R5.5)")
        if "parity" in ctx.wanted and len(s.open_ends) != 2:
            ctx.fail("parity", i, f"a block with the open ends {s.open_ends}, not one line's "
                     "two")
        elif "parity" in ctx.wanted:
            lo, hi = s.open_ends
            missing = (suit[lo] | suit[hi]) & ~s.table
            if missing or (lo == hi) != even:
                why = []
                if missing:
                    why.append(f"{missing.bit_count()} tile(s) of the ends' suits are not on "
                               "the table")
                why.append(f"the ends show {lo} and {hi} with N = {v.n}")
                ctx.fail("parity", i, "at the block " + "; ".join(why))
            else:
                ctx.count("parity blocks")
    else:
        w = next(k for k, side in enumerate(sides) if s.turn in side)
        if winners != [w] or awards != list(want.awards):
            ctx.fail("award", i, f"domino by P{s.turn}: winners {winners}, awards {awards}; "
                     f"the rule {v.scoring.domino_award.value} gives side {w} "
                     f"{want.awards[w]} (R5.4)")


def _bounded_walk(r: SearchResult, start: int, budget: int) -> tuple[bool | None, list[int]]:
    """Whether every path from ``start`` reaches an established block within ``budget``
    moves: (True, []), (False, a failing path), or (None, []) if it leaves the explored
    part."""
    stack: list[tuple[int, int, list[int]]] = [(start, budget, [])]
    unknown = False
    blocked, being_played = kind_code(Ending.BLOCKED), kind_code(None)
    while stack:
        v, left, path = stack.pop()
        if v >= r.expanded:
            unknown = True
            continue
        k = r.kind[v]
        if k == blocked:
            continue
        if k != being_played or left == 0:
            return False, path
        for _m, w in r.successors(v):
            stack.append((w, left - 1, [*path, w]))
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
        stuck = next((i for i in range(r.expanded) if r.kind[i] == stuck_kind), None)
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


# ---------------------------------------------------------------------------
# check_properties
# ---------------------------------------------------------------------------


def selected(properties: Iterable[str | Property] | None) -> list[Property]:
    """The properties named (default: the whole catalogue); an unknown id raises."""
    if properties is None:
        return list(CATALOGUE)
    return [p if isinstance(p, Property) else find_property(p) for p in properties]


def check_properties(result: SearchResult,
                     properties: Iterable[str | Property] | None = None, *,
                     inapplicable: bool = False) -> list[Result]:
    """One :class:`Result` per property (default: the whole catalogue), in catalogue order.

    A property that does not apply to the variant is N/A. With ``inapplicable`` it is
    checked anyway: the verdict stays N/A, ``stats["checked anyway"]`` holds what the
    check found and a counterexample comes with its trace (how the search shows that
    parity fails where tiles are left out of play)."""
    start = time.perf_counter()
    v = result.variant
    chosen = selected(properties)
    applies = {p.id: p.applies_to(v) for p in chosen}
    wanted = {p.id for p in chosen if applies[p.id] or inapplicable}
    cannot = unjudged(v, wanted)
    wanted -= set(cannot)
    ctx = _Context(result, engine_for(v), wanted)
    _scan(ctx)
    _check_liveness(ctx)
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
        if p.id in ("blocked-sound", "blocked-complete", "parity", "tie"):
            res.stats.update(ctx.counts)
        if not applies[p.id]:
            res.stats["checked anyway"] = res.verdict.value
            res.detail = (f"the premise fails (it applies to {p.applies_doc}); checked anyway: "
                          f"{res.verdict.value}: {res.detail}")
            res.verdict = Verdict.NOT_APPLICABLE
    return out


def unjudged(variant: Variant, wanted: Iterable[str]) -> dict[str, str]:
    """The wanted properties no judge can read on this variant's states, each with why:
    the terminal properties of R5 where the declarative reading of the scoring (a Z3
    encoding, :mod:`.scoring`) does not state the layout's slots yet. They are UNKNOWN,
    never judged against nothing."""
    r5 = Judge.TERMINAL & set(wanted)
    if not r5:
        return {}
    from dominoproof.proofs.z3.scoring import score_reader

    try:
        score_reader(variant)
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
    return n


# ---------------------------------------------------------------------------
# verify: explore (in parts), check, merge
# ---------------------------------------------------------------------------


@dataclass
class Verification:
    """Figures and verdicts of one configuration."""

    figures: Figures
    results: list[Result]
    result: SearchResult | None = None  #: the explored graph (one-process runs only)
    check_seconds: float = 0.0  #: checking the properties (summed over the parts)
    coverage: Coverage | None = None  #: every deal, or sampled and how many

    @property
    def verdict(self) -> Verdict:
        """VIOLATED if any property is, else UNKNOWN if any is, else HOLDS."""
        got = {r.verdict for r in self.results}
        for v in (Verdict.VIOLATED, Verdict.UNKNOWN):
            if v in got:
                return v
        return Verdict.HOLDS

    def to_json(self) -> dict[str, Any]:
        return {"figures": self.figures.to_json(), "check_seconds": round(self.check_seconds, 3),
                "coverage": self.coverage.to_json() if self.coverage is not None else None,
                "results": [r.to_json() for r in self.results]}


@dataclass(frozen=True)
class _Check:
    """A picklable check of one part's graph (run in the worker that explored it)."""

    properties: tuple[str, ...] | None
    inapplicable: bool

    def __call__(self, r: SearchResult) -> list[Result]:
        return check_properties(r, self.properties, inapplicable=self.inapplicable)


def _merge_results(per_part: Sequence[list[Result]], figures: Figures) -> list[Result]:
    """One result per property from the parts' results: a counterexample of any part
    (the shortest), else UNKNOWN if any part was cut short, else the parts' verdict."""
    out = []
    for column in zip(*per_part, strict=True):
        found = {checked_verdict(r) for r in column}
        violated = [r for r in column if checked_verdict(r) is Verdict.VIOLATED]
        if violated:
            merged = min(violated, key=lambda r: len(r.trace.moves) if r.trace else 0)
        else:
            merged = column[0]
            stats: dict[str, Any] = {}
            for r in column:
                for k, n in r.stats.items():
                    stats[k] = stats.get(k, 0) + n if isinstance(n, int) else n
            merged.stats = stats
            if Verdict.UNKNOWN in found:
                merged.detail = partial_detail(figures.stop_reason, figures.states)
                if merged.verdict is not Verdict.NOT_APPLICABLE:
                    merged.verdict = Verdict.UNKNOWN
                else:
                    merged.stats["checked anyway"] = Verdict.UNKNOWN.value
            elif Verdict.HOLDS in found:
                merged.detail = (f"holds in each of the {len(column)} parts of the deals; "
                                 f"{figures.states:,} distinct states, "
                                 f"{figures.transitions:,} transitions in all")
        merged.configuration = figures.configuration
        merged.states = figures.states
        out.append(merged)
    return out


def verify(variant: Variant, init: Init, *, engine: type[Rules] | None = None,
           scorer: Scorer | None = None,
           properties: Iterable[str | Property] | None = None,
           max_states: int | None = None, max_seconds: float | None = None,
           workers: int = 1, inapplicable: bool = False,
           on_parts: Callable[[int], None] | None = None,
           how: str | None = None, runner: Runner | None = None,
           parts: int | None = None, scratch: str | None = None,
           on_part: Callable[[int, int], None] | None = None) -> Verification:
    """Explore ``init`` under ``engine`` (default: the variant's rules) and check the
    catalogue: in this process, or, for every deal with ``workers > 1`` or a ``runner``
    (a cluster: :mod:`dominoproof.proofs.runner`), by deal in ``parts`` (default: one
    per worker) with the figures merged exactly (``on_part(done, total)`` as each part
    is done). Each result's method says which deals were searched: exhaustive over
    every deal, else sampled and how many (``how``: how the one deal was chosen, e.g.
    "the deal of seed 0")."""
    ver = _verify(variant, init, engine, scorer, properties, max_states, max_seconds,
                  workers, inapplicable, on_parts, _ByParts(runner, parts, scratch, on_part))
    ver.coverage = of_init(variant, init, how)
    for r in ver.results:
        r.method = ver.coverage.method()
    return ver


@dataclass(frozen=True)
class _ByParts:
    """How a search by deal is split and where its parts run."""

    runner: Runner | None = None
    parts: int | None = None
    scratch: str | None = None
    on_part: Callable[[int, int], None] | None = None


def _verify(variant: Variant, init: Init, engine: type[Rules] | None, scorer: Scorer | None,
            properties: Iterable[str | Property] | None, max_states: int | None,
            max_seconds: float | None, workers: int, inapplicable: bool,
            on_parts: Callable[[int], None] | None, by: _ByParts) -> Verification:
    ids = tuple(p.id for p in selected(properties)) if properties is not None else None
    if init.deal is None and (workers > 1 or by.runner is not None or by.parts is not None):
        n = by.parts or (by.runner.workers if by.runner is not None else workers)
        if on_parts is not None:
            on_parts(n)
        figures, got = explore_by_deal(
            variant, init, engine=engine, scorer=scorer, max_states=max_states,
            max_seconds=max_seconds, workers=workers, parts=n,
            check=_Check(ids, inapplicable), runner=by.runner, scratch=by.scratch,
            on_part=by.on_part)
        per_part = cast("list[list[Result]]", got)  # the check ran on every part
        spent = sum(part[0].seconds for part in per_part if part)
        return Verification(figures, _merge_results(per_part, figures), None, spent)
    r = explore(variant, init, rules=system_under_test(variant, engine), scorer=scorer,
                max_states=max_states, max_seconds=max_seconds)
    results = check_properties(r, ids, inapplicable=inapplicable)
    return Verification(r.figures, results, r, results[0].seconds if results else 0.0)
