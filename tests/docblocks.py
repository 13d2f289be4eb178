"""The code blocks of the documentation pages, read and run (``tests/test_docs.py``).

A page's fenced blocks run in order, in one scratch folder (holding links to the
repository's ``docs``, ``tests``, ``bench`` and ``scripts``, so a path written from
the repository's root works) and, for Python, in one namespace:

``python``   run; a block with ``>>>`` prompts is a doctest (ELLIPSIS on), its
             shown output checked
``console``  each ``$ command`` run by the shell; the lines after it, up to the next
             ``$``, are its output (standard output and error), checked with ``...``
             matching anything (as in a doctest); trailing spaces are ignored; a
             command shown without output is run, its output not checked
``sh``       each command line run by the shell, output not shown; it exits 0, or what
             a trailing ``# exit N`` comment says
``toml``     read as a variant (``load_variant_data``): every example is valid
``text``     shown, never run (diagrams, tables, outlines)

An HTML comment on the line before a fence (invisible on the site) says more:
``<!-- test: slow -->`` (the slow tier only), ``exit=N`` (each command of the
block exits N), ``file=PATH`` (the block is also written to PATH in the scratch
folder), ``requires=MODULE`` (skipped, saying so, when MODULE is not installed),
``skip="why"`` (shown only: the reason is required). A block without a language is
refused: say what it is.
"""

from __future__ import annotations

import contextlib
import doctest
import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LINKED = ("docs", "tests", "bench", "scripts")
LANGUAGES = ("python", "console", "sh", "toml", "text")
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_MARK = re.compile(r"^\s*<!--\s*test:(?P<marks>.*?)-->\s*$")
#: a line of progress a piped command writes on standard error (dominoproof/progress.py)
PROGRESS_LINE = re.compile(r"^dominoproof [^\n\[]*\[[\d,]+ s\]: .*\n", flags=re.M)
_FLAGS = doctest.ELLIPSIS


@dataclass
class Block:
    page: str
    line: int  #: the line of the opening fence (1-based)
    lang: str
    text: str
    marks: dict[str, str] = field(default_factory=dict)

    @property
    def slow(self) -> bool:
        return "slow" in self.marks

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"


def read_blocks(path: Path, page: str | None = None) -> list[Block]:
    """The fenced blocks of a Markdown file, with the marks on the line before each."""
    page = page or path.name
    lines = path.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence = m.group("indent"), m.group("fence")
        lang = m.group("info").strip().split(" ")[0] if m.group("info").strip() else ""
        marks = parse_marks(lines[i - 1]) if i > 0 else {}
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != fence:
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
            j += 1
        out.append(Block(page, i + 1, lang, "\n".join(body) + "\n", marks))
        i = j + 1
    return out


def parse_marks(line: str) -> dict[str, str]:
    m = _MARK.match(line)
    if not m:
        return {}
    out = {}
    for word in shlex.split(m.group("marks")):
        key, _, value = word.partition("=")
        out[key] = value
    return out


def problems(block: Block) -> list[str]:
    """What is wrong with how a block is written (not with what it does)."""
    out = []
    if not block.lang:
        out.append(f"{block.where}: a block without a language: say what it is "
                   f"({', '.join(LANGUAGES)})")
    elif block.lang not in LANGUAGES and "skip" not in block.marks:
        out.append(f"{block.where}: a {block.lang} block is never run: mark it "
                   '<!-- test: skip="why" --> or write it as one of ' + ", ".join(LANGUAGES))
    if "skip" in block.marks and not block.marks["skip"]:
        out.append(f'{block.where}: skip needs its reason: <!-- test: skip="why" -->')
    known = {"slow", "exit", "file", "requires", "skip"}
    out += [f"{block.where}: unknown mark {k!r} (known: {', '.join(sorted(known))})"
            for k in block.marks if k not in known]
    return out


class Workspace:
    """The scratch folder and Python namespace a page's blocks share."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        for name in LINKED:
            (folder / name).symlink_to(ROOT / name, target_is_directory=True)
        self.globs: dict[str, Any] = {"__name__": "__docs__"}
        bindir = str(Path(sys.executable).parent)
        # as a reader's shell: no terminal width, nothing of the pytest run around it
        self.env = {k: v for k, v in os.environ.items()
                    if k != "COLUMNS" and not k.startswith("PYTEST_")}
        self.env["PATH"] = bindir + os.pathsep + self.env.get("PATH", "")
        # a page's pytest has the plugins of the install the page describes (ours), not
        # whatever else this environment happens to hold: a plugin that reorders or reseeds
        # tests (pytest-randomly) would change what the page shows
        self.env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        self.env["PYTEST_PLUGINS"] = "dominoproof.pytest_plugin"

    def run(self, block: Block) -> str | None:
        """Run one block: None if it did what it shows, else what went wrong. Raises
        ``Skipped`` for a block that cannot run here."""
        if "skip" in block.marks or block.lang == "text":
            return None
        module = block.marks.get("requires")
        if module and importlib.util.find_spec(module) is None:
            raise Skipped(f"{block.where}: needs {module} (not installed)")
        if "file" in block.marks:
            target = self.folder / block.marks["file"]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.text, encoding="utf-8")
        if block.lang == "python":
            return self._python(block)
        if block.lang == "console":
            return self._console(block)
        if block.lang == "sh":
            return self._sh(block)
        if block.lang == "toml":
            return self._toml(block)
        return f"{block.where}: cannot run a {block.lang} block"

    def _python(self, block: Block) -> str | None:
        with contextlib.chdir(self.folder), _restored_path():
            if re.search(r"^\s*>>> ", block.text, flags=re.M):
                test = doctest.DocTestParser().get_doctest(
                    block.text, self.globs, block.where, block.page, block.line)
                runner = doctest.DocTestRunner(optionflags=_FLAGS)
                report = io.StringIO()
                result = runner.run(test, out=report.write, clear_globs=False)
                self.globs.update(test.globs)  # a DocTest runs in a copy of its globals
                return report.getvalue() if result.failed else None
            code = compile(block.text, block.where, "exec")
            exec(code, self.globs)
        return None

    def _shell(self, command: str) -> tuple[int, str]:
        res = subprocess.run(["bash", "-c", command], cwd=self.folder, env=self.env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             stdin=subprocess.DEVNULL)
        # a page shows what a reader at a terminal keeps: progress, a transient display
        # there, is plain lines in this pipe (dominoproof/progress.py) and is left out
        return res.returncode, PROGRESS_LINE.sub("", res.stdout)

    def _console(self, block: Block) -> str | None:
        want = int(block.marks.get("exit", "0"))
        for command, shown in console_commands(block.text):
            code, got = self._shell(command)
            if code != want:
                return (f"{block.where}: `{command}` exited {code}, the page says {want}:\n"
                        + got)
            if shown and not output_matches(shown, got):
                return (f"{block.where}: `{command}` printed what the page does not show\n"
                        f"--- the page shows:\n{shown}--- the command printed:\n{got}")
        return None

    def _sh(self, block: Block) -> str | None:
        for command in sh_commands(block.text):
            said = re.search(r"#\s*exit (\d+)\s*$", command)
            want = int(said.group(1) if said else block.marks.get("exit", "0"))
            code, got = self._shell(command)
            if code != want:
                return f"{block.where}: `{command}` exited {code} (not {want}):\n{got}"
        return None

    def _toml(self, block: Block) -> str | None:
        from dominoproof.model.errors import VariantError
        from dominoproof.model.variant import load_variant_data

        try:  # in the page's folder, where its files are: a base file is found there
            load_variant_data(tomllib.loads(block.text), source=block.where,
                              relative_to=self.folder)
        except (tomllib.TOMLDecodeError, VariantError) as e:
            return f"{block.where}: not a valid variant: {e}"
        return None


class Skipped(Exception):
    """A block that cannot run on this installation (a module of an extra is missing)."""


@contextlib.contextmanager
def _restored_path() -> Any:
    saved = list(sys.path)
    try:
        yield
    finally:
        sys.path[:] = saved


def console_commands(text: str) -> list[tuple[str, str]]:
    """``$ command`` lines (a trailing backslash continues one) and the output after each."""
    out: list[tuple[str, str]] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"console block: {lines[i]!r} is neither a command nor output")
        command = lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1] + " " + lines[i].strip()
        shown: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].startswith("$ "):
            shown.append(lines[i])
            i += 1
        out.append((command, "\n".join(shown) + "\n" if shown else ""))
    return out


def sh_commands(text: str) -> list[str]:
    """The commands of an ``sh`` block: one a line (a trailing backslash continues),
    blank lines and lines holding only a comment left out."""
    out: list[str] = []
    pending = ""
    for line in text.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        out.append(pending + line)
        pending = ""
    return out


def output_matches(shown: str, got: str) -> bool:
    """The page's output against the command's: ``...`` matches anything, trailing
    spaces of each line are ignored."""
    def norm(text: str) -> str:
        return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n") + "\n"

    return doctest.OutputChecker().check_output(norm(shown), norm(got), _FLAGS)
