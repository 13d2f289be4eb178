"""Inductive proofs per instance (``proofs/z3/queries.py`` and its layers, ``proofs/z3/lemmas.py``).

Proofs pass for the correct rules, with the strengthening found by Houdini printed
as lemmas in domino terms; the property alone is not inductive and its CTI decodes
into two states and a move; a timeout is UNKNOWN, never PROVED; the premises of the
proofs are satisfiable; the ranking function's bound is at least the longest round
exhaustive search finds.
"""

from __future__ import annotations

import pytest
from helpers import variant

from dominoproof.model.moves import MoveKind
from dominoproof.model.spec import Init
from dominoproof.model.state import Status
from dominoproof.model.variant import preset_names
from dominoproof.proofs.properties import BY_ID, CATALOGUE, Kind, Verdict
from dominoproof.proofs.z3.houdini import check_inductive
from dominoproof.proofs.z3.lemmas import BY_ID as LEMMA
from dominoproof.proofs.z3.lemmas import LEMMAS, candidates_for
from dominoproof.proofs.z3.parity import prove_parity
from dominoproof.proofs.z3.queries import CTI, TYPE_OK, Prover, ranking_for

SLOW = pytest.mark.slow


@pytest.fixture(scope="module")
def block_prover() -> Prover:
    return Prover(variant("block-2p-d6"))


def test_every_lemma_is_readable_and_cites_rules() -> None:
    for lem in LEMMAS:
        assert lem.rules and all(r.startswith(("R", "Terms")) for r in lem.rules), lem.id
        assert len(lem.statement.split()) >= 5, lem.id
        assert "z3" not in lem.statement and "==" not in lem.statement
        assert lem.show().startswith(f"{lem.id} [")


@pytest.mark.parametrize("name", ["tiny-2p-d3", pytest.param("block-2p-d6", marks=SLOW),
                                  pytest.param("fouls-4p-d6", marks=SLOW),
                                  pytest.param("draw-leave2-2p-d6", marks=SLOW)])
def test_houdini_keeps_an_inductive_set_with_the_block_properties(name: str) -> None:
    pr = Prover(variant(name))
    h = pr.invariant()
    assert not h.unknown
    assert {"blocked-sound", "conservation", "confirmed-hold-nothing"} <= set(h.ids)
    # what it kept is inductive on its own (checked again, all actions)
    status, _, _ = check_inductive(pr.enc, h.kept)
    assert status == "ok"


def test_houdini_drops_what_a_variant_breaks() -> None:
    """Under "boneyard_must_be_empty = false" (draw-one), confirmations are recorded with
    stock left: the lemma saying otherwise is dropped, naming the action (a pass)."""
    pr = Prover(variant("tiny-2p-d3", {"draw.rule": "one",
                                       "block.boneyard_must_be_empty": False}))
    h = pr.invariant()
    drops = {d.lemma: d for d in h.dropped}
    assert "confirmed-empty-boneyard" in drops
    d = drops["confirmed-empty-boneyard"]
    assert d.where == "pass" and d.move is not None and d.move.kind is MoveKind.PASS
    assert d.post is not None and d.post.confirmed > 0 and d.post.boneyard
    assert "blocked-sound" not in h.ids


def test_blocked_sound_alone_is_not_inductive_but_is_proved_with_the_lemmas(
        block_prover: Prover) -> None:
    """The motivating example: a state with the run of confirmations recorded, the boneyard
    empty and a playable tile in a hand satisfies blocked-sound; the establishment leads
    to a block that is not one. No real round reaches it: with Houdini's lemmas the
    property is PROVED. ``explain`` shows each CTI and the lemma that rules it out."""
    pr = block_prover
    lem = LEMMA["blocked-sound"]
    typed = [LEMMA[i] for i in TYPE_OK]
    assert isinstance(pr.cti(lem, typed), CTI)  # not inductive relative to TypeOK
    chain = pr.explain("blocked-sound")
    assert chain and all(c.action == "establish" for c, _ in chain)
    assert [b for _, b in chain][-1] == "confirmed-hold-nothing"
    cti = chain[-1][0]
    assert cti.move.kind is MoveKind.ESTABLISH
    assert cti.pre.status is Status.PLAYING and cti.post.status is Status.BLOCKED
    assert cti.pre.confirmed >= pr.enc.v.C and cti.pre.led and not cti.pre.boneyard
    ts = pr.variant.tiles
    assert any(set(cti.pre.open_ends) & set(ts.halves[t]) for h in cti.pre.hands
               for t in range(ts.count) if h >> t & 1), "a hand holds a tile matching an end"
    assert cti.pre.table.bit_count() <= 2  # minimised
    text = cti.describe()
    assert "establish" in text and "before:" in text and "after:" in text
    # with the lemmas the chain found, the property is inductive
    used = typed + [LEMMA[b] for _, b in chain if b]
    assert pr.cti(lem, used) is None
    r = pr.prove("blocked-sound")
    assert r.verdict is Verdict.PROVED
    assert "confirmed-hold-nothing" in r.detail


@pytest.mark.parametrize("name", ["tiny-2p-d3", pytest.param("block-2p-d6", marks=SLOW),
                                  pytest.param("fouls-4p-d6", marks=SLOW),
                                  pytest.param("partnership-4p-d6", marks=SLOW)])
def test_the_catalogue_is_proved_for_small_presets(name: str) -> None:
    pr = Prover(variant(name))
    for r in pr.prove_all():
        prop = BY_ID[r.property]
        if not prop.applies_to(pr.variant):
            assert r.verdict is Verdict.NOT_APPLICABLE
            continue
        assert r.verdict is Verdict.PROVED, (r.property, r.detail)
        assert r.seconds >= 0 and "checks" in r.stats


@pytest.mark.parametrize("fault", [None, "boneyard-check-off"])
def test_proofs_shared_among_processes_give_the_same_verdicts(fault: str | None) -> None:
    """prove_all(workers=2) forks after Houdini: same verdicts, details and sanity checks
    as one process, counterexample traces included (they cross the process boundary)."""
    from dominoproof.proofs.z3.encoding_faults import twin_prover

    def make() -> Prover:
        return twin_prover(fault) if fault else Prover(variant("tiny-2p-d3"))

    one, two = make(), make()
    a = one.prove_all(sanity=True)
    b = two.prove_all(workers=2, sanity=True)
    assert [(r.property, r.verdict, r.method) for r in a] == \
        [(r.property, r.verdict, r.method) for r in b]
    assert [(c.name, c.answer) for c in one.last_sanity] == \
        [(c.name, c.answer) for c in two.last_sanity]
    # the workers' queries are counted: Houdini's (found here) plus at least one query of
    # every property that applies (each proved in a worker)
    applicable = sum(1 for r in b if r.verdict is not Verdict.NOT_APPLICABLE)
    assert two.ledger.checks >= two.invariant().ledger.checks + applicable > 0
    if fault:
        assert any(r.verdict is not Verdict.PROVED for r in b)


def test_sanity_checks_show_the_premises_are_satisfiable(block_prover: Prover) -> None:
    checks = block_prover.sanity()
    assert [c.ok for c in checks] == [True] * len(checks)
    assert {c.expect for c in checks} == {"sat", "unsat"}


def test_a_timeout_is_unknown_never_proved() -> None:
    """With a 1 ms budget per query nothing can be shown: every verdict is UNKNOWN."""
    pr = Prover(variant("draw-2p-d6"), timeout_ms=1)
    for pid in ("blocked-sound", "procedure", "termination"):
        assert pr.prove(pid).verdict is Verdict.UNKNOWN


@pytest.mark.parametrize("pid", ["blocked-sound", "procedure", "blocked-complete",
                                 "termination"])
def test_an_incomplete_houdini_search_is_unknown_never_proved_nor_refuted(pid: str) -> None:
    """If Houdini timed out, its kept lemmas are not shown inductive: a property whose
    every other check passes is UNKNOWN -- not PROVED, and not NOT INDUCTIVE either."""
    import dataclasses

    pr = Prover(variant("tiny-2p-d3"))
    pr._inv = dataclasses.replace(pr.invariant(), unknown=True)
    assert pr.prove(pid).verdict is Verdict.UNKNOWN


def test_transition_and_state_properties_are_covered() -> None:
    """Every state and transition invariant of the catalogue has a Z3 method."""
    pr = Prover(variant("tiny-2p-d3"))
    for prop in CATALOGUE:
        if prop.kind in (Kind.STATE, Kind.TRANSITION) and prop.applies_to(pr.variant):
            r = pr.prove(prop.id)
            assert r.method.startswith("induction"), prop.id


def test_the_ranking_bound_covers_the_longest_round_found_by_search() -> None:
    """Termination: the bound from the ranking function is at least the longest round of
    the complete state graph of a small configuration (and not absurdly loose)."""
    from dominoproof.proofs.search.statespace import explore

    v = variant("block-2p-d6", {"set.max": 3, "deal.hand_size": 3})
    pr = Prover(v)
    r = pr.prove("termination")
    assert r.verdict is Verdict.PROVED
    bound = r.trace["bound"]
    assert bound == ranking_for(pr.enc).bound(pr.enc)
    res = explore(v, Init.every(), max_states=200_000)
    assert res.complete
    longest = res.figures.round_lengths[1]
    assert longest is not None and longest <= bound <= 20 * longest


@pytest.mark.parametrize(("name", "overrides"), [
    *[(n, None) for n in preset_names()],
    ("block-2p-d6", {"block.confirmations": "all-others"}),  # C = P - 1
    ("draw-2p-d6", {"draw.rule": "one", "fouls.rule": "penalised"}),
])
def test_the_ranking_bound_and_the_move_count_bound_are_one_count(
        name: str, overrides: dict[str, str] | None) -> None:
    """proofs/bounds.py: the ranking function's bound and the search's move-count bound
    (graphcheck.round_bound) are one count of a deal with two weightings, so they differ
    by exactly ``(C - P)(P*H + B + F + 1)`` plus, in draw-one games, ``C*B`` (the ranking
    weighs the pending pass ``C + 1``, the count one move): equal where ``C = P`` and the
    draw rule is not draw-one."""
    from dominoproof.model.constants import constants_of
    from dominoproof.model.variant import DrawRule, FoulRule
    from dominoproof.proofs.search.check import round_bound
    from dominoproof.proofs.z3.encoding import Encoding

    v = variant(name, overrides)
    c = constants_of(v)
    enc = Encoding(v)
    f = c.P if c.FOULS is FoulRule.PENALISED else 0
    one = c.DRAW is DrawRule.ONE
    expected = (c.C - c.P) * (c.P * c.H + c.B + f + 1) + (c.C * c.B if one else 0)
    assert ranking_for(enc).bound(enc) - round_bound(v)[0] == expected
    if c.C == c.P and not one:
        assert ranking_for(enc).bound(enc) == round_bound(v)[0]


def test_lemma_ids_are_unique_and_properties_exist() -> None:
    ids = [lem.id for lem in LEMMAS]
    assert len(ids) == len(set(ids))
    for lem in LEMMAS:
        if lem.property:
            assert lem.property in BY_ID


def test_candidates_follow_the_variant() -> None:
    from dominoproof.proofs.z3.encoding import Encoding

    block = {lem.id for lem in candidates_for(Encoding(variant("block-2p-d6")))}
    leave = {lem.id for lem in candidates_for(Encoding(variant("draw-leave2-2p-d6")))}
    assert "no-stock" in block and "no-stock" not in leave
    assert "parity" not in block and "nothing-aside" not in leave


def test_parity_is_proved_for_small_set_sizes() -> None:
    for r in prove_parity(range(1, 3)):
        assert r.verdict is Verdict.PROVED, r.configuration


@pytest.mark.slow
def test_parity_is_proved_for_every_set_size_up_to_double_18() -> None:
    got = prove_parity(range(1, 19))
    assert [r.verdict for r in got] == [Verdict.PROVED] * 18


# ---------------------------------------------------------------------------
# The command line: dominoproof prove, dominoproof bench proofs
# ---------------------------------------------------------------------------


def test_prove_command_prints_verdicts_methods_and_lemmas() -> None:
    import json

    from click.testing import CliRunner

    from dominoproof.cli import main

    r = CliRunner().invoke(main, ["prove", "block-2p-d6", "-p", "blocked-sound",
                                  "-p", "termination"])
    assert r.exit_code == 0, r.output
    assert "blocked-sound" in r.output and "PROVED" in r.output
    assert "induction per instance" in r.output and "ranking function" in r.output
    assert "confirmed-hold-nothing [R4.2, R4.3, R2.1]" in r.output
    assert "ends within 45 moves" in r.output and "sanity" in r.output
    r = CliRunner().invoke(main, ["prove", "tiny-2p-d3", "-p", "opening", "--json"])
    assert r.exit_code == 0
    data = json.loads(r.output)
    assert data["results"][0]["verdict"] == "PROVED" and data["seed"] == 0
    assert any(lem["id"] == "leader" for lem in data["lemmas"])


def test_prove_command_reports_a_violation_with_its_round() -> None:
    from click.testing import CliRunner

    from dominoproof.cli import main

    r = CliRunner().invoke(main, ["prove", "-", "--fault", "all-others-confirm",
                                  "-p", "blocked-sound"])
    assert r.exit_code == 1, r.output
    assert "VIOLATED" in r.output and "Counterexample to blocked-sound" in r.output
    assert "Where it fails" in r.output  # the round the engine replays, and where it breaks
    assert "the block is established" in r.output
    r = CliRunner().invoke(main, ["prove", "block-2p-d6", "-p", "no-such-property"])
    assert r.exit_code == 2
    r = CliRunner().invoke(main, ["prove", "block-2p-d6", "--fault", "no-such-fault"])
    assert r.exit_code == 2


@pytest.mark.slow
def test_prove_command_explains_the_lemmas() -> None:
    from click.testing import CliRunner

    from dominoproof.cli import main

    r = CliRunner().invoke(main, ["prove", "block-2p-d6", "-p", "blocked-sound", "--explain"])
    assert r.exit_code == 0
    assert "why blocked-sound needs its lemmas" in r.output
    assert "ruled out by: confirmed-hold-nothing" in r.output


def test_prove_command_times_out_to_unknown() -> None:
    from click.testing import CliRunner

    from dominoproof.cli import main

    r = CliRunner().invoke(main, ["prove", "draw-2p-d6", "-p", "procedure",
                                  "--timeout-ms", "1"])
    assert r.exit_code == 3, r.output  # UNKNOWN, sanity checks unanswered included
    assert "UNKNOWN" in r.output and "PROVED" not in r.output.split("strengthening")[0]


@pytest.mark.slow
def test_bench_proofs_smoke() -> None:
    import json

    from click.testing import CliRunner

    from dominoproof.cli import main

    r = CliRunner().invoke(main, ["bench", "proofs", "--preset", "block-2p-d6", "--json",
                                  "--check"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    (res,) = data["presets"]
    assert res["ok"] and res["met"] and res["total_seconds"] > 0
