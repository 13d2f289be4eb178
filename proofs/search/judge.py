"""The one judge of the property catalogue: a state, a transition, a round's end at a time.

The system under test is a search's (or a round's) rule book and scorer, possibly a
fault's; the properties are judged against *oracles*: the specification's rule book
(:func:`~dominoproof.model.spec.spec_for`) for what "blocked", "R2 holds" or "a legal
move" mean -- the predicates of R2/R3/R4.5 and the lead, asked, never re-derived here --
and for R5 the declarative reading of the scoring
(:class:`~dominoproof.proofs.z3.scoring.ScoreReader`, the Z3 terms of SEMANTICS
"Scoring" evaluated on each terminal state), never the engine's own
:func:`~dominoproof.model.outcome.outcome`: a bug in the engine's scoring is a
disagreement between two independent readings, and fails a terminal property. What is
written here is each property's statement: what must hold.

:class:`Judge` reports each failure to a :class:`Findings` (the first :class:`Finding`
of each wanted property, and counts). Every judging of the catalogue goes through it:
an explored graph (:mod:`.check`, with the kernel's screen as its accelerator), a
round (:mod:`.rounds`: the evidence of a verdict, ``diff``), a counterexample to
induction, the benchmarks' partitioned search. The layout properties are a part of it
(:class:`~dominoproof.proofs.search.layout_judge.LayoutJudge`).

The declarative reading of R5 is a Z3 encoding: whoever has the terminal properties
judged passes its reader in (``reader``, :func:`~dominoproof.proofs.z3.scoring.
score_reader`), so that a search judging only the other properties never loads Z3.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dominoproof.model.fives import STEP, count
from dominoproof.model.layout import CLOSED
from dominoproof.model.moves import DRAW_FOR_LEAD, LEAD, Move, MoveKind
from dominoproof.model.outcome import Outcome, Scorer
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.state import State, StateFlaw, Status, state_status
from dominoproof.model.tiles import Tile
from dominoproof.model.variant import BlockWinner, ExtendReading, Variant
from dominoproof.proofs.search.layout_judge import LayoutJudge

if TYPE_CHECKING:
    from dominoproof.proofs.z3.scoring import Scored, ScoreReader

__all__ = ["Finding", "Findings", "Judge", "ReadsScoring"]

#: the declarative reading of R5 for a variant (:func:`~dominoproof.proofs.z3.scoring.
#: score_reader`), passed in by whoever judges the terminal properties
ReadsScoring = Callable[[Variant], "ScoreReader"]

PLAY, DRAW, PASS, CONFIRM, ESTABLISH, DOMINO = MoveKind


@dataclass
class Finding:
    """The first failure of one property: where, and why."""

    at: Any  #: the state (an id in a graph, an index in a round) or a transition's source
    then: tuple[Any, ...] = ()  #: states after ``at`` that complete the counterexample
    why: str = ""


class Findings:
    """What a judge found: the first :class:`Finding` of each wanted property, and counts
    (the census of R2.3's readings, ties, ...). ``at`` and ``then`` name states the way
    the caller does (ids in a graph, indices in a round, codes in a partitioned search)."""

    def __init__(self, wanted: set[str]) -> None:
        self.wanted = wanted
        self.found: dict[str, Finding] = {}
        self.counts: dict[str, int] = {}

    def fail(self, pid: str, at: Any, why: str, then: tuple[Any, ...] = ()) -> None:
        if pid in self.wanted and pid not in self.found:
            self.found[pid] = Finding(at, then, why)

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

    The system under test is the rules and the scorer of a search; the judge asks
    ``oracle`` (the specification's rule book) and, for R5, the declarative scoring
    (:class:`~dominoproof.proofs.z3.scoring.ScoreReader`), independent of the engine's
    :func:`~dominoproof.model.outcome.outcome`, read by ``reader`` (needed where a
    terminal property is wanted). Failures go to ``ctx``, a :class:`Findings`.
    """

    TERMINAL = frozenset({"winner-lowest", "award", "tie", "pips", "foul-penalty",
                          "final-scores", "parity", "points-in-fives"})
    TRANSITION = frozenset({"boneyard-monotone", "opening", "no-false-confirmation",
                            "procedure", "points-in-fives"}) | LayoutJudge.TRANSITION
    #: properties that need every state, not just the terminal ones
    EVERY_STATE = TRANSITION | {"conservation", "blocked-complete"}
    #: properties that need R2 under both readings of R2.3 (the census of the readings)
    READINGS = frozenset({"blocked-sound", "blocked-complete"})

    def __init__(self, ctx: Findings, variant: Variant, oracle: RuleBook, scorer: Scorer,
                 reader: ReadsScoring | None = None) -> None:
        self.ctx, self.v, self.oracle, self.scorer = ctx, variant, oracle, scorer
        want: set[str] = ctx.wanted
        self.want = want
        self.terminal_ids = self.TERMINAL & want
        if self.terminal_ids and reader is None:
            raise ValueError(f"judging {', '.join(sorted(self.terminal_ids))} needs the "
                             "declarative reading of R5 (reader=score_reader)")
        self._read = reader
        self.transition_ids = self.TRANSITION & want
        self.readings = bool(self.READINGS & want)
        self._reference: ScoreReader | None = None
        #: the layout properties (markers, doubles, a spinner's arms), where wanted
        self.layout = (LayoutJudge(ctx, variant, oracle, want)
                       if (LayoutJudge.TRANSITION | LayoutJudge.TERMINAL) & want else None)

    def reference(self, s: State) -> Scored | None:
        """The declarative reading of R5 at ``s`` (built on first use: a Z3 encoding)."""
        if self._reference is None:
            assert self._read is not None  # a terminal property is wanted
            self._reference = self._read(self.v)
        got: Scored | None = self._reference.read(s)
        return got

    def state(self, at: Any, s: State) -> bool:
        """Check the state invariants and, at a terminal state, the terminal
        properties; return whether R2 and R3 hold in a round still being played
        where no domino is due, between turns (no first turn going on, R2.3): the
        premise of blocked-complete."""
        premise = self.invariants(at, s)
        self.ended(at, s)
        return premise

    def invariants(self, at: Any, s: State) -> bool:
        """The part of :meth:`state` the kernel's screen also reads (:mod:`.check`):
        conservation, R2.3's readings (their census, and the premise returned) and
        blocked-sound."""
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
            premise = (s.status is Status.PLAYING and oracle.boneyard_supplies_nothing(s)
                       and bool(s.hands[s.turn]) and not oracle.layout.first_turn(s.marks)
                       and (a if oracle.constants.READING is ExtendReading.HOLDS_MATCHING_TILE
                            else b))
        if s.status is Status.BLOCKED and "blocked-sound" in want:
            why = []
            if not oracle.boneyard_supplies_nothing(s):
                why.append(f"the boneyard still holds {s.boneyard.bit_count()} tile(s) (R3.2)")
            if not a:
                why.append("a hand holds a tile matching an open end (R2.1, reading "
                           "holds-matching-tile)")
            if not b:
                why.append("a player has a legal move (R2.3, reading has-legal-move)")
            if why:
                ctx.fail("blocked-sound", at, "block established, but " + "; ".join(why))
        return premise

    def ended(self, at: Any, s: State) -> None:
        """The rest of :meth:`state`: a called block (R4.7), the terminal properties (R5)
        where the round is over, and the layout properties."""
        ctx, v, oracle, want = self.ctx, self.v, self.oracle, self.want
        if (s.status is Status.BLOCKED and "called-block" in want
                and not oracle.block_ready(s)):  # R4.7: a call, not R4.4's run
            ctx.count("called blocks")
            if not oracle.dead_end(s):
                shown = ", ".join(str(x) for x in s.open_ends)
                ctx.fail("called-block", at, f"the block was called ({s.confirmed} of "
                         f"{oracle.C} confirmations), but no open end ({shown}) has every "
                         "tile of its number on the table (R4.7)")
        if s.status is not Status.PLAYING and self.terminal_ids:
            _check_terminal(ctx, v, at, s, self.scorer(v, s), self.reference(s), v.teams,
                            v.tiles.suit, v.n % 2 == 0)
        if self.layout is not None:
            self.layout.state(at, s)

    def _draw_for_lead(self, at: Any, s: State, m: Move, j: Any, t: State,
                       leader: int) -> None:
        """opening, R3.6: before the lead, while nobody holds the tile the lead rule
        names, each move is a draw by the next player clockwise from ``leader`` (one draw
        each), who keeps the turn only if they drew that tile (they lead it next)."""
        players = self.v.players
        drawer = (leader + self.v.boneyard_size - s.boneyard.bit_count()) % players
        found = self.oracle.opening(t.hands)[1] != DRAW_FOR_LEAD
        turn = m.player if found else (m.player + 1) % players
        if m.kind is not DRAW or m.player != drawer or t.turn != turn:
            said = (f"P{m.player} draws, then P{t.turn} is to move" if m.kind is DRAW
                    else repr(m))
            self.ctx.fail("opening", at, f"nobody holds the tile the lead rule names, so "
                          f"P{drawer} draws for it and {'keeps' if found else 'passes'} the "
                          f"turn (R3.6); instead {said}", (j,))

    def transition(self, at: Any, s: State, m: Move, j: Any, t: State) -> None:
        """Check the transition properties of ``s --m--> t`` (``j`` names ``t``, the
        successor the system under test gives)."""
        if not self.transition_ids:
            return
        self.rules_transition(at, s, m, j, t)
        if self.layout is not None:
            self.layout.transition(at, s, m, j, t)

    def rules_transition(self, at: Any, s: State, m: Move, j: Any, t: State) -> None:
        """The part of :meth:`transition` the kernel's screen also reads (:mod:`.check`):
        boneyard-monotone, opening, R4's procedure and no-false-confirmation, and
        points-in-fives; the layout's transition properties are the rest."""
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
            if tile == DRAW_FOR_LEAD:  # R3.6: nobody holds it: the players draw for it
                self._draw_for_lead(at, s, m, j, t, leader)
            elif kind is not PLAY or m.end != LEAD or m.player != leader or (
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
            # R4.4 where the variant says so: one that puts a marker out starts the run again
            restart = (oracle.constants.RESTART
                       and oracle.layout.put_marker_out(s.marks, m.player) != s.marks)
            if "procedure" in want and not playable and (
                    t.confirmed != (1 if restart else s.confirmed + 1) or m.player != s.turn
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
            if not oracle.boneyard_supplies_nothing(s):
                why.append("the boneyard is not empty (R4.4)")
            if not oracle.is_blocked(s):
                why.append("R2/R3 do not hold: the procedure and the conditions disagree")
            if why:
                ctx.fail("procedure", at, "the block is established, but "
                         + "; ".join(why), (j,))
        if "points-in-fives" in want and s.points:
            self._points(at, s, m, j, t)

    def _points(self, at: Any, s: State, m: Move, j: Any, t: State) -> None:
        """points-in-fives, R5.7: a play adds a multiple of 5 (or nothing) to its own
        player's points; nothing else changes anyone's points."""
        gained = [b - a for a, b in zip(s.points, t.points, strict=True)]
        scorer = m.player if m.kind is PLAY else None
        others = [f"P{k} {g:+d}" for k, g in enumerate(gained) if g and k != scorer]
        if others:
            self.ctx.fail("points-in-fives", at, f"{m} changes the points in play of "
                          f"{', '.join(others)} (R5.7: only a play scores, for its player)",
                          (j,))
        elif scorer is not None and (gained[scorer] < 0 or gained[scorer] % STEP):
            self.ctx.fail("points-in-fives", at, f"{m} scores {gained[scorer]}: not a "
                          f"multiple of {STEP} (R5.7; the ends count "
                          f"{count(t.ends, t.weights)})", (j,))



def _check_terminal(ctx: Findings, v: Variant, i: Any, s: State, got: Outcome | None,
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
    # R5.7: the points the seats' plays scored, read from the state (none: no such rule)
    points = [sum(s.points[p] for p in side) if s.points else 0 for side in sides]
    owed = [got.awards[k] - sum(got.penalties[p] for p in side) + points[k]
            for k, side in enumerate(sides)]
    if list(got.scores) != owed:
        plus = f" plus its points in play {points} (R5.7)" if s.points else ""
        said = (f"the engine's final scores are {list(got.scores)} per side; its awards "
                f"{list(got.awards)} less its penalties {list(got.penalties)} per seat"
                f"{plus} give {owed}")
        for pid in ("final-scores", "points-in-fives") if s.points else ("final-scores",):
            ctx.fail(pid, i, said)
    winners, awards = list(got.winners), list(got.awards)
    if s.status is Status.BLOCKED:
        # R5.2a: what a block compares: the totals, or the tiles left in each side's hands
        counts = list(want.counts)
        by_tiles = v.scoring.block_winner is BlockWinner.FEWEST_TILES
        low = min(counts)
        tied = [k for k, t in enumerate(counts) if t == low]
        if any(w not in tied for w in winners) or (len(tied) == 1 and winners != tied):
            ctx.fail("winner-lowest", i, (
                f"winners {winners} with tiles left {counts}: the fewest tiles are {low}, "
                f"held by {tied} (R5.2a)") if by_tiles else (
                f"winners {winners} with totals {totals}: the lowest total is {low}, held "
                f"by {tied} (R5.2)"))
        elif list(got.counts) != counts:
            ctx.fail("winner-lowest", i, f"the engine compares {list(got.counts)} per side; "
                     f"R5.2a compares {counts} ({v.scoring.block_winner.value})")
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

