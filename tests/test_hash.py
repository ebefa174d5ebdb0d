"""herd's Hash= of our own tests (tests/hash/): each NAME.litmus has beside
it NAME.litmus.expected, the block herd7 7.58 prints for it under the
architecture's herd model (made by running herd7, `Time` line removed).

The hash is the model's business of no model: weft's Hash= line must be
herd's under any model, so it is checked under sc without the corpus;
with ../shared present, the whole block under herd's own model too.

What the tests pin (each checked against herd7, not worked out):
  H-dic        CacheType enters the hash (herd's info digest, as MemoryType)
  H-dic-blank  ... with its value as written: 'IDC  ' with its trailing blanks
  H-dic-crlf   ... but not a CRLF line's CR
  H-nop        `nop` is herd's NOP; an untyped instruction value is ins_t
  H-mixed      label values of both threads (not renamed, unlike the code's
               labels), instructions with blanks, typed data"""
import pytest

from conftest import SRCDIR, result_blocks

HASH = SRCDIR / "tests" / "hash"
TESTS = sorted(HASH.glob("*.litmus"))
# the model herd7 ran to make each architecture's expected blocks
HERD_MODEL = {"AArch64": "aarch64.cat"}


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
        assert arch(t) in HERD_MODEL, t


def test_hash_is_herds_under_any_model(weft):
    r = weft("-model", "sc", *TESTS)
    assert r.returncode == 0, r.stderr
    got = result_blocks(r.stdout)
    for t in TESTS:
        name = t.name[:-len(".litmus")]
        assert hash_line(got[name][0]) == hash_line(expected(t)), t.name


@pytest.mark.parametrize("t", TESTS, ids=lambda t: t.name)
def test_block_is_herds_under_herds_model(weft, corpus, t):
    r = weft("-I", corpus / "herd-cat" / "7.58", "-model", HERD_MODEL[arch(t)], t)
    assert r.returncode == 0, r.stderr
    (body, _), = result_blocks(r.stdout).values()
    assert body + "\n\n" == expected(t), t.name
