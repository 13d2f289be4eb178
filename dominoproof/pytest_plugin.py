"""A pytest plugin: every variant file of a repository, every property, one test each.

Installed with dominoproof (entry point ``pytest11``), idle unless asked::

    pytest --dominoproof variants/

collects every ``*.toml`` file under the paths given (``pyproject.toml`` excepted) as a
variant, and each property of the catalogue as one test item, named with the property id
and the rule IDs it checks: ``variants/house.toml::blocked-sound[R1.1,R2.1,...]``. Each
item is proved with Z3 for the variant itself (:func:`dominoproof.api.prover`; one prover
per file, so the invariant is found once and shared):

* PROVED passes;
* VIOLATED fails with the counterexample round, move by move (replayed in the engine);
  NOT INDUCTIVE fails with the counterexample to induction (a state no round is known to
  reach), and beside it the round the search of a small configuration finds, if any;
* UNKNOWN (a budget ran out) is skipped with its reason, or fails with
  ``--dominoproof-strict``;
* N/A (the property does not apply to the variant) is skipped with the reason.

A file that is not a valid variant is a collection error with the one located line the
CLI would print. ``--dominoproof-rlimit N`` sets Z3's resource limit per query
(deterministic: the same verdicts on a loaded CI runner). docs/PYTEST.md has a worked
example.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from dominoproof import api
from dominoproof.model.errors import DominoproofError
from dominoproof.model.variant import load_variant
from dominoproof.options import indented
from dominoproof.proofs.budgets import DEFAULT_RLIMIT
from dominoproof.proofs.properties import BY_ID, CATALOGUE, Verdict
from dominoproof.proofs.z3.session import premises
from dominoproof.render.evidence import indented_evidence
from dominoproof.verify_job import search_rows

if TYPE_CHECKING:
    from dominoproof.model.variant import Variant
    from dominoproof.proofs.properties import Property, Result
    from dominoproof.proofs.z3.queries import Prover, SanityCheck


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dominoproof", "dominoproof: variants as tests")
    group.addoption("--dominoproof", action="store_true", default=False,
                    help="collect every *.toml variant file under the given paths, one test "
                         "per property of the catalogue (proved with Z3)")
    group.addoption("--dominoproof-strict", action="store_true", default=False,
                    help="an UNKNOWN verdict (a budget ran out) fails instead of skipping")
    group.addoption("--dominoproof-rlimit", type=int, default=DEFAULT_RLIMIT, metavar="N",
                    help="Z3's resource limit per query (deterministic work units)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "dominoproof: a property of a variant file, collected "
                                       "by pytest --dominoproof")
    rlimit = config.getoption("dominoproof_rlimit")
    if rlimit < 1:  # 0 is not "no limit": every query would be UNKNOWN at once
        raise pytest.UsageError(f"--dominoproof-rlimit {rlimit}: must be at least 1 "
                                f"(default {DEFAULT_RLIMIT:,})")
    if not config.getoption("dominoproof"):
        for given, name in ((config.getoption("dominoproof_strict"), "--dominoproof-strict"),
                            (rlimit != DEFAULT_RLIMIT, "--dominoproof-rlimit")):
            if given:
                raise pytest.UsageError(f"{name} has no effect without --dominoproof, which "
                                        "collects the variant files")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> VariantFile | None:
    if (parent.config.getoption("dominoproof") and file_path.suffix == ".toml"
            and file_path.name != "pyproject.toml"):
        file: VariantFile = VariantFile.from_parent(parent, path=file_path)
        return file
    return None


class VariantError(Exception):
    """A variant file that does not load: its one located line."""


class PropertyFailed(Exception):
    """A property VIOLATED or NOT INDUCTIVE (or the premises of the proofs unsound)."""


class VariantFile(pytest.File):
    """One variant file: an item per property, sharing one prover."""

    _prover: Prover | None = None
    _sanity: list[SanityCheck] | None = None
    _rounds: dict[str, str] | None = None

    def collect(self) -> Iterator[PropertyItem]:
        try:
            self.variant = load_variant(self.path)
        except DominoproofError as e:
            raise VariantError(str(e)) from None
        for prop in CATALOGUE:
            item: PropertyItem = PropertyItem.from_parent(
                self, name=f"{prop.id}[{','.join(prop.rules)}]", prop=prop)
            yield item

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, VariantError):
            return f"dominoproof: error: {excinfo.value}"
        return str(super().repr_failure(excinfo))

    def prover(self) -> Prover:
        """The file's prover (made once), with the run's resource limit."""
        if self._prover is None:
            self._prover = api.prover(self.variant,
                                      rlimit=self.config.getoption("dominoproof_rlimit"))
        return self._prover

    def real_rounds(self) -> dict[str, str]:
        """The rounds the search finds VIOLATING a property, by property (searched once,
        when a proof first gives only a counterexample to induction)."""
        if self._rounds is None:
            self._rounds = {r.property: r.round for r in search_rows(self.variant)[0]
                            if r.verdict == Verdict.VIOLATED.value and r.round}
        return self._rounds

    def sanity(self) -> list[SanityCheck]:
        """The sanity checks of the premises, run once per file."""
        if self._sanity is None:
            self._sanity = self.prover().sanity()
        return self._sanity


class PropertyItem(pytest.Item):
    """One property of the catalogue for one variant file."""

    def __init__(self, *, prop: Property, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.prop = prop
        self.add_marker(pytest.mark.dominoproof)

    @property
    def file(self) -> VariantFile:
        assert isinstance(self.parent, VariantFile)
        return self.parent

    def runtest(self) -> None:
        strict = self.config.getoption("dominoproof_strict")
        result = self.file.prover().prove(self.prop.id)
        if result.verdict is Verdict.NOT_APPLICABLE:
            pytest.skip(f"N/A: {result.detail}")
        if result.verdict is Verdict.VIOLATED:
            raise PropertyFailed(_failure(result, self.file.variant))
        if result.verdict is Verdict.NOT_INDUCTIVE:
            text = _failure(result, self.file.variant)
            real = self.file.real_rounds().get(self.prop.id)
            if real:
                text += ("\n  a real round breaks it (the search of a small configuration, "
                         "as verify runs it):\n" + "\n".join(indented(real, "    ")))
            raise PropertyFailed(text)
        if result.verdict is Verdict.UNKNOWN:
            if strict:
                raise PropertyFailed(f"UNKNOWN (--dominoproof-strict): {result.detail}")
            pytest.skip(f"UNKNOWN: {result.detail}")
        bad = [c for c in self.file.sanity() if not c.ok]
        if bad:  # a proof from an unsatisfiable premise would pass trivially
            text = "; ".join(c.describe() for c in bad)
            if premises(bad) == "UNKNOWN" and not strict:
                pytest.skip(f"UNKNOWN: a sanity check was not answered: {text}")
            raise PropertyFailed(f"PROVED, but the premises are not shown sound: {text}")

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, PropertyFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.prop.id} of {self.file.variant.name}"


def _failure(r: Result, variant: Variant | None = None) -> str:
    """A failed property told for a rules designer: the verdict, the rules, the detail and
    the evidence (:mod:`dominoproof.render.evidence`: the counterexample round and where it
    fails, or the counterexample to induction in domino terms)."""
    prop = BY_ID[r.property]
    lines = [f"{r.property} {r.verdict.value} ({r.method}), rules {', '.join(prop.rules)}",
             f"  {prop.statement}", f"  {r.detail}"]
    lines += indented_evidence(r, variant, what="the counterexample round")
    return "\n".join(lines)
