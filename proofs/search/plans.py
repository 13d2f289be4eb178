"""Small configurations of a variant, for exhaustive search.

A preset is played with dozens of tiles; exhaustive search is for small sets
(double-0 to double-6). :func:`small_variant` keeps every rule of a variant -- the
draw rule, the R4 procedure, fouls, the lead rule, partnerships, scoring -- and
shrinks only the sizes: the set, the hands, the tiles set aside, and the number of
players where it must (at most 4; teams are kept whenever the players are). Whether
all tiles are in play is kept, so that parity applies to the small configuration
exactly when it applies to the variant.

:func:`search_plan` then chooses which deals to explore: every deal (and every draw
order) when that is within reach (on the compiled kernel, a 2-player block game's on a
double-4 set first, :func:`_larger_size`, and a 2-player draw game's on double-4 as well,
:func:`_larger_draw_size`); else seeded deals plus deals *chosen to cover the
variant's corners* -- every case of the lead rule (the named tile dealt, each
fallback) and every way a round ends (a domino, a block with one winner, a tied
block, a round with a foul) that some candidate deal reaches. In a draw game the
chosen deals are searched again in their own fixed draw order, so the engine's
fixed-order draw path is exercised as well as the free one. The plan says what it
searched, in words, for the verification's table.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from dominoproof.model.engine import seeded_deal
from dominoproof.model.layout import LINE, Opens
from dominoproof.model.outcome import outcome
from dominoproof.model.spec import Init, count_deals
from dominoproof.model.state import Deal, Status
from dominoproof.model.tiles import tile_count
from dominoproof.model.variant import DrawRule, LeadFallback, LeadRule, Sizes, Variant
from dominoproof.proofs.budgets import (
    CANDIDATES,
    CORNER_STATES,
    LARGER_SET,
    LEAD_SCAN,
    PLAN_DEALS,
    PLAN_DEALS_KERNEL,
    PLAN_STATES,
    PLAN_STATES_LARGER_DRAW,
    SEEDS,
)
from dominoproof.proofs.search.coverage import Coverage
from dominoproof.proofs.search.statespace import explore, kernel_reason


def _size(v: Variant) -> tuple[int, int, int, int]:
    """(players, set, hand size, set aside) of the small configuration."""
    if v.slot_layout != LINE:
        return _layout_size(v)
    players = min(v.players, 4)
    draw = v.draw.rule is not DrawRule.NONE
    if v.all_in_play and not draw:
        # every tile dealt: the smallest set from double-3 down whose tiles share out
        # evenly (double-3 with 2 players, double-2 with 3); with 4 players no small
        # set does, and tiles are set aside (the search then finds parity N/A)
        for n in (3, 2):
            if tile_count(n) % players == 0:
                return players, n, tile_count(n) // players, 0
    n = 3
    hand = 3 if players == 2 else 2
    rest = tile_count(n) - players * hand
    aside = min(v.deal.set_aside, max(0, rest - 2)) if draw else rest
    return players, n, hand, aside


def _layout_size(v: Variant) -> tuple[int, int, int, int]:
    """(players, set, hand size, set aside) of the small configuration of a layout other
    than the plain line: the same layout on a small set, read off its slot data.

    * The set: double-3, or larger where the opening double takes more tiles than its
      number has on double-3 (a spinner whose four arms are opened first, a chicken
      foot's centre: ``lead_takes`` = 4 needs double-4, whose top double has 4 other
      tiles of its number).
    * The players: at most 4; at most 2 where the layout has markers (a train each and
      the public train: the smallest table where a closed train is someone else's, and
      small enough to search every deal in every draw order); at most 3 where doubles
      open toes (each double adds slots); in a block game with every tile dealt, as
      many as share the small set evenly, so that every tile stays in play (Sebastopol's
      spinner on double-4: 3 players x 5, every tile of its number in some hand).
    * The hands: in a draw game as many tiles each as leave at least 2 in the boneyard
      (so that a round both draws and meets an empty boneyard, and the every-deal,
      every-draw-order search of the layouts, which run the named actions rather than
      the line's fast path, stays within seconds), with the tiles the variant sets
      aside kept where the boneyard keeps 2; in a block game every tile dealt where they
      share out evenly, else as many each as the set allows.
    """
    lay = v.slot_layout
    n = max(3, lay.lead_takes)
    toes = any(sl.opens is Opens.TOE for sl in lay.slots)
    players = min(v.players, 2 if lay.markers else 3 if toes else 4)
    count = tile_count(n)
    if v.all_in_play and v.draw.rule is DrawRule.NONE:
        # every tile dealt, as in the variant: as many players as share the set evenly
        # (a spinner's sides then find every tile of its number in some hand)
        players = max(k for k in range(2, players + 1) if count % k == 0)
    if v.draw.rule is not DrawRule.NONE:
        aside = min(v.deal.set_aside, max(0, count - 2 * players - 2))
        hand = (count - aside - 2) // players
        return players, n, hand, aside
    hand = count // players
    return players, n, hand, count - players * hand


def _larger_size(v: Variant) -> Sizes | None:
    """The sizes of the larger analogue searched first on the compiled kernel
    (LARGER_SET), or None: a 2-player line game without a boneyard whose tiles are not
    all dealt (with every tile dealt, double-4's 15 tiles do not share out
    between two, and parity would no longer apply to the analogue as it does to the
    variant), and only where the variant is itself at least that large (double-4 or
    more, 3 tiles a hand or more): an analogue is never larger than its variant."""
    hand = 3
    if (v.slot_layout != LINE or min(v.players, 4) != 2 or v.all_in_play
            or v.draw.rule is not DrawRule.NONE or v.n < LARGER_SET
            or v.deal.hand_size < hand):
        return None
    return Sizes(LARGER_SET, 2, hand, tile_count(LARGER_SET) - 2 * hand)


def _larger_draw_size(v: Variant) -> Sizes | None:
    """The sizes of a 2-player line draw game's double-4 configuration, searched on the
    compiled kernel beside its double-3 one, or None: the tiles the variant sets aside
    kept, and the largest hands that leave a tile to draw (no larger than the variant's,
    and at least 3). Hands of 7 and a boneyard of 1, or of 6 with 2 set aside: a round
    draws at most once there, so the double-3 configuration, whose boneyard draws up to
    four times, is searched as well (:attr:`Plan.also`). The line only: on other layouts
    the judge reads every state in Python for the layout's properties, and a spinner's
    double-4 configuration is many times larger (docs/KERNEL.md, "The budgets,
    measured")."""
    if (v.slot_layout != LINE or min(v.players, 4) != 2 or v.draw.rule is DrawRule.NONE
            or v.n < LARGER_SET):
        return None
    aside = v.deal.set_aside
    hand = min(v.deal.hand_size, (tile_count(LARGER_SET) - aside - 1) // 2)
    return Sizes(LARGER_SET, 2, hand, aside) if hand >= 3 else None


def small_variant(v: Variant) -> Variant:
    """The same rules on a small set (see the module docstring): the sizes of
    :func:`_size`, every other parameter following them as its own metadata says
    (:meth:`~dominoproof.model.variant.Variant.resized`)."""
    players, n, hand, aside = _size(v)
    return at_sizes(v, Sizes(n, players, hand, aside))


def configurations(v: Variant) -> tuple[Variant, ...]:
    """The configurations :func:`search_plan` may search for ``v``, its deals not chosen:
    the small one, and the larger analogues of a 2-player line game (on the kernel). Two
    variants with equal configurations are judged alike by the search
    (``dominoproof repair`` skips a change that leaves them as they were)."""
    larger = (_larger_size(v), _larger_draw_size(v))
    return (small_variant(v), *(at_sizes(v, s) for s in larger if s is not None))


def at_sizes(v: Variant, sizes: Sizes) -> Variant:
    """``v``'s rules at ``sizes``: a small configuration of it, named ``<name>/small``."""
    small, _ = v.resized(sizes, source=f"{v.source} (small configuration)")
    return dataclasses.replace(small, name=f"{v.name}/small")


def sizes_of(v: Variant) -> Sizes:
    """The sizes of ``v`` (its set, players, hands, tiles set aside)."""
    return Sizes(v.n, v.players, v.deal.hand_size, v.deal.set_aside)


# -- Corners of a variant: the cases a search should reach -----------------------------


def lead_case(v: Variant, hands: tuple[int, ...]) -> str:
    """Which case of the lead rule a deal falls in (Terms: the lead), read off the
    variant's lead rule and the hands alone."""
    lead = v.lead
    if lead.rule is LeadRule.PLAYER:
        return "lead: the named player"
    held = 0
    for h in hands:
        held |= h
    doubles = [t for t in v.tiles.doubles() if held >> t & 1]
    if lead.rule is LeadRule.TILE:
        t = v.lead_tile_index
        if t is not None and held >> t & 1:
            return f"lead: {lead.tile} dealt"
        named = f"lead: {lead.tile} not dealt"
    else:
        if doubles:
            return "lead: the highest double dealt"
        named = "lead: no double dealt"
    if lead.fallback is LeadFallback.HIGHEST_DOUBLE:
        return f"{named}, another double leads" if doubles else f"{named}, and no double either"
    return f"{named} (fallback {lead.fallback.value})"


def round_cases(v: Variant, deal: Deal) -> set[str]:
    """How the rounds of one deal end (every draw order): a domino, a block with one
    winner, a tied block; and whether a foul is ever made."""
    free = v.boneyard_size > 0
    r = explore(v, Init.one(deal, free_draw=free), max_states=CORNER_STATES)
    found: set[str] = set()
    for s in r.states():
        if s.fouls:
            found.add("a foul")
        if s.status is Status.DOMINO:
            found.add("a domino")
        elif s.status is Status.BLOCKED:
            res = outcome(v, s)
            found.add("a tied block" if res is not None and res.tied else
                      "a block with one winner")
    return found


def possible_cases(v: Variant) -> set[str]:
    """Every corner :func:`lead_case` and :func:`round_cases` name for ``v``'s rules
    (whether or not a deal reaches it)."""
    lead = v.lead
    cases = {"a domino", "a block with one winner", "a tied block"}
    if v.fouls.rule.value == "penalised":
        cases.add("a foul")
    if lead.rule is LeadRule.PLAYER:
        return cases | {"lead: the named player"}
    if lead.rule is LeadRule.TILE:
        cases.add(f"lead: {lead.tile} dealt")
        named = f"lead: {lead.tile} not dealt"
    else:
        cases.add("lead: the highest double dealt")
        named = "lead: no double dealt"
    if lead.fallback is LeadFallback.HIGHEST_DOUBLE:
        cases |= {f"{named}, another double leads", f"{named}, and no double either"}
    elif not (lead.rule is LeadRule.HIGHEST_DOUBLE
              and lead.fallback is LeadFallback.REDEAL):
        cases.add(f"{named} (fallback {lead.fallback.value})")
    return cases


def _corner_deals(small: Variant, seeds: int) -> tuple[list[Deal], str]:
    """Seeded deals, then deals chosen to reach the corners the seeded ones miss."""
    chosen = [seeded_deal(small, i) for i in range(seeds)]
    covered: set[str] = set()
    for d in chosen:
        covered |= {lead_case(small, d.hands)} | round_cases(small, d)
    # every way a round can end (round_cases names no other): once each is reached, a
    # candidate can only add a lead case, read off its hands without exploring it
    possible = possible_cases(small)
    ways_to_end = {c for c in possible if not c.startswith("lead:")}
    added: list[str] = []
    for i in range(seeds, seeds + CANDIDATES):
        d = seeded_deal(small, i)
        rounds = round_cases(small, d) if ways_to_end - covered else set()
        new = ({lead_case(small, d.hands)} | rounds) - covered
        if new:
            chosen.append(d)
            covered |= new
            added.extend(sorted(new))
    for i in range(seeds + CANDIDATES, seeds + CANDIDATES + LEAD_SCAN):
        d = seeded_deal(small, i)
        case = lead_case(small, d.hands)
        if case not in covered:
            chosen.append(d)
            covered.add(case)
            covered |= round_cases(small, d)
            added.append(case)
    text = f"{seeds} seeded deals"
    if added:
        text += f" + {len(chosen) - seeds} chosen for corners ({'; '.join(added)})"
    text += f"; cases reached: {', '.join(sorted(covered))}"
    leads = sorted(possible - ways_to_end - covered)
    ends = sorted(ways_to_end - covered)
    if ends:
        text += (f"; no round of the {seeds + CANDIDATES:,} deals explored reaches "
                 f"{', '.join(ends)}")
    if leads:
        text += (f"; of {seeds + CANDIDATES + LEAD_SCAN:,} deals looked at, none has "
                 f"{', '.join(leads)}")
    return chosen, text


@dataclass(frozen=True)
class Plan:
    """The searches of a verification: a variant, the deals to explore, and what they
    cover in words. ``sampled`` is True when not every deal is searched; ``coverage``
    says how many (:class:`~dominoproof.proofs.search.coverage.Coverage`). ``state_budget``: a
    search of every deal that reaches this many states is given up for ``fallback()``,
    the sampled plan, which says why."""

    variant: Variant
    inits: tuple[Init, ...]
    description: str
    sampled: bool = False
    #: every deal searched in every draw order, but the fixed draw order on sampled deals
    fixed_order_sampled: bool = False
    coverage: Coverage | None = None
    state_budget: int | None = None
    seeds: int = SEEDS
    #: the plan of a smaller configuration, for when every deal of this one is beyond
    #: :attr:`state_budget` (None: the sampled deals of this one)
    smaller: Plan | None = None
    #: a second configuration searched as well (the double-3 one of a 2-player draw game
    #: searched on double-4), None when there is none; not searched after a fallback
    also: Plan | None = None

    def searches(self) -> list[tuple[Variant, Init, int | None]]:
        """What to explore, in order, each with its state budget: every init of this
        plan (the search of every deal within :attr:`state_budget`), then every init of
        :attr:`also` (none)."""
        out = [(self.variant, i, self.state_budget if i.deal is None else None)
               for i in self.inits]
        if self.also is not None:
            out += [(self.also.variant, i, None) for i in self.also.inits]
        return out

    def fallback(self) -> Plan:
        """The plan for when every deal is beyond :attr:`state_budget`: every deal of the
        smaller configuration, or else sampled deals; its text says why."""
        assert self.state_budget is not None
        over = f"more than {self.state_budget:,} states, the budget of one preset's search"
        if self.smaller is not None:
            return dataclasses.replace(self.smaller, also=None, description=(
                f"{self.smaller.description}; every deal of {shape(self.variant)} is {over}"))
        return _sampled_plan(self.variant, self.seeds, f"every deal is {over}")


def search_plan(v: Variant, seeds: int = SEEDS, kernel: bool | None = None) -> Plan:
    """Every deal (every draw order too, in a draw game) of the small configuration when
    that is within reach, else seeded and corner-covering deals, each in every draw
    order; in a draw game, the chosen deals again in their own fixed draw order.

    Within reach: up to PLAN_DEALS deals; on the compiled kernel (``kernel``, default:
    where it runs) up to PLAN_DEALS_KERNEL, a search beyond PLAN_DEALS then stopping at
    PLAN_STATES states for the sampled plan (:meth:`Plan.fallback`). On the kernel a
    2-player block game is planned on double-4 first (:func:`_larger_size`), the small
    configuration's plan being its fallback; a 2-player draw game on double-4 too, where
    its deals are at most PLAN_DEALS_KERNEL (:func:`_larger_draw_size`), within
    PLAN_STATES_LARGER_DRAW states, with the small configuration's plan searched as well
    (:attr:`Plan.also`) and its fallback."""
    small = small_variant(v)
    if kernel is None:
        kernel = not kernel_reason(small)
    plan = _plan(small, seeds, kernel)
    if not kernel:
        return plan
    larger = _larger_size(v)
    if larger is not None:
        big = _plan(at_sizes(v, larger), seeds, kernel)
        return dataclasses.replace(big, state_budget=PLAN_STATES, smaller=plan)
    larger = _larger_draw_size(v)
    if larger is None:
        return plan
    big_v = at_sizes(v, larger)
    deals = count_deals(big_v, True)
    if deals > PLAN_DEALS_KERNEL:
        return dataclasses.replace(plan, description=(
            f"{plan.description}; every deal of {shape(big_v)} is {deals:,} deals, more "
            f"than the {PLAN_DEALS_KERNEL:,} a search of every deal may take"))
    big = _plan(big_v, seeds, kernel)
    return dataclasses.replace(big, state_budget=PLAN_STATES_LARGER_DRAW, smaller=plan,
                               also=plan)


def _plan(small: Variant, seeds: int, kernel: bool) -> Plan:
    """:func:`search_plan` of the configuration ``small``."""
    free = small.boneyard_size > 0
    deals = count_deals(small, free)
    total = count_deals(small, True)
    if deals > (PLAN_DEALS_KERNEL if kernel else PLAN_DEALS):
        return _sampled_plan(small, seeds)
    order = ", every draw order" if free else ""
    inits: tuple[Init, ...] = (Init.every(free_draw=free),)
    text = f"{shape(small)}: every deal ({deals:,}){order}"
    fixed = 0
    if free:  # the fixed draw order too: on chosen deals (every one is too many)
        chosen, which = _corner_deals(small, seeds)
        inits += tuple(Init.one(d, free_draw=False) for d in chosen)
        text += (f"; and sampled, in their own draw order: {len(chosen)} deals "
                 f"({which})")
        fixed = len(chosen)
    cover = Coverage(total, total, True, "every deal", fixed, boneyard=free)
    return Plan(small, inits, text, False, fixed_order_sampled=free, coverage=cover,
                state_budget=PLAN_STATES if deals > PLAN_DEALS else None, seeds=seeds)


def _sampled_plan(small: Variant, seeds: int, why: str = "") -> Plan:
    """Seeded and corner-covering deals of the small configuration ``small``, each in every
    draw order (and in a draw game again in its own); ``why`` not every deal, for the
    text."""
    free = small.boneyard_size > 0
    deals = count_deals(small, free)
    total = count_deals(small, True)
    order = ", every draw order" if free else ""
    chosen, which = _corner_deals(small, seeds)
    inits = tuple(Init.one(d, free_draw=free) for d in chosen)
    text = f"{shape(small)}: sampled, {len(chosen)} of {deals:,} deals{order} ({which})"
    if why:
        text += f"; {why}"
    if free:
        inits += tuple(Init.one(d, free_draw=False) for d in chosen)
        text += "; the same deals again in their own draw order"
    how = f"{min(seeds, len(chosen))} seeded" + (
        f" + {len(chosen) - seeds} chosen for corners" if len(chosen) > seeds else "")
    cover = Coverage(len(chosen), total, free, how, len(chosen) if free else 0,
                     boneyard=free)
    return Plan(small, inits, text, True, coverage=cover, seeds=seeds)


def shape(small: Variant) -> str:
    """A configuration's sizes in words: "double-4, 2 players x 7, 1 in the boneyard"."""
    return (f"double-{small.n}, {small.players} players x {small.deal.hand_size}"
            + (f", {small.deal.set_aside} set aside" if small.deal.set_aside else "")
            + (f", {small.boneyard_size} in the boneyard" if small.boneyard_size else ""))
