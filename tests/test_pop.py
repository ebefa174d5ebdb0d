"""The pop engine (-engine pop, src/engine/pop): parsimonious-optimal DPOR
over the interleavings of a test's threads, under SC.

  - tests/pop/NAME.litmus: our own tests, with the block herd7 7.58 prints
    for each under its sc.cat stored beside it (NAME.litmus.sc.herd, made
    with `herd7 -macros tests/c/kernel-mini.def -model sc.cat NAME.litmus`
    for the C ones, `herd7 -model sc.cat NAME.litmus` for the others):
    pop must print herd's block, and its -stats must show one exploration
    per execution, none redundant or blocked;
  - random C tests (a fixed seed: threads of reads, writes, xchg, cmpxchg,
    atomic adds, trylocks, ifs and waiting loops): pop's block is the
    enumerator's, counts included;
  - what pop does not run it refuses by name, at the instruction (or the
    test, for a model that is not SC)."""
import random
import re

import pytest

from conftest import SRCDIR, result_blocks

SUITE = SRCDIR / "tests" / "pop"
MINI = SRCDIR / "tests" / "c" / "kernel-mini.def"
TESTS = sorted(p.name[: -len(".litmus")] for p in SUITE.glob("*.litmus"))
STATS = re.compile(r"^Stats (\S+) engine pop states (\d+) executions (\d+) redundant (\d+) blocked (\d+) "
                   r"infeasible (\d+) depth (\d+) peak-bytes (\d+)$", re.M)


def is_c(name):
    return (SUITE / f"{name}.litmus").read_text().startswith("C ")


def herd_block(name):
    return result_blocks((SUITE / f"{name}.litmus.sc.herd").read_text())[name][0]


def run_suite(weft, engine, *extra):
    c = [SUITE / f"{n}.litmus" for n in TESTS if is_c(n)]
    asm = [SUITE / f"{n}.litmus" for n in TESTS if not is_c(n)]
    out, err = "", ""
    for args in (["-macros", MINI, *c], asm):
        r = weft("-q", "-model", "sc", "-engine", engine, *extra, *args)
        assert r.returncode == 0, r.stderr
        out += r.stdout
        err += r.stderr
    return out


def test_suite_has_its_herd_blocks():
    assert len(TESTS) >= 6
    for name in TESTS:
        assert (SUITE / f"{name}.litmus.sc.herd").is_file(), name


@pytest.mark.parametrize("engine", ["pop", "enumerate"])
def test_blocks_are_herds(weft, engine):
    blocks = result_blocks(run_suite(weft, engine))
    assert set(blocks) == set(TESTS)
    for name in TESTS:
        assert blocks[name][0] == herd_block(name), (name, engine)


def test_stats_one_exploration_per_execution(weft):
    out = run_suite(weft, "pop", "-stats")
    stats = {m.group(1): [int(x) for x in m.groups()[1:]] for m in STATS.finditer(out)}
    assert set(stats) == set(TESTS)
    for name, (states, executions, redundant, blocked, infeasible, depth, peak) in stats.items():
        assert redundant == 0 and blocked == 0, name
        assert depth >= 1 and peak > 0, name
        herd = herd_block(name)
        pos, neg = map(int, re.search(r"Positive: (\d+) Negative: (\d+)", herd).groups())
        text = (SUITE / f"{name}.litmus").read_text()
        if "filter" in text or "Loop" in herd:
            assert executions > pos + neg, name   # filtered or cut ones explored too
        else:
            assert executions == pos + neg + infeasible, name
        assert (infeasible > 0) == ("stwcx." in text or "sc.w" in text or "STXR" in text), name


# ---- random C tests against the enumerator -----------------------------------------------

def random_test(seed):
    rnd = random.Random(seed)
    locs = ["x", "y", "z"][: rnd.randint(1, 3)]
    lines = [f"C R{seed}", "{ }"]
    regs_all = []
    for t in range(rnd.randint(2, 3)):
        regs, body = [], []

        def new_reg():
            regs.append(f"r{len(regs)}")
            return regs[-1]

        for _ in range(rnd.randint(1, 3)):
            kind = rnd.choice(["r", "w", "w", "xchg", "cmpxchg", "add", "try", "if", "while"])
            loc, v = rnd.choice(locs), rnd.randint(1, 3)
            if kind == "r":
                body.append(f"{new_reg()} = READ_ONCE(*{loc});")
            elif kind == "xchg":
                body.append(f"{new_reg()} = xchg({loc}, {v});")
            elif kind == "cmpxchg":
                body.append(f"{new_reg()} = cmpxchg({loc}, {rnd.randint(0, 2)}, {v});")
            elif kind == "add":
                body.append(f"{new_reg()} = atomic_add_return({v}, {loc});")
            elif kind == "try":
                body.append(f"{new_reg()} = spin_trylock(s);")
            elif kind == "if" and regs:
                body.append(f"if ({rnd.choice(regs)} == {rnd.randint(0, 2)}) {{ WRITE_ONCE(*{loc}, {v}); }}")
            elif kind == "while":
                r = new_reg()
                body.append(f"{r} = READ_ONCE(*{loc}); while ({r} == 0) {{ {r} = READ_ONCE(*{loc}); }}")
            else:
                body.append(f"WRITE_ONCE(*{loc}, {v});")
        params = ", ".join(f"int *{l}" for l in locs) + ", spinlock_t *s"
        decls = " ".join(f"int {r};" for r in regs)
        lines.append(f"P{t}({params}) {{ {decls} {' '.join(body)} }}")
        regs_all += [f"{t}:{r}" for r in regs]
    picked = rnd.sample(regs_all, min(2, len(regs_all)))
    lines.append("exists (" + (" /\\ ".join(f"{r}=0" for r in picked) if picked else f"{locs[0]}=0") + ")")
    return "\n".join(lines) + "\n"


def test_random_c_tests_as_the_enumerator(weft, tmp_path):
    names = []
    for seed in range(60):
        (tmp_path / f"R{seed}.litmus").write_text(random_test(seed))
        names.append(f"R{seed}")
    files = [tmp_path / f"{n}.litmus" for n in names]
    common = ["-q", "-macros", MINI, "-model", "sc", "-timeout", "10"]
    pop = weft(*common, "-engine", "pop", "-stats", *files)
    ref = weft(*common, "-engine", "enumerate", *files)
    assert pop.returncode == 0, pop.stderr
    got, want = result_blocks(pop.stdout), result_blocks(ref.stdout)
    timed_out = set(re.findall(r"^Test (\S+) Timeout", ref.stdout, re.M))
    assert not re.findall(r"^Test (\S+) Timeout", pop.stdout, re.M)
    compared = 0
    for name in names:
        if name in timed_out:
            continue
        assert got[name][0] == want[name][0], name
        compared += 1
    assert compared >= 50
    for m in STATS.finditer(pop.stdout):
        assert m.group(4) == "0" and m.group(5) == "0", m.group(0)


# ---- what pop refuses ------------------------------------------------------------------

REFUSED = {
    "X86 XCHG": ("X86 XCHG\n{ x=0; }\n P0 | P1 ;\n MOV EAX,$1 | MOV [x],$2 ;\n XCHG [x],EAX | ;\n"
                 "exists (0:EAX=2)\n", (5, 2), "an instruction with two accesses"),
    "AArch64 SWP": ("AArch64 SWP\n{ 0:X0=x; }\n P0 ;\n MOV X1,#1 ;\n SWP X1,X2,[X0] ;\n"
                    "exists (x=1)\n", (5, 2), "an instruction with two accesses"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_by_name_at_the_instruction(weft, tmp_path, case):
    text, (line, col), why = REFUSED[case]
    f = tmp_path / "t.litmus"
    f.write_text(text)
    r = weft("-model", "sc", "-engine", "pop", f)
    assert r.returncode != 0
    assert f"{f}:{line}:{col}: error: not supported by pop: {why}" in r.stderr, r.stderr
    assert "Test " not in r.stdout


def test_refuses_a_model_that_is_not_sc(weft):
    r = weft("-model", "tso", "-engine", "pop", SRCDIR / "litmus" / "X86" / "SB.litmus")
    assert r.returncode != 0
    assert "not supported by pop: the model is not sequential consistency" in r.stderr
