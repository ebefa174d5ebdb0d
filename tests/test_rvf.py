"""The rvf engine (-engine rvf, src/engine/rvf): one interleaving per class
of equal values read, under SC, checked by VerifySC.

rvf's Positive and Negative count distinct final states (a class is no
execution of herd's), so what must agree with herd and the enumerator is
the set of States lines, the verdict line (with Loop) and the flags; and
Positive + Negative must be the number of states.

  - tests/rvf/NAME.litmus: our own tests, with the block herd7 7.58 prints
    for each under its sc.cat stored beside it (NAME.litmus.sc.herd, made
    with `herd7 -macros tests/c/kernel-mini.def -model sc.cat NAME.litmus`
    for the C ones, `herd7 -model sc.cat NAME.litmus` for the others);
    pop's suite (tests/pop) too, load-reserves and store-conditionals
    included, and the sc cases of tests/rsmc;
  - random C tests (test_pop's, a fixed seed, with x's final value shown)
    against the enumerator;
  - the issue's families (scripts/gen-rvf-bench): the classes -stats
    counts, one for the same-value test whatever N; two shapes of the
    seed paper's Table 1 keep their number of classes as N grows;
  - what rvf does not run it refuses by name, at the instruction."""
import pathlib
import re
import subprocess

import pytest

from conftest import SRCDIR, outcome_blocks as blocks
from test_pop import REFUSED as POP_REFUSED, random_test as pop_random_test

SUITE = SRCDIR / "tests" / "rvf"
POP_SUITE = SRCDIR / "tests" / "pop"
MINI = SRCDIR / "tests" / "c" / "kernel-mini.def"
GEN = SRCDIR / "scripts" / "gen-rvf-bench"
STATS = re.compile(r"^Stats (\S+) engine rvf states (\d+) classes (\d+) verifysc-calls (\d+) "
                   r"verifysc-failed (\d+) verifysc-skipped (\d+) verifysc-us (\d+) verifysc-share% (\d+)$",
                   re.M)


def is_c(path):
    return path.read_text().startswith("C ")


def run(weft, engine, files, *extra):
    """weft under sc on files (C ones with kernel-mini.def): its blocks."""
    out = ""
    c = [f for f in files if is_c(f)]
    asm = [f for f in files if not is_c(f)]
    for args in ([["-macros", MINI, *c]] if c else []) + ([asm] if asm else []):
        r = weft("-q", "-model", "sc", "-timeout", "20", "-engine", engine, *extra, *args)
        assert r.returncode == 0 or re.search(r"^Test \S+ Timeout", r.stdout, re.M), r.stderr
        out += r.stdout
    return out


def assert_same_outcomes(got, want, names):
    for name in names:
        gstates, gverdict, gflags, (pos, neg) = got[name]
        wstates, wverdict, wflags, _ = want[name]
        assert (gstates, gverdict, gflags) == (wstates, wverdict, wflags), name
        assert pos + neg == len(gstates), name


OWN = sorted(SUITE.glob("*.litmus"))
POPS = sorted(POP_SUITE.glob("*.litmus"))
# the runs rsmc's early cut once lost (tests/rsmc), under sc (its
# instructions of two accesses rvf refuses as pop does)
RSMC = sorted((SRCDIR / "tests" / "rsmc").glob("SC-race+*.litmus"))


def test_suite_has_its_herd_blocks():
    assert len(OWN) >= 8
    for f in OWN:
        assert f.with_name(f.name + ".sc.herd").is_file(), f


@pytest.mark.parametrize("suite", ["rvf", "pop", "rsmc"])
def test_outcomes_are_herds(weft, suite):
    files = {"rvf": OWN, "pop": POPS, "rsmc": RSMC}[suite]
    assert files
    got = blocks(run(weft, "rvf", files))
    want = {}
    for f in files:
        want.update(blocks(f.with_name(f.name + ".sc.herd").read_text()))
    assert set(got) == set(want)
    assert_same_outcomes(got, want, want)
    # a state where the condition holds is one of herd's Positive executions
    for name, (_, _, _, (pos, neg)) in got.items():
        assert (pos > 0) == (want[name][3][0] > 0) and (neg > 0) == (want[name][3][1] > 0), name


def test_stats_line(weft):
    out = run(weft, "rvf", OWN, "-stats")
    stats = {m.group(1): tuple(int(x) for x in m.groups()[1:]) for m in STATS.finditer(out)}
    assert set(stats) == {f.name[: -len(".litmus")] for f in OWN}
    for name, (states, classes, calls, failed, skipped, us, share) in stats.items():
        assert classes >= 1 and states <= classes, name
        assert failed <= calls and 0 <= share <= 100, name
    # one class where herd counts (3!)^2 executions; one per final state
    # where no thread reads
    assert stats["SameValue+3"][:2] == (1, 1)
    assert stats["Stores+3x2"][:2] == (9, 9)


# ---- the families ----------------------------------------------------------------

def generate(tmp_path, *args):
    return subprocess.run([str(GEN), *map(str, args), str(tmp_path)], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.mark.parametrize("n", [2, 5, 8])
def test_same_value_is_one_class(weft, tmp_path, n):
    f = generate(tmp_path, "samevalue", n)
    r = weft("-q", "-macros", MINI, "-model", "sc", "-engine", "rvf", "-stats", f)
    assert r.returncode == 0, r.stderr
    m = STATS.search(r.stdout)
    assert m and m.group(2) == "1" and m.group(3) == "1", r.stdout
    assert "\nOk\n" in r.stdout


@pytest.mark.parametrize("n,k", [(2, 3), (4, 4)])
def test_stores_give_every_last_writer(weft, tmp_path, n, k):
    f = generate(tmp_path, "stores", n, k)
    r = weft("-q", "-macros", MINI, "-model", "sc", "-engine", "rvf", "-stats", f)
    assert r.returncode == 0, r.stderr
    m = STATS.search(r.stdout)
    assert m and int(m.group(2)) == n ** k and int(m.group(3)) == n ** k, r.stdout
    assert f"Positive: 1 Negative: {n ** k - 1}" in r.stdout


@pytest.mark.parametrize("family,ns,classes", [("singleton", [2, 3, 5, 8], 2), ("reorder", [1, 2, 4, 7], 4)])
def test_table1_shapes_keep_their_classes(weft, tmp_path, family, ns, classes):
    """The seed paper's Table 1 reports these constant as the bound grows;
    the outcomes are the enumerator's where it is quick."""
    for n in ns:
        f = generate(tmp_path, family, n)
        r = weft("-q", "-model", "sc", "-engine", "rvf", "-stats", f)
        assert r.returncode == 0, r.stderr
        m = STATS.search(r.stdout)
        assert m and int(m.group(3)) == classes, (family, n, r.stdout)
        if n <= 3:
            ref = weft("-q", "-model", "sc", "-engine", "enumerate", f)
            name = pathlib.Path(f).stem
            assert blocks(r.stdout)[name][:3] == blocks(ref.stdout)[name][:3], (family, n)


# ---- random C tests against the enumerator -----------------------------------------------

def random_test(seed):
    """test_pop's random C test (reads, writes of values 1..3, xchg, cmpxchg,
    atomic adds, trylocks, ifs, waiting loops), its x shown at the end too."""
    return pop_random_test(seed).replace("\nexists", "\nlocations [x]\nexists")


def test_random_c_tests_as_the_enumerator(weft, tmp_path):
    files = []
    for seed in range(100):
        f = tmp_path / f"R{seed}.litmus"
        f.write_text(random_test(seed))
        files.append(f)
    rvf, ref = run(weft, "rvf", files), run(weft, "enumerate", files)
    assert not re.search(r"^Test \S+ Timeout", rvf, re.M)
    got, want = blocks(rvf), blocks(ref)
    compared = [n for n in want if not re.search(rf"^Test {re.escape(n)} Timeout", ref, re.M)]
    assert len(compared) >= 90
    assert_same_outcomes(got, want, compared)


# ---- what rvf refuses ----------------------------------------------------------------------

def test_refuses_what_pop_refuses(weft, tmp_path):
    """rvf runs threads by pop's steps and refuses what pop does (test_pop's
    table of cases), in its own name."""
    for case, (text, (line, col), why) in sorted(POP_REFUSED.items()):
        f = tmp_path / (case.replace(" ", "-") + ".litmus")
        f.write_text(text)
        r = weft("-model", "sc", "-engine", "rvf", f)
        assert r.returncode == 1 and "Test " not in r.stdout, case
        assert f"{f}:{line}:{col}: error: not supported by rvf: {why}" in r.stderr, r.stderr


def test_refuses_a_model_that_is_not_sc(weft):
    r = weft("-model", "tso", "-engine", "rvf", SRCDIR / "litmus" / "X86" / "SB.litmus")
    assert r.returncode != 0
    assert "not supported by rvf: the model is not sequential consistency" in r.stderr
