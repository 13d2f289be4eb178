"""What ``verify`` expects of each check, beyond "a property that applies holds".

By default a property that applies to a variant must HOLD (search, cross-check) or be
PROVED (Z3), and one that does not apply is N/A (:mod:`dominoproof.verify`). Two things
change that, and both are data, said in words wherever they show:

* **Findings** (``expected.toml``, shipped with the package): a built-in variant whose
  published rules do not satisfy a property of the catalogue. The verdict the search
  (or another method) finds is recorded as the expected one, with why, so a finding is
  reported every time -- in the table's list of findings, the row's detail, the JSON --
  and never hidden, and a change in it (the property starting to hold, say) fails the
  job. A finding belongs to the preset's rules: it applies to a variant whose rules are
  the preset's, whatever its name. A variant file built on the preset (``base``, through
  any chain of base files) with rules of its own **inherits** the finding
  (:func:`inherited_findings`): the finding's verdict is then expected as well as the
  default, and a row that shows it says it comes from the base's rules -- the designer's
  change neither caused it nor (yet) repaired it.
* **Findings of a rule** (``[[rule_finding]]`` in ``expected.toml``): a property a rule
  lets fail wherever it is on, whatever the preset (``[block] call = "dead-end"``: a called
  block promises no empty boneyard). Any variant with that value of the parameter
  expects the finding's verdicts as well as the default (:func:`rule_findings`), and a
  row that shows one says why, naming the rule.
  A finding may also record what a method cannot settle on a preset -- the per-instance
  induction's NOT INDUCTIVE where the search's analogue holds, with why -- and, as
  property "*" of part "z3" with verdict UNKNOWN, a preset whose per-instance proofs
  take longer than the whole job (:func:`z3_deferred`): its Z3 rows are UNKNOWN,
  saying why and that ``dominoproof prove`` runs them, never silently left out.
* **Layouts the per-instance Z3 relation does not state yet**: the features of a
  layout's slot data (:func:`layout_features`) that ``proofs/z3/encoding.py`` does not
  read yet (:data:`Z3_STATES` names the ones it does). For such a variant the Z3
  column and the cross-check (engine against the Z3 relation) are not run: N/A, with
  the features named, instead of a proof about a relation without them or a crash.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from dominoproof.model.errors import DominoproofError
from dominoproof.model.layout import Access, Opens, SlotLayout
from dominoproof.model.params import SECTIONS
from dominoproof.model.variant import Variant, load_variant, presets
from dominoproof.proofs.properties import BY_ID, Verdict
from dominoproof.verify import ERROR, PARTS

__all__ = ["Z3_STATES", "Finding", "RuleFinding", "findings", "findings_of",
           "inherited_findings", "layout_features", "rule_findings", "z3_deferred",
           "z3_unstated"]

#: The features of :func:`layout_features` the per-instance Z3 relation
#: (``proofs/z3/encoding.py``) states: every one, since the relation reads the slot data and
#: the marks (``Layout.fields``); a feature added to the slot data without its Z3
#: reading is left out of this set, and the Z3 checks of a layout with it say so.
Z3_STATES: frozenset[str] = frozenset({
    "spinner-arms", "waiting-arms", "toes", "markers", "lead-takes", "double-takes",
    "again", "own-marker-opens", "public-after-own", "cover-out", "first-turn", "matador"})


def layout_features(data: SlotLayout) -> dict[str, str]:
    """The features of a layout's slot data beyond one line every player may play on
    (owners' trains, which the relation reads, aside), each by id with its words."""
    out: dict[str, str] = {}
    if any(sl.opens is Opens.SPINNER for sl in data.slots):
        out["spinner-arms"] = "a spinner's arms, opened by an opening double"
    if any(sl.after for sl in data.slots):
        out["waiting-arms"] = "arms that wait until the spinner's sides are covered"
    if any(sl.opens is Opens.TOE for sl in data.slots):
        out["toes"] = "toes that later doubles open"
    if data.markers:
        out["markers"] = "markers, put out by a pass or a confirmation"
    if any(sl.access is Access.OWNER_OR_MARKERS for sl in data.slots):
        out["own-marker-opens"] = "every train open to a player whose own marker is out"
    if any(sl.access is Access.STARTED for sl in data.slots):
        out["public-after-own"] = "a public train open once one's own train is started"
    if data.first_turn:
        out["first-turn"] = "first turns laying tile after tile on one's own train"
    if data.lead_takes:
        out["lead-takes"] = f"an opening double that takes {data.lead_takes} tiles first"
    if any(sl.double_takes for sl in data.slots):
        out["double-takes"] = "doubles that take tiles before play moves on"
    if data.again:
        out["again"] = "the player of such a double playing again"
    if data.cover_out:
        out["cover-out"] = "such a double no player's last tile"
    if data.match_total:  # R2.1: touching halves sum to N+1, the matadors wild
        out["matador"] = "Matador matching, touching halves summing to N+1"
    return out


def z3_deferred(v: Variant) -> str | None:
    """Why ``verify`` does not run the per-instance Z3 proofs of ``v`` (``None``: it
    does): a finding of part "z3", property "*", verdict UNKNOWN -- a preset whose
    proofs at full size take longer than the whole job's budget."""
    f = findings_of(v).get(("z3", "*")) or inherited_findings(v)[1].get(("z3", "*"))
    return None if f is None else f.why


def z3_unstated(v: Variant) -> str | None:
    """Why the per-instance Z3 relation cannot check ``v`` yet (``None``: it can)."""
    missing = [words for fid, words in layout_features(v.slot_layout).items()
               if fid not in Z3_STATES]
    if not missing:
        return None
    return ("not run: the per-instance Z3 relation does not state this layout's "
            + "; ".join(missing) + " yet (proofs/z3/encoding.py)")


@dataclass(frozen=True)
class Finding:
    """A property a built-in variant's published rules do not satisfy: the verdict a
    method finds, expected, and why."""

    variant: str  #: the preset's name
    part: str  #: "search", "z3", "all sizes" or "cross-check"
    property: str
    verdict: str  #: the verdict expected, e.g. "VIOLATED"
    why: str


@cache
def findings() -> tuple[Finding, ...]:
    """Every finding of ``expected.toml``, each checked against the catalogue and the
    presets (a typo there is an error, never a silently unused entry)."""
    text = resources.files(__package__).joinpath("expected.toml").read_text("utf-8")
    known = presets()
    out = []
    for i, row in enumerate(tomllib.loads(text).get("finding", [])):
        f = Finding(**row)
        where = f"expected.toml, finding {i + 1}"
        if f.variant not in known:
            raise ValueError(f"{where}: no preset {f.variant!r}")
        if f.part not in PARTS:
            raise ValueError(f"{where}: no part {f.part!r} (one of {', '.join(PARTS)})")
        if f.property == "*" and not (f.part == "z3" and f.verdict == "UNKNOWN"):
            raise ValueError(f'{where}: property "*" (every property not run) is for '
                             'part "z3" with verdict "UNKNOWN" only')
        if f.property not in BY_ID and f.property != "*" and not (
                f.part == "cross-check" and f.property == "transitions"):
            raise ValueError(f"{where}: no property {f.property!r}")
        if f.verdict not in {x.value for x in Verdict} or f.verdict == ERROR:
            raise ValueError(f"{where}: no verdict {f.verdict!r}")
        out.append(f)
    return tuple(out)


@dataclass(frozen=True)
class RuleFinding:
    """A property a rule lets fail wherever it is on: the verdicts a method may find
    besides the default, and why (what the rule, as its source states it, allows)."""

    rule: str  #: the parameter, "section.key"
    value: str  #: its value, as a variant file writes it
    part: str
    property: str
    verdicts: tuple[str, ...]
    why: str

    def holds_for(self, v: Variant) -> bool:
        section, key = self.rule.split(".")
        return str(getattr(getattr(v, section), key)) == self.value


@cache
def _rule_findings() -> tuple[RuleFinding, ...]:
    """Every ``[[rule_finding]]`` of ``expected.toml``, each checked (a parameter, a part,
    a property and verdicts that exist)."""
    text = resources.files(__package__).joinpath("expected.toml").read_text("utf-8")
    out = []
    for i, row in enumerate(tomllib.loads(text).get("rule_finding", [])):
        f = RuleFinding(**{**row, "verdicts": tuple(row["verdicts"])})
        where = f"expected.toml, rule finding {i + 1}"
        section, _, key = f.rule.partition(".")
        if key not in getattr(SECTIONS.get(section), "__dataclass_fields__", {}):
            raise ValueError(f"{where}: no parameter {f.rule!r}")
        if f.part not in PARTS or f.property not in BY_ID:
            raise ValueError(f"{where}: no part {f.part!r} or property {f.property!r}")
        if not f.verdicts or not set(f.verdicts) <= {x.value for x in Verdict} - {ERROR}:
            raise ValueError(f"{where}: verdicts {f.verdicts!r}")
        out.append(f)
    return tuple(out)


def rule_findings(v: Variant) -> dict[tuple[str, str], RuleFinding]:
    """The findings of the rules ``v`` has on, by ``(part, property)``."""
    return {(f.part, f.property): f for f in _rule_findings() if f.holds_for(v)}


def findings_of(v: Variant) -> dict[tuple[str, str], Finding]:
    """The findings that apply to ``v``, by ``(part, property)``: those of the preset
    whose rules ``v`` has (equality of variants compares the rules, not the names)."""
    known = presets()
    return {(f.part, f.property): f for f in findings()
            if known[f.variant] == v}


def base_preset(v: Variant) -> str | None:
    """The preset ``v`` builds on, through its chain of base files (``None``: none)."""
    base, seen = v.base, set()
    while base.endswith(".toml") and base not in seen:
        seen.add(base)
        try:
            base = load_variant(base).base
        except (DominoproofError, OSError):  # the file moved since ``v`` was read
            return None
    return base or None


@cache
def inherited_findings(v: Variant) -> tuple[str, dict[tuple[str, str], Finding]]:
    """The preset ``v`` builds on and its findings, by ``(part, property)``, when ``v``
    has rules of its own (a variant with the preset's rules has them as its own:
    :func:`findings_of`); ``("", {})`` when it builds on no preset."""
    base = base_preset(v)
    known = presets()
    if base is None or base not in known or known[base] == v:
        return "", {}
    return base, {(f.part, f.property): f for f in findings() if f.variant == base}
