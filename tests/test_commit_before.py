"""A cat model may name its own commit-before order for -engine rsmc
(RSMC.md): `let commit_before = <relation>`; src/engine/cb_model.c.

The models are written into tmp_path and include weft's own models (found
through WEFT_CAT_PATH, set by conftest), so nothing is copied.  They are
not put under tests/cat/: every file there is a malformed-model fixture of
tests/unit/test_cat_errors.c.

- an order of the model's own, valid or deliberately odd, gives the result
  blocks of the enumerator and as many complete executions as it counts;
- the order is really used: `po | rf` reproduces the statistics of the
  built-in SC order exactly, a cyclic order blocks every run, and a model
  whose name would select a built-in order still gets its own;
- a commit_before that is not a relation, or cannot be evaluated, is a
  located error and weft exits non-zero.
"""
import re

import pytest

from conftest import result_blocks, run_weft

TIMEOUT = 60


blocks = result_blocks


def stat(line, word):
    words = line.split()
    return int(words[words.index(word) + 1])


def pos_neg(body):
    m = re.search(r"^Positive: (\d+) Negative: (\d+)$", body, re.M)
    assert m, body
    return int(m.group(1)) + int(m.group(2))


def write_model(tmp_path, name, title, base, order):
    """A model: `base` (one of weft's models) plus, unless order is None,
    `let commit_before = order`."""
    text = f'"{title}"\ninclude "{base}.cat"\n'
    if order is not None:
        text += f"let commit_before = {order}\n"
    path = tmp_path / f"{name}.cat"
    path.write_text(text)
    return path


def run(engine, model, files):
    p = run_weft("-q", "-j", "1", "-stats", "-engine", engine, "-model", model,
                 "-timeout", TIMEOUT, *files, timeout=TIMEOUT * (len(files) + 2))
    return blocks(p.stdout), p


def suite(srcdir, arch):
    files = sorted((srcdir / "litmus" / arch).glob("*.litmus"))
    assert files, f"no tests in litmus/{arch}"
    return files


# (base model, order, architectures): orders a user might write, and odd ones
ORDERS = [
    ("sc", "po | rf", ["PPC", "X86"]),
    ("sc", "0", ["PPC", "X86"]),          # cb0: only the structural pairs
    ("sc", "[R]; po; [W]", ["PPC", "X86"]),
    ("tso", "0", ["X86"]),
    ("tso", "po-loc | addr;po", ["X86"]),
    ("power", "0", ["PPC"]),
    ("power", "po-loc | addr;po | [W];po;[W]", ["PPC"]),
]


@pytest.mark.parametrize("base,order,arch",
                         [(b, o, a) for b, o, archs in ORDERS for a in archs])
def test_agrees_with_enumerate(srcdir, tmp_path, weft, base, order, arch):
    model = write_model(tmp_path, "own", f"{base} with an order of its own", base, order)
    files = suite(srcdir, arch)
    got, pr = run("rsmc", model, files)
    want, pe = run("enumerate", model, files)
    assert pr.returncode == 0, pr.stderr
    assert pe.returncode == 0, pe.stderr
    assert len(want) == len(files) and set(got) == set(want)
    for name, (wbody, _) in want.items():
        gbody, gstats = got[name]
        assert gbody == wbody, f"{name}: commit_before = {order}\n--- rsmc\n{gbody}\n--- enumerate\n{wbody}"
        assert gstats, f"{name}: no Stats line"
        assert stat(gstats, "complete") == pos_neg(wbody), f"{name}: {gstats}"


@pytest.mark.parametrize("arch", ["PPC", "X86"])
def test_po_rf_is_the_sc_order(srcdir, tmp_path, weft, arch):
    """`po | rf` is the built-in SC order (cb.c's CB_SC): the same complete
    and blocked runs.  The commit counts are not compared with the built-in
    order's: under a model of its own weft cannot know that the model checks
    SC per location, so it does not filter commits that break it, and
    Explore's checks are deferred to the end of a run, so such commits are
    followed (and counted) until the run is judged.  Between two models of
    their own, both unfiltered, the order shows: the generic order (no
    binding) explores differently from `po | rf` somewhere."""
    files = suite(srcdir, arch)
    own = write_model(tmp_path, "own", "SC by its own order", "sc", "po | rf")
    none = write_model(tmp_path, "none", "SC without an order", "sc", None)
    builtin, _ = run("rsmc", "sc", files)
    mine, _ = run("rsmc", own, files)
    generic, _ = run("rsmc", none, files)
    assert set(builtin) == set(mine) == set(generic)
    for name in builtin:
        for word in ("complete", "blocked"):
            assert stat(mine[name][1], word) == stat(builtin[name][1], word), (name, word)
    assert any(stat(generic[n][1], "commits") != stat(mine[n][1], "commits") for n in builtin), \
        "the generic order explored exactly as po | rf on every test"


def test_model_order_takes_precedence(srcdir, tmp_path, weft):
    """A model titled "SC" gets the built-in SC order by its name, unless it
    binds commit_before: with cb0 it commits LB's events in another order."""
    lb = srcdir / "litmus" / "X86" / "LB.litmus"
    named = write_model(tmp_path, "named", "SC", "sc", None)
    own = write_model(tmp_path, "own", "SC", "sc", "0")
    builtin, _ = run("rsmc", "sc", [lb])
    by_name, _ = run("rsmc", named, [lb])
    by_let, _ = run("rsmc", own, [lb])
    assert by_name["LB"][1] == builtin["LB"][1]
    assert by_let["LB"][0] == builtin["LB"][0]
    assert stat(by_let["LB"][1], "commits") != stat(builtin["LB"][1], "commits")


def test_cyclic_order_blocks_every_run(srcdir, tmp_path, weft):
    """An order with a cycle between two accesses of one thread leaves no
    access enabled: the run is blocked and no execution is complete, where
    the enumerator finds 4."""
    sb = srcdir / "litmus" / "X86" / "SB.litmus"
    model = write_model(tmp_path, "cyclic", "cyclic", "sc", "po | po^-1")
    got, p = run("rsmc", model, [sb])
    want, _ = run("enumerate", model, [sb])
    assert p.returncode == 0, p.stderr
    assert pos_neg(want["SB"][0]) > 0
    assert stat(got["SB"][1], "complete") == 0
    assert stat(got["SB"][1], "blocked") >= 1
    assert "States 0" in got["SB"][0]


def test_invalid_order_is_trusted(srcdir, tmp_path, weft):
    """The engine commits in the model's order and does not second-guess
    it: po^-1 (invalid for SC: a load can only read committed writes, so on
    CoWR it can no longer read its own thread's earlier write) loses every
    execution of CoWR, where po | rf finds them all.  (Whether the lost runs
    count as blocked depends on when the engine sees them fail: not
    asserted.)"""
    cowr = srcdir / "litmus" / "X86" / "CoWR.litmus"
    bad = write_model(tmp_path, "backwards", "backwards", "sc", "po^-1")
    good = write_model(tmp_path, "forwards", "forwards", "sc", "po | rf")
    got, _ = run("rsmc", bad, [cowr])
    want, _ = run("rsmc", good, [cowr])
    assert stat(want["CoWR"][1], "complete") == pos_neg(want["CoWR"][0]) > 0
    assert stat(got["CoWR"][1], "complete") == 0
    assert "States 0" in got["CoWR"][0]


@pytest.mark.parametrize("order,message", [
    ("W", "'commit_before' is an event set, not a relation"),
    ("fun x -> x", "'commit_before' is a function, not a relation"),
    ("W; po", None),          # a set in a sequence: an evaluation error
    # a relation on the first state (rf is empty there), a set once a load
    # has committed: found in the middle of the run, still reported once
    ("match range(rf) with {} -> po || x ++ s -> W end",
     "'commit_before' is an event set, not a relation"),
])
def test_not_a_relation(srcdir, tmp_path, weft, order, message):
    model = write_model(tmp_path, "bad", "bad order", "sc", order)
    files = [srcdir / "litmus" / "X86" / "SB.litmus", srcdir / "litmus" / "X86" / "MP.litmus"]
    p = run_weft("-engine", "rsmc", "-model", model, *files)
    assert p.returncode != 0
    assert "Test SB" not in p.stdout and "Test MP" not in p.stdout
    errors = [l for l in p.stderr.splitlines() if f"{model}:" in l and ": error: " in l]
    assert len(errors) == 2, p.stderr       # one per test, and only one
    for line in errors:
        m = re.match(re.escape(str(model)) + r":(\d+):(\d+): error: (.*)", line)
        assert m, line
        assert int(m.group(1)) == 3, line   # the line of the let
        if message:
            assert m.group(2) == "5" and m.group(3) == message, line
    # the enumerator never uses the binding
    p = run_weft("-engine", "enumerate", "-model", model, *files)
    assert p.returncode == 0, p.stderr
