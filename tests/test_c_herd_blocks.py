"""weft's C tests of tests/c-herd/ against the blocks herd7 7.58 prints
for them, stored beside each test as NAME.litmus.MODEL.herd (made with
`herd7 -macros tests/c/kernel-mini.def -model M NAME.litmus`, M being
tests/c/allow-all.cat or herd's own sc.cat; see tests/c-herd/README.md).
Two things herd does that these pin:
  - the numbers of symbolic values (S<n>) after ifs, loops and a
    trylock's alternatives: herd builds both branches of an if and runs
    what follows once per way through it, with new variables each time
    (src/engine/value_numbers.c); a lock primitive reads its pointer once;
    allow-all keeps every candidate, so the blocks show the cycles;
  - herd's C po orders a statement's own events (its po_iico): a read
    before the write it gives its value or address, so sc forbids a
    cycle through one statement as through two.
Both engines must print herd's block, Hash= included; pop too under sc."""
import re

import pytest

from conftest import SRCDIR, result_blocks

SUITE = SRCDIR / "tests" / "c-herd"
MINI = SRCDIR / "tests" / "c" / "kernel-mini.def"
MODELS = {"allow-all": SRCDIR / "tests" / "c" / "allow-all.cat", "sc": "sc"}
TESTS = sorted(p.name[: -len(".litmus")] for p in SUITE.glob("*.litmus"))


def herd_block(name, model):
    text = (SUITE / f"{name}.litmus.{model}.herd").read_text()
    return result_blocks(text)[name][0]


def test_every_test_has_its_herd_blocks():
    assert len(TESTS) >= 10
    for name in TESTS:
        for model in MODELS:
            assert (SUITE / f"{name}.litmus.{model}.herd").is_file(), (name, model)


@pytest.mark.parametrize("model", sorted(MODELS))
@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_blocks_are_herds(weft, engine, model):
    files = [SUITE / f"{name}.litmus" for name in TESTS]
    r = weft("-q", "-macros", MINI, "-model", MODELS[model], "-engine", engine, *files)
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    assert set(blocks) == set(TESTS)
    for name in TESTS:
        assert blocks[name][0] == herd_block(name, model), (name, model, engine)


def test_pop_blocks_are_herds_under_sc(weft):
    """pop runs SC only: herd's sc blocks, counts included."""
    files = [SUITE / f"{name}.litmus" for name in TESTS]
    r = weft("-q", "-macros", MINI, "-model", "sc", "-engine", "pop", *files)
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    assert set(blocks) == set(TESTS)
    for name in TESTS:
        assert blocks[name][0] == herd_block(name, "sc"), name


def test_symbolic_numbers_are_herds_not_program_orders():
    """The numbers the blocks pin are not those of a numbering in program
    order with every lock event reading its pointer (which gave 17, 18,
    22, 22, 22, 12, 13 and 11 here)."""
    want = {"LB+if-then-copies": [23], "LB+if-else-copies": [21], "LB+nested-ifs-copies": [33],
            "LB+unbraced-if-copies": [35], "LB+block-decl-if-copies": [35], "LB+while-copies": [26],
            "LB+locks-copies": [15], "LB+trylock-copies": [9, 13]}
    for name, ns in want.items():
        got = sorted({int(n) for n in re.findall(r"=S(\d+);", herd_block(name, "allow-all"))})
        assert got == ns, (name, got)


def test_sc_orders_a_statements_read_before_its_write(weft):
    """sc forbids the load-buffering cycle through WRITE_ONCE(*y,
    READ_ONCE(*x)) (herd: no symbolic state) and counts each increment's
    read before its write."""
    assert "=S" not in herd_block("LB+data-in-stmt", "sc")
    assert "Positive: 2 Negative: 2" in herd_block("INC+in-stmt", "sc")
    assert "Positive: 2 Negative: 2" in herd_block("INC+locked", "sc")
