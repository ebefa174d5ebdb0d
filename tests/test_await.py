"""The await engine (issue 32, src/engine/await): await and confirmation-CAS
loops run as the one iteration that exits, under SC, whatever -unroll.

Its States are checked against herd7's: each test's TEST.litmus.herd-unroll
holds herd7's blocks under sc.cat at -unroll 1..6 (scripts/herd-unroll made
them); their States, once the union over growing -unroll stops changing,
are the await engine's (a test with a loop that is no await, unrolled as
herd does, gives herd's States at each -unroll).  A test whose await can spin forever says so with
a flag line (Flag liveness-violation), which herd cannot tell apart from an
unrolling limit."""
import re

import pytest

from conftest import SRCDIR, result_blocks, run_weft

AWAIT = SRCDIR / "tests" / "await"
LOOPS = SRCDIR / "litmus" / "loops"

# every test with herd7's blocks stored beside it; the corpus's loop tests
# (tests/await/corpus/ARCH/NAME.litmus.herd-unroll: only PPC's A has a loop)
# hold herd7's blocks of ../shared/corpus/tests/ARCH/NAME.litmus
STORED = (sorted(AWAIT.glob("*.litmus.herd-unroll")) + sorted(LOOPS.glob("*/*.litmus.herd-unroll"))
          + sorted(AWAIT.glob("corpus/*/*.litmus.herd-unroll")))

# the tests whose await can spin forever, and why
SPINS_FOREVER = {
    "Spin-missed": "P1 reads y after P0 lowered it again: it waits for a write that never comes",
    "CAS-lock-held": "P0 holds the lock for ever: P1's cmpxchg fails for ever",
}


def herd_unions(path):
    """herd7's States at each -unroll it answered, as sets, in order."""
    text = path.read_text()
    out = []
    for m in re.finditer(r"^# -unroll (\d+)\n(.*?)(?=^# -unroll |\Z)", text, re.M | re.S):
        block = m.group(2)
        st = re.search(r"^States (\d+)\n", block, re.M)
        if not st:
            continue
        lines = block[st.end():].splitlines()[: int(st.group(1))]
        out.append((int(m.group(1)), frozenset(line.strip() for line in lines)))
    return out


def await_block(*args):
    r = run_weft("-engine", "await", "-model", "sc.cat", "-stats", *args, timeout=60)
    assert r.returncode == 0, r.stderr
    return r


def states_of(out):
    st = re.search(r"^States (\d+)\n", out, re.M)
    return frozenset(line.strip() for line in out[st.end():].splitlines()[: int(st.group(1))])


def stats_of(out):
    m = re.search(r"^Stats \S+ engine await (.*)$", out, re.M)
    words = m.group(1).split()
    return dict(zip(words[::2], map(int, words[1::2])))


@pytest.mark.parametrize("stored", STORED, ids=lambda p: p.name[: -len(".litmus.herd-unroll")])
def test_states_are_herds_union_over_unroll(weft, request, stored):
    test = stored.with_name(stored.name[: -len(".herd-unroll")])
    if stored.parent.parent.name == "corpus":
        test = request.getfixturevalue("corpus") / "tests" / stored.parent.name / test.name
    unions = herd_unions(stored)
    assert len(unions) >= 3, "herd7 answered fewer than three -unroll values"
    union = frozenset()
    grown = []
    for _, states in unions:
        grown.append(union | states)
        union = grown[-1]
    # the union stopped changing over the last -unroll values herd7 answered
    assert grown[-1] == grown[-2] == grown[-3], grown
    # a loop that is no await is unrolled as herd unrolls it: herd's States
    # at each -unroll; else the union, whatever -unroll
    unrolled = "loop unrolled" in run_weft("-dump", test).stdout
    runs = [(u, st) for u, st in unions] if unrolled else [(u, union) for u in (0, 2, 6)]
    for unroll, want in runs:
        r = await_block("-unroll", unroll, test)
        assert states_of(r.stdout) == want, (unroll, r.stdout)
        stats = stats_of(r.stdout)
        assert stats["blocked"] == 0
        name = test.name[: -len(".litmus")]
        spins = "Flag liveness-violation" in r.stdout
        assert spins == (name in SPINS_FOREVER), r.stdout
        assert (stats["liveness"] > 0) == spins


def test_await_answer_does_not_depend_on_unroll(weft):
    """Tests whose only loops are awaits: the same block, counts included,
    at every -unroll (no Loop, no warning)."""
    for test in sorted(AWAIT.glob("*.litmus")):
        blocks = set()
        for unroll in (0, 1, 3, 8):
            r = await_block("-unroll", unroll, test)
            assert "unrolling limit" not in r.stderr, (test, r.stderr)
            block = result_blocks(r.stdout)[test.name[: -len(".litmus")]][0]
            assert not re.search(r"^Loop ", block, re.M)
            blocks.add(re.sub(r"^Time .*\n", "", block, flags=re.M))
        assert len(blocks) == 1, (test, blocks)


def test_enumerator_needs_unroll_the_await_engine_does_not(weft):
    """At -unroll 0 the enumerator cuts every run of Spin-flag's wait (Loop,
    no state); the await engine gives herd's states."""
    test = AWAIT / "Spin-flag.litmus"
    r = run_weft("-engine", "enumerate", "-model", "sc.cat", "-unroll", 0, test)
    assert states_of(r.stdout) == frozenset() and "Loop" in r.stdout
    assert states_of(await_block("-unroll", 0, test).stdout) == frozenset({"1:r1=1;"})


@pytest.mark.parametrize("test,loops", [
    (LOOPS / "C/MP+spin.litmus", ["loop await ops 1..3"]),
    (LOOPS / "C/MP+release+spin.litmus", ["loop await ops 3..6 entered at op 5"]),
    (LOOPS / "C/count2.litmus", ["loop unrolled ops 2..6 entered at op 5 (it writes memory in every iteration)"]),
    (LOOPS / "PPC/MP+lwsync+spin.litmus", ["loop await ops 0..3"]),
    (LOOPS / "PPC/W+retry.litmus", ["loop cas ops 0..7"]),
    (LOOPS / "PPC/bne-forever.litmus", ["loop unrolled ops 0..2 (its test reads no value read in the loop)"]),
    (LOOPS / "X86/MP+xchg-lock.litmus", ["loop unrolled ops 0..5 (it writes memory in every iteration)"]),
    (AWAIT / "CAS-lock.litmus", ["loop cas ops 2..8 entered at op 7"] * 2),
    (AWAIT / "LDXR-retry.litmus", ["loop cas ops 0..8"]),
    (AWAIT / "LR-SC-retry.litmus", ["loop cas ops 0..7"]),
    (AWAIT / "MP+spin-cbz.litmus", ["loop await ops 0..1"]),
])
def test_dump_says_which_loops_are_awaits(weft, test, loops):
    r = run_weft("-dump", test)
    assert r.returncode == 0, r.stderr
    assert re.findall(r"^  (loop .*)$", r.stdout, re.M) == loops


def test_carried_register_is_no_await(weft, tmp_path):
    """A loop whose iterations count in a register is unrolled: the next
    iteration reads what the last one wrote."""
    t = tmp_path / "Carried.litmus"
    t.write_text("PPC Carried\n{ 0:r2=x; }\n P0 ;\n li r3,0 ;\n L0: ;\n lwz r1,0(r2) ;\n"
                 " addi r3,r3,1 ;\n cmpw r1,r3 ;\n bne L0 ;\nexists (0:r3=1)\n")
    r = run_weft("-dump", t)
    assert re.findall(r"^  (loop .*)$", r.stdout, re.M) == [
        "loop unrolled ops 1..5 (a register carries a value from one iteration to the next)"]


def test_refuses_other_models_and_two_access_instructions(weft):
    r = run_weft("-engine", "await", "-model", "tso.cat", AWAIT / "Spin-flag.litmus")
    assert r.returncode != 0
    assert re.search(r"Spin-flag.litmus: error: not supported by await: the model is not "
                     r"sequential consistency", r.stderr), r.stderr
    r = run_weft("-engine", "await", "-model", "sc.cat", LOOPS / "X86/MP+xchg-lock.litmus")
    assert r.returncode != 0
    assert re.search(r"MP\+xchg-lock.litmus:7:16: error: not supported by await: an instruction with two "
                     r"accesses", r.stderr), r.stderr
