"""The user-facing commands: variants, show, play, replay, simulate.

Each command's happy path asserts what the output *says* (checked against the
model, not against itself), and every kind of bad input a user can give ends
the same way: exit code 2, one located line on stderr, no traceback.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from dominoproof.cli import main
from dominoproof.model import (
    MoveKind,
    Trace,
    engine_for,
    find_variant,
    load_variant_data,
    presets,
    random_round,
)
from dominoproof.model.errors import DominoproofError, VariantError
from dominoproof.model.tiles import Tile, bits
from dominoproof.options import parse_override, parse_overrides, resolve_variant
from dominoproof.render.narrate import LineOfPlay, narrate
from dominoproof.render.text import render_round


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def assert_user_error(r: Result, *needles: str) -> str:
    """Exit 2, one line on stderr carrying every needle, nothing on stdout, no traceback."""
    assert r.exit_code == 2, (r.exit_code, r.stdout, r.stderr)
    assert "Traceback" not in r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert r.stdout == ""
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    return lines[0]


# ---------------------------------------------------------------------------
# options.py
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("deal.players=4", ("deal.players", 4)),
    ("block.boneyard_must_be_empty=false", ("block.boneyard_must_be_empty", False)),
    ("scoring.tie=split", ("scoring.tie", "split")),
    ('scoring.tie="split"', ("scoring.tie", "split")),
    ("lead.tile=6-6", ("lead.tile", "6-6")),
    ("partnerships.teams=[[0, 2], [1, 3]]", ("partnerships.teams", [[0, 2], [1, 3]])),
    ('scoring.tile_values={"0-0" = 25}', ("scoring.tile_values", {"0-0": 25})),
    ("deal.set_aside = rest", ("deal.set_aside", "rest")),
    ("lead.tile=2024-01-01", ("lead.tile", "2024-01-01")),  # a TOML date stays text
])
def test_parse_override_reads_toml_values_and_falls_back_to_text(
        text: str, expected: tuple[str, object]) -> None:
    assert parse_override(text) == expected


@pytest.mark.parametrize("text", ["deal.players", "players=4", "=4", "deal.=4", "Deal.x=1",
                                  "deal players=4"])
def test_parse_override_rejects_malformed_keys(text: str) -> None:
    with pytest.raises(DominoproofError, match="KEY=VALUE"):
        parse_override(text)


def test_resolve_variant_applies_overrides_in_order_and_says_so() -> None:
    v = resolve_variant("block", ["deal.players=3", "deal.players=4"])
    assert v.players == 4 and parse_overrides(["a.b=1", "a.b=2"]) == {"a.b": 2}
    assert v.deal.set_aside == 0  # "rest" is recomputed for the new deal
    assert "Overridden: deal.players=3, deal.players=4." in v.description
    assert resolve_variant("block", []) is find_variant("block-2p-d6")


def test_resolve_variant_errors_are_located() -> None:
    with pytest.raises(VariantError) as e:
        resolve_variant("block", ["deal.players=11"])
    text = str(e.value)
    assert "-o deal.players=11" in text and "players" in text and "2..10" in text


# ---------------------------------------------------------------------------
# variants, show
# ---------------------------------------------------------------------------


def test_variants_lists_every_preset_with_its_figures() -> None:
    r = run("variants")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    for name, v in presets().items():
        row = next(line for line in lines if line.startswith(name + " "))
        cells = row.split()
        assert cells[1:6] == [f"d{v.n}", str(v.players), str(v.deal.hand_size),
                              str(v.deal.set_aside), v.draw.rule.value]
        assert row.rstrip().endswith(v.scoring.tie.value)
        below = lines[lines.index(row) + 1]
        assert all(a in below for a in v.aliases)
    assert all(len(line) <= 100 for line in lines)


def derived_figures(out: str) -> dict[str, str]:
    """The "derived" block of `show`: label -> value."""
    found = {}
    for line in out.split("\nderived\n")[1].splitlines():
        m = re.match(r"  (\S.*?)  +(\S.*?)  ", line)
        if m:
            found[m.group(1)] = m.group(2).strip()
    return found


def test_show_prints_every_parameter_with_rule_and_derived_figures() -> None:
    v = find_variant("block-2p-d6")
    r = run("show", "block")
    assert r.exit_code == 0
    out = r.stdout
    rows: dict[str, list[str]] = {}
    section = ""
    for line in out.splitlines():
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif section and line.startswith("  ") and line[2] != " ":
            rows[f"{section}.{line.split()[0]}"] = line.split()
    assert list(rows)[:len(v.parameters())] == [key for key, *_ in v.parameters()]
    for key, rule, value, _doc in v.parameters():
        cells = rows[key]
        assert rule in cells
        if isinstance(value, int) and not isinstance(value, bool):
            assert cells[1] == str(value)
    derived = derived_figures(out)
    assert derived["tiles in the set"] == "28"
    assert derived["dealt"] == "14"
    assert derived["boneyard"] == "0"
    assert derived["set aside"] == "14"
    assert derived["confirmations needed"] == "2"


def test_show_applies_overrides() -> None:
    out = run("show", "block", "-o", "deal.players=4").stdout
    assert "preset:block-2p-d6.toml with -o deal.players=4" in out
    derived = derived_figures(out)
    assert derived["dealt"] == "28" and derived["set aside"] == "0"
    assert derived["confirmations needed"] == "4"
    assert derived["sides that score"] == "P0, P1, P2, P3"


@pytest.mark.parametrize("name", sorted(presets()))
def test_show_toml_round_trips(name: str) -> None:
    r = run("show", name, "--toml")
    assert r.exit_code == 0
    assert load_variant_data(tomllib.loads(r.stdout)) == find_variant(name)


# ---------------------------------------------------------------------------
# play
# ---------------------------------------------------------------------------


def test_play_tells_every_move_and_the_result() -> None:
    v = find_variant("block-2p-d6")
    trace = random_round(v, 19)
    out = run("play", "block", "--seed", "19").stdout
    assert out.startswith("Round of block-2p-d6 (seed 19)\n")
    numbered = [line for line in out.splitlines() if line[:5].strip().isdigit()]
    assert len(numbered) == len(trace.moves)
    assert "R4.4   block established" in out
    res = trace.outcome
    assert res is not None and res.explanation in out
    # the deal: every hand as dealt, the set-aside tiles
    for p, hand in enumerate(trace.deal.hands):
        assert f"  P{p}   " + "".join(t.show() for t in map(Tile.from_index, bits(hand))) in out
    assert "set aside" in out and "(14 tiles, never drawn)" in out


def test_play_is_deterministic_and_width_independent() -> None:
    a = run("play", "fouls", "--seed", "7").stdout
    b = run("play", "fouls", "--seed", "7", env={"COLUMNS": "40", "TERM": "xterm-256color",
                                                   "FORCE_COLOR": "1"}).stdout
    assert a == b
    assert "\x1b[" not in a
    assert all(len(line) <= 100 for line in a.splitlines())
    assert run("play", "fouls", "--seed", "8").stdout != a


def test_play_json_is_the_trace() -> None:
    r = run("play", "draw-2p-d6", "--seed", "3", "--json")
    assert r.exit_code == 0
    trace = Trace.loads(r.stdout)
    assert trace == random_round(find_variant("draw-2p-d6"), 3)
    assert json.loads(r.stdout)["seed"] == 3


def test_play_with_overrides() -> None:
    out = run("play", "draw", "--seed", "18", "-o", "draw.rule=one").stdout
    assert "Round of draw-2p-d6+draw.rule=one (seed 18)" in out
    assert "passes: the drawn tile does not fit" in out
    assert "passes" not in run("play", "draw", "--seed", "18").stdout


def _tags(variant: str, seed: int) -> list[tuple[str, MoveKind, bool, int]]:
    """(rule tag, move kind, whether the move was a false confirmation, confirmations before)
    for every step of a round, the last two computed from the model, not the renderer."""
    v = find_variant(variant)
    trace = random_round(v, seed)
    rules = engine_for(v)
    states = trace.states()
    return [(st.rule, st.move.kind, rules.is_false_confirmation(states[i], st.move),
             states[i].confirmed) for i, st in enumerate(narrate(trace))]


@pytest.mark.parametrize(("variant", "seed"), [("fouls-4p-d6", 7), ("block-2p-d6", 19),
                                               ("draw-2p-d6", 18), ("tiny", 41)])
def test_every_move_carries_the_rule_that_allows_it(variant: str, seed: int) -> None:
    for tag, kind, foul, before in _tags(variant, seed):
        expected = {
            MoveKind.DRAW: "R3.1", MoveKind.PASS: "R3.1", MoveKind.ESTABLISH: "R4.4",
            MoveKind.DOMINO: "Terms",
        }.get(kind)
        if kind is MoveKind.PLAY:
            assert tag in (("R4.3",) if before else ("R2.1", "Terms"))
        elif kind is MoveKind.CONFIRM:
            assert tag == ("R4.5" if foul else "R4.1" if before == 0 else "R4.2")
        else:
            assert tag == expected


def test_fouls_are_shown_and_penalised() -> None:
    tags = _tags("fouls-4p-d6", 7)
    assert sum(foul for _, _, foul, _ in tags) == 2
    out = run("play", "fouls", "--seed", "7").stdout
    flat = " ".join(out.split())  # wrapped lines joined
    assert out.count("FOUL: ") == 2 and "costs P1 10 at scoring" in flat
    result = out.split("\nResult\n")[1]
    row = next(line for line in result.splitlines() if line.startswith("  P1 "))
    assert row.split()[-3:] == ["0", "10", "-10"]  # award 0, penalty 10, score -10


def line_errors(line: LineOfPlay, state_ends: tuple[int, ...], table: int) -> list[str]:
    """What is wrong with a rebuilt line: joints that do not match, ends that are not the
    state's, tiles that are not the table's."""
    errors = []
    for (_, right), (left, _) in zip(line.tiles, line.tiles[1:], strict=False):
        if right != left:
            errors.append(f"joint {right}|{left}")
    if line.ends is not None and tuple(sorted(line.ends)) != state_ends:
        errors.append(f"ends {line.ends} vs {state_ends}")
    if sum(Tile.of(a, b).bit for a, b in line.tiles) != table:
        errors.append("tiles")
    return errors


@pytest.mark.parametrize("variant", ["block-2p-d6", "draw-2p-d6", "fouls-4p-d6", "tiny",
                                     "draw-8p-d12"])
def test_line_of_play_matches_the_state_after_every_move(variant: str) -> None:
    v = find_variant(variant)
    for seed in range(5):
        trace = random_round(v, seed)
        line = LineOfPlay()
        states = trace.states()
        for m, before, s in zip(trace.moves, states, states[1:], strict=False):
            if m.kind is MoveKind.PLAY:  # laid on the end showing that slot's number
                line.lay(Tile.from_index(m.tile), m.end if m.end < 0 else before.ends[m.end])
            assert line_errors(line, s.ends, s.table) == []


def test_line_check_catches_a_wrongly_oriented_line() -> None:
    # The check above can fail: a tile laid the wrong way round, or on the wrong side.
    line = LineOfPlay()
    line.lay(Tile.of(3, 4), -1)
    line.tiles.append((1, 4))  # [3|4][1|4]: halves that do not touch
    assert line_errors(line, (1, 3), Tile.of(3, 4).bit | Tile.of(1, 4).bit) == [
        "joint 4|1", "ends (3, 4) vs (1, 3)"]
    good = LineOfPlay()
    good.lay(Tile.of(3, 4), -1)
    good.lay(Tile.of(1, 4), 4)
    assert good.shown() == ["[3|4]", "[4|1]"]
    good.lay(Tile.of(3, 3), 3)
    assert good.shown() == ["[3|3]", "[3|4]", "[4|1]"]
    with pytest.raises(ValueError):
        good.lay(Tile.of(5, 6), 5)


# ---------------------------------------------------------------------------
# replay
# ---------------------------------------------------------------------------


@pytest.fixture
def trace_file(tmp_path: Path) -> Path:
    path = tmp_path / "round.json"
    path.write_text(run("play", "tiny", "--seed", "41", "--json").stdout, encoding="utf-8")
    return path


def test_replay_prints_the_round_as_play_does(trace_file: Path) -> None:
    r = run("replay", str(trace_file))
    assert r.exit_code == 0
    played = run("play", "tiny", "--seed", "41").stdout
    head, _, body = r.stdout.partition("\n")
    assert head.startswith(f"Replay of {trace_file}: tiny-2p-d3, seed 41 (17 moves")
    assert body == played.partition("\n")[2]


def _tamper(path: Path, edit: str) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    if edit == "move":
        data["moves"][4]["tile"] = "0-0"  # P0 plays [2|3]: now a tile they do not hold
    elif edit == "order":
        data["moves"][1], data["moves"][2] = data["moves"][2], data["moves"][1]
    elif edit == "final":
        data["final"]["outcome"]["scores"] = [0, 99]
    elif edit == "deal":
        data["deal"]["hands"][0][0] = "3-3"  # a tile in two hands
    elif edit == "variant":
        data["variant"]["deal"]["players"] = 1
    out = path.with_name(f"bad-{edit}.json")
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


@pytest.mark.parametrize(("edit", "needle"), [
    ("move", "move 5"), ("order", "move 2"), ("final", "recorded final state"),
    ("deal", "not a deal of tiny-2p-d3"), ("variant", "players = 1"),
])
def test_replay_rejects_a_tampered_trace(trace_file: Path, edit: str, needle: str) -> None:
    bad = _tamper(trace_file, edit)
    assert_user_error(run("replay", str(bad)), str(bad), needle)


def test_replay_rejects_what_is_not_a_trace(tmp_path: Path) -> None:
    p = tmp_path / "x.json"
    p.write_text("{not json", encoding="utf-8")
    assert_user_error(run("replay", str(p)), str(p), "not JSON")
    p.write_text('{"format": "something-else"}', encoding="utf-8")
    assert_user_error(run("replay", str(p)), str(p), "dominoproof.trace document")
    assert_user_error(run("replay", str(tmp_path / "none.json")), "none.json", "cannot read")


def test_replay_rejects_a_deal_that_is_not_the_variants(trace_file: Path) -> None:
    data = json.loads(trace_file.read_text(encoding="utf-8"))
    data["deal"]["hands"][0].append(data["deal"]["stack"].pop())  # 4 tiles in P0's hand
    del data["final"]
    p = trace_file.with_name("fat-hand.json")
    p.write_text(json.dumps(data), encoding="utf-8")
    assert_user_error(run("replay", str(p)), str(p), "hands of [4, 3] tiles")


def test_replay_of_an_unfinished_round_says_so(trace_file: Path) -> None:
    data = json.loads(trace_file.read_text(encoding="utf-8"))
    data["moves"] = data["moves"][:5]
    del data["final"]
    p = trace_file.with_name("short.json")
    p.write_text(json.dumps(data), encoding="utf-8")
    r = run("replay", str(p))
    assert r.exit_code == 0
    assert "the round is not over" in r.stdout


# ---------------------------------------------------------------------------
# simulate
# ---------------------------------------------------------------------------


def test_simulate_text_and_json_agree() -> None:
    text = run("simulate", "block", "-n", "300", "--seed", "2")
    js = run("simulate", "block", "-n", "300", "--seed", "2", "--json")
    assert text.exit_code == js.exit_code == 0
    data = json.loads(js.stdout)
    assert data["rounds"] == 300
    assert data["blocked"]["count"] + data["domino"]["count"] == 300
    lo, hi = data["blocked"]["ci95"]
    assert lo <= data["blocked"]["share"] <= hi
    assert f"blocked (R1.1, R4.4)  {data['blocked']['count']:>9} rounds" in text.stdout
    assert text.stderr == ""  # no progress bar off a terminal
    for r in data["risk"][:3]:
        assert f"[{r['tile'].replace('-', '|')}]" in text.stdout


def test_simulate_rejects_bad_counts() -> None:
    r = run("simulate", "block", "-n", "0")
    assert r.exit_code == 2 and "Traceback" not in r.output


# ---------------------------------------------------------------------------
# bad input: one located line, exit 2
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("cmd", ["show", "play", "simulate"])
def test_unknown_preset_lists_the_presets(cmd: str) -> None:
    line = assert_user_error(run(cmd, "no-such-game"), "no-such-game")
    for name in presets():
        assert name in line


BAD_FILES = {
    "unknown-key": ('base = "block-2p-d6"\n[deal]\nplayers = 2\nhandsize = 7\n',
                    ["[deal] handsize = 7", "unknown key", "hand_size"]),
    "wrong-type": ('base = "block-2p-d6"\n[deal]\nplayers = "two"\n',
                   ['[deal] players = "two"', "whole number"]),
    "out-of-range": ('base = "block-2p-d6"\n[deal]\nplayers = 12\n',
                     ["[deal] players = 12", "out of range", "2..10"]),
    "too-many-tiles": ('base = "draw-2p-d6"\n[deal]\nplayers = 4\nhand_size = 9\n',
                       ["[deal] hand_size = 9", "needs 36 tiles", "has 28", "1..7"]),
    "team-total-without-teams": ('base = "block-4p-d6"\n[scoring]\ntie = "team-total"\n',
                                 ['[scoring] tie = "team-total"', "needs [partnerships] teams",
                                  '"split"']),
    "bad-syntax": ('base = "block-2p-d6"\n[deal\nplayers = 2\n', ["not valid TOML"]),
    "bad-enum": ('base = "draw-2p-d6"\n[draw]\nrule = "sometimes"\n',
                 ['[draw] rule = "sometimes"', '"until-playable"']),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
@pytest.mark.parametrize("cmd", ["show", "play", "simulate"])
def test_bad_variant_files_get_one_located_line(tmp_path: Path, case: str, cmd: str) -> None:
    text, needles = BAD_FILES[case]
    path = tmp_path / f"{case}.toml"
    path.write_text(text, encoding="utf-8")
    args = [cmd, str(path)] + (["-n", "5"] if cmd == "simulate" else [])
    assert_user_error(run(*args), str(path), *needles)


def test_a_good_variant_file_works(tmp_path: Path) -> None:
    # The same files, fixed, are accepted: the errors above come from the content.
    path = tmp_path / "mine.toml"
    path.write_text('base = "block-4p-d6"\n[partnerships]\nteams = [[0, 2], [1, 3]]\n'
                    '[scoring]\ntie = "team-total"\n', encoding="utf-8")
    r = run("play", str(path), "--seed", "1")
    assert r.exit_code == 0 and r.stdout.startswith("Round of mine (seed 1)")


@pytest.mark.parametrize(("opt", "needles"), [
    ("deal.players", ["-o 'deal.players'", "KEY=VALUE"]),
    ("players=3", ["-o 'players=3'", "section.key"]),
    ("deal.players=11", ["-o deal.players=11", "[deal] players = 11", "2..10"]),
    ("deal.playerz=3", ["[deal] playerz", "unknown key", "players"]),
    ("rules.x=3", ["rules.x", "unknown parameter", "deal.<key>"]),
    ("scoring.tie=team-total", ['"team-total"', "[partnerships] teams"]),
])
def test_malformed_overrides_get_one_located_line(opt: str, needles: list[str]) -> None:
    assert_user_error(run("play", "block", "-o", opt), *needles)
    assert_user_error(run("show", "block", "-o", opt), *needles)


def test_render_round_reports_a_trace_that_does_not_replay() -> None:
    v = find_variant("tiny")
    good = random_round(v, 41)
    bad = Trace(v, good.deal, good.moves[:3] + good.moves[4:], 41)
    assert render_round(good)
    with pytest.raises(DominoproofError, match="does not replay"):
        render_round(bad)
