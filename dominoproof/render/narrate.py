"""A round told as a person would tell it: :func:`narrate` turns a trace into
:class:`Step` values (pure, tested on their own), each move numbered, tagged with the
rule that allows it, with the line of play as it lies on the table (:class:`LineOfPlay`,
rebuilt from the moves: the state keeps only the canonical open ends) or, for a layout of
several lines, one row an arm (:func:`table_rows`). :mod:`dominoproof.render.text` lays
the steps out as text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from dominoproof.model.engine import Trace
from dominoproof.model.fives import count
from dominoproof.model.layout import Access, Opens, layout_for, layout_of
from dominoproof.model.matching import ONE_WAY, fits, is_matador, shown_after
from dominoproof.model.moves import DRAW_FOR_LEAD, LEAD, Move, MoveKind
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.state import State
from dominoproof.model.tiles import Tile, bits, show_tiles
from dominoproof.model.variant import (
    ExtendReading,
    LeadFallback,
    LeadRule,
    Variant,
)
from dominoproof.options import counted
from dominoproof.render.arms import Arms, RoundArms, centre_name

__all__ = ["ArmRow", "LineOfPlay", "Step", "boneyard_text", "narrate", "table_rows"]


# ---------------------------------------------------------------------------
# The line of play, left to right
# ---------------------------------------------------------------------------


class LineOfPlay:
    """The one line as it lies on the table: oriented tiles, left to right.

    A tile laid on the end showing ``e`` goes to the left end if the left end
    shows ``e``, else to the right end, turned so that its ``e`` half touches
    the line. The opening tile lies as printed, ``[lo|hi]``.
    """

    def __init__(self, total: int = 0) -> None:
        self.tiles: list[tuple[int, int]] = []  #: (left half, right half), left to right
        self.total = total  #: R2.1: 0 (equal numbers), or N+1 under Matador matching

    @property
    def ends(self) -> tuple[int, int] | None:
        """(left end, right end), or ``None`` before the lead."""
        if not self.tiles:
            return None
        return self.tiles[0][0], self.tiles[-1][1]

    def lay(self, tile: Tile, end: int, on_double: bool | None = None,
            leaves: int = ONE_WAY) -> None:
        """Lay ``tile`` on the end showing ``end`` (:data:`LEAD` for the opening); where
        both ends show it, ``on_double`` says which: the one whose outer tile is a double
        (R5.7: the two count differently), or the other; a matador turned as its play
        says, leaving ``leaves`` showing (R2.1)."""
        if end == LEAD:
            if self.tiles:
                raise ValueError("the line is already open")
            self.tiles.append((tile.lo, tile.hi))
            return
        if not self.tiles:
            raise ValueError("no open end before the lead")
        left, right = self.tiles[0][0], self.tiles[-1][1]
        if not fits(tile.lo, tile.hi, end, self.total):
            raise ValueError(f"{tile} does not fit an end showing {end}")
        other = shown_after(tile.lo, tile.hi, end, self.total, leaves)  # R2.1: left showing
        touching = tile.lo + tile.hi - other
        if left == right == end and on_double is not None:  # R5.7: which of the two
            first = self.tiles[0]
            if (first[0] == first[1]) != on_double:
                left = -1  # the right end is the one meant
        if left == end:
            self.tiles.insert(0, (other, touching))
        elif right == end:
            self.tiles.append((touching, other))
        else:
            raise ValueError(f"no open end shows {end} (ends {left} and {right})")

    def shown(self) -> list[str]:
        """Each tile as printed, left to right: ``[3|4]``, ``[4|1]``, ..."""
        return [f"[{a}|{b}]" for a, b in self.tiles]


# ---------------------------------------------------------------------------
# Steps: the moves told as a person would tell them
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One move of a round, told: its number, the rule that allows it, what
    happened, and the lines to show under it (the line of play, a hand)."""

    number: int
    rule: str
    text: str
    move: Move
    line: tuple[str, ...] = ()  #: the line of play after the move, when it changed
    hand: tuple[int, int] | None = None  #: (seat, mask): a hand that changed
    #: a layout of several lines after the move, one row an arm, when it changed
    table: tuple[ArmRow, ...] = ()


@dataclass(frozen=True)
class ArmRow:
    """One arm of a layout of several lines, told: its name (and owner), its tiles from
    the centre outwards as printed, and what to say of its open end."""

    name: str
    tiles: tuple[str, ...]
    note: str


def table_rows(arms: Arms, marks: int, players: int) -> tuple[ArmRow, ...]:
    """The layout of several lines, one row an arm (the lead first): each open arm with
    the number it shows, an owner's marker when it is out (R2.3), the sides an arm waits
    for (Terms), a double still to be covered (R2.2), the double a toe grows from; arms
    not open yet said in one row."""
    if arms.lead is None:
        return ()
    data = arms.data
    layout = layout_for(data, players)  # where the marks' fields lie
    rows = [ArmRow(centre_name(data, arms.lead), (arms.lead.show(),), "")]
    others: list[str] = []
    toes = 0
    for i, slot in enumerate(data.slots):
        end = arms.ends[i]
        if end is None and not arms.tiles[i]:
            if slot.opens is Opens.TOE:
                toes += 1
            else:
                others.append(slot.name)
            continue
        notes = [f"shows {end}" if end is not None else "closed"]
        if i in arms.parent:
            a, j = arms.parent[i]
            near, far = arms.tiles[a][j]
            notes.append(f"grows from the [{near}|{far}] on {data.slots[a].name}")
        if slot.owner is not None and layout.marker_out(marks, slot.owner):
            notes.append("marker out: open to all (R2.3)")
            if slot.access is Access.OWNER_OR_MARKERS:
                notes.append(f"P{slot.owner} may play on every train (R2.3)")
        if slot.access is Access.STARTED:
            started = [f"P{o.owner}" for j, o in enumerate(data.slots)
                       if o.owner is not None and layout.covered(marks, j)]
            notes.append("open to players whose own train is started: "
                         + (", ".join(started) or "nobody yet") + " (R2.3)")
        waits = arms.waits(i)
        if waits and end is not None:
            sides = " and ".join(data.slots[j].name for j in waits)
            notes.append(f"waits until {sides} {'is' if len(waits) == 1 else 'are'} "
                         "covered")
        if i in arms.pending:
            notes.append("must be covered first (R2.2)")
        tiles = tuple(f"[{a}|{b}]" for a, b in arms.tiles[i])
        rows.append(ArmRow(slot.name, tiles, "; ".join(notes)))
    if others:
        rows.append(ArmRow(", ".join(others), (), "not open (the lead is no double)"))
    if toes:
        rows.append(ArmRow(counted(toes, "toe"), (),
                           "not open yet (a double laid in play opens them)"))
    return tuple(rows)


def _numbers(values: Iterable[int]) -> list[int]:
    return sorted(set(values))


def _or_list(xs: Sequence[object]) -> str:
    words = [f"a {x}" for x in xs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def boneyard_text(s: State) -> str:
    """How many tiles the boneyard holds, in words."""
    n = s.boneyard.bit_count()
    return "boneyard empty" if n == 0 else f"{counted(n, 'tile')} in the boneyard"


def _left(s: State) -> str:
    n = s.boneyard.bit_count()
    return "boneyard now empty" if n == 0 else f"{n} left in the boneyard"


def _named(variant: Variant) -> str:
    """The tile the lead rule names, in words."""
    lead = variant.lead
    return Tile.parse(lead.tile).show() if lead.rule is LeadRule.TILE else "a double"


def _lead_reason(variant: Variant, rules: RuleBook, s: State, m: Move,
                 dealt: bool = True) -> str:
    """Why this player leads with this tile (Terms: the lead rule and its fallback;
    ``dealt`` false: the tile was drawn for the lead, R3.6)."""
    lead = variant.lead
    _, forced = rules.opening(s.hands)
    if lead.rule is LeadRule.PLAYER:
        return f'lead rule "player": P{lead.player} leads with any tile'
    if not dealt and lead.fallback is LeadFallback.DRAW:
        return (f'fallback "draw", R3.6: nobody was dealt {_named(variant)}, and P{m.player} '
                "drew it")
    if lead.rule is LeadRule.TILE and forced == variant.lead_tile_index:
        return f'lead rule "tile": the holder of {Tile.parse(lead.tile).show()} leads with it'
    if lead.rule is LeadRule.HIGHEST_DOUBLE and forced is not None and \
            Tile.from_index(forced).is_double:
        return 'lead rule "highest-double": the highest double held leads'
    named = _named(variant)
    fb = lead.fallback
    if fb is LeadFallback.PLAYER:
        how = f"P{lead.player} leads with any tile"
    elif fb is LeadFallback.HIGHEST_DOUBLE and Tile.from_index(m.tile).is_double:
        how = "the highest double held leads"
    else:
        how = "the heaviest tile held leads"
    return f"nobody holds {named}; fallback: {how}"


def _matador(rules: RuleBook, s: State, m: Move) -> str:
    """R2.1 (Matador): a matador laid so that its touching half makes no N+1 -- where no
    half does, or turned the other way round -- said as such."""
    total, (a, b) = rules.layout.data.match_total, rules.halves[m.tile]
    x = rules.layout.shows(s.ends, m.end)
    if not total or not is_matador(a, b, total):
        return ""
    shown = shown_after(a, b, x, total, m.leaves)
    if a + b - shown + x == total:  # its touching half makes N+1: laid as any tile
        return ""
    return (f", a matador, wild on any end and either way round (its {shown} now "
            "shows)")


def _fits(rules: RuleBook, s: State, player: int, tile: int) -> str:
    """Which open ends a tile fits, said in words ("fits the 5", "does not fit")."""
    if not s.led:
        return "fits"
    layout = rules.layout
    ends = [e for e in layout.targets(s.ends, player, s.marks)
            if rules.fits[layout.shows(s.ends, e)] >> tile & 1]
    if not ends:
        return "does not fit"
    data = layout.data
    if data.width > 2 and not data.symmetric:  # slots named as they lie (trains)
        return "fits " + " and ".join(f"{data.slots[e].name} ({layout.shows(s.ends, e)})"
                                      for e in ends)
    return "fits the " + " and the ".join(str(layout.shows(s.ends, e)) for e in ends)


def _last_double(rules: RuleBook, s: State, player: int) -> str:
    """R2.2 (out_on_double = "covered"): why a player whose last tile fits an end does not
    play it -- a double that would wait there to be covered cannot end the round."""
    hand, lay = s.hands[player], rules.layout
    if (not s.led or not lay.data.cover_out or not hand or hand & (hand - 1)
            or rules.playable_mask(s, player)):
        return ""
    t = hand.bit_length() - 1
    if not any(lay.shows(s.ends, e) in rules.halves[t]
               for e in lay.targets(s.ends, player, s.marks)):
        return ""
    return (f" (their last tile, {Tile.from_index(t).show()}, is a double that must be "
            "covered: it cannot end the round, R2.2)")


def _scored(s: State, p: int, after: State) -> str:
    """R5.7: what a play scored, where plays score: the ends' count when it is a
    multiple of 5 (nothing said otherwise)."""
    if not after.points or after.points[p] == s.points[p]:
        return ""
    return (f"; the ends count {count(after.ends, after.weights)}: P{p} scores "
            f"{after.points[p] - s.points[p]} (R5.7; {after.points[p]} in play)")


def _establish_text(rules: RuleBook, s: State, shown: str) -> str:
    """R4.4, with R2 and R3 checked on the state (said plainly when they fail)."""
    needed = rules.C
    proposer = s.proposer
    who = f" from P{proposer}" if proposer is not None else ""
    head = f"block established: {counted(needed, 'confirmation')} in succession{who}"
    ends = _numbers(rules.layout.numbers(s.ends))
    # R2 as the variant reads it (R2.3), as in Rules.ends_unplayable: a tile carrying
    # an end's number, or a legal play
    matching = (rules.matching_mask(s)
                if rules.constants.READING is ExtendReading.HOLDS_MATCHING_TILE else None)
    holders = []
    for p, hand in enumerate(s.hands):
        hit = hand & matching if matching is not None else rules.playable_mask(s, p)
        if hit:
            holders.append(f"P{p} holds {show_tiles(hit)}")
    parts = [head, f"ends {shown}"]
    if holders:
        parts.append("but " + "; ".join(holders) + " (R2 does not hold)")
    elif matching is not None and rules.layout.data.match_total:  # R2.1, Matador
        total = rules.layout.data.match_total
        need = sorted({total - x for x in rules.layout.numbers(s.ends) if 0 < x < total})
        parts.append("no hand holds " + (f"{_or_list(need)} or " if need else "")
                     + "a matador")
    elif matching is not None:
        parts.append(f"no hand holds {_or_list(ends)}")
    else:  # "has a legal move": where a hand matches an end nobody may play on yet
        # (another's train, a waiting arm, past a double to cover), the readings differ
        held = rules.matching_mask(s) & s.in_hands
        parts.append("no player has a legal move" + (
            f" (yet {show_tiles(held)} in hand "
            "matches an open end: the readings of R2.3 differ here)" if held else ""))
    parts.append(f"but {boneyard_text(s)} (R3 does not hold)" if s.boneyard
                 else "boneyard empty")
    text = ", ".join(parts)
    if not holders and not s.boneyard:
        text += " (R1.1 holds)"
    return text


def narrate(trace: Trace) -> list[Step]:
    """Every move of ``trace`` as a :class:`Step`; replays it with legality checks
    (raises :class:`~dominoproof.model.errors.TraceError` if it does not replay)."""
    variant = trace.variant
    rules = trace.rule_book  # the rule book the trace replays with (a fault's, for one)
    states = trace.states()
    told = _Told(trace)
    needed = rules.C
    steps: list[Step] = []
    for i, m in enumerate(trace.moves):
        s, after = states[i], states[i + 1]
        p = m.player
        k = m.kind
        rule, text = "Terms", str(m)
        shown_line: tuple[str, ...] = ()
        rows: tuple[ArmRow, ...] = ()
        hand: tuple[int, int] | None = None
        if k is MoveKind.PLAY:
            t = Tile.from_index(m.tile)
            shown_line, rows, where = told.play(i + 1, s, m, after)
            hand = (p, after.hands[p])
            if m.end == LEAD:
                dealt = any(h >> m.tile & 1 for h in trace.deal.hands)
                text = f"P{p} leads {t.show()} ({_lead_reason(variant, rules, s, m, dealt)})"
            else:
                text = f"P{p} plays {t.show()} on {where}" + _matador(rules, s, m)
                rule = "R2.1"
                if after.hands[p] and rules.layout.first_turn(after.marks):  # R2.3
                    rule = "R2.3"
                    text += (f": P{p}'s first turn goes on: another tile on their own "
                             "train, or end the turn")
                if s.confirmed:
                    rule = "R4.3"
                    text += (f": P{p} can play, so the block proposed by P{s.proposer} "
                             "was not real and play goes on")
            text += _scored(s, p, after)
        elif k is MoveKind.DRAW and not s.led:  # R3.6: a draw for the lead
            rule, hand = "R3.6", (p, after.hands[p])
            found = rules.opening(after.hands)[1] != DRAW_FOR_LEAD
            got = (f"{'it' if found else 'not it'}: P{after.turn} "
                   f"{'leads' if found else 'draws'} next")
            text = (f"nobody holds {_named(variant)}: P{p} draws "
                    f"{Tile.from_index(m.tile).show()} for the lead, {got} ({_left(after)})")
        elif k is MoveKind.DRAW:
            able = rules.playable_mask(s, p) != 0  # R3.5: a draw by a player who can play
            rule = "R3.5" if able else "R3.1"
            fits = _fits(rules, s, p, m.tile)
            text = (f"P{p} {'could play but' if able else 'cannot play and'} draws "
                    f"{Tile.from_index(m.tile).show()}, which {fits} ({_left(after)})"
                    + _last_double(rules, s, p))
            hand = (p, after.hands[p])
        elif k is MoveKind.PASS and rules.layout.first_turn(s.marks):
            rule = "R2.3"
            text = f"P{p} ends their first turn (no marker goes out)"
        elif k is MoveKind.PASS:
            rule = "R3.1"
            text = (f"P{p} passes: the drawn tile does not fit, and draw-one allows one draw "
                    f"a turn ({boneyard_text(s)})" + _last_double(rules, s, p))
            if after.confirmed:
                text += (f"; counts as confirmation {after.confirmed} of {needed}, "
                         f"proposed by P{after.proposer}")
        elif k is MoveKind.CONFIRM:
            if rules.is_false_confirmation(s, m):
                rule = "R4.5"
                held = " and ".join(
                    f"{Tile.from_index(x).show()} ({_fits(rules, s, p, x)})"
                    for x in bits(rules.playable_mask(s, p)))
                text = (f"FOUL: P{p} declares they cannot play but holds {held}: "
                        f"costs P{p} {variant.fouls.penalty} at scoring; "
                        "the run of confirmations starts again")
            elif after.confirmed == 1 and s.confirmed:  # restart_on_marker
                rule = "R4.4"
                text = (f"P{p} cannot play and puts their marker out, opening their train: "
                        f"the run starts again — 1 of {needed} in succession, "
                        f"{boneyard_text(s)}")
            elif after.confirmed == 1:
                rule = "R4.1"
                text = (f"P{p} cannot play and proposes the block — 1 of {needed} in "
                        f"succession, {boneyard_text(s)}")
            else:
                rule = "R4.2"
                text = (f"P{p} confirms they cannot play — {after.confirmed} of {needed} in "
                        f"succession, proposed by P{after.proposer}, {boneyard_text(s)}")
            if not rules.is_false_confirmation(s, m):
                text += _last_double(rules, s, p)
        elif k is MoveKind.ESTABLISH and not rules.block_ready(s):  # R4.7: a call
            rule = "R4.7"
            dead = sorted(x for x in rules.layout.numbers(s.ends)
                          if not rules.fits[x] & ~s.table)
            text = (f"P{p} calls the block: every tile of {' and '.join(map(str, dead))} "
                    "is on the table, so no tile can ever be laid on an end showing it; the "
                    f"round ends ({_left(s)})")
        elif k is MoveKind.ESTABLISH:
            rule = "R4.4"
            text = _establish_text(rules, s, told.ends_said(s))
        else:  # DOMINO
            text = f"P{p} dominoes: their hand is empty and the round ends"
        if k is not MoveKind.PLAY:
            rows = told.marks_changed(s, after)
        steps.append(Step(i + 1, rule, text, m, shown_line, hand, rows))
    return steps


class _Told:
    """The table as :func:`narrate` tells it: the one line (:class:`LineOfPlay`) or, for
    a layout of several lines, its arms (:class:`~dominoproof.render.arms.RoundArms`), one row
    an arm. A broken rule book (a fault) that leaves ends no layout has is said once."""

    def __init__(self, trace: Trace) -> None:
        self.variant = trace.variant
        self.several = trace.variant.slot_layout.width > 2
        self.line: LineOfPlay | None = None if self.several else LineOfPlay(
            trace.variant.slot_layout.match_total)
        self.arms: RoundArms | None = RoundArms(trace) if self.several else None
        self.layout = layout_of(trace.variant)

    def play(self, k: int, s: State, m: Move, after: State
             ) -> tuple[tuple[str, ...], tuple[ArmRow, ...], str]:
        """Move ``k``, a play: (the line after it, or the arms' rows, and where it went:
        ``the 5``, or ``train P1 (showing 2)``)."""
        t = Tile.from_index(m.tile)
        number = LEAD if m.end == LEAD else self.layout.shows(s.ends, m.end)
        where = f"the {number}"
        # R5.7: two ends show the number but count differently: which one is said
        apart = (m.end != LEAD and bool(s.weights) and len(s.open_ends) == 2
                 and s.ends[0] == s.ends[1] and s.weights[0] != s.weights[1])
        on_double = s.weights[m.end] == 2 if apart else None
        if apart:
            where += f" ({'the double' if on_double else 'not the double'} [{number}|{number}])"
        try:
            if self.line is not None:
                self.line.lay(t, number, on_double, m.leaves)
                return tuple(self.line.shown()) + self._waiting(after), (), where
            if self.arms is not None:
                self.arms.move(k, s, m, after)
                if not self.arms.arms.agrees(self.layout, after):
                    raise ValueError("the arms do not show the state's ends")
                arm = self.arms.last
                if arm is not None and arm >= 0:
                    where = f"{self.variant.slot_layout.slots[arm].name} (showing {number})"
                return (), self.rows(after), where
        except ValueError:  # a broken rule book (a fault) leaves ends no line has
            ends = " and ".join(map(str, after.open_ends))
            if self.line is not None:  # said under "line", as the line would be
                self.line = None
                return (f"(the rule book leaves ends {ends}: no line has them)",), (), where
            self.arms = None  # said under "table", as the arms would be: no line here
            return (), (ArmRow("table", (), f"(the rule book leaves ends {ends}: no "
                                f"layout has them)"),), where
        return (), (), where

    def _waiting(self, s: State) -> tuple[str, ...]:
        """On the one line, the end a double leaves to be covered (R2.2), said after it."""
        pending = self.layout.pending(s.marks)
        shown = sorted({s.ends[i] for i in range(self.layout.width) if pending >> i & 1})
        return (f" (the {' and the '.join(map(str, shown))} must be covered first, R2.2)",
                ) if shown else ()

    def rows(self, s: State) -> tuple[ArmRow, ...]:
        if self.arms is None:
            return ()
        return table_rows(self.arms.arms, s.marks, self.variant.players)

    def marks_changed(self, s: State, after: State) -> tuple[ArmRow, ...]:
        """The arms' rows again after a move that is no play but changes what they say
        (a marker put out by a pass or a confirmation)."""
        return self.rows(after) if s.marks != after.marks else ()

    def ends_said(self, s: State) -> str:
        """The open ends as the table shows them: the line's left and right, or each
        arm's name and number."""
        if self.line is not None and self.line.ends is not None:
            return " and ".join(str(e) for e in self.line.ends)
        if self.arms is not None and self.arms.arms.lead is not None:
            arms = self.arms.arms
            return ", ".join(f"{sl.name} {arms.ends[i]}"
                             for i, sl in enumerate(arms.data.slots)
                             if arms.ends[i] is not None)
        return " and ".join(str(e) for e in s.open_ends)


