"""Text rendering of a round, for people (``dominoproof play`` and ``replay``).

A round is told the way it happens at a table: the deal, then every move
numbered and tagged with the rule that allows it, the line of play as it lies
on the table, the mover's hand, each confirmation of the R4 procedure as it is
made, fouls (R4.5), the establishment of the block (R4.4) or the domino, and
the scoring table (R5).

The state keeps only the canonical open ends (left/right order is cosmetic,
STYLE 1), so the line as a person sees it is rebuilt from the moves by
:class:`LineOfPlay`. A layout of several lines (a spinner, trains, a chicken foot) is
rebuilt the same way by :class:`dominoproof.render.arms.RoundArms` and told one arm a row
(:func:`table_rows`): its name and owner, its tiles from the centre outwards, the
number it shows, and what the slot data makes of it (a marker out, a side not yet
covered, a double to cover, the double a toe grows from). :func:`narrate` turns a
trace into :class:`Step` values (pure, tested on their own); :func:`render_round`
lays them out as text of at most :func:`~dominoproof.options.width` columns: the
terminal's width, or :data:`~dominoproof.options.WIDTH` when piped (identical
everywhere).
"""

from __future__ import annotations

import io
from collections.abc import Container, Sequence

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from dominoproof.model.engine import Trace
from dominoproof.model.outcome import Outcome, residual
from dominoproof.model.state import Ending, State
from dominoproof.model.tiles import Tile, tiles_of
from dominoproof.model.variant import (
    Award,
    AwardUnit,
    BlockCall,
    BlockWinner,
    Compare,
    DrawRule,
    DrawWhen,
    FoulRule,
    LeadFallback,
    LeadRule,
    Variant,
)
from dominoproof.options import counted, width, wrap
from dominoproof.render.arms import follow
from dominoproof.render.narrate import ArmRow, Step, boneyard_text, narrate, table_rows

__all__ = [
    "estimate_text",
    "figure",
    "final_table",
    "hand_lines",
    "pack",
    "render_round",
    "rows_text",
    "side_name",
    "simple_table",
    "table_text",
    "variant_summary",
]

_NUM_W = 5  # "  12." right-aligned move number
_TAG_W = 7  # "Terms  " / "R4.2   "
_INDENT = " " * (_NUM_W + 2 + _TAG_W)


def final_table(trace: Trace, states: Sequence[State] | None = None,
                indent: str = "  ") -> list[str]:
    """The table after the last move of ``trace``, one arm a row (:func:`table_rows`)
    under ``the table:``, for a layout of several lines (the one line: nothing, its ends
    are said by number); a rule book that leaves ends no layout has is said, not drawn.
    ``states``: the round's states when the engine does not replay it (a Z3 run's
    decoded states). What ``play`` and ``replay`` draw after each play, drawn once where
    a command shows a round's last state (explore, prove, witness)."""
    if trace.variant.slot_layout.width <= 2:
        return []
    try:
        built, state = follow(trace, states=states)
    except ValueError as e:
        return [f"{indent}the table cannot be drawn: {e}"]
    rows = table_rows(built.arms, state.marks, trace.variant.players)
    return [f"{indent}the table:", *rows_text(rows, indent + "  ")] if rows else []


def side_name(side: Sequence[int]) -> str:
    """``P1`` for one seat, ``P0+P2`` for a team."""
    return "+".join(f"P{p}" for p in side)


# ---------------------------------------------------------------------------
# Layout of the text
# ---------------------------------------------------------------------------


def _wrap(text: str, first: str, rest: str) -> list[str]:
    return wrap(text, width(), first, rest) or [first.rstrip()]


def pack(label: str, pieces: Sequence[str], indent: str, suffix: str = "") -> list[str]:
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


def rows_text(rows: Sequence[ArmRow], indent: str) -> list[str]:
    """A layout of several lines, one arm a row: the name in a column of its own, the
    tiles packed after it, and what the row says after the tiles when it fits there,
    else on lines of its own under the tiles (at most :func:`width` columns)."""
    w = max(len(r.name) for r in rows) + 2
    out: list[str] = []
    for r in rows:
        lines = pack(r.name.ljust(w), list(r.tiles), indent)
        if r.note:
            under = " " * (len(indent) + w)
            gap = "  " if r.tiles else ""
            if len(lines[-1]) + len(gap) + len(r.note) <= width():
                lines[-1] += gap + r.note
            else:
                lines += _wrap(r.note, under, under)
        out += [line.rstrip() for line in lines]
    return out


def table_text(table: Table, indent: int = 0) -> str:
    """A rich table as plain text, no colour, fitting :func:`width` columns once indented
    by ``indent``."""
    buf = io.StringIO()
    Console(file=buf, width=max(1, width() - indent), color_system=None, force_terminal=False,
            no_color=True, highlight=False, emoji=False, legacy_windows=False).print(table)
    return "\n".join(line.rstrip() for line in buf.getvalue().splitlines())


def hand_lines(variant: Variant, seat: int, hand: int, indent: str, width: int = 5) -> list[str]:
    """A hand's tiles after ``P<seat>`` (padded to ``width``), packed into lines of at
    most :func:`width` columns, with how many tiles and pips; or ``(empty hand)``."""
    if not hand:
        return [f"{indent}{f'P{seat}'.ljust(width)}(empty hand)"]
    pieces = [t.show() for t in tiles_of(hand)]
    return pack(f"P{seat}".ljust(width), pieces, indent,
                 f"({counted(hand.bit_count(), 'tile')}, {residual(variant, hand)} pips)")


def variant_summary(variant: Variant) -> str:
    """The rule parameters that shape a round, in one sentence."""
    lead = variant.lead
    if lead.rule is LeadRule.PLAYER:
        lead_text = f"P{lead.player} leads"
    else:
        named = (f"{Tile.parse(lead.tile).show()} leads" if lead.rule is LeadRule.TILE
                 else "highest double leads")
        lead_text = f"{named}, else " + (
            f"the players draw for it from P{lead.player} (R3.6)"
            if lead.fallback is LeadFallback.DRAW else lead.fallback.value)
    bits_ = [
        f"double-{variant.n} ({variant.tiles.count} tiles)",
        f"{variant.players} players x {variant.deal.hand_size}",
        f"{variant.boneyard_size} in the boneyard",
        f"{variant.deal.set_aside} set aside",
        f"draw: {variant.draw.rule.value}"
        + (", any time (R3.5)" if variant.draw.when is DrawWhen.ANY_TIME else ""),
        f"lead: {lead_text}"
        + ("; a double that must be covered is no one's last tile (R2.2)"
           if variant.slot_layout.cover_out else "")
        + ("; a first turn lays tile after tile on one's own train (R2.3)"
           if variant.slot_layout.first_turn else ""),
        f"block: {counted(variant.needed_confirmations, 'confirmation')} in succession"
        + (" with the boneyard empty" if variant.block.boneyard_must_be_empty else "")
        + (", one that puts a marker out starting the run again"
           if variant.block.restart_on_marker and variant.slot_layout.markers else "")
        + ("; or called at a dead end (R4.7)"
           if variant.block.call is BlockCall.DEAD_END else ""),
        f"fouls: {variant.fouls.rule.value}"
        + (f" ({variant.fouls.penalty} points)" if variant.fouls.rule is FoulRule.PENALISED
           else ""),
        f"block award: {variant.scoring.block_award.value}"
        + (f" in {variant.scoring.award_unit.value}"
           if variant.scoring.award_unit is not AwardUnit.PIPS else "")
        + ("; a block is won by the fewest tiles"
           if variant.scoring.block_winner is not BlockWinner.FEWEST_PIPS else ""),
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
    team_of = {seat: side_name(team) for team in v.partnerships.teams for seat in team}
    for p, hand in enumerate(deal.hands):
        lines = hand_lines(v, p, hand, "  ")
        if p in team_of:
            lines[-1] += f"  team {team_of[p]}"
        out += lines
    if v.draw.rule is not DrawRule.NONE or deal.stack:
        stack = [Tile.from_index(t).show() for t in deal.stack]
        order = "any order (free draw)" if trace.free_draw else "draw order, top first"
        if stack:
            out += pack("boneyard  ", stack, "  ", f"({counted(len(stack), 'tile')}, {order})")
        else:
            out.append("  boneyard  empty")
    if deal.set_aside:
        out += pack("set aside ", [t.show() for t in tiles_of(deal.set_aside)], "  ",
                     f"({counted(deal.set_aside.bit_count(), 'tile')}, never drawn)")
    return out


def _steps_text(trace: Trace, steps: Sequence[Step]) -> list[str]:
    out = ["", "Moves"]
    for st in steps:
        first = f"{st.number:>{_NUM_W}}. {st.rule:<{_TAG_W}}"
        out += _wrap(st.text, first, _INDENT)
        if st.line:
            out += pack("line  ", st.line, _INDENT)
        if st.table:
            out += rows_text(st.table, _INDENT)
        if st.hand is not None:
            seat, hand = st.hand
            out += hand_lines(trace.variant, seat, hand, _INDENT, width=6)
    return out


def figure(x: float | None, probability: bool = False) -> str:
    """A figure as every command shows it: a probability as a percentage with two
    decimals (``7.05%``), any other figure (a mean of pips, of moves) with two decimals;
    ``-`` when undefined (a figure given a block, where no round blocks)."""
    if x is None:
        return "-"
    return f"{100 * x:.2f}%" if probability else f"{x:.2f}"


def estimate_text(value: float | None, low: float | None, high: float | None,
                  probability: bool = False) -> str:
    """A figure and its 95% interval, ``7.05% [6.01%, 8.26%]``, in :func:`figure`'s
    format (the figure alone when it is exact or has no interval)."""
    if value is None or low is None or high is None:
        return figure(value, probability)
    return (f"{figure(value, probability)} [{figure(low, probability)}, "
            f"{figure(high, probability)}]")


def simple_table(*columns: str, right: Container[int] = ()) -> Table:
    """The plain table every text report draws: a rule under the header, no edges; a
    column per name in ``columns``, none wrapped, justified right where its index is in
    ``right`` (a caller adds columns of other kinds after them)."""
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for i, c in enumerate(columns):
        t.add_column(c, justify="right" if i in right else "left", no_wrap=True)
    return t


def figures_table(*columns: str) -> Table:
    """A table of figures: the first column left, the others right, none wrapped."""
    return simple_table(*columns, right=range(1, len(columns)))


def counts_against(variant: Variant, res: Outcome) -> bool:
    """Whether the round was scored under award "nothing" (R5.4, as in Mexican Train):
    no pips change hands, and what counts is each side's own pips against it."""
    rule = (variant.scoring.block_award if res.termination is Ending.BLOCKED
            else variant.scoring.domino_award)
    return rule is Award.NOTHING


def score_table(variant: Variant, final: State, res: Outcome) -> Table:
    """R5: one row per seat (and a total row per team when teams are compared): tiles left,
    residual, award, foul penalty, points in play (where plays score, R5.7), score,
    result. The side/team column appears when the variant has teams (otherwise every
    seat is its own side). Under award "nothing" (:func:`counts_against`) the award is 0
    for everyone and the score column is what counts instead, and says so: each side's
    own pips (its residual) and foul penalties, against it."""
    table = simple_table("seat")
    teams = bool(variant.partnerships.teams)
    if teams:
        table.add_column("side / team", no_wrap=True)
    table.add_column("tiles left", overflow="fold", ratio=1)
    # R5.2a and R5.4's unit: where a block counts tiles, or the awards do, the table says
    # which figure is which; otherwise it is as it always was
    by_tiles = res.winner_by is BlockWinner.FEWEST_TILES
    counted = by_tiles or res.unit is AwardUnit.TILES
    names = (["tiles\nR5.2a" if by_tiles else "tiles\nR5.4"] if counted else []) + [
        "residual\n(pips) R5.3" if counted else "residual\nR5.3",
        f"award\n({res.unit.value}) R5.4/5" if counted else "award\nR5.4/R5.5",
        "foul penalty\nR4.5"] + (["in play\nR5.7"] if res.points else [])
    against = counts_against(variant, res)
    names.append("score: own pips\nagainst (R5.3+R4.5)" if against else "score")
    for name in names:
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("result", no_wrap=True)
    team_of = {p: side_name(t) for t in variant.partnerships.teams for p in t}

    def result(i: int) -> str:
        if i in res.winners:
            return "wins" if len(res.winners) == 1 else "wins (tie)"
        return "tied" if i in res.tied else ""

    def score(i: int) -> str:
        """Side ``i``'s score: its award less its penalties, or under award "nothing"
        its own pips and penalties, against it."""
        if against:
            return str(res.totals[i] + sum(res.penalties[p] for p in res.sides[i]))
        return str(res.scores[i])

    def row(*cells: str, count: str = "", end_section: bool = False, pts: str = "") -> None:
        # R5.7: the points scored in play, before the score that adds them
        cells = cells[:6] + ((pts,) if res.points else ()) + cells[6:]
        cells = cells[:3] + ((count,) if counted else ()) + cells[3:]
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
                score(i) if single else "", result(i) if single else "",
                count=str(final.hands[p].bit_count()),
                pts=str(final.points[p]) if final.points else "")
        if not single:
            row("", side_name(side), "team total", str(res.totals[i]), str(res.awards[i]),
                str(sum(res.penalties[p] for p in side)), score(i), result(i),
                count=str(sum(final.hands[p].bit_count() for p in side)),
                end_section=i < last, pts=str(res.points[i]) if res.points else "")
    return table


def _result_text(trace: Trace) -> list[str]:
    v = trace.variant
    final = trace.final
    res = trace.outcome
    out = ["", "Result"]
    if res is None:
        ends = " and ".join(map(str, final.open_ends)) or "none yet"
        out += _wrap(f"the round is not over: the trace stops before its end (open ends "
                     f"{ends}, P{final.turn} to move, {boneyard_text(final)})", "  ", "    ")
        for p, hand in enumerate(final.hands):
            out += hand_lines(v, p, hand, "  ")
        return out
    term = "blocked (R1.1, R4.4; scored by R5.2-R5.5)" if res.termination is Ending.BLOCKED \
        else "domino (a hand emptied)"
    if res.termination is Ending.BLOCKED and not trace.rule_book.block_ready(final):
        term = "blocked, called at a dead end (R4.7; scored by R5.2-R5.5)"
    out.append(f"  ended: {term}")
    if v.partnerships.compare is Compare.TEAM:
        out.append("  sides are teams: their totals are compared (R5.2)")
    out.append("")
    out += ["  " + line if line else "" for line in table_text(
        score_table(v, final, res), indent=2).splitlines()]
    out.append("")
    out += _wrap(res.explanation, "  ", "    ")
    if counts_against(v, res):
        out += _wrap('award "nothing" (R5.4): no pips change hands; each player\'s own '
                     "pips left in hand (and foul penalties) count against them, so the "
                     "lowest score is best", "  ", "    ")
    return out


def render_round(trace: Trace, title: str | None = None) -> str:
    """The whole round as text: header and deal, the numbered moves, the result."""
    seed = f" (seed {trace.seed})" if trace.seed is not None else ""
    title = title or f"Round of {trace.variant.name}{seed}"
    steps = narrate(trace)
    lines = _header(trace, title) + _steps_text(trace, steps) + _result_text(trace)
    return "\n".join(lines) + "\n"
