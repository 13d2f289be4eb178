"""Deliberately broken rule sets: every property must catch at least one of them.

A check that cannot fail is a defect. Each :class:`Fault` is one record: its id, what it
breaks (rule IDs, and in words), the properties that must catch it, and a small
configuration on which the violation is reachable (a preset, overrides, and which deals:
:attr:`Fault.demo_deals`). It breaks the rules, the scoring, or the variant (an override
a validated variant may take that breaks a guarantee; every reading reads it, so it
needs no patch). Each reading registers its own patch beside itself, keyed by the
fault's id: the engine's in :mod:`.mutants`, the Z3 encoding's in
:mod:`.encoding_faults`, the all-sizes model's beside that model. This module is data.
``tests/test_faults_graph.py`` explores each demo under the fault: every property in
``catches`` finds a counterexample, the correct rules pass, every property catches some
fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dominoproof.model.engine import init_for
from dominoproof.model.fast import system_under_test
from dominoproof.model.outcome import Outcome, Scorer, outcome
from dominoproof.model.rulebook import RuleBook
from dominoproof.model.spec import Init
from dominoproof.model.state import State
from dominoproof.model.variant import Award, Variant, find_variant
from dominoproof.proofs.mutants import ENGINE_MUTANTS, SCORING_MUTANTS


@dataclass(frozen=True)
class Fault:
    id: str
    description: str
    rules: tuple[str, ...]  #: rule IDs the fault breaks
    catches: tuple[str, ...]  #: property ids expected to catch it
    demo: str  #: a preset on which the violation is reachable ...
    demo_overrides: Mapping[str, Any] = field(default_factory=dict)  #: ... with these overrides
    variant_overrides: Mapping[str, Any] = field(default_factory=dict)
    #: ... from these deals: "every" (every deal), "seed S" (the deal of seed S), either
    #: followed by " free-draw" (every draw order)
    demo_deals: str = "every"

    def variant(self) -> Variant:
        """The demo configuration, with the fault's own variant overrides."""
        v = find_variant(self.demo)
        overrides = {**self.demo_overrides, **self.variant_overrides}
        return v.with_overrides(overrides, source=f"fault {self.id}") if overrides else v

    def init(self, variant: Variant | None = None) -> Init:
        """The demo's initial states (:attr:`demo_deals`) for ``variant`` (default: the
        demo variant)."""
        return init_for(variant or self.variant(), self.demo_deals)

    @property
    def engine(self) -> type[RuleBook] | None:
        """The engine's mutant rule book (:mod:`.mutants`), if the fault breaks the rules."""
        return ENGINE_MUTANTS.get(self.id)

    @property
    def scorer(self) -> Scorer | None:
        """The engine's mutant scoring (:mod:`.mutants`), if the fault breaks R5."""
        return SCORING_MUTANTS.get(self.id)

    def engine_for(self, variant: Variant) -> RuleBook:
        return system_under_test(variant, self.engine)

    def score(self, variant: Variant, s: State) -> Outcome | None:
        return (self.scorer or outcome)(variant, s)


#: Demo configurations, small enough to explore every deal in well under a second.
#: A draw game on double-2: 2 tiles each, 2 in the boneyard, the holder of 2-2 leads.
_DRAW_D2 = {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"}
#: The block game on double-2: 2 tiles each, 2 out of play.
_BLOCK_D2 = {"set.max": 2, "deal.hand_size": 2}
#: Muggins on double-2: 2 tiles each, 2 in the boneyard, none set aside.
_FIVES_D2 = {"set.max": 2, "deal.hand_size": 2, "deal.set_aside": 0}
#: Four players on double-2: one tile each, 2 out of play, the top double leads.
_TEAMS_D2 = {"set.max": 2, "deal.hand_size": 1, "lead.tile": "2-2"}
#: Three players on double-2, two tiles each, the holder of 2-2 leads (fouls need a
#: second tile: a lead from a hand of one is a domino).
_FOULS_D2 = {"set.max": 2, "deal.players": 3, "deal.hand_size": 2, "lead.tile": "2-2"}

#: Layouts of several lines on double-3, 3 tiles each, 4 out of play; a hub or spinner
#: needs an opening double: the highest double held leads.
_TRAINS_D3 = {"set.max": 3, "deal.hand_size": 3, "layout.kind": "trains",
              "lead.rule": "highest-double"}
_DOUBLES_D3 = {"set.max": 3, "deal.hand_size": 3, "layout.double_takes": 1}
#: A spinner whose arms wait for its sides, on double-2: 2 tiles each, 2 out of play.
_SPINNER_D2 = {"set.max": 2, "deal.hand_size": 2, "layout.kind": "spinner",
               "layout.spinner_sides_first": True, "lead.rule": "highest-double"}

FAULTS: tuple[Fault, ...] = (
    Fault("establish-without-boneyard-check",
          "a stuck player may confirm instead of drawing, and the block is established "
          "without checking the boneyard",
          ("R3.2", "R4.1", "R4.4"), ("blocked-sound", "procedure"),
          "tiny-2p-d3", demo_overrides=_DRAW_D2),
    Fault("boneyard-check-off",
          "variant: confirmations count while the boneyard still has stock (draw-one game)",
          ("R4.4",), ("blocked-sound", "procedure"),
          "tiny-2p-d3", variant_overrides={"draw.rule": "one",
                                          "block.boneyard_must_be_empty": False},
          demo_deals="seed 0 free-draw"),
    Fault("confirm-while-playable",
          "a player holding a playable tile may confirm inability, and it counts",
          ("R4.3", "R4.5"), ("no-false-confirmation", "blocked-sound"),
          "block-2p-d6", demo_overrides=_BLOCK_D2),
    Fault("all-others-confirm",
          "variant: the block is established after every player but one has confirmed",
          ("R4.4",), ("blocked-sound", "procedure"),
          "block-2p-d6", demo_overrides=_BLOCK_D2,
          variant_overrides={"block.confirmations": "all-others"}),
    Fault("draw-loses-tile", "a drawn tile leaves the boneyard but never reaches the hand",
          ("Terms", "R3.1"), ("conservation",), "tiny-2p-d3", demo_overrides=_DRAW_D2),
    Fault("lead-ignores-variant", "the lead ignores the variant's lead rule",
          ("Terms",), ("opening",), "tiny-2p-d3", demo_overrides=_DRAW_D2),
    Fault("extra-confirmation", "the block needs one confirmation more than the variant says",
          ("R4.4",), ("blocked-complete",), "block-2p-d6", demo_overrides=_BLOCK_D2),
    Fault("confirm-resets", "each confirmation restarts the count: no block is ever "
          "established", ("R4.2", "R4.4"), ("termination", "blocked-complete"),
          "block-2p-d6", demo_overrides=_BLOCK_D2),
    Fault("draw-from-empty-boneyard", "with the boneyard empty, a stuck player draws a "
          "set-aside tile", ("R3.1", "R3.2"), ("boneyard-monotone",),
          "draw-leave2-2p-d6", demo_overrides=_BLOCK_D2),
    # R3.5's house rule on the draw demo: a player who can play may draw instead
    Fault("voluntary-pass", "any-time drawing stated as passing: a player who can play, "
          "with stock left, may pass the turn without drawing", ("R3.5", "R1.2"),
          ("termination",), "tiny-2p-d3",
          demo_overrides={**_DRAW_D2, "draw.when": "any-time"}),
    # R4.7's call on the draw demo: stock is left to hold a tile of the called number
    # (no abstract twin: called-block is not stated for every N and P)
    Fault("call-unmatched-end", "the call read as \"no hand holds a tile of an end's "
          "number\": a block is called while the boneyard still holds one, so the end is "
          "not dead", ("R4.7",), ("called-block",), "tiny-2p-d3",
          demo_overrides={**_DRAW_D2, "block.call": "dead-end"}),
    # R3.6 on the draw demo: in a deal whose boneyard holds 2-2, the players draw for it
    Fault("lead-draws-alone", "drawing for the lead read as drawing until playable: the "
          "first player draws alone until the named tile turns up, the turn never passing",
          ("R3.6",), ("opening",), "tiny-2p-d3",
          demo_overrides={**_DRAW_D2, "lead.fallback": "draw"}),
    # Parity needs every tile in play and, to be refuted by a line whose ends never
    # change, an odd N: double-3, 5 tiles each, any opening tile.
    Fault("play-keeps-end", "a tile laid on an end leaves it showing the same number",
          ("R2.1", "Terms"), ("parity",), "block-2p-d6",
          demo_overrides={"set.max": 3, "deal.hand_size": 5}),
    # A tie for the lowest count needs a little more room: double-3, 2 tiles each.
    Fault("tie-wrong", "a tie is always won by the tied side last in seat order",
          ("R5.5",), ("tie",), "block-2p-d6",
          demo_overrides={"set.max": 3, "deal.hand_size": 2}),
    Fault("highest-wins", "at a block the side with the highest total wins",
          ("R5.2",), ("winner-lowest",), "block-2p-d6", demo_overrides=_BLOCK_D2),
    Fault("award-ignores-variant", "the award is always the sum of the others' totals",
          ("R5.4",), ("award",), "block-2p-d6",
          demo_overrides={**_BLOCK_D2, "scoring.block_award": Award.ALL_RESIDUALS.value}),
    Fault("doubles-count-once", "a double a-a counts a instead of 2a",
          ("R5.3",), ("pips",), "block-2p-d6", demo_overrides=_BLOCK_D2),
    # Teams that are not a seat stride: seats 0 and 1 against 2 and 3, one tile each.
    Fault("team-stride", "side totals are summed over a seat stride, not the teams listed",
          ("R5.2",), ("pips",), "partnership-4p-d6",
          demo_overrides={**_TEAMS_D2, "partnerships.teams": [[0, 1], [2, 3]]}),
    Fault("tiles-counted-as-pips", 'under block_winner "fewest-tiles" a block is still '
          "won by the fewest pips", ("R5.2a",), ("winner-lowest",), "block-2p-d6",
          demo_overrides={**_BLOCK_D2, "scoring.block_winner": "fewest-tiles"}),
    Fault("penalty-to-side-index", "a foul's penalty is charged to the seat numbered like "
          "its author's side", ("R4.5",), ("foul-penalty",), "fouls-4p-d6",
          demo_overrides={**_FOULS_D2, "partnerships.teams": [[0, 2], [1]],
                          "partnerships.compare": "team"}),
    Fault("scores-ignore-penalties", "a side's final score is its award, fouls forgotten",
          ("R4.5",), ("final-scores",), "fouls-4p-d6", demo_overrides=_FOULS_D2),
    # The layouts' faults are shown on one seeded deal where the layout has blocks the
    # catalogue rejects under the correct rules too (a train opened by the last
    # confirmation, a double nobody can cover beside a matching end: docs/LAYOUTS.md);
    # on the deal chosen the correct rules pass every property and the fault is caught.
    Fault("marker-stays-in", "trains: a pass or a confirmation leaves the player's marker "
          "in, so their train stays closed to the others", ("R2.3", "R3.1", "R4.2"),
          ("markers", "readings-agree"), "block-2p-d6", demo_overrides=_TRAINS_D3,
          demo_deals="seed 0"),
    Fault("double-left-uncovered", "while a double waits to be covered, play may go "
          "elsewhere", ("R2.2",), ("doubles-covered",), "block-2p-d6",
          demo_overrides=_DOUBLES_D3, demo_deals="seed 0"),
    Fault("doubles-pile-up", "while a double waits to be covered, play may go elsewhere, "
          "and a double laid there waits too", ("R2.2",), ("doubles-covered",),
          "block-2p-d6", demo_overrides=_DOUBLES_D3, demo_deals="seed 0"),
    Fault("arms-open-early", "a spinner's arms may be played on before its sides are "
          "covered", ("Terms", "R2.2"), ("spinner-arms",), "block-2p-d6",
          demo_overrides=_SPINNER_D2),
    Fault("confirm-past-double", "a player holding a tile that covers a pending slot may "
          "confirm inability anyway, and it counts", ("R1.1", "R4.4"),
          ("uncoverable-double",), "block-2p-d6", demo_overrides=_DOUBLES_D3,
          demo_deals="seed 0"),
    Fault("restart-forgotten-last", "trains, where a confirmation that puts a marker out "
          "restarts the run: the restart is forgotten on the confirmation that completes "
          "it, so the block stands on a train it has just opened", ("R4.4",),
          ("blocked-sound", "procedure"), "block-2p-d6",
          demo_overrides={**_TRAINS_D3, "block.restart_on_marker": True},
          demo_deals="seed 3"),
    # R2.3's house rules of trains, each on trains that state it (three seats for the
    # first: a train whose owner's marker is in, a mover whose marker is in, a third out)
    Fault("any-marker-opens", 'open_trains = "own-marker-out" read as: every train is '
          "open to every player while any marker is out, the mover's own in or not",
          ("R2.3",), ("train-access",), "block-2p-d6",
          demo_overrides={**_TRAINS_D3, "deal.players": 3, "deal.hand_size": 2,
                          "layout.open_trains": "own-marker-out"}, demo_deals="seed 0"),
    Fault("public-before-own", 'public_train = "after-own" broken: the public train is '
          "open to a player whose own train has no tile yet", ("R2.3",), ("train-access",),
          "block-2p-d6", demo_overrides={**_TRAINS_D3, "deal.hand_size": 2,
                                         "layout.public_train": "after-own"},
          demo_deals="seed 0"),
    # R2.2's house rule of the trains family: a double that must be covered is no
    # player's last tile (out_on_double = "covered"); shown on a line whose doubles must
    # be covered, which the all-sizes model states too
    Fault("out-on-waiting-double", 'out_on_double = "covered" broken: a player lays a '
          "double that must be covered as their last tile, and the round ends on it",
          ("R2.2",), ("doubles-covered",), "block-2p-d6",
          demo_overrides={**_DOUBLES_D3, "layout.out_on_double": "covered"},
          demo_deals="seed 11"),
    # R2.3's first turns on trains: the test of "own train not started" forgotten
    Fault("every-turn-first", 'first_turn = "own-train" read as: on every turn, not only '
          "the first, a play on one's own train lets its player lay another there",
          ("R2.3",), ("train-access",), "block-2p-d6",
          demo_overrides={**_TRAINS_D3, "layout.first_turn": "own-train"},
          demo_deals="seed 0"),
    # R2.1's Matador matching on the block demo (double-2: halves sum to 3; 0-0 and 1-2
    # are the matadors); no abstract twin: Matador's sums are not stated for every N
    Fault("matador-tame", 'match = "matador" broken: the matadors are not wild, laid (and '
          "counted as playable) only where a half sums with the end to N+1, so a player "
          "holding one declares they cannot play and the block is established while it "
          "could still be laid", ("R2.1",), ("blocked-sound", "no-false-confirmation"),
          "block-2p-d6", demo_overrides={**_BLOCK_D2, "layout.match": "matador"}),
    # R5.7's scoring in play, on Muggins' line shrunk to double-2, hands of 2
    Fault("fives-any-count", 'in_play = "fives" broken: a play scores the ends\' count '
          "whatever it is, not only a multiple of 5", ("R5.7",), ("points-in-fives",),
          "muggins-2p-d6", demo_overrides=_FIVES_D2),
)

FAULTS_BY_ID: dict[str, Fault] = {f.id: f for f in FAULTS}
