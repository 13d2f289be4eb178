"""``check-log --format openspiel|dominoes``: other engines' games read and replayed
(``proofs/analysis/logformats.py``, ``proofs/analysis/checklog.py``, docs/CHECKLOG.md).

The fast tier reads the small logs ``scripts/make-log-fixtures`` wrote with the engines
(``tests/data/logs/``); the expectations are worked out here from each log by a plain
reading of its own (the hands at the end, who emptied a hand, who played twice in a row),
following the engines' published rules, never from the code under test. Where the bench
extra is installed (open-spiel, dominoes), the same is checked on games played live, and
the action numbering against OpenSpiel itself; elsewhere those tests skip, saying why.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from dominoproof.cli import main
from dominoproof.jsonout import schema
from dominoproof.model import find_variant
from dominoproof.model.variant import Variant
from dominoproof.proofs.analysis.checklog import check_log
from dominoproof.proofs.analysis.logformats import OPENSPIEL_GAMES, read_log

ROOT = Path(__file__).resolve().parent.parent
LOGS = Path(__file__).resolve().parent / "data" / "logs"
OPENSPIEL_TEAM = ROOT / "docs" / "examples" / "openspiel-team.toml"
HAVE_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None
HAVE_DOMINOES = importlib.util.find_spec("dominoes") is not None
needs_openspiel = pytest.mark.skipif(not HAVE_OPENSPIEL, reason="open-spiel is not installed "
                                     "(the bench extra: pip install -e '.[bench]')")
needs_dominoes = pytest.mark.skipif(not HAVE_DOMINOES, reason="the dominoes package is not "
                                    "installed (the bench extra: pip install -e '.[bench]')")


def text(name: str) -> str:
    return (LOGS / name).read_text(encoding="utf-8")


def rounds(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text(name).splitlines() if line.strip()]


# ---------------------------------------------------------------------------
# A plain reading of each engine's log, written from the engines' sources
# ---------------------------------------------------------------------------
def openspiel_plain(r: dict[str, Any]) -> dict[str, Any]:
    """An OpenSpiel round read the way open_spiel/python/games/*_dominoes.py builds it:
    ``_DECK`` by itertools, ``_ACTIONS`` by its loops, the hands dealt as the game deals
    them; the plays in order with their players; the hands left at the end."""
    players = 2 if r["game"] == "python_block_dominoes" else 4
    deck = list(itertools.combinations_with_replacement(range(7), 2))
    actions = []
    for p in range(players):
        for t in deck:
            for e in [None, *range(7)]:
                if e in t or e is None:
                    actions.append((p, t))
    hands: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    plays = []
    for i, a in enumerate(r["history"]):
        if i < 7 * players:
            seat = i % 4 if players == 4 else (0 if i < 7 else 1)
            hands[seat].append(deck[a])
        else:
            p, t = actions[a]
            hands[p].remove(t)
            plays.append(p)
    left = [sum(a + b for a, b in h) for h in hands]
    out = next((p for p, h in enumerate(hands) if not h), None)
    return {"players": players, "plays": plays, "left": left, "domino": out is not None,
            "out": out}


def dominoes_plain(r: dict[str, Any]) -> dict[str, Any]:
    """A dominoes-package round: the hands at the end are in the log; a domino iff one
    is empty; the team totals of players 0+2 and 1+3."""
    left = [sum(a + b for a, b in h) for h in r["hands"]]
    return {"left": left, "domino": any(not h for h in r["hands"]),
            "teams": [left[0] + left[2], left[1] + left[3]]}


def deviating(report: Any) -> dict[int, str]:
    return {r.index: r.deviation.rule for r in report.rounds if r.deviation is not None}


# ---------------------------------------------------------------------------
# OpenSpiel
# ---------------------------------------------------------------------------
def test_history_and_action_strings_are_read_as_the_same_rounds() -> None:
    a = read_log(text("openspiel-block.jsonl"), "a", "openspiel")
    b = read_log(text("openspiel-block-actions.jsonl"), "b", "openspiel")
    assert len(a) == len(b) == 40
    for x, y in zip(a, b, strict=True):
        assert (x.deal, x.steps, x.scores, x.written) == (y.deal, y.steps, y.scores, y.written)


def test_openspiel_block_game_is_the_preset_block_2p_d6() -> None:
    """python_block_dominoes: 2 players, 7 tiles each and 14 out of play, no drawing, P0
    leads any tile, the lower count wins the other's pips, a tie scores nothing: the rules
    of block-2p-d6, so every round agrees, once the passes OpenSpiel skips are written
    out: a player who plays twice in a row had the other confirm (R4.2); at a block both
    confirm and the block is established (R4.4); a domino is recorded."""
    v = find_variant("block-2p-d6")
    report = check_log(v, text("openspiel-block.jsonl"), "log", "openspiel")
    assert report.exit_code == 0 and deviating(report) == {}
    for r, raw in zip(report.rounds, rounds("openspiel-block.jsonl"), strict=True):
        plain = openspiel_plain(raw)
        twice = sum(a == b for a, b in itertools.pairwise(plain["plays"]))
        blocked = not plain["domino"]
        assert r.status == ("blocked" if blocked else "domino")
        want = {"confirm": twice + 2 * blocked, "establish": int(blocked),
                "domino": int(not blocked)}
        assert dict(r.implicit) == {k: n for k, n in want.items() if n}


def test_a_block_award_of_every_pip_deviates_where_the_winner_holds_pips() -> None:
    """The check can fail: under block_award = all-residuals the winner of a block also
    scores its own pips, which OpenSpiel does not award (R5.4); the rounds that deviate
    are the blocks won by a player with pips left, and only those."""
    v = find_variant("block-2p-d6").with_overrides({"scoring.block_award": "all-residuals"})
    report = check_log(v, text("openspiel-block.jsonl"), "log", "openspiel")
    want = {}
    for i, raw in enumerate(rounds("openspiel-block.jsonl")):
        p = openspiel_plain(raw)
        if not p["domino"] and p["left"][0] != p["left"][1] and min(p["left"]) > 0:
            want[i] = "R5.4"
    assert want, "the fixture holds blocks won with pips left"
    assert deviating(report) == want


def test_openspiel_team_game_deviates_from_partnership_4p_d6_at_the_lead() -> None:
    """python_team_dominoes lets P0 lead any tile; partnership-4p-d6 has the holder of
    6-6 lead it: every round whose first play is not P0 leading 6-6 deviates at step 0."""
    v = find_variant("partnership-4p-d6")
    report = check_log(v, text("openspiel-team.jsonl"), "log", "openspiel")
    for r in report.rounds:
        first = r.deviation
        raw = read_log(text("openspiel-team.jsonl"), "x", "openspiel")[r.index].steps[0]
        if raw.tile != 27:  # 6-6's index
            assert first is not None and first.step == 0 and first.rule == "Terms", r
            assert first.legal and "leads [6|6]" in first.legal[0]


def test_openspiel_team_game_against_its_variant_file_deviates_only_at_dominoes() -> None:
    """docs/examples/openspiel-team.toml states the team game's parameters; what is left
    is the one rule no variant has: OpenSpiel gives a domino to the lower team total, so
    a domino by a team whose total (the partner's pips) is not the lower deviates (R5.2),
    and every other round agrees."""
    v = find_variant(str(OPENSPIEL_TEAM))
    report = check_log(v, text("openspiel-team.jsonl"), "log", "openspiel")
    want = {}
    for i, raw in enumerate(rounds("openspiel-team.jsonl")):
        p = openspiel_plain(raw)
        if p["domino"]:
            out = p["out"]
            mine = p["left"][out] + p["left"][(out + 2) % 4]
            theirs = p["left"][(out + 1) % 4] + p["left"][(out + 3) % 4]
            if mine >= theirs:
                want[i] = "R5.2"
    assert want, "the fixture holds dominoes the lower-total rule gives away"
    assert deviating(report) == want


def test_a_forged_openspiel_play_is_the_first_deviation_with_its_rule() -> None:
    raw = rounds("openspiel-block-actions.jsonl")[0]
    i = next(k for k, a in enumerate(raw["actions"]) if "pip:None" not in a
             and not a.startswith("Deal"))
    head, _, pip = raw["actions"][i].rpartition("pip:")
    other = next(x for x in range(7) if f"{x}.0" != pip and f"{x}.0" not in head)
    raw["actions"][i] = f"{head}pip:{other}.0"  # a tile laid on an end it does not match
    report = check_log(find_variant("block-2p-d6"), json.dumps(raw), "log", "openspiel")
    d = report.rounds[0].deviation
    assert d is not None and d.step == i - 14 and d.rule == "R2.1"
    assert raw["actions"][i] in d.logged and d.mover == int(head[1])


def test_a_forged_openspiel_return_is_a_score_deviation() -> None:
    raw = rounds("openspiel-block.jsonl")[0]
    raw["returns"] = [-x for x in raw["returns"]]  # the other player wins
    d = check_log(find_variant("block-2p-d6"), json.dumps(raw), "log",
                  "openspiel").rounds[0].deviation
    assert d is not None and d.rule == "R5.2" and d.score["logged"] != d.score["ours"]


@pytest.mark.parametrize("change, needle", [
    ({"game": "kuhn_poker"}, 'game = "kuhn_poker": not a dominoes game'),
    ({"history": [0] * 14}, "history[1] = 0"),
    ({"history": list(range(13))}, "the deal is incomplete (13 of 14 tiles)"),
    ({"history": [*range(14), 999]}, "history[14] = 999: not an action"),
    ({"returns": [1.5, -1.5]}, "returns = "),
    ({"actions": ["Deal (0.0, 0.0)"]}, "give one of history"),
    ({"extra": 1}, "extra: unknown key"),
])
def test_a_bad_openspiel_line_is_one_located_line(tmp_path: Path, change: dict[str, Any],
                                                  needle: str) -> None:
    raw = dict(rounds("openspiel-block.jsonl")[0], **change)
    f = tmp_path / "log.jsonl"
    f.write_text(text("openspiel-block.jsonl").splitlines()[1] + "\n" + json.dumps(raw) + "\n")
    r = CliRunner().invoke(main, ["check-log", "--format", "openspiel", str(f), "block-2p-d6"])
    assert r.exit_code == 2 and r.stdout == ""
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and needle in err[0] and "log.jsonl: line 2" in err[0], err


def test_a_team_log_against_the_block_game_is_bad_input(tmp_path: Path) -> None:
    r = CliRunner().invoke(main, ["check-log", "--format", "openspiel",
                                  str(LOGS / "openspiel-team.jsonl"), "block-2p-d6"])
    assert r.exit_code == 2 and "line 1: not a deal of block-2p-d6: 4 hands for 2 players" \
        in r.stderr


# ---------------------------------------------------------------------------
# The dominoes package
# ---------------------------------------------------------------------------
def test_dominoes_package_game_is_the_preset_partnership_4p_d6() -> None:
    """dominoes.Game: teams 0+2 and 1+3, 7 tiles each, every tile in play, the holder of
    6-6 leads it, a domino wins every pip left, a block goes to the lower team total and
    wins every pip left, a tie scores nothing: partnership-4p-d6. The log writes its
    passes (null): they are our R4.2 confirmations, so only the last run of them before a
    block and the domino are inserted."""
    report = check_log(find_variant("partnership-4p-d6"), text("dominoes.jsonl"), "log",
                       "dominoes")
    assert report.exit_code == 0
    for r, raw in zip(report.rounds, rounds("dominoes.jsonl"), strict=True):
        assert r.status == ("domino" if dominoes_plain(raw)["domino"] else "blocked")
        assert r.moves == len(raw["moves"])


def test_a_dominoes_award_of_the_others_pips_deviates_where_the_winners_hold_pips() -> None:
    """The check can fail: block_award = others-sum leaves out the winning team's own
    pips, which the package awards (R5.4): exactly the blocks won by a team with pips."""
    v = find_variant("partnership-4p-d6").with_overrides({"scoring.block_award":
                                                          "others-sum"})
    report = check_log(v, text("dominoes.jsonl"), "log", "dominoes")
    want = {}
    for i, raw in enumerate(rounds("dominoes.jsonl")):
        p = dominoes_plain(raw)
        if not p["domino"] and p["teams"][0] != p["teams"][1] and min(p["teams"]) > 0:
            want[i] = "R5.4"
    assert want, "the fixture holds blocks won by a team with pips left"
    assert deviating(report) == want


def test_dominoes_started_by_a_player_deviates_at_the_lead_unless_told() -> None:
    v = find_variant("partnership-4p-d6")
    report = check_log(v, text("dominoes-player0.jsonl"), "log", "dominoes")
    want = {i: "Terms" for i, raw in enumerate(rounds("dominoes-player0.jsonl"))
            if sorted(raw["moves"][0][:2]) != [6, 6]}
    assert want and deviating(report) == want
    told = v.with_overrides({"lead.rule": "player", "lead.player": 0, "lead.tile": ""})
    assert check_log(told, text("dominoes-player0.jsonl"), "log", "dominoes").exit_code == 0


def test_a_forged_dominoes_move_and_result_deviate() -> None:
    raw = rounds("dominoes.jsonl")[0]
    ends: list[int] = []  # the board's left and right ends, as dominoes.Board keeps them
    k = -1
    for i, m in enumerate(raw["moves"]):
        if m is None:
            continue
        a, b, left = m
        if not ends:
            ends = [a, b]
            continue
        here, there = (0, 1) if left else (1, 0)
        if ends[there] not in (a, b):
            k = i  # this tile fits only the end it was laid on
            break
        ends[here] = b if a == ends[here] else a
    assert k > 0
    raw["moves"][k][2] = not raw["moves"][k][2]  # laid on the other end
    v = find_variant("partnership-4p-d6")
    d = check_log(v, json.dumps(raw), "log", "dominoes").rounds[0].deviation
    assert d is not None and d.step == k and d.rule == "R2.1"
    raw = rounds("dominoes.jsonl")[0]
    raw["result"][2] = -raw["result"][2] or 5
    d = check_log(v, json.dumps(raw), "log", "dominoes").rounds[0].deviation
    assert d is not None and d.rule in ("R5.2", "R5.4") and d.score["per"] == "player"


@pytest.mark.parametrize("change, needle", [
    ({"game": "chess"}, 'game = "chess"'),
    ({"starting_player": 4}, "starting_player = 4"),
    ({"moves": [[6, 6, "left"]]}, "moves[0] = "),
    ({"hands": [[[7, 7]], [], [], []]}, "hands[0][0] = [7, 7]: not a domino"),
    ({"result": "won"}, 'result = "won"'),
])
def test_a_bad_dominoes_line_is_one_located_line(tmp_path: Path, change: dict[str, Any],
                                                 needle: str) -> None:
    raw = dict(rounds("dominoes.jsonl")[0], **change)
    f = tmp_path / "log.jsonl"
    f.write_text(json.dumps(raw) + "\n")
    r = CliRunner().invoke(main, ["check-log", "--format", "dominoes", str(f),
                                  "partnership-4p-d6"])
    assert r.exit_code == 2 and r.stdout == ""
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and needle in err[0] and "log.jsonl" in err[0], err


def test_the_command_prints_the_summary_by_rule_and_valid_json(tmp_path: Path) -> None:
    args = ["check-log", "--format", "openspiel", str(LOGS / "openspiel-team.jsonl"),
            str(OPENSPIEL_TEAM)]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 1
    assert "DEVIATES" in r.stdout and "summary: " in r.stdout and "(R5.2: " in r.stdout
    assert "R4.4 establishment(s)" in r.stdout
    q = CliRunner().invoke(main, [*args, "-q"])
    assert q.stdout.startswith("summary: ") and "DEVIATES" not in q.stdout
    doc = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    jsonschema.Draft202012Validator(schema("check-log")).validate(doc)
    assert doc["log_format"] == "openspiel" and doc["summary"]["by_rule"]["R5.2"] >= 1
    assert doc["rounds"][0]["game"] == "python_team_dominoes"


# ---------------------------------------------------------------------------
# With the engines installed (the bench extra)
# ---------------------------------------------------------------------------
@needs_openspiel
@pytest.mark.parametrize("game", sorted(OPENSPIEL_GAMES))
def test_the_action_numbering_is_openspiels(game: str) -> None:
    import open_spiel.python.games  # noqa: F401  (registers the Python games)
    import pyspiel

    g = pyspiel.load_game(game)
    info = OPENSPIEL_GAMES[game]
    assert g.num_distinct_actions() == len(info.actions)
    s = g.new_initial_state()
    chance = pyspiel.PlayerId.CHANCE
    for k, (a, b) in enumerate(info.deck):
        assert s.action_to_string(chance, k) == f"Deal ({a}.0, {b}.0)"
    for k, (p, (a, b), e) in enumerate(info.actions):
        pip = "None" if e is None else f"{e}.0"
        assert s.action_to_string(p, k) == f"p{p} tile:({a}.0, {b}.0) pip:{pip}"


@needs_openspiel
def test_live_openspiel_games_deal_as_read_and_agree_as_found() -> None:
    import open_spiel.python.games  # noqa: F401
    import pyspiel

    from dominoproof.proofs.analysis.peerlogs import openspiel_lines

    for game, v in (("python_block_dominoes", find_variant("block-2p-d6")),
                    ("python_team_dominoes", find_variant(str(OPENSPIEL_TEAM)))):
        lines = openspiel_lines(game, 200, 11)
        read = read_log("\n".join(lines), "live", "openspiel")
        g = pyspiel.load_game(game)
        for line, r in zip(lines, read, strict=True):
            s = g.new_initial_state()
            for a in json.loads(line)["history"][:len(r.deal["hands"]) * 7]:
                s.apply_action(a)
            theirs = [sorted(f"{int(a)}-{int(b)}" for a, b in h) for h in s.hands]
            assert [sorted(h) for h in r.deal["hands"]] == theirs
        report = check_log(v, "\n".join(lines), "live", "openspiel")
        want = expected_openspiel_deviations(v, [json.loads(x) for x in lines])
        assert deviating(report) == want


def expected_openspiel_deviations(v: Variant, raws: list[dict[str, Any]]) -> dict[int, str]:
    if v.players == 2:
        return {}
    out = {}
    for i, raw in enumerate(raws):
        p = openspiel_plain(raw)
        if p["domino"]:
            s = p["out"]
            if p["left"][s] + p["left"][(s + 2) % 4] >= \
                    p["left"][(s + 1) % 4] + p["left"][(s + 3) % 4]:
                out[i] = "R5.2"
    return out


@needs_dominoes
def test_live_dominoes_games_agree_with_partnership_4p_d6() -> None:
    from dominoproof.proofs.analysis.peerlogs import dominoes_lines

    lines = dominoes_lines(200, 12)
    report = check_log(find_variant("partnership-4p-d6"), "\n".join(lines), "live",
                       "dominoes")
    assert len(report.rounds) == 200 and report.exit_code == 0


@pytest.mark.skipif(not (HAVE_OPENSPIEL and HAVE_DOMINOES), reason="open-spiel and dominoes "
                    "are not both installed (the bench extra)")
def test_the_fixtures_are_what_the_script_writes(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = ROOT / "scripts" / "make-log-fixtures"
    subprocess.run([sys.executable, str(script), str(tmp_path)], check=True,
                   capture_output=True)
    for f in sorted(LOGS.iterdir()):
        assert (tmp_path / f.name).read_text() == f.read_text(), f.name
