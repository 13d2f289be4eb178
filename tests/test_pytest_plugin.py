"""The pytest plugin (``dominoproof/pytest_plugin.py``), run in a scratch repository.

``pytest --dominoproof variants/`` collects each variant file x property as an item named
with the property id and rule IDs; PROVED passes, VIOLATED fails with the counterexample
round, UNKNOWN skips with its reason (fails under ``--dominoproof-strict``), N/A skips,
and a bad variant file is a collection error with the CLI's located line.
"""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

HOUSE = 'name = "house"\nbase = "tiny-2p-d3"\n[scoring]\ntie = "split"\n'
#: R4.4 broken: a block is established after every player but one has confirmed
BROKEN = 'name = "broken"\nbase = "tiny-2p-d3"\n[block]\nconfirmations = "all-others"\n'


@pytest.fixture
def repo(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.mkdir("variants")
    (pytester.path / "variants" / "house.toml").write_text(HOUSE)
    (pytester.path / "variants" / "broken.toml").write_text(BROKEN)
    (pytester.path / "pyproject.toml").write_text("[tool.pytest.ini_options]\n")
    return pytester


def test_items_are_named_with_the_property_and_its_rules(repo: pytest.Pytester) -> None:
    from dominoproof.proofs.properties import CATALOGUE

    r = repo.runpytest("--dominoproof", "variants/", "--collect-only", "-q")
    out = r.stdout.str()
    for prop in CATALOGUE:
        assert f"variants/house.toml::{prop.id}[{','.join(prop.rules)}]" in out, prop.id
    assert "pyproject.toml" not in out
    assert f"{2 * len(CATALOGUE)} tests collected" in out


def test_without_the_option_no_variant_is_collected(repo: pytest.Pytester) -> None:
    r = repo.runpytest("variants/", "--collect-only", "-q")
    assert "house.toml" not in r.stdout.str()


@pytest.mark.parametrize("args, words", [
    (["--dominoproof", "--dominoproof-rlimit", "0"], "--dominoproof-rlimit 0: must be at least 1"),
    (["--dominoproof-strict"], "--dominoproof-strict has no effect without --dominoproof"),
    (["--dominoproof-rlimit", "5"], "--dominoproof-rlimit has no effect without --dominoproof"),
])
def test_a_plugin_option_that_cannot_work_is_a_usage_error(
        repo: pytest.Pytester, args: list[str], words: str) -> None:
    r = repo.runpytest(*args, "variants/")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    assert words in r.stderr.str() and "Traceback" not in r.stderr.str()


def test_a_sound_variant_passes_and_a_broken_one_fails_with_the_round(
        repo: pytest.Pytester) -> None:
    r = repo.runpytest("--dominoproof", "variants/", "-k",
                       "blocked-sound or procedure or award")
    r.assert_outcomes(passed=4, failed=2)
    out = r.stdout.str()
    assert "FAILED variants/broken.toml::blocked-sound[R1.1,R2.1" in out
    assert "blocked-sound VIOLATED" in out
    # the round Z3 found, told move by move, and where and why it fails
    assert "Counterexample to blocked-sound" in out and "Where it fails" in out
    assert "the block is established" in out
    assert "house.toml" not in out.split("short test summary")[1]


def test_unknown_skips_with_its_reason_or_fails_when_strict(repo: pytest.Pytester) -> None:
    args = ["--dominoproof", "variants/house.toml", "-k", "termination", "-rs",
            "--dominoproof-rlimit", "1"]
    r = repo.runpytest(*args)
    r.assert_outcomes(skipped=1)
    assert "UNKNOWN" in r.stdout.str() and "resource limit of 1 reached" in r.stdout.str()
    r = repo.runpytest(*args, "--dominoproof-strict")
    r.assert_outcomes(failed=1)
    assert "UNKNOWN (--dominoproof-strict)" in r.stdout.str()


def test_not_applicable_is_a_skip_with_the_reason(repo: pytest.Pytester) -> None:
    (repo.path / "variants" / "aside.toml").write_text('base = "block-2p-d6"\n')
    r = repo.runpytest("--dominoproof", "variants/aside.toml", "-k", "parity", "-rs")
    r.assert_outcomes(skipped=1)
    assert "N/A" in r.stdout.str()


def test_a_bad_variant_file_is_a_collection_error_with_the_located_line(
        repo: pytest.Pytester) -> None:
    (repo.path / "variants" / "bad.toml").write_text('base = "tiny-2p-d3"\n[deal]\n'
                                                     'players = 99\n')
    r = repo.runpytest("--dominoproof", "variants/bad.toml")
    r.assert_outcomes(errors=1)
    assert "dominoproof: error:" in r.stdout.str()
    assert "[deal] players = 99" in r.stdout.str()
