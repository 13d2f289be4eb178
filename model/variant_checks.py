"""The checks of a variant's value: what makes it invalid, and what has no effect.

:func:`validate` raises a :class:`~dominoproof.model.errors.VariantError` naming the
key, the value and what is allowed; :func:`warnings` lists parameters accepted but
voided by another (each warning names both keys). The loader
(:func:`~dominoproof.model.variant.load_variant_data`) runs both on every variant.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import VariantError, one_line
from .params import (
    Award,
    AwardUnit,
    BlockCall,
    Compare,
    DrawRule,
    DrawWhen,
    FirstTurn,
    FoulRule,
    InPlay,
    LayoutKind,
    LeadFallback,
    LeadRule,
    Match,
    OpenTrains,
    OutOnDouble,
    PublicTrain,
    TieRule,
)
from .tiles import Tile, tile_count

if TYPE_CHECKING:
    from .variant import Variant

__all__ = ["validate", "warnings"]


def validate(v: Variant) -> None:
    """Cross-field validation: every message names the key, the value and what is allowed."""
    src = v.source
    n, players, hand = v.set.max, v.deal.players, v.deal.hand_size
    count = tile_count(n)
    if v.dealt > count:
        raise VariantError(
            f"a deal of {players} x {hand} tiles needs {v.dealt} tiles; "
            f"the double-{n} set has {count}",
            source=src, key="[deal] hand_size", value=hand, allowed=f"1..{count // players}",
        )
    if v.dealt + v.deal.set_aside > count:
        raise VariantError(
            f"{v.dealt} tiles dealt and {v.deal.set_aside} set aside exceed the "
            f"{count} tiles of double-{n}",
            source=src, key="[deal] set_aside", value=v.deal.set_aside,
            allowed=f"0..{count - v.dealt}",
        )
    if v.draw.rule is DrawRule.NONE and v.boneyard_size != 0:
        raise VariantError(
            'with [draw] rule = "none" no tile is ever drawn, so every undealt tile must be '
            "set aside",
            source=src, key="[deal] set_aside", value=v.deal.set_aside,
            allowed=f'{count - v.dealt} or "rest"',
        )
    if v.lead.player >= players:
        raise VariantError("no such seat", source=src, key="[lead] player",
                           value=v.lead.player, allowed=f"0..{players - 1}")
    if v.lead.tile:  # checked under every lead rule: a bad tile is never silently kept
        other = ("" if v.lead.rule is LeadRule.TILE else
                 f' (and [lead] rule = "{v.lead.rule.value}" does not use it)')
        try:
            t = Tile.parse(v.lead.tile)
        except ValueError:
            raise VariantError("not a tile" + other, source=src, key="[lead] tile",
                               value=v.lead.tile, allowed='a tile written "a-b"') from None
        if t.hi > n:
            raise VariantError(f"not a tile of the double-{n} set" + other, source=src,
                               key="[lead] tile", value=v.lead.tile,
                               allowed=f'tiles "a-b" with 0 <= a <= b <= {n}')
    if v.lead.rule is LeadRule.TILE and not v.lead.tile:
        raise VariantError('lead rule "tile" needs the tile that leads', source=src,
                           key="[lead] tile", value="", allowed='a tile, e.g. "6-6"')
    if v.lead.rule is LeadRule.HIGHEST_DOUBLE and v.lead.fallback is LeadFallback.HIGHEST_DOUBLE:
        raise VariantError('a fallback of "highest-double" repeats the lead rule', source=src,
                           key="[lead] fallback", value=v.lead.fallback.value,
                           allowed='"heaviest-tile", "player", "redeal"')
    if (v.lead.fallback is LeadFallback.DRAW and v.lead.rule is not LeadRule.PLAYER
            and v.deal.set_aside):
        raise VariantError(
            f"the players draw for the named tile (R3.6), but {v.deal.set_aside} tile(s) "
            "set aside may hold it, never drawn", source=src, key="[lead] fallback",
            value="draw", allowed=('"highest-double", ' if v.lead.rule is LeadRule.TILE
                                   else "") + '"heaviest-tile", "player", "redeal", or '
            "[deal] set_aside = 0")
    c = v.block.confirmations
    if c.rule == "count" and not 1 <= c.count <= players:
        raise VariantError("out of range", source=src, key="[block] confirmations",
                           value=c.count, allowed=f'"all", "all-others", 1..{players}')
    teams = v.partnerships.teams
    if teams:
        seats = sorted(s for t in teams for s in t)
        if seats != list(range(players)) or len(teams) < 2 or any(not t for t in teams):
            raise VariantError(
                f"teams must split the seats 0..{players - 1} into two or more teams, "
                "each seat in exactly one",
                source=src, key="[partnerships] teams", value=[list(t) for t in teams],
                allowed="e.g. [[0, 2], [1, 3]]",
            )
    if v.partnerships.compare is Compare.TEAM and not teams:
        raise VariantError('comparing team totals needs teams', source=src,
                           key="[partnerships] compare", value="team",
                           allowed='"player", or set [partnerships] teams')
    if v.scoring.tie is TieRule.TEAM_TOTAL and (not teams or
                                                v.partnerships.compare is Compare.TEAM):
        raise VariantError(
            'tie rule "team-total" separates tied players by their teams, so it needs '
            '[partnerships] teams and compare = "player"',
            source=src, key="[scoring] tie", value="team-total",
            allowed=", ".join(f'"{t.value}"' for t in TieRule if t is not TieRule.TEAM_TOTAL),
        )
    if v.scoring.tie is TieRule.LEADER and v.lead.rule is not LeadRule.PLAYER:
        raise VariantError(
            'tie rule "leader" gives a tie to the side first met clockwise from the seat '
            'that led (la mano), which a finished round shows only when [lead] rule = '
            f'"player" names it (here [lead] rule = "{v.lead.rule.value}")',
            source=src, key="[scoring] tie", value="leader",
            allowed=", ".join(f'"{t.value}"' for t in TieRule if t is not TieRule.LEADER)
            + ', or [lead] rule = "player"')
    lay = v.layout
    if lay.double_takes > 1 and lay.kind is not LayoutKind.CHICKEN_FOOT:
        raise VariantError(
            f"a double taking {lay.double_takes} tiles opens toes, which only a chicken foot "
            f'has ([layout] kind = "{lay.kind.value}")', source=src,
            key="[layout] double_takes", value=lay.double_takes,
            allowed='0 or 1, or [layout] kind = "chicken-foot"')
    if lay.match is Match.MATADOR and (lay.kind is not LayoutKind.LINE or lay.double_takes
                                       or lay.lead_double_takes):
        # R2.1: Matador is a one-line game whose doubles are played like any tile
        # ("Doubles are placed endwise and count the same as single dominoes")
        raise VariantError(
            'Matador matching is stated for one line whose doubles are played like any '
            f'tile (here [layout] kind = "{lay.kind.value}", double_takes = '
            f"{lay.double_takes}, lead_double_takes = {lay.lead_double_takes})",
            source=src, key="[layout] match", value="matador",
            allowed='"equal", or [layout] kind = "line" with no double rules')
    if v.scoring.in_play is InPlay.FIVES and (
            lay.kind not in (LayoutKind.LINE, LayoutKind.SPINNER) or lay.match is Match.MATADOR
            or lay.double_takes or lay.lead_double_takes
            or (lay.kind is LayoutKind.SPINNER and not lay.spinner_sides_first)):
        # R5.7: All Fives and Muggins count the ends of a line, or of a spinner whose
        # arms open once both its sides are covered; their doubles take no tiles
        raise VariantError(
            "scoring in play counts the ends of one line, or of a spinner whose arms open "
            f'once both its sides are covered, with no double rules (here [layout] kind = '
            f'"{lay.kind.value}", match = "{lay.match.value}", double_takes = '
            f"{lay.double_takes}, lead_double_takes = {lay.lead_double_takes}, "
            f"spinner_sides_first = {str(lay.spinner_sides_first).lower()})",
            source=src, key="[scoring] in_play", value="fives",
            allowed='"none", or [layout] kind = "line" or "spinner" (sides first) with '
                    'match = "equal" and no double rules')
    if lay.lead_double_takes:
        # the opening double takes one tile on each slot it opens (SEMANTICS: pending)
        opened = v.slot_layout.lead_double_opens
        if lay.lead_double_takes != opened:
            raise VariantError(
                f"an opening double takes one tile on each of the {opened} slots it opens "
                f'([layout] kind = "{lay.kind.value}"), so it takes {opened} or none',
                source=src, key="[layout] lead_double_takes", value=lay.lead_double_takes,
                allowed=f"0 or {opened}")
    for i, _ in v.scoring.tile_values:
        if i >= count:
            raise VariantError(f"not a tile of the double-{n} set", source=src,
                               key=f"[scoring] tile_values.{Tile.from_index(i)}",
                               value=str(Tile.from_index(i)),
                               allowed=f'tiles "a-b" with 0 <= a <= b <= {n}')


def warnings(v: Variant, aside: Any) -> tuple[str, ...]:
    """Parameters accepted but without effect, which would silently change what the
    designer meant: each a warning naming both keys (the one without effect, the one
    that voids it)."""
    out = []
    src = v.source
    if v.draw.rule is not DrawRule.NONE and v.boneyard_size == 0:
        why = ('[deal] set_aside = "rest" sets every undealt tile aside' if aside == "rest"
               else f"[deal] players x hand_size + set_aside uses all {v.tiles.count} tiles")
        out.append(f'{src}: [draw] rule = "{v.draw.rule.value}" has no effect: {why}, so '
                   "the boneyard is empty from the start (R3.1)")
    if v.draw.when is DrawWhen.ANY_TIME and (v.draw.rule is DrawRule.NONE
                                             or v.boneyard_size == 0):
        why = ('[draw] rule = "none" draws nothing' if v.draw.rule is DrawRule.NONE
               else "the boneyard is empty from the start")
        out.append(f'{src}: [draw] when = "any-time" has no effect: {why}, so nobody ever '
                   "draws instead of playing (R3.5)")
    in_play = v.players * v.deal.hand_size + (
        v.boneyard_size if v.draw.rule is not DrawRule.NONE else 0)
    if v.block.call is BlockCall.DEAD_END and in_play < v.n + 1:
        out.append(f'{src}: [block] call = "dead-end" has no effect: [deal] players x '
                   f"hand_size and the boneyard bring only {in_play} tiles into play, fewer "
                   f"than the {v.n + 1} tiles of a number, so no end is ever dead (R4.7)")
    if (v.partnerships.teams and v.partnerships.compare is Compare.PLAYER
            and v.scoring.tie is not TieRule.TEAM_TOTAL):
        out.append(f"{src}: [partnerships] teams has no effect: [partnerships] compare = "
                   '"player" scores every player for themselves (and [scoring] tie is not '
                   '"team-total"), R5.2')
    if v.lead.tile and v.lead.rule is not LeadRule.TILE:
        out.append(f'{src}: [lead] tile = "{one_line(v.lead.tile)}" has no effect: [lead] '
                   f'rule = "{v.lead.rule.value}" does not name a tile (only "tile" does)')
    if v.lead.fallback is LeadFallback.DRAW and (v.lead.rule is LeadRule.PLAYER
                                                 or v.boneyard_size == 0):
        why = ('[lead] rule = "player" names a seat, never a tile nobody may hold'
               if v.lead.rule is LeadRule.PLAYER else
               f"[deal] players x hand_size uses all {v.tiles.count} tiles, so someone "
               "always holds it")
        out.append(f'{src}: [lead] fallback = "draw" has no effect: {why} (R3.6)')
    if v.fouls.penalty and v.fouls.rule is FoulRule.IMPOSSIBLE:
        out.append(f"{src}: [fouls] penalty = {v.fouls.penalty} has no effect: [fouls] rule "
                   '= "impossible" rejects a false declaration, so no foul is ever '
                   "penalised (R4.5)")
    sc = v.scoring
    if sc.round_to > 1 and sc.block_award is Award.NOTHING and sc.domino_award is Award.NOTHING:
        out.append(f"{src}: [scoring] round_to = {sc.round_to} has no effect: [scoring] "
                   'block_award and domino_award = "nothing" award no pips to round (R5.4)')
    if (sc.award_unit is not AwardUnit.PIPS and sc.block_award is Award.NOTHING
            and sc.domino_award is Award.NOTHING):
        out.append(f'{src}: [scoring] award_unit = "{sc.award_unit.value}" has no effect: '
                   '[scoring] block_award and domino_award = "nothing" award nothing to '
                   "count (R5.4)")
    if sc.in_play is InPlay.FIVES and v.n <= 1:
        out.append(f'{src}: [scoring] in_play = "fives" has no effect: [set] max = {v.n}: '
                   "no end shows more than 1 and a double at an end counts 2, so the ends "
                   "never count a multiple of 5 above 0 (R5.7)")
    lay = v.layout
    if not lay.spinner_sides_first and lay.kind is not LayoutKind.SPINNER:
        out.append(f"{src}: [layout] spinner_sides_first = false has no effect: [layout] "
                   f'kind = "{lay.kind.value}" has no spinner')
    if v.block.restart_on_marker and not v.slot_layout.markers:
        out.append(f"{src}: [block] restart_on_marker = true has no effect: [layout] kind = "
                   f'"{lay.kind.value}" has no markers, so no confirmation puts one out (R4.4)')
    if lay.double_again and not lay.double_takes:
        out.append(f"{src}: [layout] double_again = true has no effect: [layout] "
                   "double_takes = 0 lets a double be played like any tile (R2.2)")
    if lay.out_on_double is not OutOnDouble.ALLOWED and not lay.double_takes:
        out.append(f'{src}: [layout] out_on_double = "{lay.out_on_double.value}" has no '
                   "effect: [layout] double_takes = 0, so no double laid in play must be "
                   "covered and any may be a player's last tile (R2.2)")
    if lay.kind is not LayoutKind.TRAINS:  # R2.3: the trains' house rules need trains
        for key, value, default in (("open_trains", lay.open_trains, OpenTrains.MARKER),
                                    ("public_train", lay.public_train, PublicTrain.ALWAYS),
                                    ("first_turn", lay.first_turn, FirstTurn.ONE)):
            if value is not default:
                out.append(f'{src}: [layout] {key} = "{value.value}" has no effect: '
                           f'[layout] kind = "{lay.kind.value}" has no trains (R2.3)')
    return tuple(out)
