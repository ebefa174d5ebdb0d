"""Our own tests of the AArch64 memory side (tests/aarch64-mem/: pairs,
exclusive pairs, CASP, LDUR, arrays and labels in conditions, code as
data, branch and link) and of the RISC-V user ISA (tests/riscv-isa/), each
NAME.litmus with beside it NAME.litmus.herd, the block herd7 7.58 prints
for it under its architecture's default model (aarch64.cat, riscv.cat;
made by running herd7 on the test, `Time` line removed).  Each test's
comment says what it pins.

The Hash= line is no model's business: it is checked under sc without
the corpus; with ../shared present, the whole block under herd's model
(read from the corpus's copy of herd's library), with both engines."""
import pytest

from conftest import SRCDIR, assert_blocks_are_stored, result_blocks, stored_block, suite_tests

FOLDERS = {"AArch64": SRCDIR / "tests" / "aarch64-mem", "RISCV": SRCDIR / "tests" / "riscv-isa"}
MODELS = {"AArch64": "aarch64.cat", "RISCV": "riscv.cat"}


def hash_line(block):
    return next(l for l in block.splitlines() if l.startswith("Hash="))


@pytest.mark.parametrize("arch", sorted(FOLDERS))
def test_hash_is_herds_under_sc(weft, arch):
    suite = FOLDERS[arch]
    tests = suite_tests(suite)
    assert tests
    r = weft("-model", "sc", *[suite / f"{name}.litmus" for name in tests])
    assert r.returncode == 0, r.stderr
    got = result_blocks(r.stdout)
    for name in tests:
        assert hash_line(got[name][0]) == hash_line(stored_block(suite, name)), name


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
@pytest.mark.parametrize("arch", sorted(FOLDERS))
def test_blocks_are_herds_under_herds_model(weft, corpus, engine, arch):
    assert_blocks_are_stored(weft, FOLDERS[arch], "-I", corpus / "herd-cat" / "7.58", "-model", MODELS[arch],
                             "-engine", engine, at_least=3)


MEM = SRCDIR / "tests" / "aarch64-mem"


@pytest.mark.parametrize("check,test,n_states", [
    # LDNP and STNP's accesses are in herd's set NT, LDP's and LDPSW's not
    ("empty NT as c", "LDUR+LDNP+LDPSW.litmus", 0),
    ("empty NT & R as c", "LDUR+LDNP+LDPSW.litmus", 0),
    ("empty NT & W as c", "LDUR+LDNP+LDPSW.litmus", 0),
    ("empty NT as c", "MP+STXP+LDAXP.litmus", 10),
    # an exclusive pair's two accesses are one single-copy-atomic class
    # (herd's sm and si: LDAXP's reads always, STLXP's writes when it
    # stores); a plain pair's are not
    ("empty si \\ id as c", "MP+STXP+LDAXP.litmus", 0),
    ("empty (si \\ id) & (R * R) as c", "MP+STXP+LDAXP.litmus", 0),
    ("empty (si \\ id) & (W * W) as c", "MP+STXP+LDAXP.litmus", 2),
    ("empty sm \\ id as c", "LDUR+LDNP+LDPSW.litmus", 2),
    # LDAXP's reads are acquire and exclusive, STLXP's writes release
    ("empty A & X & R as c", "MP+STXP+LDAXP.litmus", 0),
    ("empty L & X & W as c", "MP+STXP+LDAXP.litmus", 2),
])
def test_event_sets_and_relations(weft, tmp_path, check, test, n_states):
    """What the models see of the memory side's new accesses: the states a
    one-check model allows, as many as herd7 7.58 prints (checked with it)."""
    cat = tmp_path / "probe.cat"
    cat.write_text("probe\n" + check + "\n")
    r = weft("-model", cat, "-engine", "enumerate", MEM / test)
    assert r.returncode == 0, r.stderr
    n = int(next(l for l in r.stdout.splitlines() if l.startswith("States ")).split()[1])
    assert n == n_states, (check, test, n)


@pytest.mark.parametrize("engine", ["rsmc", "enumerate", "bmc"])
@pytest.mark.parametrize("text,where", [
    # herd runs P1's code in P0 there; weft does not
    ("AArch64 X\n{\n0:X1=P1:L1;\n}\n P0      | P1      ;\n BLR X1  | NOP     ;\n         |L1: RET ;\n"
     "locations [0:X0;]\n", "6:2"),
])
def test_indirect_branches_weft_does_not_follow(weft, tmp_path, engine, text, where):
    """BR, BLR and RET go to a label of their own thread held in a
    register (tests/aarch64-mem/Label-values); one to another thread's
    code is refused, located, by every engine (rsmc hands such tests to
    the enumerator)."""
    t = tmp_path / "X.litmus"
    t.write_text(text)
    r = weft("-model", "sc", "-engine", engine, t)
    assert r.returncode != 0 and "States" not in r.stdout, r.stdout
    assert f"{t}:{where}: error: an indirect branch (BR, BLR, RET)" in r.stderr, r.stderr


def test_pop_refuses_indirect_branches(weft):
    """pop, whose steps do not follow a register's branch, refuses one."""
    r = weft("-model", "sc", "-engine", "pop", MEM / "Label-values.litmus")
    assert r.returncode != 0 and "States" not in r.stdout
    assert "not supported by pop: a branch to where a register says" in r.stderr, r.stderr
