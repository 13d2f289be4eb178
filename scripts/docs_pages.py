"""The documentation site's generated pages, written from the code they describe.

The site (``mkdocs.yml``) is built by ``mkdocs build --strict``; its hooks
(``scripts/docs_hooks.py``) add every page this module writes, in memory, to the
pages of ``docs/``. Nothing written here is committed, so nothing can go stale:

* the home page, the tests' and the benchmarks' pages: ``README.md``,
  ``tests/README.md``, ``bench/*.md``, their links rewritten for the site;
* ``reference/variant-files.md``: every key of a variant file, read from the
  variant's own definition (``Variant.SECTIONS`` and each field's ``rule``,
  ``doc`` and ``range`` metadata); what each key allows is the validator's own
  word (the ``allowed`` of the error it raises on a value no key accepts);
* ``reference/properties.md``: the property catalogue (``CATALOGUE``), the
  methods that check each property, and the faults (``FAULTS``) that show each
  can fail, with the command that shows it;
* ``reference/schemas.md`` and ``reference/schemas/*.schema.json``: the JSON
  Schemas shipped in ``dominoproof/schemas/``;
* the pictures (:func:`pictures`): the one place the site's pictures are made.

``python scripts/docs_pages.py`` lists the pages; ``python scripts/docs_pages.py
PAGE`` prints one (the tests read them through :func:`pages`).
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import json
import posixpath
import re
import shlex
import sys
import tempfile
import typing
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "dominoproof" / "schemas"

#: Files of the repository shown as pages of the site: repository path -> site path.
#: A link between two of them (or to ``docs/``) is rewritten to the site's path.
REPO_PAGES: dict[str, str] = {
    "README.md": "index.md",
    "tests/README.md": "tests.md",
    "bench/README.md": "bench/index.md",
    "bench/SPIN.md": "bench/SPIN.md",
}

#: The pictures of the site: site path -> the ``dominoproof`` command that draws it
#: (the picture is the file the command writes at ``{out}``). Every picture the pages
#: show is made here, by the command a reader would type.
PICTURES: dict[str, list[str]] = {
    "tutorial/tiny-2p-d3-seed0.svg":
        ["explore", "tiny-2p-d3", "--seed", "0", "-q", "--svg", "{out}"],
    "pictures/mextrain-4p-d12-seed12-move14.svg":
        ["draw", "mextrain-4p-d12", "--seed", "12", "--move", "14", "--svg", "{out}"],
    "pictures/all-fives-2p-d6-seed3.svg":
        ["draw", "all-fives-2p-d6", "--seed", "3", "--svg", "{out}"],
}

_LINK = re.compile(r"(\]\()([^)\s#]+)((?:#[^)\s]*)?\))")


# ---------------------------------------------------------------------------
# Every generated file
# ---------------------------------------------------------------------------


def generators() -> dict[str, Callable[[], str | bytes]]:
    """Every generated file, by site path, each with the function that writes it."""
    out: dict[str, Callable[[], str | bytes]] = {
        site: partial(repo_page, repo, site) for repo, site in REPO_PAGES.items()}
    out["reference/variant-files.md"] = variant_reference
    out["reference/properties.md"] = property_reference
    out["reference/schemas.md"] = schema_reference
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        out[f"reference/schemas/{path.name}"] = partial(path.read_text, "utf-8")
    for site in PICTURES:
        out[site] = partial(picture, site)
    return out


def pages() -> dict[str, str | bytes]:
    """Every generated file's content, by site path."""
    return {site: write() for site, write in generators().items()}


# ---------------------------------------------------------------------------
# Repository files as pages
# ---------------------------------------------------------------------------


def repo_page(repo_path: str, site_path: str) -> str:
    """A Markdown file of the repository as a page: links to other pages of the site
    (``docs/X`` is ``X`` on the site) rewritten relative to ``site_path``."""
    text = (ROOT / repo_path).read_text(encoding="utf-8")
    here = posixpath.dirname(repo_path)

    def fix(m: re.Match[str]) -> str:
        target = m.group(2)
        if "://" in target or target.startswith("mailto:"):
            return m.group(0)
        repo_target = posixpath.normpath(posixpath.join(here, target))
        site_target = site_path_of(repo_target)
        if site_target is None:
            return m.group(0)  # left as written: the strict build reports it
        rel = posixpath.relpath(site_target, posixpath.dirname(site_path) or ".")
        return m.group(1) + rel + m.group(3)

    return _LINK.sub(fix, text)


def site_path_of(repo_path: str) -> str | None:
    """Where a file of the repository is on the site, if it is."""
    if repo_path in REPO_PAGES:
        return REPO_PAGES[repo_path]
    if repo_path.startswith("docs/"):
        return repo_path.removeprefix("docs/")
    return None


# ---------------------------------------------------------------------------
# The variant file, key by key
# ---------------------------------------------------------------------------


def _probe(data: dict[str, Any]) -> tuple[str, str]:
    """The validator's answer to ``data``: (what is wrong, what is allowed)."""
    from dominoproof.model.errors import VariantError
    from dominoproof.model.variant import load_variant_data

    try:
        load_variant_data(data, source="probe")
    except VariantError as e:
        return e.detail, e.allowed
    raise AssertionError(f"the validator accepted {data!r}")  # pragma: no cover


#: A value no key accepts (no parameter is a fraction), so the validator says what
#: each key allows.
_NO_KEY_ACCEPTS = 0.5


def enum_values(cls: type[enum.Enum]) -> list[tuple[str, str]]:
    """Each value of an enumeration with its meaning: the ``#:`` comment of its member
    in the class's source (empty where it has none)."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):  # pragma: no cover - no source shipped
        source = ""
    comments = dict(re.findall(r"^\s+([A-Z_]+)\s*=.*?#:\s*(.+)$", source, flags=re.M))
    return [(str(m.value), comments.get(m.name, "")) for m in cls]


def variant_reference() -> str:
    """Every key of a variant file: type, what is allowed, default, rule ID, meaning,
    read from ``Variant.SECTIONS``, the fields' metadata and the validator."""
    from dominoproof.model.variant import Variant, load_variant_data, presets, toml_value

    defaults = load_variant_data({}, source="defaults").to_dict()
    out = [
        "# Variant files: every key",
        "",
        "*Generated from the variant's own definition (`Variant.SECTIONS`, each field's "
        "rule ID, help text and range) and from its validator, at every build of this "
        "site: it cannot disagree with what `dominoproof` accepts.* How to write a file "
        "and read what `verify` says of it: the [rules designer's guide](../DESIGNER.md).",
        "",
        "A variant file is TOML: a few top-level keys, then one table per section. A key "
        "left out keeps its default (or, with `base`, the base's value). The rule IDs "
        "are those of [RULES.md](../RULES.md).",
        "",
        "## Top-level keys",
        "",
        "| key | allowed |",
        "|---|---|",
    ]
    _, top = _probe({"?": 0})
    for key in [k.strip() for k in top.split(",")]:
        if key.startswith("["):
            continue
        _, allowed = _probe({key: _NO_KEY_ACCEPTS})
        out.append(f"| `{key}` | {_cell(allowed)} |")
    for sec, cls in Variant.SECTIONS.items():
        out += ["", f"## [{sec}]", ""]
        if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "("):
            out += [_cell(inspect.cleandoc(cls.__doc__)), ""]
        out += ["| key | rule | meaning | allowed | default |", "|---|---|---|---|---|"]
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            _, allowed = _probe({sec: {f.name: _NO_KEY_ACCEPTS}})
            default = toml_value(defaults[sec][f.name])
            out.append(f"| `{f.name}` | {f.metadata['rule']} | {_cell(f.metadata['doc'])} | "
                       f"{_cell(allowed)} | `{default}` |")
        for f in dataclasses.fields(cls):
            typ = hints[f.name]
            if isinstance(typ, type) and issubclass(typ, enum.Enum):
                what = _cell(typ.__doc__ or "").rstrip(".")
                out += ["", f"**`{sec}.{f.name}`**" + (f" — {what}" if what else "") + ":", ""]
                for value, meaning in enum_values(typ):
                    out.append(f"- `\"{value}\"`" + (f": {_cell(meaning)}" if meaning else ""))
    out += ["", "## Presets", "",
            "A file may start from one of these with `base = \"NAME\"`, or from another "
            "file with `base = \"house.toml\"` (its path relative to the file); "
            "`dominoproof show NAME` prints every value.", "",
            "| preset | aliases | what it is |", "|---|---|---|"]
    for name, v in presets().items():
        aliases = ", ".join(f"`{a}`" for a in v.aliases)
        out.append(f"| `{name}` | {aliases} | {_cell(v.description)} |")
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    """Docstring text for one cell of a Markdown table: one line, pipes escaped, reST's
    double backquotes and roles (``:class:`X` ``) made Markdown's code."""
    text = re.sub(r":[a-z]+:`~?([^`]+)`", r"`\1`", " ".join(text.split()))
    return text.replace("``", "`").replace("|", "\\|")


# ---------------------------------------------------------------------------
# The property catalogue
# ---------------------------------------------------------------------------


def methods_of(pid: str) -> list[tuple[str, str]]:
    """The methods that check property ``pid``: (method, how), read from the checkers'
    own tables (the search checks the whole catalogue; Z3 per instance picks its
    method by the property's kind; the all-sizes model proves its core or says why not)."""
    from dominoproof.proofs.allsizes import CORE, NOT_STATABLE
    from dominoproof.proofs.z3.queries import STATE_PROPERTIES, TRANSITION

    out = [("exhaustive search",
            "every reachable state of small configurations (`dominoproof explore`, the "
            "*search* column of `verify`)")]
    if pid in STATE_PROPERTIES:
        how = ("induction: an inductive invariant found by Houdini implies it; a failed "
               "proof is searched for a real violation by bounded model checking, else it "
               "is NOT INDUCTIVE with its counterexample to induction (`prove --explain`)")
    elif pid in TRANSITION:
        how = ("induction per action: the invariant and each action's step imply it; a "
               "failure is searched for a real violation by bounded model checking")
    elif pid == "termination":
        how = "a ranking function that every action decreases, bounded at the deal"
    elif pid == "blocked-complete":
        how = ("per action: from a state where R2 and R3 hold, every move is a confirmation "
               "that counts one more or the establishment, so the block comes within P + 1 "
               "moves")
    else:
        how = ("declarative scoring: R5 written as Z3 terms (`proofs/z3/scoring.py`), checked at "
               "every terminal state of the invariant")
    out.append(("Z3, per instance", how + " (`dominoproof prove`, the *z3* column of `verify`)"))
    if pid in CORE:
        out.append(("Z3, all sizes", "proved for every set size and player count at once "
                    "(`prove --all-sizes`, [ALLSIZES.md](../ALLSIZES.md))"))
    elif pid in NOT_STATABLE:
        out.append(("Z3, all sizes", "not stated: " + NOT_STATABLE[pid]))
    return out


def fault_command(fault: Any) -> str:
    """The ``dominoproof explore`` command that shows ``fault`` caught: its demo
    configuration and deals, under the broken rules."""
    from dominoproof.model.variant import toml_value

    words = ["dominoproof", "explore", fault.demo]
    for key, value in fault.demo_overrides.items():
        words += ["-o", f"{key}={toml_value(value)}"]
    deals = fault.demo_deals.split()
    if deals[0] == "every":
        words.append("--all-deals")
    elif deals[0] == "seed":
        words += ["--seed", deals[1]]
    if "free-draw" in deals:
        words.append("--free-draw")
    words += ["--fault", fault.id]
    return shlex.join(words)


def property_reference() -> str:
    """The catalogue: statement, rule IDs, kind, scope, methods, and the faults that show
    each property can fail."""
    from dominoproof.model.variant import toml_value
    from dominoproof.proofs.faults import FAULTS
    from dominoproof.proofs.properties import CATALOGUE

    out = [
        "# The property catalogue",
        "",
        "*Generated from `proofs/properties.py` (`CATALOGUE`) and `proofs/faults.py` "
        "(`FAULTS`) at every build of this site.* Every property is checked by more than "
        "one method, and every property is shown able to fail: each fault below is a "
        "deliberately broken rule set that the property catches (the command after it "
        "shows the violation, exit code 1). The verdicts are explained in the "
        "[rules designer's guide](../DESIGNER.md#reading-a-verdict).",
        "",
        "| property | kind | rules | caught on |",
        "|---|---|---|---|",
    ]
    for p in CATALOGUE:
        faults = [f.id for f in FAULTS if p.id in f.catches]
        out.append(f"| [`{p.id}`](#{p.id}) | {p.kind.value} | {', '.join(p.rules)} | "
                   + ", ".join(f"`{f}`" for f in faults) + " |")
    for p in CATALOGUE:
        out += ["", f"## {p.id}", "", p.statement, "",
                f"- **rules:** {', '.join(p.rules)}",
                f"- **kind:** {p.kind.value}",
                f"- **applies to:** {p.applies_doc}",
                "- **checked by:**"]
        out += [f"    - *{name}:* {how}" for name, how in methods_of(p.id)]
        out += ["", "Faults that break it:", ""]
        for f in FAULTS:
            if p.id in f.catches:
                others = [c for c in f.catches if c != p.id]
                also = f" (also caught by {', '.join(others)})" if others else ""
                out += [f"- `{f.id}` — {f.description}; breaks {', '.join(f.rules)}{also}:",
                        "", "    ```sh", f"    {fault_command(f)}", "    ```", ""]
    out += ["", "## Faults", "",
            "Each fault is an engine mutant, a scoring mutant or a variant that a "
            "validated file may legally take but that breaks a guarantee; each has a Z3 "
            "twin (`proofs/z3/encoding_faults.py`), so `dominoproof prove --fault ID` shows the "
            "proofs fail too.", "",
            "| fault | kind | breaks | caught by | demo |", "|---|---|---|---|---|"]
    for f in FAULTS:
        kind = ("engine" if f.engine else "scoring" if f.scorer else "variant")
        demo = f.demo + "".join(f", {k}={toml_value(v)}" for k, v in
                                {**f.demo_overrides, **f.variant_overrides}.items())
        out.append(f"| `{f.id}` | {kind} | {', '.join(f.rules)} | "
                   f"{', '.join(f'[`{c}`](#{c})' for c in f.catches)} | {_cell(demo)} |")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# The JSON Schemas
# ---------------------------------------------------------------------------


def writer_of(fmt: str) -> str:
    """Which command writes documents of format ``dominoproof.<fmt>``."""
    import click

    from dominoproof.cli import main

    if fmt == "trace":
        return ("`dominoproof play --json`, `verify --traces DIR`, `explore --traces DIR`; "
                "read by `dominoproof replay` and `check-log --format trace`")
    words = fmt.split("-", 1) if fmt.startswith("bench-") else [fmt]
    if main.get_command(click.Context(main), words[0]) is None:
        raise AssertionError(f"schema {fmt}: no command {words[0]!r} writes it")
    return f"`dominoproof {' '.join(words)} --json`"


def _type_of(schema: dict[str, Any]) -> str:
    if "const" in schema:
        return f"`{json.dumps(schema['const'])}`"
    if "enum" in schema:
        return "one of " + ", ".join(f"`{json.dumps(x)}`" for x in schema["enum"])
    typ = schema.get("type")
    if isinstance(typ, list):
        return " or ".join(typ)
    if typ == "array" and isinstance(schema.get("items"), dict):
        return f"array of {_type_of(schema['items'])}"
    if "anyOf" in schema or "oneOf" in schema:
        return " or ".join(_type_of(s) for s in schema.get("anyOf", schema.get("oneOf", [])))
    return str(typ or "any")


def schema_reference() -> str:
    """Every document format with its top-level keys and its whole schema."""
    out = [
        "# JSON documents and their schemas",
        "",
        "*Generated from the schemas shipped in the package (`dominoproof/schemas/`, "
        "written by `scripts/make-schemas` and checked against every command's output by "
        "`tests/test_json.py`) at every build of this site.*",
        "",
        "Every command that writes JSON takes `--json [FILE|-]`. Each document names its "
        "format and version (`\"format\": \"dominoproof.verify\", \"version\": 1`); a "
        "reader should check both. The schemas are JSON Schema 2020-12.",
        "",
        "| format | written by |",
        "|---|---|",
    ]
    paths = sorted(SCHEMAS.glob("*.schema.json"))
    for path in paths:
        fmt = path.name.removesuffix(".schema.json")
        out.append(f"| [`dominoproof.{fmt}`](#{fmt}) | {writer_of(fmt)} |")
    for path in paths:
        fmt = path.name.removesuffix(".schema.json")
        schema = json.loads(path.read_text(encoding="utf-8"))
        required = set(schema.get("required", []))
        out += ["", f"## dominoproof.{fmt} {{#{fmt}}}", "",
                f"{schema.get('title', fmt)}. Written by {writer_of(fmt)}. "
                f"The schema: [{path.name}](schemas/{path.name}).", "",
                "| key | type | required |", "|---|---|---|"]
        for key, sub in schema.get("properties", {}).items():
            out.append(f"| `{key}` | {_cell(_type_of(sub))} | "
                       f"{'yes' if key in required else 'no'} |")
        out += ["", f'??? note "The whole schema of dominoproof.{fmt}"', "",
                "    ```json"]
        out += ["    " + line if line else "" for line in
                json.dumps(schema, indent=1).splitlines()]
        out.append("    ```")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------
# Pictures
# ---------------------------------------------------------------------------


@cache
def picture(site_path: str) -> str:
    """The picture at ``site_path``: the file its command (:data:`PICTURES`) writes,
    run in this process through the command line's own entry point."""
    from click.testing import CliRunner

    from dominoproof.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / Path(site_path).name
        words = [w.replace("{out}", str(out)) for w in PICTURES[site_path]]
        res = CliRunner().invoke(main, words)
        if res.exit_code != 0 or not out.exists():
            raise RuntimeError(f"dominoproof {' '.join(words)} failed "
                               f"(exit {res.exit_code}): {res.output}")
        return out.read_text(encoding="utf-8")


def main(argv: list[str]) -> int:
    gens = generators()
    if not argv:
        print("\n".join(gens))
        return 0
    for site in argv:
        if site not in gens:
            print(f"no generated page {site!r}; known: {', '.join(gens)}", file=sys.stderr)
            return 2
        content = gens[site]()
        sys.stdout.write(content if isinstance(content, str) else content.decode())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
