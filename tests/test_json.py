"""Versioned JSON (``dominoproof/jsonout.py``): every document a command writes names its
format (``dominoproof.<command>``) and version, validates against the JSON Schema shipped
with the package, has no key with a space, and follows one ``--json [FILE|-]`` convention
(``-`` or no value: the document on standard output instead of the text; a FILE: the
document there, the text as usual)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from dominoproof.cli import main
from dominoproof.jsonout import DOCUMENTS, VERSION, plain_keys, schema
from dominoproof.model import Trace, find_variant, random_round
from dominoproof.model.errors import TraceError


def validate(kind: str, doc: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(schema(kind)).validate(doc)
    assert doc["format"] == f"dominoproof.{kind}" and doc["version"] == VERSION


@pytest.fixture(scope="module")
def trace_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    p = tmp_path_factory.mktemp("json") / "round.json"
    r = CliRunner().invoke(main, ["play", "tiny", "--seed", "2", "--json", str(p)])
    assert r.exit_code == 0, r.output
    assert "Moves" in r.stdout or r.stdout  # with a FILE, the text is printed as usual
    return str(p)


COMMANDS = [
    ("variants", ["variants"]),
    ("show", ["show", "partnership"]),
    ("trace", ["play", "tiny", "--seed", "3"]),
    ("simulate", ["simulate", "tiny", "-n", "40", "--seed", "1"]),
    ("simulate", ["simulate", "tiny", "-n", "40", "--policy", "greedy"]),
    ("stats", ["stats", "block-2p-d6", "-o", "set.max=2", "-o", "deal.hand_size=2"]),
    ("stats", ["stats", "tiny", "--sampled", "-n", "60", "--policy", "block-seeking"]),
    ("stats", ["stats", "tiny", "--max-states", "500"]),  # UNKNOWN: no figures, exit 3
    ("explore", ["explore", "tiny", "--seed", "1"]),
    ("prove", ["prove", "tiny", "-p", "termination", "-p", "award", "--workers", "1"]),
    ("witness", ["witness", "tiny", "tie"]),
    ("witnesses", ["witnesses", "tiny", "--question", "tie", "--question",
                   "block-before-empty-boneyard", "--seconds", "4"]),
    ("crosscheck", ["crosscheck", "tiny", "--seed", "1"]),
    ("verify", ["verify", "tiny", "--no-faults", "--workers", "1"]),
    ("diff", ["diff", "tiny", "-o", "scoring.tie=split", "--rounds", "50"]),
    ("repair", ["repair", "tiny", "--workers", "1"]),  # it holds: said at once
    ("bench-engine", ["bench", "engine", "--smoke", "--seconds", "0.05", "--repeats", "1",
                      "--memory-rounds", "5"]),
    pytest.param("bench-proofs", ["bench", "proofs", "--preset", "block-2p-d6",
                                  "--workers", "1"], marks=pytest.mark.slow),
]


@pytest.mark.parametrize("kind, args", COMMANDS)
def test_each_command_writes_a_document_its_schema_accepts(kind: str, args: list[str]) -> None:
    r = CliRunner().invoke(main, [*args, "--json"])
    assert r.exit_code in (0, 1, 3), r.output
    doc = json.loads(r.stdout)  # the document alone: no text around it
    validate(kind, doc)


def test_replay_writes_a_replay_document(trace_file: str) -> None:
    r = CliRunner().invoke(main, ["replay", trace_file, "--json", "-"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    validate("replay", doc)
    validate("trace", doc["trace"])
    assert doc["checked_moves"] == len(doc["trace"]["moves"]) > 0


def test_json_to_a_file_keeps_the_text(tmp_path: Path) -> None:
    out = tmp_path / "show.json"
    r = CliRunner().invoke(main, ["show", "tiny", "--json", str(out)])
    assert r.exit_code == 0 and "derived" in r.stdout
    validate("show", json.loads(out.read_text()))


def test_every_document_kind_ships_a_schema_that_can_reject() -> None:
    for kind in DOCUMENTS:
        s = schema(kind)
        assert s["properties"]["format"] == {"const": f"dominoproof.{kind}"}
    v = jsonschema.Draft202012Validator(schema("variants"))
    good = {"format": "dominoproof.variants", "version": VERSION, "presets": [
        {"name": "x", "aliases": [], "description": "", "set": 6, "players": 2,
         "hand_size": 7, "set_aside": 0, "draw": "none", "lead": "P0", "tie": "none"}]}
    assert v.is_valid(good)
    assert not v.is_valid({**good, "version": VERSION + 1})
    assert not v.is_valid({**good, "format": "dominoproof.show"})
    spaced = json.loads(json.dumps(good))
    spaced["presets"][0]["max memory"] = 1  # a key with a space, however deep
    assert not v.is_valid(spaced)


def test_no_key_has_a_space() -> None:
    assert plain_keys({"sat conflicts": 1, "a": [{"max memory": 2}]}) == \
        {"sat_conflicts": 1, "a": [{"max_memory": 2}]}


def test_a_trace_of_the_earlier_format_name_still_replays() -> None:
    t = random_round(find_variant("tiny-2p-d3"), 5)
    data = t.to_json()
    data["format"] = "dominoproof-trace/1"
    del data["version"]
    assert Trace.from_json(data).moves == t.moves
    with pytest.raises(TraceError, match=r"dominoproof\.trace document of version 1"):
        Trace.from_json({**t.to_json(), "version": 2})


def test_the_stats_schema_rejects_a_figure_without_its_interval() -> None:
    r = CliRunner().invoke(main, ["stats", "tiny", "--sampled", "-n", "30", "--json"])
    doc = json.loads(r.stdout)
    validate("stats", doc)
    assert doc["figures"]["blocked"]["interval"] is not None
    broken = json.loads(r.stdout)
    broken["figures"]["blocked"]["interval"] = [0.1]
    assert not jsonschema.Draft202012Validator(schema("stats")).is_valid(broken)
    broken["figures"]["blocked"] = {"value": 0.1}
    assert not jsonschema.Draft202012Validator(schema("stats")).is_valid(broken)
