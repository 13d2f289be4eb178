"""``dominoproof check-log``: logged rounds replayed under a variant
(``proofs/analysis/checklog.py``).

Rounds our engine plays agree with themselves; moves the rules force (R4.2 confirmations,
the R4.4 establishment, the R1.2 domino) that a log leaves out are inserted and counted;
a move the variant forbids is the first deviation, with the rule ID our engine cites,
the mover, our legal moves and the ends; a logged score that is not the variant's is an
R5.4 deviation; the summary counts deviations by rule; bad logs are one located line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from dominoproof.cli import main
from dominoproof.jsonout import schema
from dominoproof.model import find_variant, random_round
from dominoproof.model.moves import MoveKind
from dominoproof.model.state import Status
from dominoproof.proofs.analysis.checklog import check_log


def blocked_round(name: str) -> dict[str, Any]:
    """The first seeded random round of ``name`` that ends blocked (so it holds R4
    confirmations and an establishment)."""
    v = find_variant(name)
    for seed in range(500):
        t = random_round(v, seed)
        if t.final.status is Status.BLOCKED:
            data: dict[str, Any] = t.to_json()
            return data
    raise AssertionError("no blocked round in 500 seeds")


def lines(*rounds: dict[str, Any]) -> str:
    return "\n".join(json.dumps(r) for r in rounds) + "\n"


def test_our_own_rounds_agree() -> None:
    v = find_variant("draw-2p-d6")
    rounds = [random_round(v, s).to_json() for s in range(20)]
    report = check_log(v, lines(*rounds), "log")
    assert [r.agrees for r in report.rounds] == [True] * 20
    assert sum(r.expanded for r in report.rounds) == 0
    assert report.exit_code == 0


def test_implicit_confirmations_and_establishment_are_expanded() -> None:
    data = blocked_round("block-2p-d6")
    forced = [m for m in data["moves"] if m["kind"] in ("confirm", "establish")]
    assert forced  # a block is established by confirmations (R4.2, R4.4)
    terse = dict(data, moves=[m for m in data["moves"]
                              if m["kind"] not in ("confirm", "establish")])
    r = check_log(find_variant("block-2p-d6"), json.dumps(terse), "log").rounds[0]
    assert r.agrees and r.status == "blocked"
    assert r.expanded == len(forced)


def test_a_move_the_variant_forbids_is_the_first_deviation_with_its_rule() -> None:
    data = blocked_round("draw-2p-d6")
    v = find_variant("draw-2p-d6")
    # the first play on an end: make it an end that is not open
    i, m = next((i, m) for i, m in enumerate(data["moves"])
                if m["kind"] == "play" and m.get("end") is not None)
    bad = json.loads(json.dumps(data))
    bad["moves"][i]["end"] = (m["end"] + 1) % (v.n + 1)
    d = check_log(v, json.dumps(bad), "log").rounds[0].deviation
    assert d is not None and d.step == i
    assert d.rule.startswith("R2") and d.mover == m["player"]
    assert d.legal and d.ends  # our view: the legal moves and the ends


def test_a_block_established_too_early_deviates_under_the_real_rules() -> None:
    """A log of an engine that establishes a block after one confirmation of four (R4.4
    broken) deviates from the 4-player block game, at the establishment."""
    broken = find_variant("block-4p-d6").with_overrides({"block.confirmations": 1})
    for seed in range(200):
        t = random_round(broken, seed)
        kinds = [m.kind for m in t.moves]
        if MoveKind.ESTABLISH in kinds and kinds.count(MoveKind.CONFIRM) < 4:
            break
    data = t.to_json()
    report = check_log(find_variant("block-4p-d6"), json.dumps(data), "log")
    d = report.rounds[0].deviation
    assert d is not None and d.rule == "R4.4", d
    assert report.deviations == {"R4.4": 1}


def test_a_wrong_logged_score_is_an_award_deviation() -> None:
    data = blocked_round("block-2p-d6")
    data["final"]["outcome"]["scores"] = [s + 1 for s in data["final"]["outcome"]["scores"]]
    d = check_log(find_variant("block-2p-d6"), json.dumps(data), "log").rounds[0].deviation
    assert d is not None and d.rule == "R5.4" and d.score["logged"] != d.score["ours"]


def test_a_log_that_stops_mid_round_deviates() -> None:
    data = blocked_round("draw-2p-d6")
    data["moves"] = data["moves"][:3]
    data.pop("final")
    d = check_log(find_variant("draw-2p-d6"), json.dumps(data), "log").rounds[0].deviation
    assert d is not None and d.rule == "R1.1" and d.step == 3


def test_the_command_prints_a_summary_and_valid_json(tmp_path: Path) -> None:
    good = blocked_round("block-2p-d6")
    bad = json.loads(json.dumps(good))
    bad["moves"][0]["player"] = 1 - bad["moves"][0]["player"]
    f = tmp_path / "log.jsonl"
    f.write_text(lines(good, bad))
    r = CliRunner().invoke(main, ["check-log", str(f), "block-2p-d6"])
    assert r.exit_code == 1, r.output
    assert "round 0: agrees" in r.stdout and "round 1: DEVIATES at step 0" in r.stdout
    assert "summary: 1 agree, 1 deviate" in r.stdout
    r = CliRunner().invoke(main, ["check-log", str(f), "block-2p-d6", "--json"])
    doc = json.loads(r.stdout)
    jsonschema.Draft202012Validator(schema("check-log")).validate(doc)
    assert doc["summary"]["deviate"] == 1


@pytest.mark.parametrize("text, needle", [
    ("", "the log is empty"),
    ("[1, 2]", "round 0: not a round"),
    ('{"deal": {"hands": [["0-0"]], "stack": []}, "moves": []}', "not a deal of"),
])
def test_a_bad_log_is_one_located_line(tmp_path: Path, text: str, needle: str) -> None:
    f = tmp_path / "log.json"
    f.write_text(text)
    r = CliRunner().invoke(main, ["check-log", str(f), "block-2p-d6"])
    assert r.exit_code == 2 and r.stdout == ""
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and needle in err[0] and "log.json" in err[0]


DEAL = "P0: 0-0 0-1 0-2 0-3 0-4 0-5 0-6; P1: 1-1 1-2 1-3 1-4 1-5 1-6 2-2"


def test_play_from_a_given_deal_replays_and_keeps_the_deal(tmp_path: Path) -> None:
    out = tmp_path / "round.json"
    r = CliRunner().invoke(main, ["play", "block-2p-d6", "--deal", DEAL, "--seed", "3",
                                  "--json", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    hands = [sorted(h) for h in data["deal"]["hands"]]
    assert hands == [sorted(p.split(": ")[1].split()) for p in DEAL.split("; ")]
    r = CliRunner().invoke(main, ["replay", str(out)])  # every move legal, final reached
    assert r.exit_code == 0, r.output
    again = CliRunner().invoke(main, ["play", "block-2p-d6", "--deal", DEAL, "--seed", "3"])
    assert again.stdout == CliRunner().invoke(
        main, ["play", "block-2p-d6", "--deal", DEAL, "--seed", "3"]).stdout


@pytest.mark.parametrize("deal, needle", [
    ("P0: 0-0", "no hand for P1"),
    ("P0: 0-0 0-1 0-2 0-3 0-4 0-5 0-6; P1: 0-0 1-2 1-3 1-4 1-5 1-6 2-2", "--deal"),
])
def test_play_rejects_a_deal_that_is_not_the_variants(deal: str, needle: str) -> None:
    r = CliRunner().invoke(main, ["play", "block-2p-d6", "--deal", deal])
    assert r.exit_code == 2 and r.stdout == ""
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and needle in err[0]
