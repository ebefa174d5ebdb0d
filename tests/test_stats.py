"""-stats: one line of weft's own after each herd block, in the issue's format."""
import re

import pytest

from conftest import result_blocks


def test_stats_line_follows_each_block(weft, srcdir):
    r = weft("-stats", "-j", "1", srcdir / "litmus" / "PPC")
    assert r.returncode == 0, r.stderr
    blocks = [b for b in r.stdout.split("\n\n") if b.strip()]
    assert len(blocks) >= 30
    for b in blocks:
        lines = b.splitlines()
        name = lines[0].split()[1]
        assert lines[-2].startswith("Hash="), b
        m = re.fullmatch(r"Stats (\S+) complete (\d+) blocked (\d+) commits (\d+)"
                         r" candidates (\d+) forbidden (\d+) order (power|tso|sc)\(proven\)", lines[-1])
        assert m and m.group(1) == name, b
        # every candidate judged is complete, forbidden, or dropped by the filter or unroll limit
        assert int(m.group(5)) >= int(m.group(2)) + int(m.group(6)), b
        pos, neg = map(int, re.search(r"^Positive: (\d+) Negative: (\d+)$", b, re.M).groups())
        # every allowed execution counted once: complete = Positive + Negative
        assert int(m.group(2)) == pos + neg, b


def test_no_stats_line_by_default(weft, srcdir):
    r = weft(srcdir / "litmus" / "PPC" / "SB.litmus")
    assert r.returncode == 0 and "Stats" not in r.stdout


# A model that chooses: herd runs what follows `with X from S` once per
# element of S, and each run that passes is one execution of its count.
TWICE = '''"sc, each execution once per element of a two-element set"
with c from {po, rf}
acyclic po | rf | co | fr as sc
'''


def stats_of(line):
    words = line.split()
    return {words[i]: words[i + 1] for i in range(2, len(words) - 1, 2)}


def counts(block):
    return tuple(map(int, re.search(r"^Positive: (\d+) Negative: (\d+)$", block, re.M).groups()))


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_stats_count_each_choice_as_herd_does(weft, srcdir, tmp_path, engine):
    """SB has 4 candidates (each read from the initial write or the other
    thread's); sc forbids the one where both read 0, and the model counts
    each of the 3 others twice: complete is herd's 6 = Positive +
    Negative, allowed the 3 candidates, and the line says both."""
    model = tmp_path / "twice.cat"
    model.write_text(TWICE)
    r = weft("-stats", "-engine", engine, "-macros", srcdir / "tests" / "c" / "kernel-mini.def",
             "-model", model, srcdir / "tests" / "c" / "SB+mbs.litmus")
    assert r.returncode == 0, r.stderr
    body, line = result_blocks(r.stdout)["SB+mbs"]
    assert counts(body) == (0, 6), body
    st = stats_of(line)
    assert (st["complete"], st["allowed"], st["candidates"], st["forbidden"]) == ("6", "3", "4", "1"), line


def test_stats_count_lock_orders_under_lock_cat(weft, srcdir, corpus):
    """Under the kernel's model, lock.cat chooses the order of the lock
    writes (`with co from`): herd counts one execution per order of the
    three critical sections of MP+3-lockers, 3! = 6, and weft's engine
    builds fewer candidates, some allowed under several orders."""
    lib = corpus / "herd-cat" / "7.58"
    r = weft("-stats", "-I", lib, "-I", lib / "lkmm", "-conf", "linux-kernel.cfg",
             "-macros", srcdir / "tests" / "c" / "kernel-mini.def", srcdir / "tests" / "c" / "MP+3-lockers.litmus")
    assert r.returncode == 0, r.stderr
    body, line = result_blocks(r.stdout)["MP+3-lockers"]
    assert counts(body) == (0, 6) and "\nNo\n" in body, body
    st = {k: int(v) for k, v in stats_of(line).items() if v.isdigit()}
    assert st["complete"] == 6, line
    assert st["allowed"] < st["complete"], line
    assert st["candidates"] == st["allowed"] + st["forbidden"], line


def test_no_allowed_field_when_the_model_does_not_choose(weft, srcdir):
    r = weft("-stats", srcdir / "litmus" / "PPC" / "SB.litmus")
    assert r.returncode == 0 and " allowed " not in r.stdout, r.stdout
