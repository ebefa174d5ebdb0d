"""Shared fixtures for weft's end-to-end tests.

`make check` sets WEFT (the binary under test), WEFT_SRCDIR and WEFT_CAT_PATH;
run by hand, the defaults are the source tree and build/weft.
"""
import os
import pathlib
import re
import subprocess

import pytest

SRCDIR = pathlib.Path(os.environ.get("WEFT_SRCDIR") or pathlib.Path(__file__).parent.parent).resolve()
WEFT = pathlib.Path(os.environ.get("WEFT") or SRCDIR / "build" / "weft").resolve()
CORPUS = SRCDIR.parent / "shared" / "corpus"
os.environ.setdefault("WEFT_CAT_PATH", str(SRCDIR / "cat"))


def run_weft(*args, cwd=None, timeout=600, input=None):
    """Run weft with args; return the CompletedProcess (text mode)."""
    return subprocess.run([str(WEFT), *map(str, args)], cwd=cwd, input=input,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session")
def weft():
    if not WEFT.exists():
        pytest.fail(f"weft binary not found at {WEFT} (build first, or set WEFT)")
    return run_weft


@pytest.fixture(scope="session")
def srcdir():
    return SRCDIR


@pytest.fixture(scope="session")
def corpus():
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}: ../shared is absent (a user's clone), "
                    "corpus tests skipped")
    return CORPUS


def result_blocks(text):
    """Test name -> (result block without its Time and Stats lines, the
    Stats line or None), from weft's herd-format output."""
    out = {}
    for chunk in text.split("\n\n"):
        lines = [l for l in chunk.splitlines() if l and not l.startswith("Time ")]
        if not lines or not lines[0].startswith("Test "):
            continue
        stats = [l for l in lines if l.startswith("Stats ")]
        body = "\n".join(l for l in lines if not l.startswith("Stats "))
        out[lines[0].split()[1]] = (body, stats[0] if stats else None)
    return out


def outcome_blocks(text):
    """Test name -> (set of state lines, verdict line, flag lines,
    (Positive, Negative)): what an engine counting distinct final states
    (rvf) must share with herd's block.  Timeout blocks are left out."""
    out = {}
    for chunk in re.split(r"\n(?=Test )", text):
        lines = chunk.splitlines()
        if not lines or not lines[0].startswith("Test ") or not any(l.startswith("States ") for l in lines):
            continue   # a Timeout block has none
        i = next(k for k, l in enumerate(lines) if l.startswith("States "))
        n = int(lines[i].split()[1])
        # the n lines after States, blank ones too (a state of no lval)
        states = frozenset(lines[i + 1:i + 1 + n])
        verdict = lines[i + 1 + n]
        lines = [l for l in lines if l]
        flags = frozenset(l for l in lines if l.startswith("Flag "))
        pos = next(l for l in lines if l.startswith("Positive: ")).split()
        out[lines[0].split()[1]] = (states, verdict, flags, (int(pos[1]), int(pos[3])))
    return out


def engine_refusals(err, refusal, reasons, n_answered, n_files):
    """The files an engine refused, by path (its first reason), from the
    located errors `refusal` (a regex: path, reason) finds in err; each
    reason one of `reasons`, and every file either answered or refused."""
    refused = {}
    for path, why in refusal.findall(err):
        refused.setdefault(path, why)
    assert all(why.startswith(reasons) for why in refused.values()), set(refused.values())
    assert n_answered + len(refused) == n_files, (n_answered, len(refused), n_files)
    return refused


def assert_accepts_95_percent(accepted_total, archs):
    """A corpus test's last check, after its per-architecture tests filled
    accepted_total (arch -> (tests accepted, tests)): an engine that
    refuses what it cannot run accepts at least 95% of the corpus."""
    if set(accepted_total) != set(archs):
        pytest.skip("the per-architecture comparisons did not all run")
    accepted = sum(a for a, _ in accepted_total.values())
    total = sum(n for _, n in accepted_total.values())
    assert accepted >= 0.95 * total, (accepted, total)


def verdict_counts(text):
    """Test name -> (Ok or No, executions: Positive + Negative), from
    weft's herd-format output."""
    got = {}
    for name, (body, _) in result_blocks(text).items():
        lines = body.splitlines()
        verdict = next(l for l in lines if l in ("Ok", "No"))
        pos = next(l for l in lines if l.startswith("Positive:")).split()
        got[name] = (verdict, int(pos[1]) + int(pos[3]))
    return got


def suite_tests(suite):
    """The names of a folder's own tests (NAME.litmus), sorted."""
    return sorted(p.name[: -len(".litmus")] for p in suite.glob("*.litmus"))


def stored_block(suite, name, model=None):
    """The block herd7 printed for test NAME of folder `suite`, stored
    beside it as NAME.litmus.herd, or NAME.litmus.MODEL.herd for a folder
    with one per model (without its Time line)."""
    stored = f"{name}.litmus.{model}.herd" if model else f"{name}.litmus.herd"
    return result_blocks((suite / stored).read_text())[name][0]


def assert_blocks_are_stored(weft, suite, *args, at_least=1, model=None):
    """weft, run with args on every test of `suite` (at least `at_least`
    of them, each with its block stored beside it), prints for each the
    stored block (stored_block; model: the one of that model), Hash=
    included."""
    tests = suite_tests(suite)
    assert len(tests) >= at_least
    r = weft("-q", *args, *[suite / f"{name}.litmus" for name in tests])
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    assert set(blocks) == set(tests)
    for name in tests:
        assert blocks[name][0] == stored_block(suite, name, model), (name, args)

