"""Loops as herd7 runs them (issue 19): every backward jump taken counts one
visit of its target, whatever decides its condition; -unroll N cuts a path at
the (N+1)-th visit; a cut execution the model allows makes the verdict
"Loop Ok"/"Loop No" with herd's warning; condition registers start cleared.
C's while loops as herd's C semantics runs them (issue 18): the body runs at
most N times; a path whose condition holds an (N+1)-th time is cut there,
after the condition's reads ("unrolling limit exceeded at While").

The tests are in litmus/loops/; each expectation below is worked out by hand
(the comments say how), for -unroll 0 (no backward jump taken), 1, 2 and 3
and both engines."""
import re

import pytest

from conftest import SRCDIR, run_weft

LOOPS = SRCDIR / "litmus" / "loops"
ENGINES = ["rsmc", "enumerate"]
UNROLLS = [0, 1, 2, 3]


def spin(u):
    # the reader sees y=0 k times (k = 0..u) then y=1, then x=0 or x=1
    # (lwsync without isync does not order its reads: both allowed); the
    # path with u+1 zeros is cut, and allowed: Loop
    return dict(states=2, loop=True, ok=True, pos=u + 1, neg=u + 1)


def retry(u):
    # success at attempt k (1..u+1): its reads of x are 0...0 then 2...2
    # (coherence); success after reading 0 ends with [x]=2 (one way), after
    # reading 2 with [x]=3 (k ways); u+1 failures are cut, and allowed
    return dict(states=2, loop=True, ok=True, pos=(u + 1) * (u + 2) // 2, neg=u + 1)


def count3(u):
    # two backward jumps on a register the thread sets itself: they count
    # all the same, so -unroll 1 (and 0: no jump at all) cuts the only path
    if u <= 1:
        return dict(states=0, loop=True, ok=False, pos=0, neg=0)
    return dict(states=1, loop=False, ok=True, pos=1, neg=0)


def cleared(u):
    # beq on a cr0 no compare set: not taken, one path, no loop
    return dict(states=1, loop=False, ok=True, pos=1, neg=0)


def forever(u):
    # bne on a cleared cr0 is taken every time: every path is cut
    return dict(states=0, loop=True, ok=False, pos=0, neg=0)


def x86_spin(u):
    # as spin(), but TSO orders the reads: x=1 only
    return dict(states=1, loop=True, ok=False, pos=0, neg=u + 1)


def xchg_lock(u):
    # the xchg takes the lock at attempt k (1..u+1): the k-1 failed ones
    # read 1 (init, then its own writes), the last 0 from P0's release,
    # which follows P0's x=1 (TSO): x=1 always
    return dict(states=1, loop=True, ok=False, pos=0, neg=u + 1)


def herd_x86_flags(u):
    # herd's x86 flags: cleared, jl (ZF | !SF) is taken and jge (ZF | SF)
    # not; after CMP a,b SF is a > b, so jl is taken when a = b
    return dict(states=1, loop=False, ok=True, pos=1, neg=0)


def c_spin(u):
    # sc, default model for C: the reader's loop reads y=0 j times (j =
    # 0..u body runs) then y=1, after P0's writes: x=1; u+1 zeros are cut
    # after the (u+1)-th test, and allowed: Loop
    return dict(states=1, loop=True, ok=False, pos=0, neg=u + 1)


def c_release_spin(u):
    # as c_spin, the first read outside the loop: reads of y are j zeros
    # then a one, j = 0..u (r0 is the last); x=1 after y=1 under sc
    return dict(states=1, loop=True, ok=False, pos=0, neg=u + 1)


def c_count2(u):
    # the body runs twice (i = 1, 2), then i < 2 fails: fine from -unroll
    # 2 on; below, the test holding an (u+1)-th time cuts the only path
    if u < 2:
        return dict(states=0, loop=True, ok=False, pos=0, neg=0)
    return dict(states=1, loop=False, ok=True, pos=1, neg=0)


CASES = {
    "C/MP+spin": c_spin,
    "C/MP+release+spin": c_release_spin,
    "C/count2": c_count2,
    "PPC/MP+lwsync+spin": spin,
    "PPC/W+retry": retry,
    "PPC/count3": count3,
    "PPC/deep": cleared,
    "PPC/enum-hang": cleared,
    "PPC/bne-forever": forever,
    "X86/MP+spin": x86_spin,
    "X86/count3": count3,
    "X86/MP+xchg-lock": xchg_lock,
    "X86/jl+jge-cleared": herd_x86_flags,
    "X86/jl-equal": herd_x86_flags,
}



def summary(out):
    states = int(re.search(r"^States (\d+)$", out, re.M).group(1))
    verdict = re.search(r"^(Loop )?(Ok|No)$", out, re.M)
    pos, neg = map(int, re.search(r"^Positive: (\d+) Negative: (\d+)$", out, re.M).groups())
    return dict(states=states, loop=bool(verdict.group(1)), ok=verdict.group(2) == "Ok", pos=pos, neg=neg)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("unroll", UNROLLS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_loop_blocks(weft, name, unroll, engine):
    f = LOOPS / f"{name}.litmus"
    r = run_weft("-q", "-engine", engine, "-unroll", unroll, f, timeout=60)
    assert r.returncode == 0, r.stderr
    got = summary(r.stdout)
    assert got == CASES[name](unroll)
    # herd's warning comes with the Loop verdict, and only with it
    warned = "unrolling limit exceeded at " in r.stderr
    assert warned == got["loop"], r.stderr
    # asm names the label jumped to; C names the loop as herd's C does
    label = r"While" if name.startswith("C/") else r"L\d"
    if warned:
        assert re.search(r"^" + re.escape(str(f)) + r":\d+:\d+: warning: unrolling limit exceeded at "
                         + label + r", legal outcomes may be missing$", r.stderr, re.M), r.stderr


def test_corpus_loop_test_under_unroll(weft, corpus):
    """The corpus's one loop (PPC A: a lwarx/stwcx. retry) gives herd's block
    at the default unroll, and both engines agree at 1, 2 and 3."""
    f = corpus / "tests" / "PPC" / "A.litmus"
    want = (corpus / "expected" / "power" / "PPC" / "A.litmus.expected").read_text()
    for u in UNROLLS:
        outs = [run_weft("-q", "-engine", e, "-unroll", u, f).stdout for e in ENGINES]
        strip = [re.sub(r"^Time .*\n", "", o, flags=re.M) for o in outs]
        assert strip[0] == strip[1]
        assert "Loop Ok" in strip[0]
        if u == 2:
            assert strip[0].strip() == want.strip()


def test_unroll_option_is_checked(weft):
    for bad in ["-1", "x", "2.5"]:
        r = run_weft("-unroll", bad, LOOPS / "PPC" / "deep.litmus")
        assert r.returncode == 2 and "-unroll" in r.stderr


def test_timeout_stops_a_huge_unroll_in_time(weft):
    """-timeout 1 stops a test within about a second even when its loops run a
    million times: the enumerator looks at the clock while it builds paths."""
    import time
    for name in ["PPC/MP+lwsync+spin", "PPC/W+retry"]:
        start = time.monotonic()
        r = run_weft("-q", "-j", "1", "-engine", "enumerate", "-timeout", "1", "-unroll", "1000000",
                     LOOPS / f"{name}.litmus", timeout=60)
        took = time.monotonic() - start
        assert r.returncode == 1
        assert re.search(r"^Test \S+ Timeout 1$", r.stdout, re.M), r.stdout
        # the engine stops itself: the parent would kill it at 2.1 s
        assert took < 1.9, took
