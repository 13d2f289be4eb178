"""The variant: one frozen, validated value holding every [variant] point of RULES.md.

It is the single source of every rule parameter. The engine, the transition
system and the Z3 encoding read their parameters from here and nowhere else.

A variant is written as TOML (the sections mirror the dataclasses below)::

    name = "my-block-game"
    base = "block-2p-d6"        # optional: start from a preset and override

    [deal]
    hand_size = 6

Built-in presets are TOML files of the same form (``model/presets/``), read by
the same loader; :func:`find_variant` accepts a preset name, an alias or a path.
Invalid input raises :class:`~dominoproof.model.errors.VariantError` naming the
file, the key, the value and what is allowed.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import tomllib
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property, partial
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from .errors import VariantError
from .layout import SlotLayout, layout_data
from .params import (
    SECTIONS,
    Award,
    AwardUnit,
    BlockCall,
    BlockSpec,
    BlockWinner,
    Compare,
    Confirmations,
    DealOrder,
    DealSpec,
    DrawRule,
    DrawSpec,
    DrawWhen,
    ExtendReading,
    FirstTurn,
    FoulRule,
    FoulSpec,
    InPlay,
    LayoutKind,
    LayoutSpec,
    LeadFallback,
    LeadRule,
    LeadSpec,
    PartnershipSpec,
    Proposer,
    ScoringSpec,
    SetSpec,
    Sizes,
    TieRule,
)
from .reading import read_toml
from .tiles import MAX_SET, Tile, TileSet, tile_count, tile_index, tile_set
from .variant_checks import validate, warnings

__all__ = [
    "Award", "AwardUnit", "BlockCall", "BlockWinner", "Compare", "Confirmations", "DealOrder",
    "DrawRule", "DrawWhen",
    "ExtendReading", "FirstTurn",
    "FoulRule", "InPlay", "LayoutKind", "LeadFallback", "LeadRule", "Proposer", "Sizes", "TieRule",
    "Variant", "find_variant", "load_variant", "load_variant_data", "preset_names",
    "presets", "toml_value",
]

_TOP_KEYS = {"name": str, "aliases": list, "description": str, "base": str}
_TOP_ALLOWED = {"name": 'a quoted string, e.g. "my-game"',
                "aliases": 'a list of strings, e.g. ["block"]',
                "description": "a quoted string"}
_TABLE = "a table: a [section] header followed by key = value lines"

T = TypeVar("T")
_KEPT = ("_hash", "_key", "_derived")  #: what a Variant keeps, made in its process


@dataclass(frozen=True, eq=False)
class Variant:
    """One variant: every [variant] point of RULES.md, validated.

    Equality and hashing ignore the name, aliases, description and source:
    two variants with the same rules are the same variant.
    """

    name: str
    set: SetSpec = field(default_factory=SetSpec)
    deal: DealSpec = field(default_factory=DealSpec)
    draw: DrawSpec = field(default_factory=DrawSpec)
    lead: LeadSpec = field(default_factory=LeadSpec)
    layout: LayoutSpec = field(default_factory=LayoutSpec)
    block: BlockSpec = field(default_factory=BlockSpec)
    fouls: FoulSpec = field(default_factory=FoulSpec)
    partnerships: PartnershipSpec = field(default_factory=PartnershipSpec)
    scoring: ScoringSpec = field(default_factory=ScoringSpec)
    aliases: tuple[str, ...] = ()
    description: str = ""
    source: str = "<variant>"
    #: what a file starts from (its ``base`` key: a preset, or a file's path), "" if none:
    #: not a rule parameter (equality ignores it), kept so that ``show`` and ``diff`` can
    #: compare with it
    base: str = ""
    #: the TOML data as written (after ``base`` is merged), for :meth:`with_overrides`
    raw: Mapping[str, Any] = field(default_factory=dict, repr=False)
    #: parameters given that have no effect, each naming both keys (:func:`_warnings`)
    warnings: tuple[str, ...] = ()

    SECTIONS: ClassVar[dict[str, type]] = SECTIONS

    # -- identity ----------------------------------------------------------
    def rules_key(self) -> tuple[Any, ...]:
        """The rule parameters, section by section (made once): what ``==`` reads."""
        if "_key" not in self.__dict__:
            self.__dict__["_key"] = tuple(getattr(self, s) for s in SECTIONS)
        return typing.cast(tuple[Any, ...], self.__dict__["_key"])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Variant):
            return NotImplemented
        return self is other or (hash(self) == hash(other)
                                 and self.rules_key() == other.rules_key())

    def __hash__(self) -> int:
        if "_hash" not in self.__dict__:
            self.__dict__["_hash"] = hash(self.rules_key())
        return typing.cast(int, self.__dict__["_hash"])

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the hash and what is kept here (a string's hash differs in
        another process: a cluster's worker makes its own)."""
        return {k: v for k, v in self.__dict__.items() if k not in _KEPT}

    def derived(self, make: Callable[[Variant], T]) -> T:
        """``make(self)``, made once and kept on this variant: what a reading derives
        from the parameters alone (constants, layout) and asks for in every state."""
        memo: dict[Any, Any] = self.__dict__.setdefault("_derived", {})
        if make not in memo:
            memo[make] = make(self)
        return typing.cast(T, memo[make])

    def __repr__(self) -> str:
        return f"find_variant({self.name!r})"

    # -- derived quantities (never stored twice) ---------------------------
    @property
    def n(self) -> int:
        return self.set.max

    @property
    def players(self) -> int:
        return self.deal.players

    @cached_property
    def tiles(self) -> TileSet:
        return tile_set(self.set.max)

    @cached_property
    def slot_layout(self) -> SlotLayout:
        """The layout's slots (Terms "Layout"): the data every reading interprets."""
        return layout_data(self)

    @property
    def dealt(self) -> int:
        return self.deal.players * self.deal.hand_size

    @property
    def boneyard_size(self) -> int:
        """Tiles in the boneyard right after the deal (drawable stock)."""
        return tile_count(self.set.max) - self.dealt - self.deal.set_aside

    @property
    def all_in_play(self) -> bool:
        """Every tile is in a hand or (later) on the table: nothing set aside."""
        return self.deal.set_aside == 0

    @property
    def needed_confirmations(self) -> int:
        """R4.4: consecutive confirmations that establish the block."""
        return self.block.confirmations.needed(self.deal.players)

    @cached_property
    def teams(self) -> tuple[tuple[int, ...], ...]:
        """The sides that score: the teams, or one side per player."""
        if self.partnerships.compare is Compare.TEAM:
            return self.partnerships.teams
        return tuple((p,) for p in range(self.deal.players))

    @cached_property
    def tile_value(self) -> tuple[int, ...]:
        """R5.3: the value of each tile of the set (pips, or the special value)."""
        special = dict(self.scoring.tile_values)
        return tuple(special.get(i, p) for i, p in enumerate(self.tiles.pips))

    @cached_property
    def lead_tile_index(self) -> int | None:
        """The tile that must lead under lead rule "tile" (validated only then)."""
        if self.lead.rule is not LeadRule.TILE:
            return None
        return tile_index(*Tile.parse(self.lead.tile))

    # -- serialisation -----------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The variant as TOML-shaped data; ``load_variant_data(v.to_dict())`` gives ``v``."""
        out: dict[str, Any] = {"name": self.name}
        if self.aliases:
            out["aliases"] = list(self.aliases)
        if self.description:
            out["description"] = self.description
        for sec in SECTIONS:
            out[sec] = {f.name: _to_plain(f.name, getattr(getattr(self, sec), f.name))
                        for f in dataclasses.fields(getattr(self, sec))}
        if self.draw.rule is DrawRule.NONE:  # R3.1: "rest" follows the deal when it changes
            out["deal"]["set_aside"] = "rest"
        return out

    def to_toml(self) -> str:
        lines = [f"name = {toml_value(self.name)}"]
        if self.aliases:
            lines.append(f"aliases = {toml_value(list(self.aliases))}")
        if self.description:
            lines.append(f"description = {toml_value(self.description)}")
        data = self.to_dict()
        for sec in SECTIONS:
            lines.append("")
            lines.append(f"[{sec}]")
            for k, v in data[sec].items():
                lines.append(f"{k} = {toml_value(v)}")
        return "\n".join(lines) + "\n"

    def with_overrides(self, overrides: Mapping[str, Any], source: str = "<override>") -> Variant:
        """A new variant with ``{"deal.players": 3, ...}`` applied, validated again."""
        data = copy.deepcopy(dict(self.raw)) if self.raw else self.to_dict()
        for sec in SECTIONS:
            data.setdefault(sec, {})
        for dotted, value in overrides.items():
            sec, _, key = dotted.partition(".")
            if sec not in SECTIONS or not key:
                raise VariantError(
                    "unknown parameter", source=source, key=dotted, value=value,
                    allowed=", ".join(f"{s}.<key>" for s in SECTIONS),
                )
            data[sec][key] = value
        data["name"] = f"{self.name}+" + ",".join(f"{k}={v}" for k, v in overrides.items())
        data.pop("aliases", None)
        changed = load_variant_data(data, source=source)
        return dataclasses.replace(changed, base=self.base) if self.base else changed

    def resized(self, sizes: Sizes, source: str = "<resized>") -> tuple[Variant, list[str]]:
        """The same rules at other sizes (the set, the players, the hands, the tiles set
        aside), and a note for each other parameter that had to follow them.

        How a parameter follows the sizes is its own metadata (``shrink`` in
        :mod:`~dominoproof.model.params`): a lead tile the smaller set lacks, a seat or a
        count of confirmations beyond the players, teams a smaller table cannot keep,
        special values of tiles the set no longer has. A parameter without it does not
        depend on the sizes and is kept."""
        overrides: dict[str, Any] = {}
        notes: list[str] = []
        sizes_keys = {"set.max", "deal.players", "deal.hand_size", "deal.set_aside"}
        for sec, cls in SECTIONS.items():
            spec = getattr(self, sec)
            for f in dataclasses.fields(cls):
                shrink = f.metadata.get("shrink")
                if shrink is None:
                    continue
                old = getattr(spec, f.name)
                new = shrink(old, sizes, self)
                key = f"{sec}.{f.name}"
                if new != old or key in sizes_keys:
                    overrides[key] = _to_plain(f.name, new)
                if new != old and key not in sizes_keys:
                    notes.append(f"{sec} {f.name.replace('_', ' ')} {_shown(f.name, old)} -> "
                                 f"{_shown(f.name, new)} (the set is double-{sizes.n}, "
                                 f"{sizes.players} players)")
        return self.with_overrides(overrides, source=source), notes

    def parameters(self) -> list[tuple[str, str, Any, str]]:
        """Every parameter as ``(key, rule ID, value, help)``, for ``dominoproof show``."""
        rows = []
        for sec in SECTIONS:
            spec = getattr(self, sec)
            for f in dataclasses.fields(spec):
                rows.append((f"{sec}.{f.name}", f.metadata["rule"],
                             _to_plain(f.name, getattr(spec, f.name)), f.metadata["doc"]))
        return rows


def _to_plain(name: str, value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if name == "tile_values":
        return {str(Tile.from_index(i)): v for i, v in value}
    if name == "teams":
        return [list(t) for t in value]
    if isinstance(value, Confirmations):
        return value.plain()
    return value


def _shown(name: str, value: Any) -> str:
    plain = _to_plain(name, value)
    return (plain or '""') if isinstance(plain, str) else toml_value(plain)


def toml_value(v: Any) -> str:
    """A value as written in TOML (strings escaped; an empty table ``{}``)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        # a TOML basic string: JSON's escapes (\\, \", \n, \t, \uXXXX) are TOML's too
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f'"{k}" = {toml_value(x)}' for k, x in v.items()) + " }"
    raise TypeError(v)


# ---------------------------------------------------------------------------
# Loading and validation
# ---------------------------------------------------------------------------


def load_variant(path: str | Path, *, _bases: tuple[Path, ...] = ()) -> Variant:
    """Load and validate a variant from a TOML file."""
    p = Path(path)
    src = str(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise VariantError("no such file", source=src) from None
    except (OSError, UnicodeDecodeError) as e:
        raise VariantError(f"cannot read the file ({e})", source=src) from None
    data = read_toml(text, src, VariantError)
    return load_variant_data(data, source=src, default_name=p.stem, relative_to=p.parent,
                             _bases=(*_bases, p.resolve()))


def load_variant_data(
    given: Mapping[str, Any], *, source: str = "<variant>", default_name: str = "variant",
    relative_to: Path | None = None, _bases: tuple[Path, ...] = (),
) -> Variant:
    """Validate TOML-shaped data (a dict) into a :class:`Variant`. A ``base`` file's path
    is read relative to ``relative_to`` (the folder of the file the data is from; None:
    the working folder). ``_bases``: the files whose ``base`` chain led here, this one
    last (a file met twice is a cycle)."""
    data: dict[str, Any] = copy.deepcopy(dict(given))
    for key in data:
        if key not in _TOP_KEYS and key not in SECTIONS:
            raise VariantError(
                "unknown key", source=source, key=key, value=data[key],
                allowed=", ".join([*_TOP_KEYS, *(f"[{s}]" for s in SECTIONS)]),
            )
    base_name = data.pop("base", None)
    base = ""
    if base_name is not None:
        base, base_data = _base(base_name, source, relative_to or Path(), _bases)
        merged: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v)
                                  for k, v in base_data.items()
                                  if k not in ("aliases", "name", "description")}
        for k, v in data.items():
            if k in SECTIONS:
                if not isinstance(v, dict):
                    raise VariantError("must be a table", source=source, key=f"[{k}]", value=v,
                                       allowed=_TABLE)
                merged.setdefault(k, {}).update(v)
            else:
                merged[k] = v
        data = merged
    raw = copy.deepcopy(data)
    name = _top(data, "name", str, source, default_name)
    aliases = _top(data, "aliases", list, source, [])
    if not all(isinstance(a, str) for a in aliases):
        raise VariantError("must be a list of strings", source=source, key="aliases",
                           value=aliases, allowed='a list of strings, e.g. ["block"]')
    description = _top(data, "description", str, source, "")

    raw_sections: dict[str, dict[str, Any]] = {}
    for sec in SECTIONS:
        body = data.get(sec, {})
        if not isinstance(body, dict):
            raise VariantError("must be a table", source=source, key=f"[{sec}]", value=body,
                               allowed=_TABLE)
        raw_sections[sec] = dict(body)

    # "rest": every tile not dealt is out of play; the default under the block game (R3.1:
    # no drawing). Resolved from the validated sections, so their defaults are the only ones.
    deal_raw = raw_sections["deal"]
    aside: Any = deal_raw.get("set_aside")
    if aside == "rest":
        del deal_raw["set_aside"]

    built = {sec: _build_section(sec, cls, raw_sections[sec], source)
             for sec, cls in SECTIONS.items()}
    if aside == "rest" or (aside is None and built["draw"].rule is DrawRule.NONE):
        deal = built["deal"]
        built["deal"] = dataclasses.replace(
            deal, set_aside=max(0, tile_count(built["set"].max) - deal.players * deal.hand_size))
    v = Variant(name=name, aliases=tuple(aliases), description=description, source=source,
                base=base, raw=raw, **built)
    validate(v)
    notes = warnings(v, aside)
    return dataclasses.replace(v, warnings=notes) if notes else v


_BASE_ALLOWED = "a preset's name, or a .toml file's path, relative to this file"


def _base(name: object, source: str, folder: Path,
          chain: tuple[Path, ...]) -> tuple[str, Mapping[str, Any]]:
    """What ``base = name`` names: a preset, or a variant file (its path relative to the
    file that names it; the file is loaded, its own ``base`` first). Returns how the
    variant names its base (the preset, or the file's path: ``show`` and ``diff`` load it
    by that name) and the base's TOML data, its own base merged."""
    if not isinstance(name, str):
        raise VariantError("must be a string", source=source, key="base", value=name,
                           allowed=_BASE_ALLOWED)
    preset = _preset_data().get(_ALIASES.get(name, name))
    if preset is not None:
        return _ALIASES.get(name, name), preset[1]
    if not name.endswith(".toml"):
        raise VariantError("no such preset", source=source, key="base", value=name,
                           allowed=f"{', '.join(preset_names())}; or {_BASE_ALLOWED}")
    path = folder / name
    if path.resolve() in chain:
        loop = " -> ".join(p.name for p in (*chain, path.resolve()))
        raise VariantError(f"the bases form a cycle ({loop})", source=source, key="base",
                           value=name, allowed="a chain of bases that ends at a preset or "
                           "at a file without a base")
    if not path.is_file():
        raise VariantError(f"no such file ({path})", source=source, key="base", value=name,
                           allowed=_BASE_ALLOWED)
    return str(path), load_variant(path, _bases=chain).raw


def _top(data: Mapping[str, Any], key: str, typ: type, source: str, default: Any) -> Any:
    if key not in data:
        return default
    value = data[key]
    if not isinstance(value, typ):
        raise VariantError(f"must be a {_type_name(typ)}", source=source, key=key, value=value,
                           allowed=_TOP_ALLOWED[key])
    return value


def _type_name(t: Any) -> str:
    return {int: "whole number", str: "string", bool: "boolean (true/false)",
            list: "list", dict: "table"}.get(t, getattr(t, "__name__", str(t)))


def _build_section(sec: str, cls: type, body: dict[str, Any], source: str) -> Any:
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    kwargs: dict[str, Any] = {}
    for key, value in body.items():
        dotted = f"[{sec}] {key}"
        if key not in fields:
            raise VariantError("unknown key", source=source, key=dotted, value=value,
                               allowed=", ".join(fields))
        f = fields[key]
        kwargs[key] = _convert(dotted, f, hints[key], value, source)
    return cls(**kwargs)


def _convert(dotted: str, f: dataclasses.Field[Any], typ: Any, value: Any, source: str) -> Any:
    name = f.name
    # every error names the file, the key and (unless said otherwise) the value
    bad = partial(VariantError, source=source, key=dotted, value=value)
    if isinstance(typ, type) and issubclass(typ, enum.Enum):
        allowed = ", ".join(f'"{m.value}"' for m in typ)
        if not isinstance(value, str):
            raise bad("must be a string", allowed=allowed)
        try:
            return typ(value)
        except ValueError:
            raise bad("not a known value", allowed=allowed) from None
    if name == "confirmations":
        allowed = '"all", "all-others", or 1..players'
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise bad("must be a string or a whole number", allowed=allowed)
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            raise bad("a number is written without quotes, as every other number",
                      allowed=allowed)
        try:
            return Confirmations.of(value)
        except ValueError:
            raise bad("not a known value", allowed=allowed) from None
    if name == "teams":
        ok = isinstance(value, list) and all(
            isinstance(t, list) and all(isinstance(s, int) and not isinstance(s, bool)
                                        for s in t) for t in value)
        if not ok:
            raise bad("must be a list of lists of seat numbers", allowed="e.g. [[0, 2], [1, 3]]")
        return tuple(tuple(t) for t in value)
    if name == "tile_values":
        if not isinstance(value, dict):
            raise bad("must be a table of tile = value", allowed='e.g. { "0-0" = 25 }')
        pairs: list[tuple[int, int]] = []
        for k, v in value.items():
            entry = partial(bad, key=f"{dotted}.{k}", value=k)
            try:
                t = Tile.parse(k)
            except ValueError:
                raise entry("not a tile", allowed='tiles written "a-b"') from None
            if t.hi > MAX_SET:
                raise entry(f"beyond every set (the largest is double-{MAX_SET})",
                            allowed=f'tiles "a-b" with 0 <= a <= b <= {MAX_SET}')
            if any(i == t.idx for i, _ in pairs):
                raise entry(f"the tile {t} is given a value twice", allowed="each tile once")
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise entry("must be a whole number >= 0", value=v,
                            allowed="a whole number >= 0")
            pairs.append((t.idx, v))
        return tuple(sorted(pairs))
    if typ is bool:
        if not isinstance(value, bool):
            raise bad("must be a boolean", allowed="true, false")
        return value
    if typ is int:
        lo, hi = f.metadata.get("range", (None, None))
        allowed = "a whole number" if lo is None else f"{lo}..{hi}"
        if name == "set_aside":
            allowed += ' or "rest"'
        if isinstance(value, bool) or not isinstance(value, int):
            raise bad("must be a whole number", allowed=allowed)
        if lo is not None and not lo <= value <= hi:
            raise bad("out of range", allowed=allowed)
        return value
    if typ is str:
        if not isinstance(value, str):
            raise bad("must be a string", allowed=f'a quoted string: {f.metadata["doc"]}')
        return value
    raise AssertionError(f"no converter for {dotted}: {typ}")  # pragma: no cover


# ---------------------------------------------------------------------------
# Presets: TOML files shipped with the package, read by the same loader
# ---------------------------------------------------------------------------

_ALIASES: dict[str, str] = {}


@cache
def _preset_data() -> dict[str, tuple[str, dict[str, Any]]]:
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    folder = resources.files(__package__).joinpath("presets")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        data = tomllib.loads(entry.read_text(encoding="utf-8"))
        name = data["name"]
        out[name] = (f"preset:{entry.name}", data)
        for alias in data.get("aliases", []):
            _ALIASES[alias] = name
    return out


@cache
def presets() -> dict[str, Variant]:
    """Every built-in preset, by name (validated once, on first use)."""
    return {name: load_variant_data(data, source=src)
            for name, (src, data) in _preset_data().items()}


def preset_names() -> list[str]:
    return list(_preset_data())


def find_variant(name: str) -> Variant:
    """A preset by name or alias, or a variant file by path."""
    pres = presets()
    if name in pres:
        return pres[name]
    if name in _ALIASES:
        return pres[_ALIASES[name]]
    p = Path(name)
    if p.suffix == ".toml" or p.exists():
        return load_variant(p)
    raise VariantError(
        "no preset has this name or alias, and it is not a variant file", source="<command line>",
        key="variant", value=name, allowed=", ".join(pres) + ", or a path to a .toml file",
    )

