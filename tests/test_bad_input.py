"""Every bad input rejected, nothing silently ignored (the CLI's contract).

Each class of hostile input an outside tester found gives one located line (file, key,
value, what is allowed) on standard error, exit code 2, no traceback, and no work done
first: tiles beyond the set in ``scoring.tile_values``, integers of thousands of digits,
documents nested a thousand deep, trace fields of the wrong type, output paths in
missing folders, budgets of zero, negative or NaN, newlines inside values, ``-o`` values
with a newline. Parameters accepted without effect are a warning naming both keys. The
fuzz tests (slow tier, 1,200 cases with the fixed seeds of the Hypothesis profiles) try
the variant, override, trace and command-line grammars against the same contract.
"""

from __future__ import annotations

import json
import string
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominoproof.cli import main
from dominoproof.model import find_variant, random_round
from dominoproof.model.reading import MAX_DEPTH

#: cases per grammar in the slow tier (four grammars: 1,200 in all)
FUZZ_CASES = 300


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def errors(r: Result) -> list[str]:
    """The lines of standard error that are not warnings."""
    return [ln for ln in r.stderr.splitlines() if not ln.startswith("dominoproof: warning:")]


def assert_contract(r: Result) -> None:
    """Exit 0/1/2/3 only, never a traceback; on error (2) exactly one line, and nothing
    on standard output."""
    assert r.exit_code in (0, 1, 2, 3), (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    if r.exit_code == 2:
        lines = errors(r)
        assert len(lines) == 1, r.stderr
        assert lines[0].startswith("dominoproof: error: ")
        assert r.stdout == ""


def assert_bad(r: Result, *needles: str) -> str:
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert_contract(r)
    line = errors(r)[0]
    for needle in needles:
        assert needle in line, (needle, line)
    return line


def write(tmp: Path, name: str, text: str) -> str:
    p = tmp / name
    p.write_text(text, encoding="utf-8")
    return str(p)


# -- variant files -----------------------------------------------------------------------


@pytest.mark.parametrize("tile, needle", [
    ("7-7", "not a tile of the double-6 set"),
    ("19-19", "beyond every set (the largest is double-18)"),
    ("1000-1000", "not a tile (allowed: tiles written"),
])
def test_a_tile_value_beyond_the_set_is_located(tmp_path: Path, tile: str, needle: str) -> None:
    text = f'base = "draw-2p-d6"\n[scoring]\ntile_values = {{ "{tile}" = 3 }}\n'
    f = write(tmp_path, "v.toml", text)
    assert_bad(run("show", f), "v.toml", f"tile_values.{tile}", needle)


def test_an_integer_of_thousands_of_digits_is_refused(tmp_path: Path) -> None:
    f = write(tmp_path, "v.toml", 'base = "draw-2p-d6"\n[deal]\nplayers = ' + "9" * 5000 + "\n")
    assert_bad(run("show", f), "v.toml", "digits")
    f = write(tmp_path, "w.toml", 'base = "draw-2p-d6"\n[deal]\nplayers = ' + "9" * 200 + "\n")
    line = assert_bad(run("show", f), "[deal] players", "digits", "allowed: 2..10")
    assert len(line) < 300  # the value is not echoed digit by digit


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 100_000])
def test_a_document_nested_too_deep_is_refused(tmp_path: Path, depth: int) -> None:
    f = write(tmp_path, "v.toml", 'base = "draw-2p-d6"\nx = ' + "[" * depth + "]" * depth)
    assert_bad(run("show", f), "v.toml", "nested too deeply")
    f = write(tmp_path, "t.json", "[" * depth + "]" * depth)
    assert_bad(run("replay", f), "t.json", "nested too deeply")


def test_a_newline_in_a_value_is_shown_escaped(tmp_path: Path) -> None:
    f = write(tmp_path, "v.toml", 'base = "draw-2p-d6"\n[scoring]\ntie = "split\\nnone"\n')
    assert_bad(run("show", f), "[scoring] tie", '"split\\nnone"')


# -- overrides ---------------------------------------------------------------------------


def test_an_override_with_a_newline_is_refused_not_truncated() -> None:
    r = run("show", "tiny", "-o", "deal.players=2\nscoring.tie = split")
    assert_bad(r, "-o deal.players=2\\nscoring.tie", "newline")
    assert_bad(run("show", "tiny", "-o", "deal.play\ners=2"), "-o", "\\n")


def test_an_override_nested_too_deep_or_too_big_is_refused() -> None:
    assert_bad(run("show", "tiny", "-o", "partnerships.teams=" + "[" * 500 + "]" * 500),
               "nested too deeply")
    assert_bad(run("show", "tiny", "-o", "deal.players=" + "9" * 5000), "digits")


# -- traces ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def trace_json() -> dict[str, Any]:
    t = random_round(find_variant("draw-2p-d6"), 3)
    data: dict[str, Any] = t.to_json()
    return data


@pytest.mark.parametrize("field, value, needle", [
    ("tile", [5, 5], 'moves[0].tile = [5, 5]: not a tile'),
    ("tile", 12, "moves[0].tile = 12: not a tile"),
    ("tile", "25-25", "beyond every set"),
    ("player", 1.4, "moves[0].player = 1.4: not a seat"),
    ("player", "1", 'moves[0].player = "1": not a seat'),
    ("player", False, "moves[0].player = false: not a seat"),
    ("player", -1, "moves[0].player = -1"),
    ("end", True, "moves[0].end = true: not an open end"),
    ("kind", ["play"], "moves[0].kind"),
])
def test_a_trace_field_of_the_wrong_type_is_located(tmp_path: Path, trace_json: dict[str, Any],
                                                    field: str, value: Any,
                                                    needle: str) -> None:
    data = json.loads(json.dumps(trace_json))
    data["moves"][0][field] = value
    f = write(tmp_path, "t.json", json.dumps(data))
    assert_bad(run("replay", f), "t.json", needle)


def test_infinity_and_nan_are_not_json_numbers(tmp_path: Path,
                                               trace_json: dict[str, Any]) -> None:
    for word in ("Infinity", "-Infinity", "NaN"):
        text = json.dumps(trace_json).replace('"player": 0', f'"player": {word}', 1)
        f = write(tmp_path, "t.json", text)
        assert_bad(run("replay", f), "t.json", f"{word.lstrip('-')} is not a JSON number")


def test_unknown_trace_keys_are_errors_but_origin_is_kept(tmp_path: Path,
                                                          trace_json: dict[str, Any]) -> None:
    data = dict(trace_json, colour="blue")
    assert_bad(run("replay", write(tmp_path, "t.json", json.dumps(data))),
               "colour: unknown key", "origin")
    data = dict(trace_json, origin={"engine": "another", "log": "game 7"})
    r = run("replay", write(tmp_path, "o.json", json.dumps(data)))
    assert r.exit_code == 0, r.output


# -- output paths, checked before the work ---------------------------------------------


@pytest.mark.parametrize("args", [
    ["verify", "tiny", "--no-faults", "--json", "{missing}/r.json"],
    ["verify", "tiny", "--no-faults", "--junit", "{missing}/r.xml"],
    ["explore", "tiny", "--dot", "{missing}/g.dot"],
    ["explore", "tiny", "--svg", "{missing}/g.svg"],
    ["explore", "tiny", "--graphml", "{missing}/g.graphml"],
    ["witness", "tiny", "tie", "--trace-out", "{missing}/t.json"],
])
def test_an_output_path_in_a_missing_folder_fails_before_any_work(
        tmp_path: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import dominoproof.proofs.search.statespace as statespace
    import dominoproof.proofs.z3.solver as solver

    def no_work(*a: Any, **k: Any) -> Any:
        raise AssertionError("work was done before the output path was checked")

    monkeypatch.setattr(solver, "_checked", no_work)
    monkeypatch.setattr(statespace, "explore", no_work)
    missing = str(tmp_path / "no-such-folder")
    r = run(*[a.format(missing=missing) for a in args])
    assert_bad(r, "no-such-folder", "does not exist")


@pytest.mark.parametrize("option", ["--json", "--svg"])
def test_an_output_name_too_long_fails_before_any_work(tmp_path: Path, option: str) -> None:
    cmd = "show" if option == "--json" else "draw"
    assert_bad(run(cmd, "tiny", option, str(tmp_path / ("x" * 300 + ".out"))),
               option, "304 bytes", "at most 255")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("args", [["show", "tiny", "--json", "/dev/full"],
                                  ["draw", "tiny", "--svg", "/dev/full"]])
def test_a_full_disk_at_the_end_is_one_line_not_a_traceback(args: list[str]) -> None:
    assert_bad(run(*args), "could not write /dev/full", "No space left")


def test_lead_double_takes_beyond_the_slots_it_opens_is_located() -> None:
    assert_bad(run("show", "tiny", "-o", "layout.lead_double_takes=3"),
               "[layout] lead_double_takes = 3", "2 slots", "allowed: 0 or 2")
    assert run("show", "tiny", "-o", "layout.lead_double_takes=2").exit_code == 0


def test_a_quoted_number_of_confirmations_is_refused_as_every_quoted_integer(
        tmp_path: Path) -> None:
    f = write(tmp_path, "c.toml", 'base = "tiny-2p-d3"\n[block]\nconfirmations = "1"\n')
    assert_bad(run("show", f), "[block] confirmations", "without quotes")
    assert_bad(run("show", "tiny", "-o", 'block.confirmations="1"'), "without quotes")


# -- budgets -----------------------------------------------------------------------------


@pytest.mark.parametrize("args, option", [
    (["prove", "tiny", "--timeout-ms", "0"], "--timeout-ms"),
    (["prove", "tiny", "--rlimit", "0"], "--rlimit"),
    (["prove", "tiny", "--depth", "-1"], "--depth"),
    (["prove", "tiny", "--workers", "0"], "--workers"),
    (["witness", "tiny", "tie", "--depth", "-2"], "--depth"),
    (["witness", "tiny", "tie", "--seconds", "nan"], "--seconds"),
    (["witness", "tiny", "tie", "--seconds", "0"], "--seconds"),
    (["witness", "tiny", "tie", "--seconds", "-1"], "--seconds"),
    (["witness", "tiny", "tie", "--seconds", "inf"], "--seconds"),
    (["verify", "tiny", "--crosscheck", "-1"], "--crosscheck"),
    (["verify", "tiny", "--workers", "0"], "--workers"),
    (["verify", "tiny", "--workers", "-1"], "--workers"),
    (["verify", "tiny", "--timeout-ms", "-5"], "--timeout-ms"),
    (["explore", "tiny", "--max-seconds", "nan"], "--max-seconds"),
    (["explore", "tiny", "--max-states", "0"], "--max-states"),
    (["simulate", "tiny", "-n", "0"], "--rounds"),
    (["stats", "tiny", "--sampled", "-n", "0"], "--rounds"),
    (["stats", "tiny", "--max-states", "0"], "--max-states"),
    (["stats", "tiny", "--max-deals", "-1"], "--max-deals"),
    (["stats", "tiny", "--max-seconds", "nan"], "--max-seconds"),
    (["stats", "tiny", "--max-seconds", "0"], "--max-seconds"),
])
def test_a_budget_of_zero_negative_or_nan_is_bad_input(args: list[str], option: str) -> None:
    assert_bad(run(*args), option)


def test_a_click_usage_error_is_one_line() -> None:
    assert_bad(run("prove", "tiny", "--no-such-option"), "No such option", "--help")
    assert_bad(run("no-such-command"), "No such command")
    assert_bad(run("prove"), "Missing argument")


# -- parameters without effect: a warning naming both keys ------------------------------


@pytest.mark.parametrize("args, keys", [
    (["block-2p-d6", "-o", "draw.rule=one"], ("[draw] rule", "[deal] set_aside")),
    (["partnership", "-o", "partnerships.compare=player"],
     ("[partnerships] teams", "[partnerships] compare")),
    (["block-2p-d6", "-o", "lead.tile=5-5"], ("[lead] tile", "[lead] rule")),
    (["block-2p-d6", "-o", "fouls.penalty=5"], ("[fouls] penalty", "[fouls] rule")),
    (["block-2p-d6", "-o", "block.restart_on_marker=true"],
     ("[block] restart_on_marker", "[layout] kind")),
    (["block-2p-d6", "-o", "layout.open_trains=own-marker-out"],
     ("[layout] open_trains", "[layout] kind")),
    (["block-2p-d6", "-o", "layout.public_train=after-own"],
     ("[layout] public_train", "[layout] kind")),
    (["block-2p-d6", "-o", "draw.when=any-time"], ("[draw] when", "[draw] rule")),
    (["block-2p-d6", "-o", "block.call=dead-end", "-o", "deal.hand_size=2"],
     ("[block] call", "[deal] players")),
    # R3.6: a draw for the lead where nothing can miss: a seat leads, or every tile is dealt
    (["block-2p-d6", "-o", "lead.fallback=draw"], ("[lead] fallback", "[lead] rule")),
    (["partnership-4p-d6", "-o", "lead.fallback=draw"],
     ("[lead] fallback", "[deal] players x hand_size")),
    (["block-2p-d6", "-o", "layout.out_on_double=covered"],
     ("[layout] out_on_double", "[layout] double_takes")),
    (["block-2p-d6", "-o", "layout.first_turn=own-train"],
     ("[layout] first_turn", "[layout] kind")),
])
def test_a_parameter_without_effect_is_a_warning_naming_both_keys(
        args: list[str], keys: tuple[str, ...]) -> None:
    r = run("show", *args)
    assert r.exit_code == 0, r.output
    warnings = [ln for ln in r.stderr.splitlines() if ln.startswith("dominoproof: warning:")]
    assert len(warnings) == 1, r.stderr
    for key in keys:
        assert key in warnings[0], (key, warnings[0])
    assert "has no effect" in warnings[0]


def test_the_presets_have_no_parameter_without_effect() -> None:
    from dominoproof.model.variant import presets

    assert {name: v.warnings for name, v in presets().items() if v.warnings} == {}


def test_a_draw_for_the_lead_with_tiles_set_aside_is_a_located_error() -> None:
    """R3.6: the named tile might be set aside, never drawn: the draw might never end."""
    assert_bad(run("show", "draw-leave2-2p-d6", "-o", "lead.fallback=draw"),
               '[lead] fallback = "draw"', "2 tile(s) set aside", "[deal] set_aside = 0")
    assert_bad(run("show", "block-2p-d6", "-o", "lead.rule=highest-double", "-o",
                   "lead.fallback=draw"), '[lead] fallback = "draw"', "set aside")


def test_a_lead_tile_not_in_the_set_is_an_error_under_any_lead_rule() -> None:
    assert_bad(run("show", "block-2p-d6", "-o", "lead.tile=9-9"), "[lead] tile",
               "not a tile of the double-6 set", '[lead] rule = "player" does not use it')
    assert_bad(run("show", "draw-2p-d6", "-o", "lead.tile=x"), "[lead] tile", "not a tile",
               '[lead] rule = "highest-double"')


@pytest.mark.parametrize("overrides, where", [
    (["layout.kind=spinner"], 'kind = "spinner"'),
    (["layout.kind=trains"], 'kind = "trains"'),
    (["layout.double_takes=1"], "double_takes = 1"),
])
def test_matador_matching_off_a_plain_line_is_a_located_error(
        overrides: list[str], where: str) -> None:
    """R2.1: Matador is stated for one line whose doubles are played like any tile."""
    args = [x for o in overrides for x in ("-o", o)]
    assert_bad(run("show", "matador-2p-d6", *args), '[layout] match = "matador"', where,
               '"equal", or [layout] kind = "line" with no double rules')


def test_an_unknown_matching_rule_is_located() -> None:
    assert_bad(run("show", "block-2p-d6", "-o", "layout.match=sevens"),
               '[layout] match = "sevens"', 'allowed: "equal", "matador"')


# -- the fuzz tests (slow tier) ---------------------------------------------------------

_SECTIONS = {"set": ["max"], "deal": ["players", "hand_size", "set_aside", "order"],
             "draw": ["rule"], "lead": ["rule", "player", "tile", "fallback"],
             "layout": ["kind", "extend"], "block": ["proposer", "confirmations",
                                                     "boneyard_must_be_empty",
                                                     "restart_on_marker"],
             "fouls": ["rule", "penalty"], "partnerships": ["teams", "compare"],
             "scoring": ["block_award", "domino_award", "round_to", "tie", "tile_values"]}
_WORDS = ["none", "one", "all", "rest", "split", "tile", "player", "6-6", "19-19", "0-0",
          "team", "line", "penalised", "impossible", "all-others", "highest-double", ""]

_text = st.text(alphabet=string.printable + "é\x00\x7f", max_size=12)
HUGE = "<a number of 5000 digits>"  #: written out by _toml (Hypothesis cannot print it)
_ints = st.one_of(st.integers(-3, 20), st.integers())
_scalars = st.one_of(_ints, st.booleans(), st.sampled_from([*_WORDS, HUGE]), _text,
                     st.floats(allow_nan=True, allow_infinity=True))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(_WORDS[:8]), inner,
                                                 max_size=3)), max_leaves=6)


def _toml(v: Any) -> str:
    """A value written as TOML (or as junk TOML, which the loader must reject cleanly)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v == HUGE:
        return "9" * 5000
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(v), repr(v))
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(x)}" for k, x in v.items()) + " }"


_keys = st.one_of(st.sampled_from([(s, k) for s, ks in _SECTIONS.items() for k in ks]),
                  st.tuples(st.sampled_from([*_SECTIONS, "bogus"]), st.sampled_from(
                      ["max", "bogus", "players"])))
_fuzz = settings(max_examples=FUZZ_CASES, suppress_health_check=list(HealthCheck))


@pytest.mark.slow
@_fuzz
@given(base=st.sampled_from(["draw-2p-d6", "block-2p-d6", "tiny", "partnership", "nope"]),
       entries=st.lists(st.tuples(_keys, _values), max_size=4),
       junk=st.sampled_from(["", "\n[[deal]]\n", "\nx = [[[[", "\n= 3", '\nname = 5']))
def test_fuzz_variant_files_keep_the_contract(tmp_path_factory: pytest.TempPathFactory,
                                              base: str, entries: list[Any],
                                              junk: str) -> None:
    sections: dict[str, dict[str, Any]] = {}
    for (sec, key), value in entries:
        sections.setdefault(sec, {})[key] = value
    text = f'base = "{base}"\n' + "".join(
        f"[{sec}]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in body.items())
        for sec, body in sections.items()) + junk
    f = tmp_path_factory.mktemp("fuzz") / "v.toml"
    f.write_text(text, encoding="utf-8")
    assert_contract(run("show", str(f)))


@pytest.mark.slow
@_fuzz
@given(items=st.lists(st.tuples(_keys, st.one_of(_values.map(_toml), _text)), min_size=1,
                      max_size=3),
       name=st.sampled_from(["tiny", "block-2p-d6", "partnership", "fouls"]))
def test_fuzz_overrides_keep_the_contract(items: list[Any], name: str) -> None:
    args = ["show", name]
    for (sec, key), value in items:
        args += ["-o", f"{sec}.{key}={value}"]
    assert_contract(run(*args))


_TRACE = random_round(find_variant("tiny-2p-d3"), 1).to_json()


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


_TRACE_PATHS = _paths(_TRACE)[1:]
_json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), _text,
              st.sampled_from(["0-0", "3-3", "9-9", "play", "draw", "confirm"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(_text, inner, max_size=2)), max_leaves=5)


@pytest.mark.slow
@_fuzz
@given(edits=st.lists(st.tuples(st.sampled_from(_TRACE_PATHS), _json_values), min_size=1,
                      max_size=3),
       drop=st.booleans())
def test_fuzz_traces_keep_the_contract(tmp_path_factory: pytest.TempPathFactory,
                                       edits: list[Any], drop: bool) -> None:
    data = json.loads(json.dumps(_TRACE))
    for path, value in edits:
        target = data
        try:
            for step in path[:-1]:
                target = target[step]
            if drop and isinstance(target, dict):
                target.pop(path[-1], None)
            else:
                target[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit replaced the container
    f = tmp_path_factory.mktemp("fuzz") / "t.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    assert_contract(run("replay", str(f)))


_numbers = st.one_of(st.sampled_from(["0", "-1", "nan", "inf", "-inf", "1e9", "x", "", "1.5",
                                      "0x10", " 3", "9" * 400]),
                     st.integers(-10, 10).map(str), _text)
_CHEAP = {  # command and the options it takes with values (each run does little work)
    ("play", "tiny"): ["--seed"],
    ("simulate", "tiny"): ["-n", "--seed", "--top"],
    ("explore", "tiny"): ["--max-states", "--max-seconds", "--seed", "--workers",
                          "--set-max", "--players", "--hand-size"],
    ("show", "tiny"): [],
    ("variants",): [],
}
_COSTLY = {  # a valid value here would start a long proof: only bad values are drawn
    ("prove", "tiny"): ["--timeout-ms", "--rlimit", "--depth", "--workers"],
    ("witness", "tiny", "tie"): ["--timeout-ms", "--rlimit", "--depth", "--seconds"],
    ("verify", "tiny"): ["--timeout-ms", "--rlimit", "--crosscheck", "--workers"],
    ("diff", "tiny", "block"): ["--timeout-ms", "--rlimit", "--rounds", "--workers"],
}
_bad_numbers = st.sampled_from(["0", "-1", "-7", "nan", "inf", "x", "", "1.5", "-0", "1e3"])
#: options where 0 is a meaningful value (no depth, no cross-check): only below zero is bad
_ZERO_OK = {"--depth", "--crosscheck"}
_bad_below_zero = st.sampled_from(["-1", "-7", "nan", "inf", "x", "", "1.5", "1e3"])


@pytest.mark.slow
@_fuzz
@given(data=st.data())
def test_fuzz_command_lines_keep_the_contract(data: st.DataObject) -> None:
    if data.draw(st.booleans(), label="costly"):
        cmd = data.draw(st.sampled_from(sorted(_COSTLY)), label="command")
        option = data.draw(st.sampled_from(_COSTLY[cmd]), label="option")
        value = data.draw(_bad_below_zero if option in _ZERO_OK else _bad_numbers,
                          label="value")
        r = run(*cmd, option, value)
        assert r.exit_code == 2, (cmd, option, value, r.output)  # refused, before any work
        assert_contract(r)
        return
    cmd = data.draw(st.sampled_from(sorted(_CHEAP)), label="command")
    args = list(cmd)
    for option in data.draw(st.lists(st.sampled_from(_CHEAP[cmd] or ["--json"]), max_size=3),
                            label="options"):
        args.append(option)
        if option == "-n":  # a valid count plays that many rounds: keep it small
            args.append(data.draw(st.one_of(_bad_numbers, st.sampled_from(["1", "50"])),
                                  label=option))
        elif option != "--json":
            args.append(data.draw(_numbers, label=option))
    if cmd[0] in ("simulate", "explore") and "-n" not in args and "--max-states" not in args:
        args += ["-n", "50"] if cmd[0] == "simulate" else ["--max-states", "2000"]
    assert_contract(run(*args))

