"""An access through something that is not a location (issues 19 and 27),
in every front-end, against what herd7 7.58 does with the same test.

tests/nonloc/ holds our own tests, each with herd7's output beside it
(NAME.litmus.herd7, see tests/nonloc/README.md).  herd7 does one of two
things:
- the address is fixed by the test itself (an undeclared name, a register
  or C local never set, or set to an integer, a shared variable missing
  from P0(...)): herd rejects the test with a warning and prints no block.
  weft gives a located error at the instruction, naming the register and
  what it holds, with herd's own words on the same line, and exits 1;
- the address is read from memory (a pointer read from a location that
  holds an integer): herd drops those candidates and answers.  weft's
  block is herd's, and when no execution is left, weft says so where the
  access is, so that its 'Never 0 0' is never silent.
Both engines, the same answers."""
import pathlib
import re

import pytest

from conftest import SRCDIR, run_weft

NONLOC = SRCDIR / "tests" / "nonloc"

THROUGH = "memory access through an address that is not a location: "

# name -> (LINE:COL of the access, what weft's error says)
REFUSED = {
    "C-undecl": ("8:2", THROUGH + "'y' holds 0"),
    "C-undecl-w": ("7:2", THROUGH + "'y' holds 0"),
    "C-noparam": ("8:2", THROUGH + "'y' holds 0 ('y' is a location of the test, but not a parameter "
                         "of P0)"),
    "C-intptr": ("9:2", THROUGH + "'r' holds 1"),
    "C-unset": ("9:2", THROUGH + "'r' holds 0"),
    "C-initreg": ("8:2", THROUGH + "'r' holds 1"),
    "C-xchgundecl": ("8:2", THROUGH + "'y' holds 0"),
    "C-atomicundecl": ("7:2", THROUGH + "'v' holds 0"),
    "C-releaseundecl": ("8:2", THROUGH + "'y' holds 0"),
    "C-plainderef": ("8:2", THROUGH + "'y' holds 0"),
    "C-ctrlnull": ("13:2", THROUGH + "'q' holds 0"),
    "C-offset": ("8:2", THROUGH + "the address is x+1"),
    "ppc-unset": ("4:2", THROUGH + "'r2' holds 0"),
    "ppc-unset-w": ("5:2", THROUGH + "'r2' holds 0"),
    "ppc-int": ("4:2", THROUGH + "'r3' holds 1"),
    "x86-reg": ("4:2", THROUGH + "'EBX' holds 0"),
    "x64-unset": ("4:2", THROUGH + "'rax' holds 0"),
    "a64-unset": ("4:2", THROUGH + "'X1' holds 0"),
    "a64-int": ("4:2", THROUGH + "'X1' holds 1"),
    "rv-unset": ("4:2", THROUGH + "'x6' holds 0"),
    "ppc-arr": ("4:2", "access at byte offset 8 is outside array 'x' (2 cells of 4 bytes)"),
}

# herd7 answers these; weft refuses them, located, saying what herd does
# (weft has no location for an address that is none of the test's)
DIFFERS = {
    # herd7 locks a location [0] of its own for an undeclared lock name
    "C-lockundecl": ("7:2", "lock operation through an address that is not a location: 'l' holds 0 "
                            "(herd7 takes it as a lock of its own at '[0]'; weft does not)"),
    # herd7 takes x+4 as a location of its own (not mixed-size: no load)
    "ppc-offset": ("5:2", "the address is x+4 (herd7 takes x+4 as a location of its own; weft does not)"),
    # the same past an array's last cell
    "ppc-arr-w": ("5:2", "access at byte offset 8 is outside array 'x' (2 cells of 4 bytes) (herd7 takes "
                         "x+8 as a location of its own; weft does not)"),
}

# herd7 answers these with a block (an address read from memory, or a
# name herd makes a location or a register of); a test with no execution
# left gets the warning at LINE:COL (None: there are executions)
ANSWERED = {
    "C-locint": "10:2",
    "C-locint2": None,
    "C-plainundecl": None,
    "ppc-loaded": "5:2",
    "ppc-undecl": None,
    "x86-loaded": "5:2",
    "x86-undecl": None,
    "x64-undecl": None,
    "a64-loaded": "5:2",
    "rv-loaded": "5:2",
    "rv-undecl": None,
}

ENGINES = ["rsmc", "enumerate"]


def herd_output(name):
    return (NONLOC / f"{name}.litmus.herd7").read_text()


def block_lines(text):
    return [l for l in text.splitlines() if l and not l.startswith("Time ")]


def run(name, engine, *extra):
    # sc: weft's own model for every architecture, so that no test needs
    # ../shared; none of these answers depends on the model
    return run_weft("-q", "-engine", engine, "-model", "sc", *extra, NONLOC / f"{name}.litmus")


def test_every_case_is_listed_and_has_herds_output():
    tests = {p.name[:-len(".litmus")] for p in NONLOC.glob("*.litmus")}
    assert tests == set(REFUSED) | set(DIFFERS) | set(ANSWERED)
    for name in tests:
        out = herd_output(name)
        if name in REFUSED:
            assert out.startswith(f'Warning: File "{name}.litmus": ') and "Test " not in out, name
        else:
            assert block_lines(out)[0].startswith(f"Test {name} "), name


def refused_as_located_error(r, path, linecol, says):
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Test " not in r.stdout
    where = f"{path}:{linecol}: error: "
    lines = [l for l in r.stderr.splitlines() if l.startswith(where)]
    assert len(lines) == 1, r.stderr   # said once, not again by a second engine
    assert says in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_an_address_the_test_fixes_is_a_located_error_in_herds_words(weft, name, engine):
    linecol, says = REFUSED[name]
    r = run(name, engine)
    line = refused_as_located_error(r, NONLOC / f"{name}.litmus", linecol, says)
    # herd's own words for the case, on the same line (the kernel's
    # scripts grep herd's output)
    herd_words = re.match(r'Warning: File "[^"]*": (.*)', herd_output(name)).group(1).strip()
    assert f"(herd7: {herd_words})" in line


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(DIFFERS))
def test_where_herd_makes_a_location_of_its_own_weft_refuses_and_says_so(weft, name, engine):
    linecol, says = DIFFERS[name]
    assert "Observation" in herd_output(name)
    refused_as_located_error(run(name, engine), NONLOC / f"{name}.litmus", linecol, says)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("name", sorted(ANSWERED))
def test_an_address_read_from_memory_answers_as_herd_and_never_silently_empty(weft, name, engine):
    r = run(name, engine)
    assert r.returncode == 0, r.stderr
    assert block_lines(r.stdout) == block_lines(herd_output(name))
    path = NONLOC / f"{name}.litmus"
    empty = [l for l in r.stderr.splitlines() if "has no execution" in l]
    if ANSWERED[name] is None:
        assert not empty, r.stderr
    else:
        assert "States 0" in r.stdout
        assert empty == [f"{path}:{ANSWERED[name]}: warning: test {name} has no execution: candidates "
                         "access memory here through an address, read from memory, that is not a "
                         "location, and are dropped, as herd7 drops them; its empty result proves "
                         "nothing"], r.stderr


def test_the_kernels_model_refuses_and_answers_the_same(weft, corpus):
    """herd7's outputs were made under -conf linux-kernel.cfg: the C tests
    under the kernel's own model, when ../shared has it."""
    lib = corpus / "herd-cat" / "7.58"
    conf = ("-I", lib, "-conf", lib / "lkmm" / "linux-kernel.cfg")
    for name in sorted(n for n in REFUSED if n.startswith("C-")):
        r = run_weft("-q", *conf, NONLOC / f"{name}.litmus")
        refused_as_located_error(r, NONLOC / f"{name}.litmus", *REFUSED[name])
    for name in sorted(n for n in ANSWERED if n.startswith("C-")):
        r = run_weft("-q", *conf, NONLOC / f"{name}.litmus")
        assert r.returncode == 0, r.stderr
        assert block_lines(r.stdout) == block_lines(herd_output(name))
