"""CLI conventions people expect: NO_COLOR (https://no-color.org) respected, help that
lists the ids a user picks from, one meaning per flag across commands."""

from __future__ import annotations

import pytest


def test_no_color_turns_colour_off_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from dominoproof.options import console

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    out = Terminal()
    console(out).print("[red]x[/red]")
    assert "\x1b[" in out.getvalue()  # a terminal gets colour
    monkeypatch.setenv("NO_COLOR", "1")
    out = Terminal()
    console(out).print("[red]x[/red]")
    assert "\x1b[31" not in out.getvalue() and "x" in out.getvalue()


def test_help_lists_what_a_user_picks_from() -> None:
    from click.testing import CliRunner

    from dominoproof.cli import main
    from dominoproof.proofs.faults import FAULTS
    from dominoproof.proofs.properties import CATALOGUE
    from dominoproof.proofs.z3.queries import QUESTIONS

    prove = CliRunner().invoke(main, ["prove", "--help"]).stdout
    witness = CliRunner().invoke(main, ["witness", "--help"]).stdout
    for p in CATALOGUE:
        assert p.id in prove
    for f in FAULTS:
        assert f.id in prove and f.id in witness
    for q in QUESTIONS:
        assert q in witness


def test_the_solver_seed_and_the_deal_seed_have_different_names() -> None:
    from click.testing import CliRunner

    from dominoproof.cli import main

    for cmd in ("prove", "witness", "verify"):
        text = CliRunner().invoke(main, [cmd, "--help"]).stdout
        assert "--z3-seed" in text and "--seed " not in text, cmd
    for cmd in ("play", "simulate", "explore", "crosscheck"):
        assert "--seed" in CliRunner().invoke(main, [cmd, "--help"]).stdout, cmd
    # --traces DIR is a folder wherever it appears; crosscheck counts --replays
    assert "--replays" in CliRunner().invoke(main, ["crosscheck", "--help"]).stdout


def test_verify_of_a_users_variant_checks_that_variant_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The self-test (every fault caught) runs when asked, and by default only when no
    variant is named."""
    from click.testing import CliRunner

    import dominoproof.api as api
    from dominoproof.cli import main
    from dominoproof.verify import Report

    asked: list[tuple[list[str], bool]] = []

    def fake(variants: object, *, faults: bool, **kw: object) -> Report:
        asked.append(([v.name for v in variants], faults))  # type: ignore[attr-defined]
        return Report()

    monkeypatch.setattr(api, "verify", fake)
    CliRunner().invoke(main, ["verify", "tiny"])
    CliRunner().invoke(main, ["verify", "tiny", "--faults"])
    CliRunner().invoke(main, ["verify"])
    assert asked[0] == (["tiny-2p-d3"], False)
    assert asked[1] == (["tiny-2p-d3"], True)
    assert asked[2][1] is True and len(asked[2][0]) > 1


def test_prove_says_why_a_property_is_not_applicable_in_text() -> None:
    from click.testing import CliRunner

    from dominoproof.cli import main
    from dominoproof.proofs.properties import BY_ID

    r = CliRunner().invoke(main, ["prove", "block-2p-d6", "-p", "parity", "--workers", "1"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.stdout.split("not applicable:")[1].split())
    assert text.startswith("parity (induction per instance): applies to")
    assert " ".join(BY_ID["parity"].applies_doc.split()) in text
