"""herd7's mixed-size semantics (-variant mixed) on weft's own tests of
tests/mixed/, against the blocks herd7 7.58 prints for them, stored beside
each test as NAME.litmus.herd (see the folder's README.md): accesses of 1,
2, 4 and 8 bytes to parts of a location, a load's value its bytes
together, a store's cut into them, rf per byte with a write access giving
a read all the bytes of it the read has (but for smaller writes), co one
way between two write accesses, a store-exclusive of another size than
its load-exclusive never storing.  Both engines must print herd's block,
Hash= included (rsmc hands the tests to the enumerator).  And what weft
refuses under -variant mixed, located: an access off its granules or past
its location (herd: "Unaligned or out-of-bound access"), RISC-V's amoswap
(herd's other AMOs drop every execution that runs them under the variant:
RISCV-amoadd-dropped)."""
import pytest

from conftest import SRCDIR, assert_blocks_are_stored, result_blocks

SUITE = SRCDIR / "tests" / "mixed"


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_blocks_are_herds(weft, corpus, engine):
    assert_blocks_are_stored(weft, SUITE, "-I", corpus / "herd-cat" / "7.58", "-variant", "mixed", "-engine", engine, at_least=7)


def test_rsmc_hands_mixed_tests_over(weft):
    r = weft("-v", "-model", "sc", "-variant", "mixed", SUITE / "CoRW+byte-in-word.litmus")
    assert r.returncode == 0, r.stderr
    assert "herd's -variant mixed" in r.stderr


def test_values_are_bytes_together_under_sc(weft):
    """Without herd's models: a byte stored into a word is read back in
    place, and the word's bytes come from the writes that wrote them."""
    r = weft("-q", "-model", "sc", "-variant", "mixed", SUITE / "RISCV-word-byte-word.litmus",
             SUITE / "CoRW+byte-in-word.litmus")
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    assert "0:x4=1144232209; 1:x5=17459;" in blocks["RISCV-word-byte-word"][0]   # 0x44339911, 0x4433
    assert "0:X2=296366916; 1:X2=287454020; 1:X3=4522;" in blocks["CoRW+byte-in-word"][0]


def test_without_the_variant_the_test_mixes_sizes(weft):
    r = weft("-model", "sc", SUITE / "MP+dmb.sy+halves.litmus")
    assert r.returncode != 0
    assert "the address is x+1 (herd7: mixed-size test rejected (symbol [x+1]), consider option -variant mixed" in r.stderr


@pytest.mark.parametrize("arch,init,code,words", [
    ("AArch64", "uint32_t x; 0:X1=x;", "LDRH W0,[X1,#1]",
     "an access at byte offset 1 of 'x' is not aligned (herd7: Unaligned or out-of-bound access)"),
    ("AArch64", "uint32_t x; 0:X1=x;", "LDR X0,[X1]",
     "an access at byte offset 4 of 'x' reaches past its end"),
    ("RISCV", "uint32_t x; 0:x1=x; 0:x2=1;", "amoswap.w x3,x2,(x1)",
     "amoswap under herd's -variant mixed (herd leaves the value it reads unsolved and its write unread): "
     "not supported"),
])
def test_mixed_refusals_are_located(weft, tmp_path, arch, init, code, words):
    t = tmp_path / "U.litmus"
    t.write_text(f"{arch} U\n{{\n{init}\n}}\n P0 ;\n {code} ;\nexists (0:X0=0)\n".replace(
        "0:X0", "0:x3" if arch == "RISCV" else "0:X0"))
    r = weft("-model", "sc", "-variant", "mixed", t)
    assert r.returncode != 0
    assert f"{t}:6:2: error: {words}" in r.stderr, r.stderr


@pytest.mark.parametrize("args,words", [
    (["-engine", "bmc"], "the bmc engine does not run tests under herd's -variant mixed"),
    (["-i"], "the interactive session cannot run a test under herd's -variant mixed"),
])
def test_bmc_and_the_session_refuse_mixed_tests(weft, args, words):
    r = weft("-model", "sc", "-variant", "mixed", *args, SUITE / "CoRW+byte-in-word.litmus", input="")
    assert r.returncode != 0
    assert words in r.stderr, r.stderr
