"""Text rendering of a round, for people (``dominoproof play`` and ``replay``).

A round is told the way it happens at a table: the deal, then every move
numbered and tagged with the rule that allows it, the line of play as it lies
on the table, the mover's hand, each confirmation of the R4 procedure as it is
made, fouls (R4.5), the establishment of the block (R4.4) or the domino, and
the scoring table (R5).

The state keeps only the canonical open ends (left/right order is cosmetic,
STYLE 1), so the line as a person sees it is rebuilt from the moves by
:class:`LineOfPlay`. :func:`narrate` turns a trace into :class:`Step` values
(pure, tested on their own); :func:`render_round` lays them out as text of at
most :func:`~dominoproof.options.width` columns: the terminal's width, or
:data:`~dominoproof.options.WIDTH` when piped (identical everywhere).
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from dominoproof.model.engine import Trace
from dominoproof.model.moves import LEAD, Move, MoveKind
from dominoproof.model.outcome import Outcome, residual
from dominoproof.model.rules import Rules
from dominoproof.model.state import Ending, State
from dominoproof.model.tiles import Tile, bits, tiles_of
from dominoproof.model.variant import (
    Compare,
    DrawRule,
    ExtendReading,
    FoulRule,
    LeadFallback,
    LeadRule,
    Variant,
)
from dominoproof.options import width

__all__ = [
    "LineOfPlay",
    "Step",
    "narrate",
    "render_round",
    "side_name",
    "table_text",
    "variant_summary",
]

_NUM_W = 5  # "  12." right-aligned move number
_TAG_W = 7  # "Terms  " / "R4.2   "
_INDENT = " " * (_NUM_W + 2 + _TAG_W)


# ---------------------------------------------------------------------------
# The line of play, left to right
# ---------------------------------------------------------------------------


class LineOfPlay:
    """The one line as it lies on the table: oriented tiles, left to right.

    A tile laid on the end showing ``e`` goes to the left end if the left end
    shows ``e``, else to the right end, turned so that its ``e`` half touches
    the line. The opening tile lies as printed, ``[lo|hi]``.
    """

    def __init__(self) -> None:
        self.tiles: list[tuple[int, int]] = []  #: (left half, right half), left to right

    @property
    def ends(self) -> tuple[int, int] | None:
        """(left end, right end), or ``None`` before the lead."""
        if not self.tiles:
            return None
        return self.tiles[0][0], self.tiles[-1][1]

    def lay(self, tile: Tile, end: int) -> None:
        """Lay ``tile`` on the end showing ``end`` (:data:`LEAD` for the opening)."""
        if end == LEAD:
            if self.tiles:
                raise ValueError("the line is already open")
            self.tiles.append((tile.lo, tile.hi))
            return
        if not self.tiles:
            raise ValueError("no open end before the lead")
        left, right = self.tiles[0][0], self.tiles[-1][1]
        other = tile.other(end)  # raises ValueError if the tile has no such half
        if left == end:
            self.tiles.insert(0, (other, end))
        elif right == end:
            self.tiles.append((end, other))
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


def side_name(side: Sequence[int]) -> str:
    """``P1`` for one seat, ``P0+P2`` for a team."""
    return "+".join(f"P{p}" for p in side)


def _numbers(values: Iterable[int]) -> list[int]:
    return sorted(set(values))


def _or_list(xs: Sequence[object]) -> str:
    words = [f"a {x}" for x in xs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _tiles_word(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


def _boneyard(s: State) -> str:
    n = s.boneyard.bit_count()
    return "boneyard empty" if n == 0 else f"{_tiles_word(n)} in the boneyard"


def _left(s: State) -> str:
    n = s.boneyard.bit_count()
    return "boneyard now empty" if n == 0 else f"{n} left in the boneyard"


def _lead_reason(variant: Variant, rules: Rules, s: State, m: Move) -> str:
    """Why this player leads with this tile (Terms: the lead rule and its fallback)."""
    lead = variant.lead
    _, forced = rules.opening(s.hands)
    if lead.rule is LeadRule.PLAYER:
        return f'lead rule "player": P{lead.player} leads with any tile'
    if lead.rule is LeadRule.TILE and forced == variant.lead_tile_index:
        return f'lead rule "tile": the holder of {Tile.parse(lead.tile).show()} leads with it'
    if lead.rule is LeadRule.HIGHEST_DOUBLE and forced is not None and \
            Tile.from_index(forced).is_double:
        return 'lead rule "highest-double": the highest double held leads'
    named = (Tile.parse(lead.tile).show() if lead.rule is LeadRule.TILE
             else "a double")
    fb = lead.fallback
    if fb is LeadFallback.PLAYER:
        how = f"P{lead.player} leads with any tile"
    elif fb is LeadFallback.HIGHEST_DOUBLE and Tile.from_index(m.tile).is_double:
        how = "the highest double held leads"
    else:
        how = "the heaviest tile held leads"
    return f"nobody holds {named}; fallback: {how}"


def _fits(rules: Rules, s: State, player: int, tile: int) -> str:
    """Which open ends a tile fits, said in words ("fits the 5", "does not fit")."""
    if not s.led:
        return "fits"
    a, b = Tile.from_index(tile)
    ends = [e for e in rules.layout.targets(s.ends, player, s.marks)
            if rules.layout.shows(s.ends, e) in (a, b)]
    if not ends:
        return "does not fit"
    return "fits the " + " and the ".join(str(rules.layout.shows(s.ends, e)) for e in ends)


def _establish_text(rules: Rules, s: State, line: LineOfPlay) -> str:
    """R4.4, with R2 and R3 checked on the state (said plainly when they fail)."""
    needed = rules.C
    proposer = s.proposer
    who = f" from P{proposer}" if proposer is not None else ""
    head = (f"block established: {needed} confirmation{'s' if needed != 1 else ''} "
            f"in succession{who}")
    ends = _numbers(rules.layout.numbers(s.ends))
    seen = line.ends if line.ends is not None else s.open_ends
    shown = " and ".join(str(e) for e in seen)
    # R2 as the variant reads it (R2.3), as in Rules.ends_unplayable: a tile carrying
    # an end's number, or a legal play
    matching = (rules.matching_mask(s)
                if rules.constants.READING is ExtendReading.HOLDS_MATCHING_TILE else None)
    holders = []
    for p, hand in enumerate(s.hands):
        hit = hand & matching if matching is not None else rules.playable_mask(s, p)
        if hit:
            holders.append(f"P{p} holds " + "".join(Tile.from_index(t).show() for t in bits(hit)))
    parts = [head, f"ends {shown}"]
    if holders:
        parts.append("but " + "; ".join(holders) + " (R2 does not hold)")
    else:
        parts.append(f"no hand holds {_or_list(ends)}")
    if s.boneyard:
        parts.append(f"but {_boneyard(s)} (R3 does not hold)")
    else:
        parts.append("boneyard empty")
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
    line: LineOfPlay | None = LineOfPlay()
    needed = rules.C
    steps: list[Step] = []
    for i, m in enumerate(trace.moves):
        s, after = states[i], states[i + 1]
        p = m.player
        k = m.kind
        rule, text = "Terms", str(m)
        shown_line: tuple[str, ...] = ()
        hand: tuple[int, int] | None = None
        if k is MoveKind.PLAY:
            t = Tile.from_index(m.tile)
            number = LEAD if m.end == LEAD else rules.layout.shows(s.ends, m.end)
            try:
                if line is not None:
                    line.lay(t, number)
                    shown_line = tuple(line.shown())
            except ValueError:  # a broken rule book (a fault) leaves ends no line has
                line = None
                ends = " and ".join(map(str, after.open_ends))
                shown_line = (f"(the rule book leaves ends {ends}: no line has them)",)
            hand = (p, after.hands[p])
            if m.end == LEAD:
                text = f"P{p} leads {t.show()} ({_lead_reason(variant, rules, s, m)})"
            else:
                text = f"P{p} plays {t.show()} on the {number}"
                rule = "R2.1"
                if s.confirmed:
                    rule = "R4.3"
                    text += (f": P{p} can play, so the block proposed by P{s.proposer} "
                             "was not real and play goes on")
        elif k is MoveKind.DRAW:
            rule = "R3.1"
            fits = _fits(rules, s, p, m.tile)
            text = (f"P{p} cannot play and draws {Tile.from_index(m.tile).show()}, which "
                    f"{fits} ({_left(after)})")
            hand = (p, after.hands[p])
        elif k is MoveKind.PASS:
            rule = "R3.1"
            text = (f"P{p} passes: the drawn tile does not fit, and draw-one allows one draw "
                    f"a turn ({_boneyard(s)})")
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
            elif after.confirmed == 1:
                rule = "R4.1"
                text = (f"P{p} cannot play and proposes the block — 1 of {needed} in "
                        f"succession, {_boneyard(s)}")
            else:
                rule = "R4.2"
                text = (f"P{p} confirms they cannot play — {after.confirmed} of {needed} in "
                        f"succession, proposed by P{after.proposer}, {_boneyard(s)}")
        elif k is MoveKind.ESTABLISH:
            rule = "R4.4"
            text = _establish_text(rules, s, line if line is not None else LineOfPlay())
        else:  # DOMINO
            text = f"P{p} dominoes: their hand is empty and the round ends"
        steps.append(Step(i + 1, rule, text, m, shown_line, hand))
    return steps


# ---------------------------------------------------------------------------
# Layout of the text
# ---------------------------------------------------------------------------


def _wrap(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(text, width(), initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False) or [first.rstrip()]


def _pack(label: str, pieces: Sequence[str], indent: str, suffix: str = "") -> list[str]:
    """``indent + label`` then the pieces (tiles) packed into lines of at most :func:`width`."""
    head = indent + label
    cont = " " * len(head)
    lines: list[str] = []
    cur = head
    cols = width()
    for piece in pieces:
        if len(cur) + len(piece) > cols and cur.strip() != label.strip():
            lines.append(cur)
            cur = cont
        cur += piece
    if suffix:
        if len(cur) + 1 + len(suffix) > cols:
            lines.append(cur)
            cur = cont
            cur += suffix
        else:
            cur += " " + suffix
    lines.append(cur)
    return lines


def table_text(table: Table, indent: int = 0) -> str:
    """A rich table as plain text, no colour, fitting :func:`width` columns once indented
    by ``indent``."""
    buf = io.StringIO()
    Console(file=buf, width=max(1, width() - indent), color_system=None, force_terminal=False,
            no_color=True, highlight=False, emoji=False, legacy_windows=False).print(table)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines())


def _hand_line(variant: Variant, seat: int, hand: int, indent: str, width: int = 5) -> list[str]:
    if not hand:
        return [f"{indent}{f'P{seat}'.ljust(width)}(empty hand)"]
    pieces = [t.show() for t in tiles_of(hand)]
    return _pack(f"P{seat}".ljust(width), pieces, indent,
                 f"({_tiles_word(hand.bit_count())}, {residual(variant, hand)} pips)")


def variant_summary(variant: Variant) -> str:
    """The rule parameters that shape a round, in one sentence."""
    lead = variant.lead
    if lead.rule is LeadRule.PLAYER:
        lead_text = f"P{lead.player} leads"
    elif lead.rule is LeadRule.TILE:
        lead_text = f"{Tile.parse(lead.tile).show()} leads, else {lead.fallback.value}"
    else:
        lead_text = f"highest double leads, else {lead.fallback.value}"
    bits_ = [
        f"double-{variant.n} ({variant.tiles.count} tiles)",
        f"{variant.players} players x {variant.deal.hand_size}",
        f"{variant.boneyard_size} in the boneyard",
        f"{variant.deal.set_aside} set aside",
        f"draw: {variant.draw.rule.value}",
        f"lead: {lead_text}",
        f"block: {variant.needed_confirmations} confirmations in succession"
        + (" with the boneyard empty" if variant.block.boneyard_must_be_empty else ""),
        f"fouls: {variant.fouls.rule.value}"
        + (f" ({variant.fouls.penalty} points)" if variant.fouls.rule is FoulRule.PENALISED
           else ""),
        f"block award: {variant.scoring.block_award.value}",
        f"tie: {variant.scoring.tie.value}",
    ]
    if variant.partnerships.teams:
        teams = ", ".join(side_name(t) for t in variant.partnerships.teams)
        bits_.append(f"teams {teams} compare {variant.partnerships.compare.value}")
    return "; ".join(bits_)


def _header(trace: Trace, title: str) -> list[str]:
    v = trace.variant
    out = [title]
    if v.description:
        out += _wrap(v.description, "  ", "  ")
    out += _wrap(variant_summary(v), "  rules: ", "         ")
    out.append("")
    out.append("Deal")
    deal = trace.deal
    team_of = {}
    if v.partnerships.teams:
        for team in v.partnerships.teams:
            for seat in team:
                team_of[seat] = side_name(team)
    for p, hand in enumerate(deal.hands):
        lines = _hand_line(v, p, hand, "  ")
        if p in team_of:
            lines[-1] += f"  team {team_of[p]}"
        out += lines
    if v.draw.rule is not DrawRule.NONE or deal.stack:
        stack = [Tile.from_index(t).show() for t in deal.stack]
        order = "any order (free draw)" if trace.free_draw else "draw order, top first"
        if stack:
            out += _pack("boneyard  ", stack, "  ", f"({_tiles_word(len(stack))}, {order})")
        else:
            out.append("  boneyard  empty")
    if deal.set_aside:
        out += _pack("set aside ", [t.show() for t in tiles_of(deal.set_aside)], "  ",
                     f"({_tiles_word(deal.set_aside.bit_count())}, never drawn)")
    return out


def _steps_text(trace: Trace, steps: Sequence[Step]) -> list[str]:
    out = ["", "Moves"]
    for st in steps:
        first = f"{st.number:>{_NUM_W}}. {st.rule:<{_TAG_W}}"
        out += _wrap(st.text, first, _INDENT)
        if st.line:
            out += _pack("line  ", st.line, _INDENT)
        if st.hand is not None:
            seat, hand = st.hand
            out += _hand_line(trace.variant, seat, hand, _INDENT, width=6)
    return out


def score_table(variant: Variant, final: State, res: Outcome) -> Table:
    """R5: one row per seat (and a total row per team when teams are compared):
    tiles left, residual, award, foul penalty, score, result. The side/team column
    appears when the variant has teams (otherwise every seat is its own side)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    teams = bool(variant.partnerships.teams)
    table.add_column("seat", no_wrap=True)
    if teams:
        table.add_column("side / team", no_wrap=True)
    table.add_column("tiles left", overflow="fold", ratio=1)
    for name in ("residual\nR5.3", "award\nR5.4/R5.5", "foul penalty\nR4.5", "score"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("result", no_wrap=True)
    team_of = {p: side_name(t) for t in variant.partnerships.teams for p in t}

    def result(i: int) -> str:
        if i in res.winners:
            return "wins" if len(res.winners) == 1 else "wins (tie)"
        return "tied" if i in res.tied else ""

    def row(*cells: str, end_section: bool = False) -> None:
        texts = [Text(c) for c in (cells if teams else cells[:1] + cells[2:])]
        table.add_row(*texts, end_section=end_section)

    last = len(res.sides) - 1
    for i, side in enumerate(res.sides):
        single = len(side) == 1
        for p in side:
            name = side_name(side)
            if single and p in team_of:
                name += f" (team {team_of[p]})"
            tiles = " ".join(t.show() for t in tiles_of(final.hands[p])) or "(empty)"
            row(f"P{p}", name, tiles, str(res.residuals[p]),
                str(res.awards[i]) if single else "", str(res.penalties[p]),
                str(res.scores[i]) if single else "", result(i) if single else "")
        if not single:
            row("", side_name(side), "team total", str(res.totals[i]), str(res.awards[i]),
                str(sum(res.penalties[p] for p in side)), str(res.scores[i]), result(i),
                end_section=i < last)
    return table


def _result_text(trace: Trace) -> list[str]:
    v = trace.variant
    final = trace.final
    res = trace.outcome
    out = ["", "Result"]
    if res is None:
        ends = " and ".join(map(str, final.open_ends)) or "none yet"
        out.append(f"  the round is not over: the trace stops before its end (open ends "
                   f"{ends}, P{final.turn} to move, {_boneyard(final)})")
        for p, hand in enumerate(final.hands):
            out += _hand_line(v, p, hand, "  ")
        return out
    term = "blocked (R1.1, R4.4; scored by R5.2-R5.5)" if res.termination is Ending.BLOCKED \
        else "domino (a hand emptied)"
    out.append(f"  ended: {term}")
    if v.partnerships.compare is Compare.TEAM:
        out.append("  sides are teams: their totals are compared (R5.2)")
    out.append("")
    out += ["  " + line if line else "" for line in table_text(
        score_table(v, final, res), indent=2).splitlines()]
    out.append("")
    out += _wrap(res.explanation, "  ", "    ")
    return out


def render_round(trace: Trace, title: str | None = None) -> str:
    """The whole round as text: header and deal, the numbered moves, the result."""
    seed = f" (seed {trace.seed})" if trace.seed is not None else ""
    title = title or f"Round of {trace.variant.name}{seed}"
    steps = narrate(trace)
    lines = _header(trace, title) + _steps_text(trace, steps) + _result_text(trace)
    return "\n".join(lines) + "\n"
