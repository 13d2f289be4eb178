"""``base`` names a preset or another variant file (R-none: how a file is written, not a
rule): a file builds on a file, its path relative to the file that names it; a cycle,
a missing file or a bad base file is one located error."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from dominoproof.cli import main
from dominoproof.model import VariantError, find_variant, load_variant


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_a_file_builds_on_a_file_built_on_a_preset(tmp_path: Path) -> None:
    write(tmp_path / "house" / "common.toml",
          'name = "common"\nbase = "draw-2p-d6"\n[deal]\nhand_size = 5\n[scoring]\ntie = "split"\n')
    mine = write(tmp_path / "mine.toml",
                 'name = "mine"\nbase = "house/common.toml"\n[deal]\nplayers = 3\n')
    v = load_variant(mine)
    preset = find_variant("draw-2p-d6")
    # each layer keeps what the one below it says unless it says otherwise
    assert v == preset.with_overrides({"deal.hand_size": 5, "scoring.tie": "split",
                                       "deal.players": 3})
    assert v.name == "mine"
    assert Path(v.base) == tmp_path / "house" / "common.toml"
    assert find_variant(v.base) == preset.with_overrides({"deal.hand_size": 5,
                                                          "scoring.tie": "split"})


def test_the_path_is_relative_to_the_file_not_to_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "a" / "b.toml", 'base = "block-2p-d6"\n[deal]\nhand_size = 6\n')
    write(tmp_path / "a" / "c.toml", 'base = "b.toml"\n')
    monkeypatch.chdir(tmp_path)  # no b.toml here: only a/b.toml, beside c.toml
    assert load_variant("a/c.toml").deal.hand_size == 6


def test_a_cycle_of_bases_is_one_located_error(tmp_path: Path) -> None:
    a = write(tmp_path / "a.toml", 'base = "b.toml"\n')
    write(tmp_path / "b.toml", 'base = "c.toml"\n')
    write(tmp_path / "c.toml", 'base = "a.toml"\n')
    with pytest.raises(VariantError) as e:
        load_variant(a)
    assert e.value.key == "base" and e.value.value == "a.toml"
    assert e.value.source == str(tmp_path / "c.toml")
    assert "cycle (a.toml -> b.toml -> c.toml -> a.toml)" in str(e.value)
    selfish = write(tmp_path / "self.toml", 'base = "self.toml"\n')
    with pytest.raises(VariantError, match=r"cycle \(self.toml -> self.toml\)"):
        load_variant(selfish)


def test_a_missing_base_file_and_a_bad_base_file_are_located(tmp_path: Path) -> None:
    f = write(tmp_path / "f.toml", 'base = "gone.toml"\n')
    with pytest.raises(VariantError) as e:
        load_variant(f)
    assert str(e.value).startswith(f'{f}: base = "gone.toml": no such file')
    write(tmp_path / "bad.toml", 'base = "block-2p-d6"\n[deal]\nplayers = 1\n')
    g = write(tmp_path / "g.toml", 'base = "bad.toml"\n')
    with pytest.raises(VariantError) as e:
        load_variant(g)
    # the error is the base file's own, where the bad value is written
    assert e.value.source == str(tmp_path / "bad.toml") and e.value.key == "[deal] players"
    with pytest.raises(VariantError, match="no such preset"):
        load_variant(write(tmp_path / "h.toml", 'base = "nope"\n'))


def test_the_command_line_reports_a_cycle_in_one_line_with_exit_2(tmp_path: Path) -> None:
    write(tmp_path / "a.toml", 'base = "b.toml"\n')
    write(tmp_path / "b.toml", 'base = "a.toml"\n')
    res = CliRunner().invoke(main, ["show", str(tmp_path / "a.toml")])
    assert res.exit_code == 2
    (line,) = res.output.strip().splitlines()
    assert "base" in line and "cycle" in line


def test_show_marks_what_a_file_changes_from_its_base_file(tmp_path: Path) -> None:
    write(tmp_path / "common.toml", 'base = "draw-2p-d6"\n[deal]\nhand_size = 5\n')
    mine = write(tmp_path / "mine.toml", 'base = "common.toml"\n[scoring]\ntie = "split"\n')
    res = CliRunner().invoke(main, ["show", str(mine)])
    assert res.exit_code == 0, res.output
    assert f"base: {tmp_path / 'common.toml'}" in res.output
    marked = [line.split()[1] for line in res.output.splitlines()
              if line.startswith("*") and len(line.split()) > 1]
    assert marked == ["tie"]  # hand_size is the base file's, not changed here
    assert "differs from the base file" in res.output
