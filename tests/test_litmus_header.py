"""What lies between a test's header line and its init block, read as herd7's
splitter reads it (issue 27).

herd reads that part piece by piece: a piece starts a line (or follows the
header, or a comment) and is a `key=value` line, a `(*` that ends its line
(a comment, nested, that must close), the init block's `{`, or else text up
to the end of the line or a `{`, skipped.  So a `(* note` that goes on along
its line is text and may stay open (two corpus RISC-V tests, which herd7
runs), an indented `(*` or key line is text, a second doc string or words
after the test name are text; while a `{` on such a line opens the init
block and a key line inside a comment over lines counts.

tests/header/ holds tests of our own that herd7 answers, each with the block
herd7 7.58 printed for it under `-model sc.cat` (NAME.litmus.expected, Time
line removed); the refusals herd7 shares are in tests/malformed/ (EXPECT).
"""
import pathlib

import pytest

from conftest import SRCDIR, result_blocks

HEADER = SRCDIR / "tests" / "header"

# test name -> the warning weft gives about skipped text, or None
WARNINGS = {
    "MP+unclosed-note": None,
    "SB+indented-note": None,
    "MP+header-text": None,
    "S+brace-in-comment": None,
    "LB+two-docs": "2:1: warning: ignoring unrecognised text before the init block",
    "R+indented-key": "2:3: warning: ignoring unrecognised text before the init block",
    # a doc string over two lines, as herd's own RISC-V mixed-size tests
    # write them: no warning (herd's splitter reads up to the next quote)
    "SB+doc-over-lines": None,
}


def test_every_header_test_is_listed():
    assert {p.stem for p in HEADER.glob("*.litmus")} == set(WARNINGS)


@pytest.mark.parametrize("name", sorted(WARNINGS))
def test_weft_prints_herds_block(weft, name):
    path = HEADER / f"{name}.litmus"
    r = weft("-q", "-model", "sc", path)
    assert r.returncode == 0, r.stderr
    want = (HEADER / f"{name}.litmus.expected").read_text()
    assert result_blocks(r.stdout)[name][0] + "\n\n" == want
    warning = WARNINGS[name]
    if warning:
        assert f"{path}:{warning}" in r.stderr
    else:
        assert "warning" not in r.stderr, r.stderr


def test_unclosed_note_keeps_the_hash_of_the_init_block(weft, tmp_path):
    """The hash reads the init block where the parser found it: closing the
    note changes nothing, and herd's hash is the same for both files."""
    src = (HEADER / "MP+unclosed-note.litmus").read_text()
    closed = tmp_path / "MP+unclosed-note.litmus"
    closed.write_text(src.replace("read as usual: herd7 answers, and so must weft",
                                  "read as usual: herd7 answers, and so must weft *)"))
    assert closed.read_text() != src
    hashes = []
    for path in (HEADER / "MP+unclosed-note.litmus", closed):
        r = weft("-q", "-model", "sc", path)
        assert r.returncode == 0, r.stderr
        hashes.append(result_blocks(r.stdout)["MP+unclosed-note"][0].splitlines()[-1])
    assert hashes[0] == hashes[1] and hashes[0].startswith("Hash=")


def test_a_brace_on_a_comment_line_is_pointed_at(weft):
    path = SRCDIR / "tests" / "malformed" / "brace-in-header-comment.litmus"
    r = weft("-q", path)
    assert r.returncode != 0
    assert f"{path}:2:12: warning: this '{{' opens the init block" in r.stderr


@pytest.mark.parametrize("text,where", [
    ("PPC T\n(*\n", "2:1"),                     # a comment that ends its line must close
    ("PPC T (*\n{}\n", "1:7"),                  # on the header line too
    ("PPC T\n(*{}\n", "2:1"),                   # and when a brace follows it
])
def test_a_comment_opened_at_the_end_of_a_line_must_close(weft, tmp_path, text, where):
    path = tmp_path / "t.litmus"
    path.write_text(text)
    r = weft("-q", path)
    assert r.returncode != 0
    assert f"{path}:{where}: error: unterminated comment" in r.stderr
