"""Small words users met (issue 32): a count of one is singular, and every command that
plays rounds takes ``-n`` for ``--rounds``."""

from __future__ import annotations

from click.testing import CliRunner

from dominoproof.cli import main
from dominoproof.model import find_variant
from dominoproof.render.text import variant_summary


def test_one_confirmation_is_singular_and_more_are_plural() -> None:
    one = find_variant("block-2p-d6").with_overrides({"block.confirmations": 1})
    assert "block: 1 confirmation in succession" in variant_summary(one)
    assert "block: 2 confirmations in succession" in variant_summary(
        find_variant("block-2p-d6"))


def test_every_command_with_rounds_takes_n() -> None:
    for command in ("simulate", "stats", "plot", "report", "diff"):
        res = CliRunner().invoke(main, [command, "--help"])
        assert res.exit_code == 0, res.output
        assert "-n, --rounds" in res.output, command
