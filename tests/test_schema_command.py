"""``dominoproof schema``: the shipped JSON Schemas, for a CI job that validates --json."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema
from click.testing import CliRunner

from dominoproof.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_the_kinds_are_the_shipped_schemas() -> None:
    res = CliRunner().invoke(main, ["schema"])
    assert res.exit_code == 0, res.output
    shipped = sorted(p.name.removesuffix(".schema.json")
                     for p in (ROOT / "dominoproof" / "schemas").glob("*.schema.json"))
    assert res.output.split() == shipped and "verify" in shipped


def test_a_schema_is_printed_as_shipped_and_validates_the_command_s_json() -> None:
    res = CliRunner().invoke(main, ["schema", "variants"])
    assert res.exit_code == 0, res.output
    printed = json.loads(res.output)
    assert printed == json.loads((ROOT / "dominoproof/schemas/variants.schema.json").read_text())
    doc = json.loads(CliRunner().invoke(main, ["variants", "--json"]).output)
    jsonschema.validate(doc, printed)
    doc["presets"] = "not a list"
    try:
        jsonschema.validate(doc, printed)
    except jsonschema.ValidationError:
        pass
    else:  # pragma: no cover - the assertion names the failure
        raise AssertionError("the printed schema accepted a broken document")


def test_an_unknown_kind_is_one_located_line_and_exit_2() -> None:
    res = CliRunner().invoke(main, ["schema", "verfy"])
    assert res.exit_code == 2
    (line,) = res.output.strip().splitlines()
    assert '"verfy"' in line and "allowed: " in line and "verify" in line


def test_the_ci_extra_brings_what_the_ci_job_runs() -> None:
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    names = {dep.split(">")[0].split("=")[0].strip() for dep in extras["ci"]}
    assert {"pytest", "jsonschema"} <= names
    assert "pip install 'dominoproof[ci]'" in (ROOT / "docs" / "PYTEST.md").read_text()
