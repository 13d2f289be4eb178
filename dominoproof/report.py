"""Reports of a verification: a table for people, JSON and JUnit XML for CI pipelines, and
the counterexample rounds as trace files (``--traces DIR``).

Every VIOLATED check carries its counterexample round and where it fails, every NOT
INDUCTIVE check its counterexample to induction in domino terms
(:mod:`dominoproof.render.evidence`): in the JSON (``round``, ``cti``, ``fails``), in the JUnit
failure text (and, for a fault's expected violation, in the test case's output), and in
the table's list of checks not as expected (with ``--details``, under every check).
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.table import Table

from dominoproof.options import SHOWN_AS, counted, indented, wrap, write_out
from dominoproof.proofs.properties import CATALOGUE
from dominoproof.verify import PARTS, SPACE_SUBJECT, Report, Row

_STYLE = {"HOLDS": "green", "PROVED": "green", "N/A": "dim", "UNKNOWN": "yellow",
          "VIOLATED": "red", "NOT INDUCTIVE": "red", "ERROR": "red"}


def _cell(row: Row | None) -> str:
    if row is None:
        return ""
    style = _STYLE.get(row.verdict, "")
    mark = "" if row.ok else " !"
    return f"[{style}]{row.verdict}[/{style}]{mark}" if style else row.verdict + mark


def rows_of(report: Report, subject: str) -> list[Row]:
    """The checks of one subject, in report order."""
    return [r for r in report.rows if r.subject == subject]


def grid(rows: list[Row]) -> tuple[list[str], dict[tuple[str, str], Row], list[str]]:
    """One subject's table: its parts (the columns), its rows by (property, part), and
    its properties (the lines: the catalogue's order, then any other check)."""
    parts = [p for p in PARTS if any(r.part == p for r in rows)]
    by = {(r.property, r.part): r for r in rows}
    props = [p.id for p in CATALOGUE if any(r.property == p.id for r in rows)]
    return parts, by, props + sorted({r.property for r in rows} - set(props))


def _sampled(rows: list[Row]) -> bool:
    return any(r.coverage is not None and r.coverage.get("sampled") for r in rows
               if r.part == "search")


def subject_table(subject: str, rows: list[Row]) -> Table:
    """One variant (or fault): a property per line, a column per method (the search's
    column says "sampled" when not every deal was searched)."""
    parts, by, props = grid(rows)
    t = Table(title=subject, title_justify="left", show_edge=False, pad_edge=False)
    t.add_column("property")
    for p in parts:
        t.add_column("search (sampled)" if p == "search" and _sampled(rows) else p)
    for pid in props:
        t.add_row(pid, *[_cell(by.get((pid, p))) for p in parts])
    return t


def _lines(console: Console, text: str, indent: str = "", style: str = "") -> None:
    """``text`` wrapped to the console's width (piped too), each line indented."""
    for line in wrap(text, console.width, initial_indent=indent,
                     subsequent_indent=indent + "  "):
        console.print(line, style=style, markup=False)


def summary_line(subject: str, rows: list[Row]) -> str:
    """One subject in one line: its checks, how many as expected, its verdicts counted,
    and its findings."""
    counts = Counter(r.verdict for r in rows)
    shown = ", ".join(f"{n} {v}" for v, n in sorted(counts.items(), key=lambda x: -x[1]))
    bad = sum(not r.ok for r in rows)
    found = len({r.property for r in rows if r.finding})
    return (f"{subject}: {len(rows)} checks, "
            + (f"{bad} NOT AS EXPECTED" if bad else "as expected")
            + f" ({shown})" + (f"; {found} finding(s), below" if found else ""))


def print_findings(report: Report, console: Console, *, rounds: bool) -> None:
    """Every finding shown (a verdict expected because the variant's published rules, or
    its base's, do not satisfy the property): what it means in domino terms, where its
    round is, and the doc section that explains findings."""
    shown = [r for r in report.rows if r.finding and r.ok]
    if not shown:
        return
    _lines(console, "Findings, as expected: what a published variant's rules do not satisfy, "
                    "or a method cannot settle (docs/DESIGNER.md, \"Reading a verdict\")")
    for subject in dict.fromkeys(r.subject for r in shown):
        mine = [r for r in shown if r.subject == subject]
        for prop in dict.fromkeys(r.property for r in mine):
            of = [r for r in mine if r.property == prop]
            verdicts = ", ".join(f"{r.verdict} ({r.part})" for r in of)
            _lines(console, f"{subject} / {prop}: {verdicts}", "  ")
            _lines(console, of[0].finding.removeprefix("finding, as expected: "), "    ")
            with_round = next((r for r in of if r.round), None)
            if with_round is not None and rounds:
                console.print("\n".join(indented(with_round.round)), markup=False)
            elif with_round is not None:
                _lines(console, "its round: with -v", "    ", style="dim")
    console.print()


def print_report(report: Report, console: Console, *, details: bool = False,
                 tables: bool = True, summary: bool = False) -> None:
    """With ``summary``, one line per subject first, and a table only for a subject
    with a check not as expected; else the table of every subject (unless not
    ``tables``). Then the findings explained, the checks that are not as expected (each
    with its detail and counterexample), and the verdict line."""
    subjects = [s for s in report.subjects if not s.startswith("fault ")]
    faults = [s for s in report.subjects if s.startswith("fault ")]
    missed = [s for s in faults if not all(r.ok for r in rows_of(report, s))]
    if summary and tables:
        for subject in subjects:
            _lines(console, summary_line(subject, rows_of(report, subject)))
            if subject == SPACE_SUBJECT:  # what the self-test compared, in figures
                for r in rows_of(report, subject):
                    _lines(console, r.detail, "  ", style="dim")
        if faults:
            console.print(f"faults: {len(faults) - len(missed)} of {len(faults)} "
                          "deliberately broken rule sets caught"
                          + (f"; NOT CAUGHT: {', '.join(missed)}" if missed else ""),
                          markup=False)
        console.print()
    for subject in subjects if tables else ():
        rows = rows_of(report, subject)
        if summary and all(r.ok for r in rows):
            continue
        console.print(subject_table(subject, rows))
        configs = {r.part: r.configuration for r in rows if r.configuration}
        for part in ("search", "z3"):
            if part in configs:
                _lines(console, f"{part}: {configs[part]}", "  ", style="dim")
        cross = next((r for r in rows if r.part == "cross-check"), None)
        if cross is not None:
            _lines(console, f"cross-check: {cross.detail.splitlines()[0]}", "  ", style="dim")
        console.print()
    if tables:
        print_findings(report, console, rounds=not summary)
    if summary and not details:
        faults = missed
    if faults and tables:
        t = Table(title="every check can fail: deliberately broken rule sets",
                  title_justify="left", show_edge=False, pad_edge=False)
        t.add_column("fault")
        t.add_column("property")
        for p in PARTS[:3]:
            t.add_column(p)
        for subject in faults:
            rows = rows_of(report, subject)
            by = {(r.property, r.part): r for r in rows}
            for pid in dict.fromkeys(r.property for r in rows):
                t.add_row(subject.removeprefix("fault "), pid,
                          *[_cell(by.get((pid, p))) for p in PARTS[:3]])
        console.print(t)
        console.print()
    bad = report.failures
    if bad:
        console.print(f"[red]{len(bad)} check(s) not as expected:[/red]")
        for r in bad:
            _lines(console, f"{r.subject} / {r.part} / {r.property}: {r.verdict} "
                            f"(expected {' or '.join(r.expected)})", "  ")
            _evidence(console, r)
    if details:
        for r in report.rows:
            _lines(console, f"{r.subject} / {r.part} / {r.property}: {r.verdict} -- "
                            f"{r.method}")
            _evidence(console, r)
    if report.search_line():
        console.print(report.search_line(), markup=False)
    console.print(verdict_line(report))


def verdict_line(report: Report) -> str:
    """The text report's last line: checks, subjects, time and the verdict."""
    verdict = ("all as expected" if not report.failures else
               "UNKNOWN verdicts only" if report.exit_code == 3 else "FAILED")
    n = len(report.subjects)
    return (f"{len(report.rows)} checks on {counted(n, 'subject')} in "
            f"{report.seconds:.1f} s: {verdict}")


def _evidence(console: Console, r: Row) -> None:
    """A check's detail (every line indented, wrapped to the width) and its
    counterexample, if it has one."""
    for line in r.detail.rstrip("\n").splitlines():
        _lines(console, line, "    ")
    for i, shown in enumerate(x for x in (r.cti, r.round) if x):  # and a real round
        if i:
            console.print(SHOWN_AS.rstrip(), markup=False)
        console.print("\n".join(indented(shown)), markup=False)
    if not (r.round or r.cti) and r.fails and r.fails not in r.detail:
        console.print(f"    fails: {r.fails}", markup=False)


def _evidence_text(r: Row) -> str:
    shown = "\n\n".join(x for x in (r.cti, r.round) if x)
    return f"\n\n{shown}" if shown else (f"\nfails: {r.fails}" if r.fails else "")


def junit_cases(subject: str, rows: list[Row]) -> list[tuple[str, str, float, list[Row]]]:
    """The test cases of one subject, one per check, as the text counts them, each with
    the time measured for it. The search judges every property in one pass over each
    graph, so its properties have no time of their own: the pass's time is shared
    evenly among them (never repeated per property). Each case is
    ``(classname, name, seconds, rows)``."""
    search = [r for r in rows if r.part == "search"]
    share = max(r.seconds for r in search) / len(search) if search else 0.0
    return [(f"{subject}.{r.part}", r.property, share if r.part == "search" else r.seconds,
             [r]) for r in rows]


def junit_xml(report: Report) -> str:
    """JUnit XML: a test suite per subject (each variant, each fault), whose time is the
    measured wall time of that subject's job; a test case per check (classname
    ``subject.method``) with the time measured for it, the search of a subject being one
    case (see :func:`junit_cases`). A violation is a failure, UNKNOWN an error, a check
    that does not apply (N/A) skipped."""
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    suites = ET.Element("testsuites", name="dominoproof verify")
    for subject in report.subjects:
        rows = rows_of(report, subject)
        cases = junit_cases(subject, rows)
        counts = {"tests": len(cases), "failures": 0, "errors": 0, "skipped": 0}
        suite = ET.SubElement(suites, "testsuite", name=subject)
        for classname, name, seconds, group in cases:
            case = ET.SubElement(suite, "testcase", classname=classname, name=name,
                                 time=f"{seconds:.3f}")
            bad = [r for r in group if not r.ok]
            if bad:
                kind = "error" if all(r.verdict == "UNKNOWN" for r in bad) else "failure"
                counts[kind + "s"] += 1
                el = ET.SubElement(case, kind, message="; ".join(
                    (f"{r.property}: " if len(group) > 1 else "")
                    + f"{r.verdict}, expected {' or '.join(r.expected)}" for r in bad))
                el.text = "\n\n".join(r.detail + _evidence_text(r) for r in bad)
            elif all(r.verdict == "N/A" for r in group):
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", message=f"N/A: {group[0].detail}")
            ET.SubElement(case, "system-out").text = "\n".join(
                f"{r.property}: {r.verdict}: {r.method}; {r.detail}"
                + (_evidence_text(r) if r.ok and (r.round or r.cti) else "")
                for r in group)
        suite.attrib.update({k: str(n) for k, n in counts.items()})
        measured = report.timings.get(subject, sum(c[2] for c in cases))
        suite.set("time", f"{measured:.3f}")
        for k in totals:
            totals[k] += counts[k]
    suites.attrib.update({k: str(n) for k, n in totals.items()})
    suites.set("time", f"{report.seconds:.3f}")
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode") + "\n"


def _file_name(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "x"


def write_traces(report: Report, folder: Path) -> tuple[list[Path], list[str]]:
    """Every VIOLATED check's counterexample round as a trace file in ``folder`` (made if
    missing), named ``<subject>.<part>.<property>.json``; each replays with
    ``dominoproof replay`` (a fault's names its rule book). Returns the files written and,
    for a violation without a replayable round (a Z3 run the engine does not replay),
    why it was not written."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    skipped: list[str] = []
    for r in report.rows:
        if r.verdict != "VIOLATED":
            continue
        name = f"{r.subject} / {r.part} / {r.property}"
        if not r.replayable or r.trace is None:
            skipped.append(f"{name}: no round the engine replays ({r.detail})")
            continue
        path = folder / (f"{_file_name(r.subject)}.{_file_name(r.part)}."
                         f"{_file_name(r.property)}.json")
        write_out(path, json.dumps(r.trace, indent=1) + "\n")
        written.append(path)
    return written, skipped
