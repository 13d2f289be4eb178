"""Plots and the HTML report: the figures plotted are the figures computed, intervals drawn,
and the page opened in a real browser.

The plotted values are read back from the matplotlib figure and compared with figures
computed independently (``dominoproof.api``'s exact figures; sampled intervals against
exact values). The residual distribution is checked against the exact mean residual of
``stats``. The page is built from a fault's counterexamples (``proofs/faults.py``) so
that it has rounds to draw, and opened in headless Chromium: a screenshot that is not
blank, the title and a verdict in the DOM. Where matplotlib (the plots extra) or
Chromium is absent, the tests that need them skip and say so.
"""

from __future__ import annotations

import base64
import dataclasses
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from helpers import HAVE_MPL, needs_matplotlib, variant

from dominoproof import api
from dominoproof.cli import main
from dominoproof.model.engine import seeded_deal
from dominoproof.model.errors import DominoproofError
from dominoproof.model.fast import system_under_test
from dominoproof.model.moves import MoveKind
from dominoproof.model.spec import Init
from dominoproof.proofs.faults import FAULTS_BY_ID
from dominoproof.proofs.properties import Verdict
from dominoproof.proofs.search.verification import verify
from dominoproof.verify import CAUGHT, OK, Report, Row
from dominoproof.verify_job import row_of

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


# ---------------------------------------------------------------------------
# The configurations along an axis
# ---------------------------------------------------------------------------


def test_configurations_keep_the_rules_and_change_one_number() -> None:
    from dominoproof.render.plots import configuration, default_values

    v = variant("block-2p-d6")
    small, what = configuration(v, set_max=3)
    assert (small.n, small.players, small.deal.hand_size) == (3, 2, 2)  # 7 x 10/28, rounded
    assert small.boneyard_size == 0 and small.draw.rule is v.draw.rule  # still no drawing
    assert what == "double-3, 2 players x 2"
    four, _ = configuration(v, players=4)
    assert four.deal.hand_size == 7 and four.deal.set_aside == 0
    tiny, what = configuration(variant("tiny"), set_max=2)
    assert tiny.lead.tile == "2-2" and "lead tile 3-3 -> 2-2" in what  # 3-3 is not in double-2
    three, what = configuration(variant("partnership-4p-d6"), players=3)
    assert three.partnerships.teams == () and "partnerships teams [[0, 2], [1, 3]] -> []" in what
    assert default_values(v, "players") == [2, 3, 4]  # 7 tiles each: at most 4 players
    assert default_values(v, "set-size") == [3, 4, 5, 6, 7, 8, 9]
    with pytest.raises(DominoproofError, match="too few"):
        configuration(variant("tiny"), players=10, set_max=0)


@needs_matplotlib
def test_the_plotted_points_are_the_figures_with_their_intervals() -> None:
    from dominoproof.render.plots import block_figure, sweep

    v = variant("tiny")
    points = sweep(v, "set-size", [2, 3], ["random", "greedy"], rounds=400, seed=1,
                   max_exact_deals=400)  # double-2 exact (90 deals), double-3 sampled
    assert [(p.value, p.policy, p.exact) for p in points] == [
        (2, "random", True), (2, "greedy", True), (3, "random", False), (3, "greedy", False)]
    for p in points[:2]:  # the exact points: api.exact_figures of the same configuration
        other = api.exact_figures(variant("tiny", {"set.max": 2, "deal.hand_size": 2,
                                                  "lead.tile": "2-2"}), p.policy)
        assert p.figures.blocked.exact == other.blocked.exact
    for p in points[2:]:  # the sampled ones: their interval holds the exact value
        exact = api.exact_figures(v, p.policy).blocked.exact
        assert exact is not None and p.figures.blocked.contains(exact)
    fig = block_figure(points, "test")
    ax = fig.axes[0]
    bars = [c for c in ax.containers if type(c).__name__ == "ErrorbarContainer"]
    assert len(bars) == 2  # one per policy: every sampled point drawn with its interval
    for bar, p in zip(bars, points[2:], strict=True):
        (x,), (y,) = bar.lines[0].get_data()
        assert y == p.figures.blocked.value
        assert x == pytest.approx(3, abs=0.1)  # each policy a little aside (dodged)
        segs = bar.lines[2][0].get_segments()
        assert segs[0][0][1] == pytest.approx(p.figures.blocked.low)
        assert segs[0][1][1] == pytest.approx(p.figures.blocked.high)
    squares = [ln for ln in ax.get_lines() if ln.get_marker() == "s"]
    assert sorted(float(ln.get_ydata()[0]) for ln in squares) == sorted(
        p.figures.blocked.value for p in points[:2])


@pytest.fixture(scope="module")
def tiny_graph() -> Any:
    """Every deal of tiny-2p-d3, every state: one search for the exact figures here."""
    from dominoproof.proofs.analysis.stats import search_graph

    return search_graph(variant("tiny"))


def test_the_residual_distribution_agrees_with_the_exact_mean(tiny_graph: Any) -> None:
    from dominoproof.proofs.analysis.stats import figures_on_graph
    from dominoproof.render.plots import residual_distribution

    for policy in ("random", "block-seeking"):
        d = residual_distribution(variant("tiny"), policy, graph=tiny_graph)
        figures = figures_on_graph(tiny_graph, policy)
        assert d.method == "exact" and d.blocked == pytest.approx(figures.blocked.value)
        assert sum(p for _r, p, _lo, _hi in d.shares) == pytest.approx(1.0)
        mean = sum(r * p for r, p, _lo, _hi in d.shares)
        assert figures.residual.exact is not None
        assert mean == pytest.approx(float(figures.residual.exact))
        values = [r for r, *_ in d.shares]
        assert len(values) > 5 and values == list(range(values[0], values[-1] + 1))


def test_sampled_residual_intervals_hold_the_exact_shares(tiny_graph: Any) -> None:
    from dominoproof.render.plots import residual_distribution

    v = variant("tiny")
    exact = residual_distribution(v, "greedy", graph=tiny_graph)
    sampled = residual_distribution(v, "greedy", rounds=3000, seed=5, max_exact_deals=0)
    assert sampled.method == "sampled" and sampled.n and sampled.n > 200
    shares = {r: p for r, p, *_ in exact.shares}

    def misses(expected: dict[int, float]) -> int:
        return sum(not lo - 1e-9 <= expected.get(r, 0.0) <= hi + 1e-9
                   for r, _p, lo, hi in sampled.shares)

    assert misses(shares) <= 1  # 95% intervals: one miss in a dozen values at most
    # shown able to fail: the exact distribution moved by one pip is far outside
    assert misses({r + 1: p for r, p in shares.items()}) >= 4


# ---------------------------------------------------------------------------
# The plot command
# ---------------------------------------------------------------------------


@needs_matplotlib
def test_plot_writes_png_and_svg(tmp_path: Path) -> None:
    png, svg = tmp_path / "p.png", tmp_path / "p.svg"
    r = run("plot", "tiny", "--by", "players", "--values", "2,3", "--policy", "greedy",
            "-n", "200", "--max-exact-deals", "0", "--png", str(png), "--svg", str(svg))
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text and "viewBox" in text
    assert not re.search(r'href="(?!#)|url\((?!#)', text)  # nothing fetched from outside
    lines = [ln for ln in r.stdout.splitlines() if "P(block)" in ln]
    assert len(lines) == 2 and all("greedy" in ln and "sampled" in ln for ln in lines)
    r = run("plot", "tiny", "--by", "residuals", "--policy", "random",
            "--png", str(tmp_path / "r.png"))
    assert r.exit_code == 0 and "exact" in r.stdout


@pytest.mark.parametrize("args, needle", [
    (["plot", "tiny"], "--svg FILE and/or --png FILE"),
    (["plot", "tiny", "--png", "{missing}/p.png"], "does not exist"),
    (["plot", "tiny", "--values", "2,x", "--png", "{tmp}/p.png"], "--values"),
    (["plot", "tiny", "--values", "40", "--png", "{tmp}/p.png"], "--values 40"),
    (["plot", "tiny", "--policy", "lazy", "--png", "{tmp}/p.png"], "--policy lazy"),
    (["plot", "tiny", "--by", "residuals", "--values", "3", "--png", "{tmp}/p.png"],
     "--values"),
    (["report", "tiny", "--output", "{missing}/r.html"], "does not exist"),
    (["report", "no-such-variant", "--output", "{tmp}/r.html"], "no-such-variant"),
    # -o is --set in report as in every command: an override, never the page's name
    (["report", "tiny", "-o", "deal.players=3"], "--output"),
    (["report", "tiny", "-o", "{tmp}/r.html"], "Missing option '--output'"),
    (["report", "tiny", "-o", "{tmp}/x.html", "--output", "{tmp}/r.html"],
     "a file to write is --output FILE"),
    (["report", "tiny", "-o", "deal.players=x", "--output", "{tmp}/r.html"],
     "[deal] players"),
])
def test_plot_and_report_bad_input(tmp_path: Path, args: list[str], needle: str,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import dominoproof.api as api_module
    import dominoproof.render.plots as plots

    def no_work(*a: Any, **k: Any) -> Any:
        raise AssertionError("work was done before the input was checked")

    monkeypatch.setattr(plots, "sweep", no_work)
    monkeypatch.setattr(api_module, "verify", no_work)
    r = run(*[a.format(missing=tmp_path / "no-such-folder", tmp=tmp_path) for a in args])
    assert r.exit_code == 2, r.output
    assert len(r.stderr.strip().splitlines()) == 1 and needle in r.stderr
    assert not list(tmp_path.iterdir())


def test_plot_without_matplotlib_names_the_extra(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    r = run("plot", "tiny", "--png", str(tmp_path / "p.png"))
    assert r.exit_code == 2 and "pip install 'dominoproof[plots]'" in r.stderr
    assert not list(tmp_path.iterdir())


# ---------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------


def fault_report(fault_id: str = "confirm-while-playable") -> Report:
    """The search part of verify's self-test for one fault, on tiny-2p-d3: the rows
    (with their counterexample rounds) a report of ``verify --faults`` carries."""
    fault = FAULTS_BY_ID[fault_id]
    v = variant("tiny")
    ver = verify(v, Init.one(seeded_deal(v, 0)), engine=fault.engine, scorer=fault.scorer,
                 inapplicable=True)
    subject = f"fault {fault_id}"
    book = system_under_test(v, fault.engine) if fault.engine is not None else None
    rows = [row_of(subject, "search", r, CAUGHT if r.property in fault.catches else
                    (*OK, Verdict.NOT_APPLICABLE.value, *CAUGHT), variant=v,
                    scorer=fault.scorer, rules=book) for r in ver.results]
    return Report(rows=rows, seconds=1.0, subjects=[subject])


def small_page(plots: bool = True) -> tuple[str, Report]:
    from dominoproof.render.html import gather, page

    report = fault_report()
    v = variant("tiny", {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"})
    sections = gather([v], rounds=150, seed=0, max_exact_deals=100, plots=plots)
    return page(report, sections), report


def plays_in_rounds(report: Report) -> int:
    from dominoproof.render.html import counterexample_rounds

    rounds = counterexample_rounds(report)
    assert rounds and all(t is not None for _rows, t, _why in rounds)
    return sum(1 for _rows, t, _why in rounds for m in t.moves  # type: ignore[union-attr]
               if m.kind is MoveKind.PLAY)


@pytest.fixture(scope="module")
def page_and_report() -> tuple[str, Report]:
    return small_page(plots=HAVE_MPL)


def test_the_page_is_self_contained_with_verdicts_rounds_figures_and_plots(
        page_and_report: tuple[str, Report]) -> None:
    text, report = page_and_report
    assert "<title>dominoproof report: tiny-2p-d3" in text
    assert re.search(r'id="verdict">\d+ checks on 1 subject in 1\.0 s: (FAILED|all as '
                     r"expected)</p>", text)
    srcs = re.findall(r'(?:src|href)="([^"]*)"', text)
    assert srcs and all(s.startswith("data:image/") for s in srcs)  # no network
    assert "<script" not in text and "@import" not in text
    violated = [r for r in report.rows if r.verdict == "VIOLATED"]
    cells = re.findall(r'<td class="(\w+)"[^>]*>VIOLATED', text)
    assert cells == ["ok"] * len(violated)  # caught, as expected
    layouts = text.count('<img class="layout"')
    assert layouts == plays_in_rounds(report)  # a picture after every tile laid
    assert text.count("<tr><td>random</td><td>exact</td>") == 1  # the figures, exact here
    if HAVE_MPL:
        assert text.count('<img class="plot"') == 3
    else:  # pragma: no cover - without the plots extra
        assert "matplotlib is not installed" in text


def test_the_pages_legend_names_the_colours_its_layouts_draw(
        page_and_report: tuple[str, Report]) -> None:
    """One legend above the rounds (the step pictures have none of their own), naming
    only what the pictures draw: a line has no marker and no spinner's arm."""
    from dominoproof.render.table import MEANINGS

    text, _report = page_and_report
    (legend,) = re.findall(r'<ul class="legend">(.*?)</ul>', text)
    named = re.findall(r'<li data-meaning="([\w-]+)">', legend)
    assert {"open-end", "last"} <= set(named) and not {"marker", "waiting"} & set(named)
    for key in named:
        colour, words = MEANINGS[key]
        assert colour in legend and words in legend
    assert text.index('<ul class="legend">') < text.index('<section class="round">')


def test_a_mexican_train_round_shows_its_markers_and_every_train() -> None:
    """A round's pictures follow the markers too: after a move that puts one out (no
    tile laid), the layout is drawn again with it; every train is labelled, the public
    one too, and the legend names the marker."""
    from dominoproof.render.html import page

    v = variant("mextrain-4p-d12")
    trace = api.play(v, seed=12)
    upto = 14  # P0's and P2's markers are out by then
    short = dataclasses.replace(trace, moves=trace.moves[:upto]).to_json()
    row = Row(subject=v.name, part="search", property="blocked-sound", verdict="VIOLATED",
              expected=("VIOLATED",), trace=short, detail="a test's round")
    text = page(Report(rows=[row], seconds=1.0, subjects=[v.name]), [])
    moves = trace.moves[:upto]
    plays = sum(1 for m in moves if m.kind is MoveKind.PLAY)
    states = trace.states()
    marked = sum(1 for k, m in enumerate(moves) if m.kind is not MoveKind.PLAY
                 and states[k].marks != states[k + 1].marks)
    assert marked >= 2
    assert text.count('<img class="layout"') == plays + marked
    (legend,) = re.findall(r'<ul class="legend">(.*?)</ul>', text)
    assert 'data-meaning="marker"' in legend and 'data-meaning="pending"' in legend
    svg = base64.b64decode(re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"',
                                      text)[-1]).decode()
    assert ">public</text>" in svg and svg.count('class="marker"') == 2


def test_the_page_without_matplotlib_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    from dominoproof.render.html import gather, page

    v = variant("tiny", {"set.max": 2, "deal.hand_size": 2, "lead.tile": "2-2"})
    text = page(Report(subjects=[]), gather([v], rounds=50, seed=0, max_exact_deals=100))
    assert '<img class="plot"' not in text
    assert "matplotlib is not installed (pip install &#x27;dominoproof[plots]&#x27;)" in text


def chromium(html: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={profile}", "--hide-scrollbars", *args,
         html.as_uri()], capture_output=True, text=True, timeout=120, check=False)


def screenshot_checks(html: Path, tmp_path: Path, title: str, needles: list[str]) -> None:
    """Open ``html`` in headless Chromium: the DOM has the title and the needles; the
    screenshot is not blank (dark text, coloured cells or pictures)."""
    dom = chromium(html, tmp_path, "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert f"<title>{title}" in dom.stdout
    for needle in needles:
        assert needle in dom.stdout, needle
    shot = tmp_path / "shot.png"
    res = chromium(html, tmp_path, "--window-size=1280,2200", f"--screenshot={shot}")
    assert res.returncode == 0 and shot.exists(), res.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    if HAVE_MPL:  # Pillow comes with matplotlib
        from PIL import Image

        im = Image.open(shot).convert("RGB")
        assert im.size == (1280, 2200)
        colours = im.getcolors(maxcolors=1 << 22) or []
        dark = sum(n for n, c in colours if sum(c) < 250)
        tinted = sum(n for n, (r, g, b) in colours if max(r, g, b) - min(r, g, b) > 40)
        assert dark > 5_000, dark  # text and pictures, not a blank page
        assert tinted > 5_000, tinted  # the coloured verdict cells and pictures
        assert len(colours) > 50


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install "
                    "chromium; .ci/run installs it when it can): the HTML report is not "
                    "opened in a browser here")
def test_the_page_opens_in_headless_chromium(page_and_report: tuple[str, Report],
                                             tmp_path: Path) -> None:
    text, _report = page_and_report
    html = tmp_path / "report.html"
    html.write_text(text, encoding="utf-8")
    screenshot_checks(html, tmp_path, "dominoproof report: tiny-2p-d3",
                      ["VIOLATED", "Counterexamples, step by step", 'class="layout"'])


@pytest.mark.slow
def test_the_report_command_end_to_end(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    r = run("report", "tiny", "-o", "block.confirmations=all-others", "--output", str(out),
            "-n", "300", "--workers", "1")
    assert r.exit_code == 1, r.output  # the override breaks R4.4: violations, as verify
    text = out.read_text(encoding="utf-8")
    assert "FAILED" in text
    assert len(re.findall(r'<td class="bad"[^>]*>VIOLATED !', text)) >= 3
    assert text.count('<img class="layout"') >= 3
    assert "/ all sizes / procedure: NOT INDUCTIVE</summary>" in text  # the CTI, in words
    if HAVE_MPL:
        assert text.count('<img class="plot"') == 3
    if CHROMIUM is not None:
        screenshot_checks(out, tmp_path, "dominoproof report: tiny-2p-d3",
                          ["FAILED", "blocked-sound", "statistics and plots"])
