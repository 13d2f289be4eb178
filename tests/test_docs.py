"""The documentation runs: every code block of every page, and the generated pages.

Each page of ``docs/`` is run block by block (``tests/docblocks.py`` says how each
kind of block runs and how a block is marked slow or skipped); the outputs a page
shows are checked. The generated pages (``scripts/docs_pages.py``) are checked to
follow what they are generated from, and the site is built with warnings as errors
(slow tier, with the docs extra installed).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from docblocks import ROOT, Skipped, Workspace, output_matches, problems, read_blocks

sys.path.insert(0, str(ROOT / "scripts"))
import docs_pages

from dominoproof.cli import main
from dominoproof.proofs.faults import FAULTS

#: Every page of the site written by hand: docs/*.md, and the repository's READMEs the
#: site shows (paths from the repository's root).
PAGES = sorted(f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")) + list(
    docs_pages.REPO_PAGES)
SLOW_PAGES = [p for p in PAGES if any(b.slow for b in read_blocks(ROOT / p, p))]


def _run_page(page: str, tmp_path: Path, *, slow: bool) -> None:
    ws = Workspace(tmp_path)
    ran, skipped = 0, []
    for block in read_blocks(ROOT / page, page):
        if block.slow and not slow:
            continue
        try:
            failure = ws.run(block)
        except Skipped as why:
            skipped.append(str(why))
            continue
        assert failure is None, failure
        ran += 1
    if skipped:
        pytest.skip(f"{ran} block(s) ran and passed; skipped: " + "; ".join(skipped))


def test_every_block_of_every_page_says_what_it_is() -> None:
    found = [p for page in PAGES for b in read_blocks(ROOT / page, page) for p in problems(b)]
    assert found == []


@pytest.mark.parametrize("page", PAGES)
def test_page_runs(page: str, tmp_path: Path) -> None:
    """Every block of the page not marked slow runs and shows what it prints."""
    _run_page(page, tmp_path, slow=False)


@pytest.mark.slow
@pytest.mark.parametrize("page", SLOW_PAGES)
def test_page_runs_with_its_slow_blocks(page: str, tmp_path: Path) -> None:
    _run_page(page, tmp_path, slow=True)


def test_a_block_that_shows_the_wrong_output_fails(tmp_path: Path) -> None:
    """The checks can fail: a console block showing other output, a doctest showing
    another value, an invalid variant, a command with another exit code."""
    page = tmp_path / "page.md"
    page.write_text(
        "```console\n$ dominoproof variants\nno-such-preset\n```\n\n"
        "```python\n>>> 1 + 1\n3\n```\n\n"
        "```toml\n[deal]\nplayers = 11\n```\n\n"
        "<!-- test: exit=1 -->\n```sh\ndominoproof variants\n```\n\n"
        "```console\n$ echo one two\none ...\n```\n", encoding="utf-8")
    blocks = read_blocks(page)
    work = tmp_path / "work"
    work.mkdir()
    ws = Workspace(work)
    failures = [ws.run(b) for b in blocks]
    assert [f is not None for f in failures] == [True, True, True, True, False]
    assert "does not show" in str(failures[0]) and "Expected:\n    3" in str(failures[1])
    assert "players" in str(failures[2]) and "exited 0 (not 1)" in str(failures[3])


def test_marks_and_languages_are_checked(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```\nx\n```\n\n```yaml\na: 1\n```\n\n<!-- test: skip -->\n```sh\nx\n```\n\n"
                    "<!-- test: quick -->\n```text\nx\n```\n", encoding="utf-8")
    found = [p for b in read_blocks(page) for p in problems(b)]
    assert len(found) == 4, found
    assert "without a language" in found[0] and "yaml" in found[1]
    assert "needs its reason" in found[2] and "unknown mark 'quick'" in found[3]


def test_ellipsis_and_trailing_spaces() -> None:
    assert output_matches("a ...\nc\n", "a b   \nc\n")
    assert not output_matches("a\nc\n", "a\nb\n")


# ---------------------------------------------------------------------------
# Generated pages
# ---------------------------------------------------------------------------


def test_generated_pages_are_not_committed() -> None:
    """The site makes them at every build; a committed copy would go stale."""
    for site_path in docs_pages.generators():
        assert not (ROOT / "docs" / site_path).exists(), site_path


def test_the_variant_reference_has_every_key_with_its_rule_and_what_it_allows() -> None:
    from dominoproof.model.variant import Variant

    page = docs_pages.variant_reference()
    for sec, cls in Variant.SECTIONS.items():
        assert f"## [{sec}]" in page
        for f in dataclasses.fields(cls):
            row = next(line for line in page.splitlines() if line.startswith(f"| `{f.name}` |")
                       and line.split("|")[2].strip() == f.metadata["rule"])
            assert f.metadata["doc"].split()[0] in row
    assert '| `players` | Terms | number of players | 2..10 | `2` |' in page
    assert '- `"until-playable"`: draw one at a time until playable or exhausted' in page
    assert '| `set_aside` | R3.1 |' in page and '0..190 or "rest"' in page


def test_the_variant_reference_follows_the_definition(monkeypatch: pytest.MonkeyPatch) -> None:
    """A key added to the variant's definition appears on the page, with its rule ID and
    the range the validator enforces: the page is read from the definition."""
    from dominoproof.model.variant import Variant

    spec = Variant.SECTIONS["fouls"]
    extra = dataclasses.make_dataclass(
        "FoulSpec", [("limit", int, dataclasses.field(
            default=3, metadata={"rule": "R4.9", "doc": "fouls before a forfeit",
                                 "range": (1, 7)}))], bases=(spec,), frozen=True)
    monkeypatch.setitem(Variant.SECTIONS, "fouls", extra)
    assert "| `limit` | R4.9 | fouls before a forfeit | 1..7 | `3` |" in \
        docs_pages.variant_reference()


def test_the_property_reference_lists_every_property_and_the_faults_that_break_it() -> None:
    from dominoproof.proofs.properties import CATALOGUE

    page = docs_pages.property_reference()
    for p in CATALOGUE:
        section = page.split(f"\n## {p.id}\n", 1)[1].split("\n## ", 1)[0]
        assert p.statement in section and ", ".join(p.rules) in section
        for f in FAULTS:
            assert (f"--fault {f.id}" in section) == (p.id in f.catches), (p.id, f.id)
        assert "*exhaustive search:*" in section and "*Z3, per instance:*" in section


@pytest.mark.slow
@pytest.mark.parametrize("fault", [f.id for f in FAULTS])
def test_each_fault_command_on_the_property_page_shows_its_violations(fault: str) -> None:
    """The command printed under each property does what the page says: exit 1, and each
    property the fault names VIOLATED."""
    from dominoproof.proofs.faults import FAULTS_BY_ID

    f = FAULTS_BY_ID[fault]
    words = shlex.split(docs_pages.fault_command(f))[1:]
    res = CliRunner().invoke(main, [*words, "-q"])
    assert res.exit_code == 1, res.output
    for pid in f.catches:
        assert f"{pid}: VIOLATED" in res.output, (pid, res.output)


def test_the_schema_page_has_every_shipped_schema_and_who_writes_it() -> None:
    page = docs_pages.schema_reference()
    gens = docs_pages.generators()
    for path in sorted(docs_pages.SCHEMAS.glob("*.schema.json")):
        fmt = path.name.removesuffix(".schema.json")
        assert f"## dominoproof.{fmt} {{#{fmt}}}" in page
        assert f"reference/schemas/{path.name}" in gens
    assert "`dominoproof verify --json`" in page and "`dominoproof bench engine --json`" in page
    with pytest.raises(AssertionError, match="no command 'nosuch'"):
        docs_pages.writer_of("nosuch")


def test_repository_pages_link_to_the_site_pages() -> None:
    home = docs_pages.repo_page("README.md", "index.md")
    assert "](docs/" not in home and "](RULES.md)" in home and "](tests.md)" in home
    assert "](bench/index.md)" in home
    tests = docs_pages.repo_page("tests/README.md", "tests.md")
    assert tests.startswith("# Tests")


def test_the_tutorial_picture_is_the_explore_commands_svg() -> None:
    svg = docs_pages.picture("tutorial/tiny-2p-d3-seed0.svg")
    assert "<svg" in svg and "P1 leads [2|3]" in svg


def test_the_layout_pictures_are_the_draw_commands_svg() -> None:
    """PICTURES.md's Mexican Train and spinner, drawn by `draw` at each build."""
    svg = docs_pages.picture("pictures/mextrain-4p-d12-seed12-move14.svg")
    assert "after move 14" in svg and ">public</text>" in svg
    assert 'class="marker"' in svg and 'class="open-end pending"' in svg
    spinner = docs_pages.picture("pictures/all-fives-2p-d6-seed3.svg")
    assert spinner.count('class="open-end"') == 4
    page = (ROOT / "docs" / "PICTURES.md").read_text(encoding="utf-8")
    for site_path in docs_pages.PICTURES:
        if site_path.startswith("pictures/"):
            assert f"]({site_path})" in page  # drawn for the page that shows it


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None,
                    reason="the docs extra is not installed (pip install -e '.[docs]')")
def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    res = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                          str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert res.returncode == 0, res.stderr
    assert "WARNING" not in res.stderr
    assert (tmp_path / "site" / "reference" / "properties" / "index.html").exists()
