"""The README is part of the build: its commands exist and its examples are valid."""

from __future__ import annotations

import re
import shlex
import subprocess
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from dominoproof.cli import main
from dominoproof.model.variant import load_variant_data

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def _setup_commands() -> list[str]:
    section = README.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, flags=re.S)
    assert block is not None
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_exactly_two_setup_commands_one_runs_verify_one_passes_the_tests() -> None:
    first, second = _setup_commands()  # exactly two
    assert first.endswith("dominoproof verify")
    assert "pytest" in second and "--tier=all" in second


def test_ci_runs_the_readmes_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'eval "$test_command"' in ci and "scripts/readme-command 2" in ci
    # ... in a newcomer's environment: HOME, PATH and LANG, nothing else inherited
    assert 'exec env -i HOME="$HOME" PATH="$PATH" LANG=' in ci
    got = subprocess.run([str(ROOT / "scripts" / "readme-command"), "2"], check=True,
                         capture_output=True, text=True).stdout.strip()
    assert got == _setup_commands()[1]


def _tour_commands() -> list[list[str]]:
    out = []
    for block in _blocks("sh")[1:]:
        for line in block.splitlines():
            line = line.split("#", 1)[0].strip()
            for part in re.split(r"\s*(?:&&|;|>)\s*", line):
                words = shlex.split(part) if part else []
                if words[:1] == ["dominoproof"]:
                    out.append(words[1:])
    return out


@pytest.mark.parametrize("words", _tour_commands(), ids=lambda w: " ".join(w[:2]))
def test_every_tour_command_exists(words: list[str]) -> None:
    res = CliRunner().invoke(main, [*words[:2 if words[0] == "bench" else 1], "--help"])
    assert res.exit_code == 0, res.output


def test_the_variant_file_example_is_a_valid_variant() -> None:
    (text,) = _blocks("toml")
    v = load_variant_data(tomllib.loads(text), source="README example")
    assert v.draw.rule.value == "one" and v.scoring.tie.value == "split"
