"""Every house rule's example file (``docs/examples/house-rules/``) verified as a designer
would: ``dominoproof verify FILE`` gives verdicts (exit 0 or 1: never bad input, never a
crash), each file is a few lines on top of a preset, the sound establishment under
trains (``sound-block.toml``) holds where Mexican Train's own block does not, a called
block (``called-block.toml``) keeps its dead end while blocked-sound fails as the rule's
finding, Chicken Foot's draw for the [9|9] (``draw-for-root.toml``, R3.6) is searched,
proved and cross-checked from a deal where nobody holds it, a double that must be covered
is never a last tile under ``out-on-double.toml`` (R2.2), with nothing found beyond the
base's own findings, and first turns on one's own train (``first-turn-train.toml``) keep
``train-access``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dominoproof.cli import main
from dominoproof.model.variant import load_variant, presets

FOLDER = Path(__file__).resolve().parent.parent / "docs" / "examples" / "house-rules"
EXAMPLES = sorted(FOLDER.glob("*.toml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_each_example_is_a_few_lines_on_a_preset(path: Path) -> None:
    v = load_variant(path)
    assert v.base in presets(), f"{path.name} builds on {v.base!r}, not a preset"
    assert v != presets()[v.base], f"{path.name} changes no rule of {v.base}"
    rules = [line for line in path.read_text("utf-8").splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert len(rules) <= 12


@pytest.mark.slow
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_each_example_verifies(path: Path, tmp_path: Path) -> None:
    out = tmp_path / "verify.json"
    r = CliRunner().invoke(main, ["verify", str(path), "--json", str(out), "-q"])
    assert r.exit_code in (0, 1), r.output
    rows = json.loads(out.read_text("utf-8"))["rows"]
    assert not [row for row in rows if row["verdict"] == "ERROR"]
    if path.stem == "called-block":
        # R4.7: a call guarantees its dead end, not R1.1: blocked-sound's violation is an
        # expected finding of the rule, saying why
        assert r.exit_code == 0, r.output
        got = {(row["part"], row["property"]): row for row in rows}
        assert got[("search", "called-block")]["verdict"] == "HOLDS"
        assert got[("z3", "called-block")]["verdict"] == "PROVED"
        sound = got[("search", "blocked-sound")]
        assert sound["verdict"] == "VIOLATED"
        assert 'finding of the rule block.call = "dead-end"' in sound["finding"]
    if path.stem == "out-on-double":  # R2.2: doubles-covered now says no last double waits
        assert r.exit_code == 0, r.output
        covered = [row["verdict"] for row in rows if row["property"] == "doubles-covered"]
        assert "VIOLATED" not in covered and "HOLDS" in covered and "PROVED" in covered
    if path.stem == "sound-block":
        assert r.exit_code == 0, r.output
        sound = [row["verdict"] for row in rows if row["property"] == "blocked-sound"]
        assert "VIOLATED" not in sound and "HOLDS" in sound
    if path.stem == "draw-for-root":  # R3.6: the draw for the [9|9], searched and proved
        assert r.exit_code == 0, r.output
        opening = {row["part"]: row for row in rows if row["property"] == "opening"}
        assert opening["search"]["verdict"] == "HOLDS"
        assert "(fallback draw)" in opening["search"]["configuration"]  # a deal reached it
        assert opening["z3"]["verdict"] == "PROVED"
        assert "draws for it" in opening["all sizes"]["configuration"]
        cross = next(row for row in rows if row["part"] == "cross-check")
        assert cross["verdict"] == "HOLDS"
    if path.stem == "first-turn-train":  # R2.3: first turns judged on every move
        access = [row["verdict"] for row in rows if row["property"] == "train-access"]
        assert "HOLDS" in access and not set(access) - {"HOLDS", "PROVED", "UNKNOWN", "N/A"}
