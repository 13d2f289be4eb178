"""The presets of published variants and the scoring parameters they brought (R5.2-R5.5).

* Each preset loads without a warning and cites the published rules it follows in its
  file's comments.
* Random rounds of each preset: the engine's legal moves, successors and outcome equal
  the plain reference rules' (``tests/reference_rules.py``) on every state, and the final
  outcome equals the declarative Z3 scoring read on the state (``proofs/z3/scoring.py``).
* Each scoring parameter the presets use is shown to matter to all three scorers -- the
  engine's (``model/outcome.py``), the reference's and Z3's: a blocked state scored under
  the parameter and under a contrasting value gives two different, hand-computed results,
  so a scorer that ignored the parameter would fail one of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from helpers import established, variant
from reference_rules import ReferenceOracle, from_model
from reference_scoring import score as reference_score

from dominoproof.model import random_round
from dominoproof.model.outcome import outcome
from dominoproof.model.variant import VariantError, presets
from dominoproof.proofs import conformance as c
from dominoproof.proofs.z3.scoring import ScoreReader

#: the presets of the variants of "Layouts of several lines", section 3
NEW = ["all-fives-2p-d6", "bergen-2p-d6", "chickenfoot-4p-d9", "cuban-4p-d9",
       "dominican-4p-d6", "double-draw-2p-d6", "mextrain-4p-d12", "pool-3p-d6",
       "sebastopol-4p-d6", "matador-2p-d6"]


@pytest.mark.parametrize("name", NEW)
def test_each_preset_loads_and_cites_its_published_rules(name: str) -> None:
    v = presets()[name]
    assert v.warnings == ()
    text = v.to_toml()  # round trip: the preset says nothing the variant cannot hold
    assert presets()[name].name == name and text
    from importlib import resources

    src = resources.files("dominoproof.model.presets").joinpath(f"{name}.toml")
    comments = [ln for ln in src.read_text("utf-8").splitlines() if ln.startswith("#")]
    cited = " ".join(ln for ln in comments if "Source" in ln or "." in ln)
    assert any(k in cited for k in ("Source:", "Sources:")), name
    assert any(dom in cited for dom in (".com", ".net", ".org", ".html", "Hoyle")), name


def _states(name: str, seeds: int) -> list[Any]:
    v = presets()[name]
    return [s for seed in range(seeds) for s in random_round(v, seed).states()]


@pytest.mark.parametrize("name", NEW)
def test_random_rounds_agree_with_the_reference_rules(name: str) -> None:
    """Every state of random rounds: the engine's moves, successors, classification and
    score equal the plain reference rules' (the layouts' slots read plainly by
    ``tests/reference_layout.py``)."""
    v = presets()[name]
    res = c.compare(v, _states(name, 5), c.EngineOracle(v), ReferenceOracle(v))
    assert res.ok, res.describe()
    assert res.terminal == 5 and res.transitions > 0


def _fields(res: Any) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    return tuple(res.winners), tuple(res.awards), tuple(res.scores)


@pytest.mark.parametrize("name", NEW)
def test_random_rounds_score_alike_in_the_engine_the_reference_and_z3(name: str) -> None:
    """The final state of random rounds (all nine, layouts included: R5 reads no slot):
    the engine's outcome, the reference's score and the declarative Z3 scoring agree."""
    v = presets()[name]
    reader = ScoreReader(v)
    for seed in range(5):
        s = random_round(v, seed).final
        got = outcome(v, s)
        want = reference_score(v, from_model(v, s))
        z3 = reader.read(s)
        assert got is not None and want is not None and z3 is not None
        assert (tuple(got.winners), got.awards, got.scores) == (
            want["winners"], want["awards"], want["scores"]), (name, seed)
        assert _fields(z3) == _fields(got), (name, seed)


# ---------------------------------------------------------------------------
# Each scoring parameter matters to every scorer
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A blocked state (``hands`` around the line ``line``, block proposed by
    ``proposer``) of ``base`` with ``overrides``: the winners and awards under
    ``param``, and under ``contrast`` instead."""

    id: str
    base: str
    overrides: dict[str, Any]
    hands: list[str]
    param: dict[str, Any]
    want: tuple[tuple[int, ...], tuple[int, ...]]
    contrast: dict[str, Any]
    other: tuple[tuple[int, ...], tuple[int, ...]]
    line: str = "0-6"
    proposer: int = 0


B4 = {"deal.hand_size": 2}
CASES = [
    # no pips change hands (Bergen, Domino Pool, Mexican Train, Chicken Foot):
    # residuals 4, 6, 10, 9
    Case("award-nothing", "block-4p-d6", B4, ["1-3", "2-4", "5-5", "4-5"],
         {"scoring.block_award": "nothing"}, ((0,), (0, 0, 0, 0)),
         {"scoring.block_award": "others-sum"}, ((0,), (25, 0, 0, 0))),
    # the one tied hand without a double wins (Bergen): [1|3] against [2|2], 4 each
    Case("tie-no-double", "block-4p-d6", B4, ["1-3", "2-2", "5-5", "4-5"],
         {"scoring.tie": "no-double"}, ((0,), (23, 0, 0, 0)),
         {"scoring.tie": "none"}, ((), (0, 0, 0, 0))),
    # ... and where both tied hands are free of doubles, nobody: [1|4] and [2|3], 5 each
    Case("tie-no-double-both-free", "block-4p-d6", B4, ["1-4", "2-3", "5-5", "4-5"],
         {"scoring.tie": "no-double"}, ((), (0, 0, 0, 0)),
         {"scoring.tie": "lightest-tile"}, ((1,), (0, 24, 0, 0))),
    # a tie goes to la mano, the seat that led (Dominican): P1 led, P0 proposed
    Case("tie-leader", "block-4p-d6", {**B4, "lead.rule": "player", "lead.player": 1},
         ["1-3", "2-2", "5-5", "4-5"],
         {"scoring.tie": "leader"}, ((1,), (0, 23, 0, 0)),
         {"scoring.tie": "first-from-proposer"}, ((0,), (23, 0, 0, 0))),
    # ... clockwise past the last seat: P2 led, P3 is not tied, P0 is
    Case("tie-leader-clockwise", "block-4p-d6", {**B4, "lead.rule": "player",
                                                  "lead.player": 2},
         ["1-3", "2-2", "5-5", "4-5"], {"scoring.tie": "leader"}, ((0,), (23, 0, 0, 0)),
         {"scoring.tie": "first-from-proposer"}, ((1,), (0, 23, 0, 0)), proposer=1),
    # awards rounded to the nearest 5 (All Fives): 4 + 10 + 9 = 23 -> 25
    Case("round-to-5", "block-4p-d6", B4, ["1-2", "2-2", "5-5", "4-5"],
         {"scoring.round_to": 5}, ((0,), (25, 0, 0, 0)),
         {"scoring.round_to": 1}, ((0,), (23, 0, 0, 0))),
    # [0|0] worth 50 (Mexican Train, Chicken Foot): the line 1-6, so [0|0] is stuck
    Case("double-blank-50", "block-4p-d6", B4, ["0-0", "2-3", "4-5", "5-5"],
         {"scoring.tile_values": {"0-0": 50}}, ((1,), (0, 69, 0, 0)),
         {"scoring.tile_values": {}}, ((0,), (24, 0, 0, 0)), line="1-6"),
    # ties divide the pool (Domino Pool): no pips, both tied players named
    Case("tie-split-pool", "block-4p-d6", {**B4, "scoring.block_award": "nothing"},
         ["1-3", "2-2", "5-5", "4-5"], {"scoring.tie": "split"}, ((0, 1), (0, 0, 0, 0)),
         {"scoring.tie": "none"}, ((), (0, 0, 0, 0))),
    # the lower team wins everyone's pips (Dominican): 4 + 10 = 14 against 4 + 9 + 2
    Case("all-residuals-teams", "dominican-4p-d6", {}, ["1-3", "2-2", "5-5", "4-5 1-1"],
         {"scoring.block_award": "all-residuals"}, ((0,), (29, 0)),
         {"scoring.block_award": "others-sum"}, ((0,), (15, 0))),
    # ... and a tie between the teams goes to la mano's: 14 against 14
    Case("leader-teams", "dominican-4p-d6", {}, ["1-3", "2-2", "5-5", "4-4 1-1"],
         {"lead.player": 0}, ((0,), (28, 0)),
         {"lead.player": 1}, ((1,), (0, 28))),
]


def _three(v: Any, hands: list[str], line: str, proposer: int) -> list[tuple[Any, Any]]:
    """(winners, awards) by the engine, the reference and the Z3 scoring."""
    s = established(v, hands, line=line, proposer=proposer)
    got = outcome(v, s)
    ref = reference_score(v, from_model(v, s))
    z3 = ScoreReader(v).read(s)
    assert got is not None and ref is not None and z3 is not None
    return [(tuple(got.winners), got.awards), (ref["winners"], ref["awards"]),
            (z3.winners, z3.awards)]


@pytest.mark.parametrize("case", CASES, ids=lambda k: k.id)
def test_a_scoring_parameter_matters_to_every_scorer(case: Case) -> None:
    assert case.want != case.other  # the contrast must tell a scorer that ignores it
    for params, want in ((case.param, case.want), (case.contrast, case.other)):
        v = variant(case.base, {**case.overrides, **params})
        got = _three(v, case.hands, case.line, case.proposer)
        assert got == [want] * 3, (case.id, params)


def test_tie_leader_needs_a_named_leader() -> None:
    """R5.5 "leader": a finished round shows who led only under lead rule "player"."""
    with pytest.raises(VariantError, match="leader"):
        variant("block-4p-d6", {"scoring.tie": "leader"})


def test_rounding_nothing_is_a_named_warning() -> None:
    v = variant("block-2p-d6", {"scoring.round_to": 5, "scoring.block_award": "nothing",
                                "scoring.domino_award": "nothing"})
    assert any("round_to = 5 has no effect" in w for w in v.warnings)


def test_the_pinned_small_analogues_are_verifys() -> None:
    """The state counts pinned in ``tests/data/statespace.toml`` for the new presets'
    small analogues (``test_statespace.py::test_pinned_figures``) are those of the very
    configurations ``verify`` searches: the overrides give ``small_variant(preset)``."""
    import tomllib
    from pathlib import Path

    from dominoproof.proofs.search.plans import small_variant

    data = tomllib.loads((Path(__file__).parent / "data" / "statespace.toml").read_text(
        encoding="utf-8"))["config"]
    analogues = [k for k in data if "small analogue" in k["name"]]
    assert {k["variant"] for k in analogues} == set(NEW)
    for k in analogues:
        assert variant(k["variant"], k["overrides"]) == small_variant(
            presets()[k["variant"]]), k["name"]
