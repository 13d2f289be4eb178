"""CLI conventions people expect: NO_COLOR (https://no-color.org) is respected."""

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
