"""AArch64's byte, halfword and sign-extending accesses (tests/aarch64-subword/)
against the blocks herd7 7.58 prints for them under its aarch64.cat, stored
beside each test as NAME.litmus.herd (see the folder's README.md): a load
gives its register the bytes read, zero- or sign-extended, a store writes
the low bytes of its register, CASB compares the low byte of Rs, and herd's
hash spells register-indexed addresses as it prints them.  Both engines must
print herd's block, Hash= included.  And what weft refuses: accesses of
different sizes to one location (herd: "Illegal mixed-size test"), and
under -variant mixed (tests/test_mixed.py) an access off herd's granules."""
import pytest

from conftest import SRCDIR, assert_blocks_are_stored, result_blocks

SUITE = SRCDIR / "tests" / "aarch64-subword"


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_blocks_are_herds(weft, corpus, engine):
    assert_blocks_are_stored(weft, SUITE, "-I", corpus / "herd-cat" / "7.58", "-model", "aarch64.cat", "-engine", engine, at_least=7)


def test_values_are_the_bytes_read_and_written(weft):
    """The values themselves, under sc (no corpus needed): what each
    forall of the suite states holds, not only herd's block."""
    r = weft("-q", "-model", "sc", SUITE / "Subword-loads.litmus", SUITE / "Subword-stores.litmus",
             SUITE / "Atomics-bytes.litmus")
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    assert "0:X5=254; 0:X6=-2; 0:X7=4294967294; 0:X8=65236; 0:X9=-300;" in blocks["Subword-loads"][0]
    assert "[x]=255; [y]=9029; [z]=65535;" in blocks["Subword-stores"][0]
    assert "0:X8=7; 0:X10=1; 0:X11=65535; [a]=255; [b]=1; [c]=17; [d]=34;" in blocks["Atomics-bytes"][0]


MP = ("AArch64 T\n{\n0:X1=x; 1:X1=x;\n}\n P0 | P1 ;\n {p0} | MOV W2,#1 ;\n | {p1} ;\n"
      "exists (0:X0=1)\n")


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
@pytest.mark.parametrize("p0,p1,variant,where,words", [
    # herd checks that accesses to one location have one size
    ("LDRB W0,[X1]", "STRH W2,[X1]", None, "7:4",
     "an access of 2 bytes to 'x', which another access reaches with 1, mixes sizes"),
    ("LDR W0,[X1]", "STR X2,[X1]", None, "7:4",
     "an access of 8 bytes to 'x', which another access reaches with 4, mixes sizes"),
    # under -variant mixed, an access where herd's has none
    ("LDRH W0,[X1,#1]", "STRB W2,[X1]", "mixed", "6:2",
     "an access at byte offset 1 of 'x' is not aligned"),
])
def test_mixed_sizes_are_refused_where_they_happen(weft, tmp_path, engine, p0, p1, variant, where, words):
    t = tmp_path / "T.litmus"
    t.write_text(MP.replace("{p0}", p0).replace("{p1}", p1))
    args = ["-model", "sc", "-engine", engine] + (["-variant", variant] if variant else []) + [t]
    r = weft(*args)
    assert r.returncode != 0
    assert f"{t}:{where}: error: {words}" in r.stderr, r.stderr
