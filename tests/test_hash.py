"""herd's Hash= of our own tests (tests/hash/): each NAME.litmus has beside
it NAME.litmus.expected, the block herd7 7.58 prints for it under the
architecture's herd model (herd_model below; made by running herd7,
`Time` line removed).

The hash is the model's business of no model: weft's Hash= line must be
herd's under any model, so it is checked under sc without the corpus;
with ../shared present, the whole block under herd's own model too.

What the tests pin (each checked against herd7, not worked out):
  H-dic        CacheType enters the hash (herd's info digest, as MemoryType)
  H-dic-blank  ... with its value as written: 'IDC  ' with its trailing blanks
  H-dic-crlf   ... but not a CRLF line's CR
  H-nop        `nop` is herd's NOP; an untyped instruction value is ins_t
  H-mixed      label values of both threads (not renamed, unlike the code's
               labels), instructions with blanks, typed data
  H-typed-instr  an instruction value typed `int` is ins_t all the same
  H-spellings  PPC: integers as written (0x10, -1, 0X1f), P1:r2 as 1:r2, a
               typed pointer register set to &z, a bare declaration
  H-c-init     C: `int *p = &x`, ATOMIC_INIT(2), hex, `int z`
  H-nop-label  a label after a NOP (which makes no event) stays after it;
               two labels on one instruction, one at the end"""
import pytest

from conftest import SRCDIR, result_blocks

HASH = SRCDIR / "tests" / "hash"
TESTS = sorted(HASH.glob("*.litmus"))


def herd_model(arch, corpus):
    """The model herd7 ran to make an architecture's expected blocks, as
    weft's arguments."""
    cat = corpus / "herd-cat"
    lkmm = cat / "7.58" / "lkmm"
    return {"AArch64": ["-I", cat / "7.58", "-model", "aarch64.cat"],
            "PPC": ["-I", cat, "-model", "ppc.cat"],
            "C": ["-I", cat / "7.58", "-I", lkmm, "-conf", lkmm / "linux-kernel.cfg"]}[arch]


def expected(t):
    return (t.parent / (t.name + ".expected")).read_text()


def arch(t):
    return t.read_text().split(None, 1)[0]


def hash_line(block):
    return next(l for l in block.splitlines() if l.startswith("Hash="))


def test_every_test_has_herds_block():
    assert TESTS
    for t in TESTS:
        assert hash_line(expected(t)), t
        assert arch(t) in ("AArch64", "PPC", "C"), t


def test_hash_is_herds_under_any_model(weft):
    r = weft("-model", "sc", *TESTS)
    assert r.returncode == 0, r.stderr
    got = result_blocks(r.stdout)
    for t in TESTS:
        name = t.name[:-len(".litmus")]
        assert hash_line(got[name][0]) == hash_line(expected(t)), t.name


@pytest.mark.parametrize("t", TESTS, ids=lambda t: t.name)
def test_block_is_herds_under_herds_model(weft, corpus, t):
    r = weft(*herd_model(arch(t), corpus), t)
    assert r.returncode == 0, r.stderr
    (body, _), = result_blocks(r.stdout).values()
    assert body + "\n\n" == expected(t), t.name
