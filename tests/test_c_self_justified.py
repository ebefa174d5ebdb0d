"""Values that justify themselves through a po u rf cycle, as herd7's value
equations treat them (src/engine/value_eqs.h), on weft's own C tests in
tests/c/, under a model that allows every candidate (tests/c/allow-all.cat),
so that the blocks count exactly the candidates herd builds.  The blocks
below are worked out by hand from herd's rules:
  - every read gets a variable; reads-from adds read := value written; the
    solver propagates constants forward and unifies plain copies;
  - a read left unsolved that an operation, a test or an address uses is an
    equation herd cannot solve: the candidate is dropped;
  - a cycle of plain copies is kept once, its value symbolic, printed S<n>:
    herd numbers its variables per thread, P0 first, one per pointer read,
    value read, register read and operation left to the solver; the cycle is
    named by the variable of the register read of the last thread's load
    (here the 8th: x, value of x, y, r0 in P0, then y, value, x, r0 in P1);
    S<n> equals no constant in a condition and states list it first;
  - a value a thread stores only after testing a value no execution gave it
    yet is found too (x is 2 because y was stored 2 because x was not 0).
rsmc hands these tests to the enumerator (a note says why), so both engines
must print the same blocks."""
import pytest

from conftest import SRCDIR, result_blocks

SUITE = SRCDIR / "tests" / "c"
MINI = SUITE / "kernel-mini.def"
ALLOW_ALL = SUITE / "allow-all.cat"

EXPECTED = {
    # rf: P0 reads x from init, P2 (5) or P1 (a copy of y); P1 reads y from
    # init or P0 (a copy of x).  P0 from P1 and P1 from P0: the copy cycle,
    # kept once with its value symbolic.  allow-all reads no co, and the
    # test observes no location: herd's engine builds one coherence order
    # of x, not 2 (herd7 7.58 prints Positive 1 Negative 5).
    "LB+copies+W": """Test LB+copies+W Allowed
States 4
0:r0=S8; 1:r0=S8;
0:r0=0; 1:r0=0;
0:r0=5; 1:r0=0;
0:r0=5; 1:r0=5;
Ok
Witnesses
Positive: 1 Negative: 5
Condition exists (not (0:r0=0) /\\ not (0:r0=5) /\\ not (1:r0=0))
Observation LB+copies+W Sometimes 1 5""",
    # the cycle goes through r0 * 1, an equation herd leaves unsolved: 3 of
    # the 4 candidates remain, each with 0 (the concrete enumeration alone
    # found the cycle consistent with 0 and kept 4)
    "LB+mul+copy": """Test LB+mul+copy Allowed
States 1
0:r0=0;
No
Witnesses
Positive: 0 Negative: 3
Condition exists (not (0:r0=0))
Observation LB+mul+copy Never 0 3""",
    # r0 + 0 is a copy for herd (its addition of the constant 0): the cycle
    # stays, symbolic, and not (0:r0=0) holds of it
    "LB+add0+copy": """Test LB+add0+copy Allowed
States 2
0:r0=S8;
0:r0=0;
Ok
Witnesses
Positive: 1 Negative: 3
Condition exists (not (0:r0=0))
Observation LB+add0+copy Sometimes 1 3""",
    # P0's else path (x read 0): P1 reads y's 0, P0 reads x from init or
    # from P1: 2.  P0's then path stores y=2: x must be P1's copy of that
    # 2, the only solution: 1.
    "LB+ctrl-store+copy": """Test LB+ctrl-store+copy Allowed
States 2
0:r0=0;
0:r0=2;
Ok
Witnesses
Positive: 1 Negative: 2
Condition exists (0:r0=2)
Observation LB+ctrl-store+copy Sometimes 1 2""",
}


def without_hash(body):
    return "\n".join(l for l in body.splitlines() if not l.startswith("Hash="))


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_self_justified_values_as_herd_solves_them(weft, engine):
    files = [SUITE / f"{name}.litmus" for name in EXPECTED]
    r = weft("-macros", MINI, "-model", ALLOW_ALL, "-engine", engine, *files)
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    assert set(blocks) == set(EXPECTED)
    for name, want in EXPECTED.items():
        assert without_hash(blocks[name][0]) == want, (name, blocks[name][0])
    if engine == "rsmc":
        # one summary for the run: every test named (fewer than the five a
        # summary line names), as one whose execution may have a cycle
        notes = [l for l in r.stderr.splitlines() if l.startswith("weft: note: rsmc left")]
        assert len(notes) == 1, r.stderr
        assert f"rsmc left {len(EXPECTED)} tests under model 'allow-all'" in notes[0], r.stderr
        assert all(name in notes[0] for name in EXPECTED) and "cycle" in notes[0], r.stderr
        # -v: each test at its place
        r = weft("-v", "-macros", MINI, "-model", ALLOW_ALL, "-engine", engine, *files)
        for name in EXPECTED:
            assert f"test {name}, model 'allow-all': " in r.stderr, r.stderr
        assert "rsmc left" not in r.stderr


def test_symbolic_values_in_yaml(weft):
    r = weft("-macros", MINI, "-model", ALLOW_ALL, "-engine", "enumerate", "-format", "yaml",
             SUITE / "LB+copies+W.litmus")
    assert r.returncode == 0, r.stderr
    assert "0:r0=S8; 1:r0=S8;" in r.stdout
    assert "bindings: {'0:r0': S8, '1:r0': S8}" in r.stdout, r.stdout
