"""The property catalogue: every checked property as data (STYLE 9).

Each property has an id, a statement in words, the rule IDs it checks, its kind
and the variants it applies to. The checkers live elsewhere, one per method:
exhaustive graph search (``statespace``/``graphcheck``) and Z3 (``queries``,
``allsizes``); they all report a :class:`Result` with a :class:`Verdict`.

Verdicts are honest: HOLDS and PROVED need a complete search or an
unsatisfiable query; an exhausted budget or a solver ``unknown`` is UNKNOWN;
VIOLATED carries a trace from a real deal; NOT_INDUCTIVE (a counterexample to
induction that no real round may reach) is kept apart from VIOLATED.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dominoproof.model.errors import DominoproofError
from dominoproof.model.layout import Access, LayoutKind, Match, Opens
from dominoproof.model.variant import BlockCall, FoulRule, InPlay, Variant


class Kind(enum.StrEnum):
    STATE = "state invariant"  #: holds in every reachable state
    TRANSITION = "transition property"  #: holds of every reachable transition
    TERMINAL = "terminal property"  #: holds in every reachable terminal state
    REACHABILITY = "reachability"  #: about which states can be reached (witnesses)
    LIVENESS = "bounded liveness"  #: something happens within a stated bound


class Verdict(enum.StrEnum):
    HOLDS = "HOLDS"  #: exhaustive search examined every reachable state
    PROVED = "PROVED"  #: Z3: the inductive proof obligations are unsatisfiable
    VIOLATED = "VIOLATED"  #: a reachable counterexample, with a replayable trace
    NOT_INDUCTIVE = "NOT INDUCTIVE"  #: Z3: a counterexample to induction (maybe unreachable)
    UNKNOWN = "UNKNOWN"  #: budget exhausted or solver unknown: nothing is claimed
    NOT_APPLICABLE = "N/A"  #: the property does not apply to this variant

    @property
    def ok(self) -> bool:
        return self in (Verdict.HOLDS, Verdict.PROVED)


@dataclass(frozen=True)
class Property:
    id: str
    statement: str
    rules: tuple[str, ...]
    kind: Kind
    applies_doc: str = "every variant"
    applies: Callable[[Variant], bool] = field(default=lambda v: True, compare=False)
    #: why the property does not apply to a variant it does not apply to, in domino terms
    #: ("the layout has no markers"); empty: :attr:`applies_doc` says it
    why_not: str = ""

    def applies_to(self, variant: Variant) -> bool:
        return self.applies(variant)

    def not_applicable(self) -> str:
        """The detail of an N/A verdict: why, and what the property applies to."""
        head = f"{self.why_not}; " if self.why_not else ""
        return f"{head}applies to {self.applies_doc}"


def _line(v: Variant) -> bool:
    return v.layout.kind is LayoutKind.LINE


# What the layout properties apply to, read from the slot data (``Variant.slot_layout``).

def has_markers(v: Variant) -> bool:
    """The layout has a marker per seat (trains)."""
    return v.slot_layout.markers


def has_double_rules(v: Variant) -> bool:
    """A double takes tiles before play moves on: the opening double, or one laid later."""
    data = v.slot_layout
    return data.lead_takes > 0 or any(sl.double_takes > 0 for sl in data.slots)


def has_spinner(v: Variant) -> bool:
    """Some slot is a spinner's arm (it opens with an opening double)."""
    return any(sl.opens is Opens.SPINNER for sl in v.slot_layout.slots)


def has_train_house_rule(v: Variant) -> bool:
    """R2.3's house rules of trains: every train open to a player whose own marker is
    out, a slot open only to players whose own train is started (the public train), or
    first turns that lay tile after tile on one's own train."""
    return v.slot_layout.first_turn or any(
        sl.access in (Access.OWNER_OR_MARKERS, Access.STARTED) for sl in v.slot_layout.slots)


def readings_can_differ(v: Variant) -> bool:
    """R2.3: somebody may be forbidden to play on an open end -- an owned slot, an arm
    waiting for its sides, or the slots a double leaves pending."""
    return (any(sl.access is not Access.EVERYONE or sl.after for sl in v.slot_layout.slots)
            or has_double_rules(v))


CATALOGUE: tuple[Property, ...] = (
    Property(
        "blocked-sound",
        "In every state where the block is established, the boneyard supplies nothing and no "
        "hand holds a tile that extends any open end (under both readings of R2.3).",
        ("R1.1", "R2.1", "R2.2", "R2.3", "R3.2", "R3.3"), Kind.STATE),
    Property(
        "called-block",
        "In every state where the block was called (R4.7) rather than established by R4.4's "
        "confirmations, an open end shows a number every tile of which is on the table: no "
        "tile in a hand, the boneyard or set aside can ever be laid on it. (A call promises "
        "no more: the boneyard may still hold tiles and another end may still be playable, "
        "so blocked-sound and procedure may fail.)",
        ("R4.7", "R2.1"), Kind.STATE,
        applies_doc='variants where a dead end may be called ([block] call = "dead-end")',
        applies=lambda v: v.block.call is BlockCall.DEAD_END,
        why_not='no block can be called ([block] call = "never")'),
    Property(
        "blocked-complete",
        "Whenever R2 and R3 hold in a round still being played, between turns (not while a "
        "first turn goes on, R2.3), the block is established within one round of turns (at "
        "most P confirmations and the establishment).",
        ("R1.1", "R1.3", "R4.2", "R4.4"), Kind.LIVENESS),
    Property(
        "procedure",
        "The block is established only after every player, starting from the proposer, has "
        "confirmed in succession with the boneyard empty; at that moment the R4 procedure and "
        "the R2/R3 conditions agree.",
        ("R4.1", "R4.2", "R4.3", "R4.4"), Kind.TRANSITION),
    Property(
        "no-false-confirmation",
        "A confirmation of inability is only ever made by a player with no legal move, or, "
        "where fouls are possible, it is recorded as a foul.",
        ("R4.2", "R4.3", "R4.5"), Kind.TRANSITION),
    Property(
        "conservation",
        "Hands, boneyard, set-aside tiles and layout partition the set, in every state.",
        ("Terms",), Kind.STATE),
    Property(
        "boneyard-monotone",
        "The boneyard never grows; once empty it stays empty; nobody draws from an empty "
        "boneyard.",
        ("R3.1", "R3.2"), Kind.TRANSITION),
    Property(
        "termination",
        "Every round ends, within a bound stated in tiles and players (the bound of the "
        "ranking function, compared with the longest round found by search).",
        ("R1.2", "R5.1"), Kind.LIVENESS),
    Property(
        "opening",
        "The first move is the lead the variant names: its player and, where it names one, "
        "its tile.",
        ("Terms",), Kind.TRANSITION),
    Property(
        "winner-lowest",
        "At a block, the winners are exactly the sides with the lowest residual total (or "
        "nobody, when a tie scores nothing); under R5.2a \"fewest-tiles\", the sides with "
        "the fewest tiles left in hand.",
        ("R5.2", "R5.2a"), Kind.TERMINAL),
    Property(
        "award",
        "The winner's award is what the variant's award rule says (R5.4), before any tie "
        "sharing.",
        ("R5.4",), Kind.TERMINAL),
    Property(
        "tie",
        "Every tie for the lowest total is settled as the variant's tie rule says.",
        ("R5.5",), Kind.TERMINAL),
    Property(
        "pips",
        "Each residual is the sum over the tiles left in hand of a+b (or the variant's "
        "special value), and each side's total the sum of its seats' residuals.",
        ("R5.2", "R5.3"), Kind.TERMINAL),
    Property(
        "foul-penalty",
        "Each foul's penalty is charged to the seat that committed it, and to no other seat "
        "(R4.5).",
        ("R4.5",), Kind.TERMINAL,
        applies_doc="variants where fouls are penalised",
        applies=lambda v: v.fouls.rule is FoulRule.PENALISED),
    Property(
        "final-scores",
        "Each side's final score is its award minus the penalties of its seats (plus, "
        "where plays score, R5.7, its seats' points in play).",
        ("R4.5", "R5.4", "R5.5"), Kind.TERMINAL),
    Property(
        "points-in-fives",
        "Where plays score (R5.7), a play adds to its player's points a multiple of 5 (or "
        "nothing), no other move changes anyone's points, and each side's final score is "
        "its award less its seats' penalties plus its seats' points in play.",
        ("R5.7",), Kind.TRANSITION,
        applies_doc='variants that score in play ([scoring] in_play = "fives")',
        applies=lambda v: v.scoring.in_play is InPlay.FIVES,
        why_not='plays score nothing ([scoring] in_play = "none")'),
    Property(
        "parity",
        "One line, every tile in play: at a block every tile of each end's suit is on the "
        "table, and the two ends show the same number exactly when N is even.",
        ("R1.1", "R2.1"), Kind.TERMINAL,
        applies_doc="one-line variants with every tile in play, matched by equal numbers "
                    "(refuted where tiles are set aside)",
        applies=lambda v: _line(v) and v.all_in_play and v.layout.match is Match.EQUAL),
    Property(
        "markers",
        "Each seat's marker is out exactly when its owner has passed, confirmed or fouled "
        "since last playing on their own train: a pass, a confirmation or a foul by a "
        "player puts that player's marker out, a play by a player on their own train takes "
        "it in, and nothing else moves a marker (none is out at the deal; a pass that ends "
        "a first turn, R2.3, is no declaration and moves none).",
        ("R2.3", "R3.1", "R4.2"), Kind.TRANSITION,
        applies_doc="layouts with markers (trains)",
        applies=has_markers, why_not="the layout has no markers"),
    Property(
        "doubles-covered",
        "While slots are pending, every play goes on a pending slot; a double laid during "
        "play on a slot whose doubles take tiles, with nothing else pending, makes its slot "
        "and the toes it opens (showing its number) pending; the opening double makes the "
        "slots it opened pending where it takes tiles; a tile laid on a pending slot covers "
        "it, and nothing else changes what is pending; under out_on_double = \"covered\" no "
        "such double that waits is its player's last tile.",
        ("R2.2",), Kind.TRANSITION,
        applies_doc="layouts with double rules (lead_double_takes or double_takes > 0)",
        applies=has_double_rules,
        why_not="the layout has no double rules (no double takes tiles)"),
    Property(
        "spinner-arms",
        "No play goes on a spinner's arm while a side it waits for is uncovered; a side is "
        "covered once a tile is laid on it, and stays covered; the arms show a number only "
        "after an opening double (its number), and open at no other time.",
        ("Terms", "R2.2"), Kind.TRANSITION,
        applies_doc="spinner layouts", applies=has_spinner,
        why_not="the layout has no spinner"),
    Property(
        "train-access",
        "Every play on a train is by its owner, by anyone while the owner's marker is out, "
        'or (open_trains = "own-marker-out") by a player whose own marker is out; a play '
        'on the public train (public_train = "after-own") is by a player whose own train '
        "has a tile on it; a train counts as started exactly once a tile is laid on it. "
        'Under first_turn = "own-train", after a play the turn stays with its player, their '
        "first turn going on, exactly when the play is on their own train, that train had "
        "no tile before the turn and no double is left waiting there (or a double they play "
        "again after, or an emptied hand, keeps it); while it goes on every play is on "
        "their own train, and a pass ends it and passes the turn.",
        ("R2.3",), Kind.TRANSITION,
        applies_doc="trains under a house rule of who may play where or when ([layout] "
                    "open_trains, public_train or first_turn)",
        applies=has_train_house_rule,
        why_not="no house rule of R2.3 for trains: who may play where is the slots' "
                "default access"),
    Property(
        "uncoverable-double",
        "At a block established while slots are pending, no hand holds a tile carrying a "
        "pending slot's number, and the boneyard supplies nothing: the double could not be "
        "covered.",
        ("R1.1", "R4.4"), Kind.TERMINAL,
        applies_doc="layouts with double rules (lead_double_takes or double_takes > 0)",
        applies=has_double_rules,
        why_not="the layout has no double rules (no double takes tiles)"),
    Property(
        "readings-agree",
        "At an established block the two readings of R2.3 agree: no hand holds a tile "
        "matching an open end exactly when no player has a legal move.",
        ("R2.3", "R4.4"), Kind.TERMINAL,
        applies_doc="layouts where the readings can differ (owned trains and markers, arms "
                    "waiting for a spinner's sides, or double rules)",
        applies=readings_can_differ,
        why_not="every open end is open to every player at every moment, so the two "
                "readings coincide"),
)

#: The properties of layouts of several lines (judged by
#: :class:`~dominoproof.proofs.search.layout_judge.LayoutJudge`).
LAYOUT_PROPERTIES: tuple[str, ...] = ("markers", "doubles-covered", "spinner-arms",
                                      "uncoverable-double", "readings-agree", "train-access")

BY_ID: dict[str, Property] = {p.id: p for p in CATALOGUE}


def find_property(pid: str) -> Property:
    try:
        return BY_ID[pid]
    except KeyError:
        raise DominoproofError(
            f"no property {pid!r}; the catalogue has: {', '.join(BY_ID)}") from None


@dataclass
class Result:
    """One verdict on one property for one configuration, by one method."""

    property: str
    verdict: Verdict
    method: str  #: "exhaustive search", "induction", "all sizes", "bounded to depth k", ...
    configuration: str  #: the variant and what was explored
    detail: str = ""
    states: int | None = None  #: states examined (search) or None
    seconds: float = 0.0
    trace: Any = None  #: a model Trace for VIOLATED (replayable), or a decoded CTI
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "property": self.property,
            "verdict": self.verdict.value,
            "method": self.method,
            "configuration": self.configuration,
            "detail": self.detail,
            "states": self.states,
            "seconds": round(self.seconds, 4),
            "stats": self.stats,
        }
        if self.trace is not None and hasattr(self.trace, "to_json"):
            out["trace"] = self.trace.to_json()
        return out
