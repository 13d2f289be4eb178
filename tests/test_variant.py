"""The variant: presets, TOML round trips, inheritance, overrides and located errors.

Every [variant] point of RULES.md is a parameter of :class:`Variant`; a bad file must
be rejected with a :class:`VariantError` that names the file, the key, the value and
what is allowed, so that a rules designer can fix it without reading code.
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from dominoproof.model import Variant, VariantError, find_variant, load_variant, presets
from dominoproof.model import load_variant_data as load
from dominoproof.model.variant import (
    Compare,
    DealOrder,
    DrawRule,
    FoulRule,
    LeadFallback,
    LeadRule,
    TieRule,
    preset_names,
)

PRESETS = sorted(presets())


# ---------------------------------------------------------------------------
# Presets and round trips
# ---------------------------------------------------------------------------


def test_every_preset_file_is_a_preset() -> None:
    folder = Path(__file__).resolve().parents[1] / "model" / "presets"
    assert sorted(p.stem for p in folder.glob("*.toml")) == PRESETS == sorted(preset_names())


@pytest.mark.parametrize("name", PRESETS)
def test_preset_round_trips_through_data_and_toml(name: str) -> None:
    v = find_variant(name)
    assert v.name == name
    assert load(v.to_dict()) == v
    again = load(tomllib.loads(v.to_toml()))
    assert again == v
    assert (again.name, again.aliases, again.description) == (v.name, v.aliases, v.description)
    assert again.to_toml() == v.to_toml()


@pytest.mark.parametrize("name", PRESETS)
def test_preset_deal_fits_its_set(name: str) -> None:
    v = find_variant(name)
    assert v.boneyard_size >= 0
    assert v.dealt + v.deal.set_aside + v.boneyard_size == v.tiles.count
    if v.draw.rule is DrawRule.NONE:  # R3.1 block game: every undealt tile is out of play
        assert v.boneyard_size == 0


def test_round_trip_keeps_text_that_needs_escaping() -> None:
    v = load({"name": 'odd "name"', "aliases": ['a"b', "c\\d"],
              "description": 'two\nlines, a\ttab, a "quote", \x7f and \u00e9\U0001f600'})
    again = load(tomllib.loads(v.to_toml()))
    assert (again.name, again.aliases, again.description) == (v.name, v.aliases, v.description)


def test_round_trip_keeps_every_non_default_parameter() -> None:
    v = load({
        "name": "everything",
        "set": {"max": 9},
        "deal": {"players": 4, "hand_size": 8, "set_aside": 3, "order": "round-robin"},
        "draw": {"rule": "one"},
        "lead": {"rule": "tile", "tile": "9-9", "fallback": "redeal"},
        "layout": {"extend": "has-legal-move"},
        "block": {"confirmations": 3, "boneyard_must_be_empty": False},
        "fouls": {"rule": "penalised", "penalty": 7},
        "partnerships": {"teams": [[0, 2], [1, 3]], "compare": "player"},
        "scoring": {"block_award": "others-minus-winner", "domino_award": "all-residuals",
                    "round_to": 5, "tie": "team-total", "tile_values": {"0-0": 25, "9-9": 50}},
    })
    assert v.needed_confirmations == 3
    assert v.tile_value[0] == 25
    assert load(v.to_dict()) == v
    assert load(tomllib.loads(v.to_toml())) == v
    for key, _rule, value, _doc in v.parameters():
        sec, name = key.split(".")
        assert v.to_dict()[sec][name] == value


def test_equality_ignores_name_and_description_but_not_rules() -> None:
    v = find_variant("draw-2p-d6")
    renamed = load({**v.to_dict(), "name": "other", "description": "x"})
    assert renamed == v
    assert hash(renamed) == hash(v)
    assert v.with_overrides({"scoring.round_to": 5}) != v


# ---------------------------------------------------------------------------
# find_variant, base, with_overrides
# ---------------------------------------------------------------------------


def test_find_variant_by_name_alias_and_path(tmp_path: Path) -> None:
    assert find_variant("block-2p-d6").name == "block-2p-d6"
    assert find_variant("block") is find_variant("block-2p-d6")
    assert find_variant("d12") is find_variant("draw-4p-d12")
    f = tmp_path / "mine.toml"
    f.write_text('name = "mine"\n[deal]\nhand_size = 5\n')
    mine = find_variant(str(f))
    assert (mine.name, mine.deal.hand_size, mine.source) == ("mine", 5, str(f))


def test_find_variant_unknown_name_lists_what_exists() -> None:
    with pytest.raises(VariantError) as e:
        find_variant("no-such-game")
    text = str(e.value)
    assert '"no-such-game"' in text
    for name in PRESETS:
        assert name in text


def test_file_without_name_is_named_after_the_file(tmp_path: Path) -> None:
    f = tmp_path / "anon.toml"
    f.write_text("[set]\nmax = 3\n[deal]\nhand_size = 2\n")
    assert load_variant(f).name == "anon"


def test_base_inherits_a_preset_and_overrides_per_key(tmp_path: Path) -> None:
    f = tmp_path / "short.toml"
    f.write_text('name = "short"\nbase = "block-2p-d6"\n[deal]\nhand_size = 5\n')
    v = load_variant(f)
    base = find_variant("block-2p-d6")
    assert v.deal.hand_size == 5
    assert v.deal.players == base.deal.players == 2  # kept from the base
    assert v.draw.rule is DrawRule.NONE
    assert v.deal.set_aside == 28 - 10  # "rest" is recomputed for the new deal
    assert v.name == "short" and v.aliases == ()
    assert v == base.with_overrides({"deal.hand_size": 5})


def test_base_accepts_an_alias() -> None:
    v = load({"name": "x", "base": "partnership", "scoring": {"tie": "split"}})
    assert v.partnerships.teams == ((0, 2), (1, 3))
    assert v.scoring.tie is TieRule.SPLIT
    assert v.scoring.block_award == find_variant("partnership-4p-d6").scoring.block_award


def test_with_overrides_changes_only_what_it_names() -> None:
    v = find_variant("draw-2p-d6")
    w = v.with_overrides({"deal.players": 3, "deal.order": "round-robin",
                          "scoring.tile_values": {"0-0": 25}})
    assert (w.players, w.deal.order, w.tile_value[0]) == (3, DealOrder.ROUND_ROBIN, 25)
    assert w.draw == v.draw and w.lead == v.lead and w.block == v.block
    assert v.players == 2  # the original is a frozen value
    block = find_variant("block-2p-d6").with_overrides({"deal.hand_size": 4})
    assert block.deal.set_aside == 20  # "rest" follows the new deal


@pytest.mark.parametrize("name", PRESETS)
def test_a_round_tripped_variant_takes_the_same_overrides(name: str) -> None:
    """A variant read back from its data (a trace, ``show --toml``) behaves like the
    preset: in a block game "rest" must stay "rest", not freeze into a number."""
    v = find_variant(name)
    again = load(tomllib.loads(v.to_toml()))
    for overrides in ({"deal.hand_size": 2}, {"deal.players": 3, "deal.hand_size": 3}):
        assert _override(again, overrides) == _override(v, overrides)


def _override(v: Variant, overrides: dict[str, Any]) -> Variant | str:
    try:
        return v.with_overrides(overrides)
    except VariantError as e:  # e.g. teams that no longer partition the seats
        return str(e)


def test_with_overrides_validates_again() -> None:
    v = find_variant("draw-2p-d6")
    with pytest.raises(VariantError, match=r"\[deal\] players = 11: out of range"):
        v.with_overrides({"deal.players": 11})
    with pytest.raises(VariantError, match=r"nosuch\.key.*unknown parameter"):
        v.with_overrides({"nosuch.key": 1})


def test_confirmations_forms() -> None:
    base = find_variant("draw-4p-d9")
    assert base.needed_confirmations == 4
    assert base.with_overrides({"block.confirmations": "all-others"}).needed_confirmations == 3
    assert base.with_overrides({"block.confirmations": 2}).needed_confirmations == 2


def test_defaults_are_the_standard_game() -> None:
    v = load({"name": "defaults"})
    assert (v.n, v.players, v.deal.hand_size, v.deal.set_aside) == (6, 2, 7, 0)
    assert v.draw.rule is DrawRule.UNTIL_PLAYABLE  # R3.1 the standard draw rule
    assert v.lead.rule is LeadRule.PLAYER and v.lead.fallback is LeadFallback.HEAVIEST_TILE
    assert v.fouls.rule is FoulRule.IMPOSSIBLE
    assert v.partnerships.compare is Compare.PLAYER
    assert v.needed_confirmations == 2 and v.block.boneyard_must_be_empty


# ---------------------------------------------------------------------------
# Bad input: a VariantError naming the file, the key, the value and what is allowed
# ---------------------------------------------------------------------------

#: (case, data, key, value as printed, a fragment of what is allowed)
BAD: list[tuple[str, dict[str, Any], str, str, str]] = [
    ("unknown top-level key", {"colour": "red"}, "colour", '"red"', "[deal]"),
    ("unknown key in a section", {"deal": {"playerz": 3}}, "[deal] playerz", "3",
     "players, hand_size"),
    ("section not a table", {"deal": 3}, "[deal]", "3", "table"),
    ("wrong type: whole number", {"deal": {"players": "two"}}, "[deal] players", '"two"',
     "2..10"),
    ("wrong type: set_aside", {"deal": {"set_aside": "all"}}, "[deal] set_aside", '"all"',
     '"rest"'),
    ("wrong type: boolean", {"block": {"boneyard_must_be_empty": "yes"}},
     "[block] boneyard_must_be_empty", '"yes"', "true, false"),
    ("wrong type: string", {"lead": {"rule": "tile", "tile": 66}}, "[lead] tile", "66",
     'e.g. "6-6"'),
    ("wrong type: name", {"name": 5}, "name", "5", "string"),
    ("wrong type: aliases", {"aliases": "a"}, "aliases", '"a"', "list of strings"),
    ("wrong type: enum", {"draw": {"rule": 2}}, "[draw] rule", "2", '"until-playable"'),
    ("wrong type: teams", {"partnerships": {"teams": [0, 1]}}, "[partnerships] teams",
     "[0, 1]", "[[0, 2], [1, 3]]"),
    ("wrong type: confirmations", {"block": {"confirmations": True}},
     "[block] confirmations", "true", '"all-others"'),
    ("out of range: players", {"deal": {"players": 11}}, "[deal] players", "11", "2..10"),
    ("out of range: set", {"set": {"max": 19}}, "[set] max", "19", "0..18"),
    ("out of range: round_to", {"scoring": {"round_to": 0}}, "[scoring] round_to", "0",
     "1..100"),
    ("out of range: confirmations", {"block": {"confirmations": 3}},
     "[block] confirmations", "3", "1..2"),
    ("out of range: confirmations 0", {"block": {"confirmations": 0}},
     "[block] confirmations", "0", "1..2"),
    ("out of range: lead player", {"lead": {"player": 2}}, "[lead] player", "2", "0..1"),
    ("deal needs more tiles than the set has", {"deal": {"players": 4, "hand_size": 8}},
     "[deal] hand_size", "8", "1..7"),
    ("set_aside too large", {"deal": {"set_aside": 15}}, "[deal] set_aside", "15", "0..14"),
    ('draw "none" with a non-empty boneyard', {"draw": {"rule": "none"},
                                               "deal": {"set_aside": 3}},
     "[deal] set_aside", "3", '14 or "rest"'),
    ("unknown enum value: draw", {"draw": {"rule": "two"}}, "[draw] rule", '"two"',
     '"none", "until-playable", "one"'),
    ("unknown enum value: tie", {"scoring": {"tie": "coin"}}, "[scoring] tie", '"coin"',
     '"lightest-tile"'),
    ("unknown enum value: confirmations", {"block": {"confirmations": "most"}},
     "[block] confirmations", '"most"', '"all-others"'),
    ("lead tile not in the set", {"lead": {"rule": "tile", "tile": "7-7"}}, "[lead] tile",
     '"7-7"', "<= 6"),
    ("lead tile not a tile", {"lead": {"rule": "tile", "tile": "x"}}, "[lead] tile", '"x"',
     "a-b"),
    ("lead tile missing", {"lead": {"rule": "tile"}}, "[lead] tile", '""', "6-6"),
    ("fallback repeats the lead rule", {"lead": {"rule": "highest-double",
                                                  "fallback": "highest-double"}},
     "[lead] fallback", '"highest-double"', '"heaviest-tile"'),
    ("teams not partitioning seats", {"partnerships": {"teams": [[0], [0]]}},
     "[partnerships] teams", "[[0], [0]]", "[[0, 2], [1, 3]]"),
    ("teams leaving a seat out", {"deal": {"players": 4, "hand_size": 5},
                                  "partnerships": {"teams": [[0, 1], [2]]}},
     "[partnerships] teams", "[[0, 1], [2]]", "[[0, 2], [1, 3]]"),
    ("one team", {"partnerships": {"teams": [[0, 1]]}}, "[partnerships] teams", "[[0, 1]]",
     "[[0, 2], [1, 3]]"),
    ('compare "team" without teams', {"partnerships": {"compare": "team"}},
     "[partnerships] compare", '"team"', "teams"),
    ('tie "team-total" without teams', {"scoring": {"tie": "team-total"}}, "[scoring] tie",
     '"team-total"', '"split"'),
    ("bad tile_values key", {"scoring": {"tile_values": {"x": 3}}},
     "[scoring] tile_values.x", '"x"', "a-b"),
    ("tile_values key outside the set", {"scoring": {"tile_values": {"7-7": 3}}},
     "[scoring] tile_values.7-7", '"7-7"', "<= 6"),
    ("tile_values negative value", {"scoring": {"tile_values": {"0-0": -3}}},
     "[scoring] tile_values.0-0", "-3", ">= 0"),
    ("a tile valued twice", {"scoring": {"tile_values": {"0-6": 5, "6-0": 7}}},
     "[scoring] tile_values.6-0", '"6-0"', "each tile once"),
    ("tile_values not a table", {"scoring": {"tile_values": 5}}, "[scoring] tile_values",
     "5", '"0-0" = 25'),
    ("base not a preset", {"base": "nope"}, "base", '"nope"', "block-2p-d6"),
]


@pytest.mark.parametrize(("case", "data", "key", "value", "allowed"), BAD,
                         ids=[b[0] for b in BAD])
def test_bad_variant_names_file_key_value_and_allowed(
    tmp_path: Path, case: str, data: dict[str, Any], key: str, value: str, allowed: str,
) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(_toml({"name": "bad", **data}))
    with pytest.raises(VariantError) as e:
        load_variant(f)
    err = e.value
    text = str(err)
    assert text.startswith(f"{f}: {key} = {value}: "), text
    assert f"(allowed: {allowed}" in text or (err.allowed and allowed in err.allowed), text
    assert allowed in text, text
    assert (err.source, err.key) == (str(f), key)


def _toml(data: dict[str, Any]) -> str:
    """The test's own TOML writer (so a bug in ``to_toml`` cannot hide a loader bug)."""
    def val(x: Any) -> str:
        if isinstance(x, bool):
            return "true" if x else "false"
        if isinstance(x, str):
            return '"' + x + '"'
        if isinstance(x, list):
            return "[" + ", ".join(val(y) for y in x) + "]"
        if isinstance(x, dict):
            return "{ " + ", ".join(f'"{k}" = {val(y)}' for k, y in x.items()) + " }"
        return str(x)

    top = [f"{k} = {val(x)}" for k, x in data.items() if not isinstance(x, dict)]
    tables = [f"[{k}]\n" + "\n".join(f"{kk} = {val(y)}" for kk, y in x.items())
              for k, x in data.items() if isinstance(x, dict)]
    return "\n".join(top) + "\n\n" + "\n\n".join(tables) + "\n"


def test_bad_toml_syntax_names_the_file_and_the_line(tmp_path: Path) -> None:
    f = tmp_path / "broken.toml"
    f.write_text('name = "x"\n[deal\nplayers = 2\n')
    with pytest.raises(VariantError, match=r"broken\.toml: not valid TOML: .*line 2"):
        load_variant(f)


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    f = tmp_path / "absent.toml"
    with pytest.raises(VariantError, match=r"absent\.toml: no such file"):
        load_variant(f)
    with pytest.raises(VariantError, match=r"absent\.toml: no such file"):
        find_variant(str(f))


def test_bad_key_in_an_inheriting_file_names_that_file(tmp_path: Path) -> None:
    f = tmp_path / "child.toml"
    f.write_text('base = "draw-2p-d6"\n[draw]\nrul = "one"\n')
    with pytest.raises(VariantError, match=r"child\.toml: \[draw\] rul = \"one\": unknown key"):
        load_variant(f)


def test_a_failed_load_changes_nothing() -> None:
    before = {n: (v, v.to_toml()) for n, v in presets().items()}
    data = {"name": "x", "base": "block-2p-d6", "deal": {"hand_size": 99},
            "aliases": ["block"]}
    kept = copy.deepcopy(data)
    with pytest.raises(VariantError):
        load(data)
    assert data == kept  # the caller's data is untouched
    with pytest.raises(VariantError):
        find_variant("block-2p-d6").with_overrides({"deal.hand_size": 99})
    after = presets()
    assert {n: (v, v.to_toml()) for n, v in after.items()} == before
    assert find_variant("block") is after["block-2p-d6"]  # the alias still names the preset
    assert find_variant("block-2p-d6").deal.hand_size == 7


def test_a_successful_load_does_not_register_aliases_or_touch_its_input() -> None:
    data = {"name": "mine", "aliases": ["tiny-clone"], "base": "tiny", "deal": {"players": 3}}
    kept = copy.deepcopy(data)
    v = load(data)
    assert data == kept
    assert v.players == 3 and v.aliases == ("tiny-clone",)
    with pytest.raises(VariantError):
        find_variant("tiny-clone")
    assert find_variant("tiny").players == 2


def test_variant_is_frozen() -> None:
    v = find_variant("draw-2p-d6")
    with pytest.raises(AttributeError):
        v.name = "x"  # type: ignore[misc]
    assert isinstance(v, Variant)
