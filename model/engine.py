"""The executable round: seeded deals, random play, traces that replay exactly.

The engine is a loop over :meth:`RuleBook.legal_moves` and :meth:`RuleBook.apply`;
it holds no rule logic of its own (STYLE 2). Dealing is the one chance step:
a seeded shuffle of the set, dealt as the variant says.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import DominoproofError, TraceError, brief
from .fast import engine_for, is_own
from .layout import Layout, layout_of
from .moves import LEAD, TILE_LIMIT, Move, MoveKind, WrittenMove, move_json, read_move, resolve
from .outcome import Outcome, outcome
from .reading import read_json
from .rulebook import RuleBook
from .spec import Init, VoidDeal, dealt_state
from .state import Deal, State, Status
from .tiles import MAX_SET, Tile, bits
from .variant import Variant, load_variant_data

TRACE_FORMAT = "dominoproof.trace"
TRACE_VERSION = 1
#: the format name of version 1 before documents were named dominoproof.<command>
_LEGACY_FORMAT = "dominoproof-trace/1"
#: a budget, not a rule of dealing: under fallback "redeal" a lead tile that is seldom
#: dealt (many tiles set aside) must not redeal for ever; after this many, an error
_MAX_REDEALS = 1000


#: the keys of a trace document; ``origin`` records where a trace came from (another
#: engine's log, say) and is kept as data, never checked
_TRACE_KEYS = frozenset({"format", "version", "rules", "variant", "seed", "free_draw", "deal",
                         "moves", "final", "origin"})


def check_deal_shape(data: Any, source: str) -> None:
    """A deal's JSON is ``{"hands": [[tile, ...], ...], "stack": [...], "set_aside": [...]}``
    with every tile a string ``"a-b"`` of a set up to double-18: else a located error."""
    if not isinstance(data, dict):
        raise TraceError(f"{source}: deal = {brief(data)}: must be a table of hands, stack "
                         "and set_aside")
    extra = sorted(set(data) - {"hands", "stack", "set_aside"})
    if extra:
        raise TraceError(f"{source}: deal.{brief(extra[0], quote=False)}: unknown key "
                         "(allowed: hands, stack, set_aside)")
    if "hands" not in data or "stack" not in data:
        raise TraceError(f"{source}: deal: needs hands and stack")
    hands = data["hands"]
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise TraceError(f"{source}: deal.hands = {brief(hands)}: must be a list of hands, "
                         "each a list of tiles")
    parts = [(f"deal.hands[{p}]", h) for p, h in enumerate(hands)]
    parts += [(f"deal.{k}", data[k]) for k in ("stack", "set_aside") if k in data]
    for where, tiles in parts:
        if not isinstance(tiles, list):
            raise TraceError(f"{source}: {where} = {brief(tiles)}: must be a list of tiles")
        for j, t in enumerate(tiles):
            ok = isinstance(t, str)
            if ok:
                try:
                    ok = Tile.parse(t).hi <= MAX_SET
                except ValueError:
                    ok = False
            if not ok:
                raise TraceError(f"{source}: {where}[{j}] = {brief(t)}: not a tile (allowed: "
                                 f'a string "a-b" with 0 <= a <= b <= {MAX_SET})')


def deal_error(variant: Variant, data: dict[str, Any]) -> str:
    """What makes a deal's JSON not a deal of ``variant`` (``""``: nothing): each tile
    of the set exactly once, hands, boneyard and set-aside tiles of the variant's sizes."""
    hands, stack = data["hands"], data["stack"]
    aside = data.get("set_aside", [])
    if len(hands) != variant.players:
        return f"{len(hands)} hands for {variant.players} players"
    sizes = [len(h) for h in hands]
    if any(n != variant.deal.hand_size for n in sizes):
        return f"hands of {sizes} tiles, not {variant.deal.hand_size} each"
    if (len(stack), len(aside)) != (variant.boneyard_size, variant.deal.set_aside):
        return (f"{len(stack)} tiles in the boneyard and {len(aside)} set aside, not "
                f"{variant.boneyard_size} and {variant.deal.set_aside}")
    idx = sorted(Tile.parse(str(n)).idx for part in (*hands, stack, aside) for n in part)
    if idx != list(range(variant.tiles.count)):
        return f"the tiles are not the double-{variant.n} set, each tile once"
    return ""


def checked_deal(variant: Variant, deal: Deal | Mapping[str, Any],
                 source: str = "deal") -> Deal:
    """``deal`` -- a :class:`Deal` value (hands and set-aside tiles as bitmasks, the stack
    as tile indices) or its JSON -- checked like a deal read from a file: the right shape,
    every tile a tile of a set up to double-18, each tile of the variant's set exactly
    once, hands, boneyard and set-aside tiles of the variant's sizes, and not void under
    the lead rule. Anything else is one located :class:`TraceError` (``source`` names where
    the deal came from)."""
    data: Any = _deal_value_json(deal, source) if isinstance(deal, Deal) else deal
    if isinstance(data, Mapping) and not isinstance(data, dict):
        data = dict(data)
    check_deal_shape(data, source)
    wrong = deal_error(variant, data)
    if wrong:
        raise TraceError(f"{source}: not a deal of {variant.name}: {wrong}")
    out = Deal.from_json(data)
    try:
        engine_for(variant).opening(out.hands)
    except VoidDeal:
        raise TraceError(f'{source}: the deal is void under [lead] rule = '
                         f'"{variant.lead.rule.value}" (nobody holds the lead tile)') from None
    return out


def _deal_value_json(deal: Deal, source: str) -> dict[str, Any]:
    """A :class:`Deal` value as its JSON, each field checked first: a mask is a whole
    number of at most :data:`TILE_LIMIT` bits, a stack entry a tile index."""
    top = 1 << TILE_LIMIT

    def mask(x: Any, where: str) -> int:
        if not isinstance(x, int) or isinstance(x, bool) or not 0 <= x < top:
            raise TraceError(f"{source}: {where} = {brief(x)}: not a set of tiles (allowed: "
                             f"a bitmask of tile indices, a whole number 0 <= m < 2**"
                             f"{TILE_LIMIT})")
        return x

    hands = deal.hands
    if not isinstance(hands, tuple | list):
        raise TraceError(f"{source}: hands = {brief(hands)}: must be a tuple of bitmasks, "
                         "one per player")
    stack = deal.stack
    if not isinstance(stack, tuple | list):
        raise TraceError(f"{source}: stack = {brief(stack)}: must be a tuple of tile "
                         "indices, top first")
    for j, t in enumerate(stack):
        if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < TILE_LIMIT:
            raise TraceError(f"{source}: stack[{j}] = {brief(t)}: not a tile index (allowed: "
                             f"0..{TILE_LIMIT - 1})")
    return Deal(tuple(mask(h, f"hands[{p}]") for p, h in enumerate(hands)), tuple(stack),
                mask(deal.set_aside, "set_aside")).to_json()


def shuffled_deal(variant: Variant, rng: random.Random) -> Deal:
    """A uniformly random deal: the set ordered by independent uniform keys from
    ``rng`` (a uniform permutation, and faster than ``shuffle``), dealt as the
    variant says. A deal the lead rule voids (fallback "redeal") is dealt again."""
    return _deal_and_lead(variant, engine_for(variant), rng)[0]


def _deal_and_lead(variant: Variant, rules: RuleBook, rng: random.Random) -> tuple[Deal, int]:
    """A shuffled deal and its leader (the lead rule is looked up once per deal)."""
    tiles = range(variant.tiles.count)
    rnd = rng.random
    for _ in range(_MAX_REDEALS):
        keys = [rnd() for _ in tiles]
        deal = Deal.from_order(variant, sorted(tiles, key=keys.__getitem__))
        try:
            leader, _ = rules.opening(deal.hands)
        except VoidDeal:
            continue
        return deal, leader
    raise DominoproofError(f"{variant.name}: {_MAX_REDEALS} deals in a row were void "
                           "(nobody held the lead tile); the lead rule cannot be met")


def initial_state(variant: Variant, deal: Deal, *, free_draw: bool = False,
                  rules: RuleBook | None = None) -> State:
    """Init: the state right after ``deal``. With ``free_draw`` the draw order is not
    fixed: a draw may take any boneyard tile (the model's "every draw order")."""
    rules = rules or engine_for(variant)
    return dealt_state(variant, deal, rules.opening(deal.hands)[0], free_draw)


def playout(rules: RuleBook, s: State, rnd: Callable[[], float],
            record: list[Move] | None = None) -> tuple[State, int]:
    """Play uniformly random legal moves from ``s`` to the end of the round.

    Each move is drawn from ``legal_moves(s)``, so it is legal by construction and
    the loop takes the transition with :meth:`RuleBook.step` (``apply`` without its
    membership check). Returns the final state and the number of moves, and
    appends the moves to ``record``.
    """
    legal, step = rules.moves, rules.step
    playing = Status.PLAYING
    n = 0
    while s.status is playing:
        moves = legal(s)
        k = len(moves)
        m = moves[0] if k == 1 else moves[int(rnd() * k)]
        if record is not None:
            record.append(m)
        s = step(s, m)
        n += 1
    return s, n


@dataclass(frozen=True)
class Trace:
    """A round: its variant, its deal and its moves. Serialises to JSON and replays.

    ``rules`` is the rule book the round follows: ``None`` for the variant's own; a
    deliberately broken one (``dominoproof.proofs.faults``) for a fault's
    counterexample, which only that rule book replays. The JSON names a rule book
    that is not the variant's own (``"rules"``); :meth:`from_json` replays with the
    variant's own unless it is given one."""

    variant: Variant
    deal: Deal
    moves: tuple[Move, ...]
    seed: int | None = None
    free_draw: bool = False
    _states: tuple[State, ...] = field(default=(), compare=False, repr=False)
    rules: RuleBook | None = field(default=None, compare=False, repr=False)

    @property
    def rule_book(self) -> RuleBook:
        return self.rules if self.rules is not None else engine_for(self.variant)

    def initial(self) -> State:
        return initial_state(self.variant, self.deal, free_draw=self.free_draw,
                             rules=self.rule_book)

    def states(self) -> list[State]:
        """Every state of the round, replayed with legality checks (TraceError if not)."""
        if self._states:
            return list(self._states)
        rules = self.rule_book
        s = self.initial()
        out = [s]
        for i, m in enumerate(self.moves):
            try:
                s = rules.apply(s, m)
            except DominoproofError as e:
                raise TraceError(f"move {i + 1} ({m!r}) does not replay: {e}") from None
            out.append(s)
        object.__setattr__(self, "_states", tuple(out))
        return out

    @property
    def final(self) -> State:
        return self.states()[-1]

    @property
    def outcome(self) -> Outcome | None:
        return outcome(self.variant, self.final)

    def _final_json(self) -> dict[str, Any]:
        """The ``final`` entry of :meth:`to_json`: replays every move, with apply's checks."""
        final, res = self.final, self.outcome
        return {
            "status": final.status.name.lower(),
            "ends": list(final.open_ends),
            "outcome": res.to_json() if res else None,
        }

    def to_json(self) -> dict[str, Any]:
        book = {} if self.rules is None or is_own(self.rules) else {
            "rules": type(self.rules).__name__}
        return {
            "format": TRACE_FORMAT,
            "version": TRACE_VERSION,
            **book,
            "variant": self.variant.to_dict(),
            "seed": self.seed,
            "free_draw": self.free_draw,
            "deal": self.deal.to_json(),
            "moves": self.moves_json(),
            "final": self._final_json(),
        }

    def moves_json(self) -> list[dict[str, Any]]:
        """The moves as JSON, each written in the state it is made in (a play's end by
        the number it shows, :func:`~dominoproof.model.moves.move_json`)."""
        layout = layout_of(self.variant)
        states = self.states()
        return [move_json(layout, s, m) for s, m in zip(states, self.moves, strict=False)]

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @staticmethod
    def from_json(data: dict[str, Any], source: str = "<trace>", *,
                  rules: Callable[[Variant], RuleBook] | None = None) -> Trace:
        """Read a trace and replay it; the recorded final state must be reproduced.

        ``rules`` builds the rule book to replay with (default: the variant's own); a
        trace recorded under another rule book names it, and does not replay without."""
        legacy = isinstance(data, dict) and data.get("format") == _LEGACY_FORMAT
        if not isinstance(data, dict) or (not legacy and (
                data.get("format") != TRACE_FORMAT or data.get("version") != TRACE_VERSION)):
            raise TraceError(f"{source}: not a {TRACE_FORMAT} document of version "
                             f"{TRACE_VERSION}")
        extra = sorted(set(data) - _TRACE_KEYS)
        if extra:
            raise TraceError(f"{source}: {brief(extra[0], quote=False)}: unknown key (allowed: "
                             f"{', '.join(sorted(_TRACE_KEYS))})")
        for key in ("variant", "deal", "moves"):
            if key not in data:
                raise TraceError(f"{source}: {key}: missing")
        if not isinstance(data["variant"], dict):
            raise TraceError(f"{source}: variant = {brief(data['variant'])}: must be a table "
                             "of the variant's sections")
        if not isinstance(data["moves"], list):
            raise TraceError(f"{source}: moves = {brief(data['moves'])}: must be a list of "
                             "moves")
        for key, typ, what in (("seed", int, "a whole number or null"),
                               ("free_draw", bool, "true or false")):
            value = data.get(key)
            if value is not None and (not isinstance(value, typ) or
                                      (typ is int and isinstance(value, bool))):
                raise TraceError(f"{source}: {key} = {brief(value)}: must be {what}")
        variant = load_variant_data(data["variant"], source=f"{source}: variant")
        check_deal_shape(data["deal"], source)
        wrong = deal_error(variant, data["deal"])
        deal = Deal.from_json(data["deal"])
        written = []
        for i, m in enumerate(data["moves"]):
            try:
                written.append(read_move(m))
            except ValueError as e:
                raise TraceError(f"{source}: moves[{i}]{e}") from None
        if wrong:
            raise TraceError(f"{source}: not a deal of {variant.name}: {wrong}")
        book = rules(variant) if rules is not None else None
        if book is None and data.get("rules"):
            raise TraceError(f"{source}: recorded under the rule book {data['rules']!r}, not "
                             "the variant's own; replay it with that rule book")
        free = bool(data.get("free_draw"))
        try:
            moves = replay_written(variant, deal, written, free_draw=free, rules=book)
            trace = Trace(variant, deal, moves, data.get("seed"), free, rules=book)
            final = trace._final_json()  # replays every move, with apply's checks
        except VoidDeal:
            raise TraceError(f"{source}: the deal is void (nobody holds the lead tile)") from None
        except TraceError as e:
            raise TraceError(f"{source}: {e}") from None
        recorded = data.get("final")
        if recorded is not None and recorded != final:
            raise TraceError(f"{source}: the replay does not reach the recorded final state")
        return trace

    @staticmethod
    def loads(text: str, source: str = "<trace>", *,
              rules: Callable[[Variant], RuleBook] | None = None) -> Trace:
        return Trace.from_json(read_json(text, source, TraceError), source, rules=rules)


def replay_written(variant: Variant, deal: Deal, written: Sequence[WrittenMove], *,
                   free_draw: bool = False, rules: RuleBook | None = None) -> tuple[Move, ...]:
    """The moves ``written`` names, each read in the state the moves before it reach
    (a play's end by the number it shows); a move that names no open end, or does not
    replay, raises :class:`TraceError` naming it."""
    book = rules or engine_for(variant)
    layout = layout_of(variant)
    s = initial_state(variant, deal, free_draw=free_draw, rules=book)
    out: list[Move] = []
    for i, w in enumerate(written):
        try:
            m = _named(book, layout, s, w)
            s = book.apply(s, m)
        except DominoproofError as e:
            raise TraceError(f"move {i + 1} ({w.show()}) does not replay: {e}") from None
        out.append(m)
    return tuple(out)


def _named(book: RuleBook, layout: Layout, s: State, w: WrittenMove) -> Move:
    """The move ``w`` names in ``s``. A play on an open end is one of the replaying rule
    book's own legal plays -- a broken one's (a fault's) too, where it allows what the
    layout would not offer -- of the written tile by the written player on a slot
    showing the written number (bearing the written name, if any). A written move that
    is none of them is read as the layout names it (:func:`resolve`), for the rule book
    to refuse, saying why."""
    if w.kind is MoveKind.PLAY and w.number is not None:
        for m in book.legal_moves(s):
            if (m.kind is MoveKind.PLAY and m.player == w.player and m.tile == w.tile
                    and m.leaves == w.way and m.end != LEAD
                    and w.goes_on(layout, s.ends, m.end)):
                return m
    return resolve(layout, s, w)


def random_round(variant: Variant, seed: int, rules: RuleBook | None = None) -> Trace:
    """One round: a seeded deal, then uniformly random legal moves (same seed, same round).
    ``rules``: the rule book to play by (default: the variant's own); the trace keeps it."""
    book = rules or engine_for(variant)
    rng = random.Random(seed)
    deal, leader = _deal_and_lead(variant, book, rng)
    moves: list[Move] = []
    playout(book, dealt_state(variant, deal, leader), rng.random, moves)
    return Trace(variant, deal, tuple(moves), seed, rules=rules)


def random_rounds(variant: Variant, n: int, seed: int,
                  rules: RuleBook | None = None) -> Iterator[tuple[State, int]]:
    """``n`` random rounds from one seeded stream: (final state, number of moves) each."""
    rules = rules or engine_for(variant)
    rng = random.Random(seed)
    rnd = rng.random
    closed = rules.layout.closed
    for _ in range(n):
        deal, leader = _deal_and_lead(variant, rules, rng)
        yield playout(rules, dealt_state(variant, deal, leader, closed=closed), rnd)


def seeded_deal(variant: Variant, seed: int) -> Deal:
    """The deal of ``random_round(variant, seed)``: the default one-deal configuration."""
    return shuffled_deal(variant, random.Random(seed))


def init_for(variant: Variant, deals: str) -> Init:
    """The initial states a short spec names: ``"every"`` (every deal) or ``"seed S"`` (the
    deal of seed S), either followed by ``" free-draw"`` (every draw order). Used by the
    fault demos and the pinned regression figures."""
    words = deals.split()
    free = words[-1:] == ["free-draw"]
    if free:
        words = words[:-1]
    if words == ["every"]:
        return Init.every(free)
    if len(words) == 2 and words[0] == "seed" and words[1].lstrip("-").isdigit():
        return Init.one(seeded_deal(variant, int(words[1])), free)
    raise ValueError(f"not a deals spec: {deals!r} (every | seed S, then free-draw or not)")


def deal_of(s: State) -> Deal:
    """The deal an initial state was made from (its boneyard, lowest tile first, when the
    draw order is free)."""
    stack = s.stack if s.stack is not None else tuple(bits(s.boneyard))
    return Deal(s.hands, stack, s.set_aside)
