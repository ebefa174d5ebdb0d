"""A cat model may name its own commit-before order for -engine rsmc
(RSMC.md): `let commit_before = <relation>`; src/engine/rsmc/cb_model.c.

The models are written into tmp_path and include weft's own models (found
through WEFT_CAT_PATH, set by conftest), so nothing is copied.  They are
not put under tests/cat/: every file there is a malformed-model fixture of
tests/unit/test_cat_errors.c.

- an order of the model's own, valid or deliberately odd, gives the result
  blocks of the enumerator and as many complete executions as it counts;
- the order is really used: each of our models' declarations, evaluated
  in cat, explores exactly as the built-in order rsmc recognises it as; a
  retitled copy of one of our models is the original; a title selects
  nothing; a cyclic order blocks, which is a warning and the enumerator's
  answer;
- a commit_before that is not a relation, or cannot be evaluated, is a
  located error and weft exits non-zero.
"""
import os
import re
from pathlib import Path

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


# weft's own models and the architectures of our suite they are for
OURS = [("power", "PPC"), ("tso", "X86"), ("sc", "PPC"), ("sc", "X86")]


def declaration(name):
    """The text of `let commit_before = ...` in cat/NAME.cat (to its end)."""
    text = (Path(os.environ["WEFT_CAT_PATH"]) / f"{name}.cat").read_text()
    i = text.index("let commit_before =")
    return text[i + len("let commit_before ="):].strip()


@pytest.mark.parametrize("base,arch", OURS)
def test_declared_order_is_its_builtin_twin(srcdir, tmp_path, weft, base, arch):
    """Each of our models declares its order in cat; rsmc recognises the
    declaration and computes it in C (cb.c's declared_orders).  The same
    relation written so that it is not recognised (`| 0` added) is
    evaluated by the model's own evaluator on every state: both explore
    exactly alike (complete, blocked and commit counts) wherever rsmc
    answers itself.  Both models are unproven copies, so neither filters
    commits by SC per location, and the recognised one leaves tests whose
    order may have a cycle to the enumerator (said by -stats)."""
    files = suite(srcdir, arch)
    decl = declaration(base)
    recognised = write_model(tmp_path, "c_order", f"{base}, its order in C", base, decl)
    evaluated = write_model(tmp_path, "cat_order", f"{base}, its order in cat", base, f"({decl}) | 0")
    in_c, pc = run("rsmc", recognised, files)
    in_cat, pe = run("rsmc", evaluated, files)
    assert pc.returncode == 0 and pe.returncode == 0, pc.stderr + pe.stderr
    assert set(in_c) == set(in_cat) == {f.stem for f in files}
    answered = 0
    for name, (body, stats) in in_c.items():
        assert f"order {base}" in stats and "(proven)" not in stats, stats
        assert "order declared" in in_cat[name][1], in_cat[name][1]
        if "fallback" in stats:
            continue
        answered += 1
        assert body == in_cat[name][0], name
        for word in ("complete", "blocked", "commits"):
            assert stat(stats, word) == stat(in_cat[name][1], word), (name, word, stats, in_cat[name][1])
    assert answered >= len(files) // 2, f"rsmc answered only {answered} of {len(files)} tests itself"


@pytest.mark.parametrize("base,arch", OURS)
def test_retitled_copy_is_the_original(srcdir, tmp_path, weft, base, arch):
    """A model means what it says, whatever its title or file name: a copy
    of one of our models under another title and file name gives the same
    blocks and the same Stats lines (same proven order, same commits)."""
    files = suite(srcdir, arch)
    text = (Path(os.environ["WEFT_CAT_PATH"]) / f"{base}.cat").read_text()
    first, rest = text.split("\n", 1)
    assert first.startswith('"'), first
    copy = tmp_path / "mine.cat"
    copy.write_text('"My own model"\n' + rest)
    original, _ = run("rsmc", base, files)
    mine, p = run("rsmc", copy, files)
    assert p.returncode == 0 and "note:" not in p.stderr, p.stderr
    assert mine == original
    assert all("(proven)" in stats for _, stats in mine.values())


def test_title_gives_no_order(srcdir, tmp_path, weft):
    """A model titled "SC" (or "Power") that is not sc.cat gets the generic
    order, not SC's: titles mean nothing."""
    sb = srcdir / "litmus" / "X86" / "SB.litmus"
    for title in ("SC", "Power", "TSO"):
        model = tmp_path / f"{title}.cat"
        model.write_text(f'"{title}"\nacyclic po-loc | rf | co | fr as uniproc\n')
        got, p = run("rsmc", model, [sb])
        assert p.returncode == 0, p.stderr
        assert "order generic" in got["SB"][1], got["SB"][1]


def test_cyclic_order_blocks_and_warns(srcdir, tmp_path, weft):
    """An order with a cycle between two accesses of one thread leaves no
    access enabled: the run blocks.  A blocked run means rsmc cannot vouch
    for its answer (some races were never seen), so a warning names the
    model and the test, -stats shows the blocked run, and the enumerator
    answers: the block is the enumerator's."""
    sb = srcdir / "litmus" / "X86" / "SB.litmus"
    model = write_model(tmp_path, "cyclic", "cyclic", "sc", "po | po^-1")
    got, p = run("rsmc", model, [sb])
    want, _ = run("enumerate", model, [sb])
    assert p.returncode == 0, p.stderr
    assert pos_neg(want["SB"][0]) > 0
    assert got["SB"][0] == want["SB"][0]
    assert stat(got["SB"][1], "blocked") >= 1
    assert got["SB"][1].endswith("order declared fallback enumerate"), got["SB"][1]
    warnings = [l for l in p.stderr.splitlines() if "warning:" in l]
    assert len(warnings) == 1, p.stderr
    assert "test SB" in warnings[0] and "'cyclic'" in warnings[0] and "commit_before" in warnings[0]


def test_invalid_order_is_trusted(srcdir, tmp_path, weft):
    """A declared order is its author's responsibility (man page): when it
    is invalid without ever blocking, the engine commits in it and does not
    second-guess it: po^-1 (invalid for SC: a load can only read committed writes, so on
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
    assert len(errors) == 1, p.stderr       # said once for the run, not once per test (issue 12)
    for name in ("SB", "MP"):              # each test stopped says so on its own line
        assert f"could not evaluate an execution of test {name}" in p.stderr, p.stderr
    for line in errors:
        m = re.match(re.escape(str(model)) + r":(\d+):(\d+): error: (.*)", line)
        assert m, line
        assert int(m.group(1)) == 3, line   # the line of the let
        if message:
            assert m.group(2) == "5" and m.group(3) == message, line
    # the enumerator never uses the binding
    p = run_weft("-engine", "enumerate", "-model", model, *files)
    assert p.returncode == 0, p.stderr


def test_order_cycle_goes_to_enumerate(srcdir, tmp_path, weft):
    """A model with no thin-air check allows LB+datas' execution in which
    each load reads the other thread's dependent store: a cycle of data and
    rf, which no commit order can build.  rsmc sees (cb_static.c) that the
    test could have such a cycle under the generic order and leaves it to
    the enumerator: 4 states, not the 3 rsmc could build; MP has no such
    cycle and rsmc answers it itself.  A suite run says so once, at the
    end (how many tests, which, why); -v says it at the test; a run of the
    test alone says nothing (-stats shows it)."""
    model = tmp_path / "uniproc-only.cat"
    model.write_text('"uniproc only"\nacyclic po-loc | rf | co | fr as uniproc\n')
    lb = srcdir / "litmus" / "PPC" / "LB+datas.litmus"
    mp = srcdir / "litmus" / "PPC" / "MP.litmus"
    got, p = run("rsmc", model, [lb, mp])
    want, _ = run("enumerate", model, [lb, mp])
    assert p.returncode == 0, p.stderr
    assert got["LB+datas"][0] == want["LB+datas"][0]
    assert "States 4" in got["LB+datas"][0]
    assert got["LB+datas"][1].endswith("order generic fallback enumerate"), got["LB+datas"][1]
    assert got["MP"][1].endswith("order generic"), got["MP"][1]
    # the suite run (without -q, which silences summaries)
    p = run_weft("-j", "2", "-model", model, lb, mp)
    notes = [l for l in p.stderr.splitlines() if ": note: " in l]
    assert len(notes) == 2, p.stderr
    assert notes[0] == ("weft: note: rsmc left 1 test under model 'uniproc-only' to the enumerator "
                        "(LB+datas): an execution may have a cycle in the commit-before order, "
                        "which rsmc cannot build"), p.stderr
    assert "-v names each test" in notes[1], p.stderr
    # alone, the test's output is herd's, stderr included (the kernel's
    # cmplitmushist.sh compares it whole): -stats says who answered
    p = run_weft("-model", model, lb)
    assert p.returncode == 0 and p.stderr == "", p.stderr
    assert run_weft("-model", model, "-stats", lb).stdout.count("fallback enumerate") == 1
    # the test named where it runs with -v, alone or not (then no summary)
    for args in (["-v", lb], ["-v", lb, mp]):
        p = run_weft("-model", model, *args)
        notes = [l for l in p.stderr.splitlines() if ": note: " in l]
        assert len(notes) == 1, p.stderr
        assert notes[0].startswith(f"{lb}: note: test LB+datas, model 'uniproc-only': "), p.stderr
        assert "cycle" in notes[0] and notes[0].endswith("the enumerator answers instead"), p.stderr
    # -q: nothing
    assert ": note: " not in run_weft("-q", "-model", model, lb, mp).stderr


def test_handover_summary_counts_and_does_not_depend_on_workers(srcdir, tmp_path, weft):
    """On a suite, the summary counts the tests -stats marks `fallback
    enumerate`, names the first five in input order, and is the same
    whatever the number of workers (tests of a batch finish at different
    times in different workers)."""
    model = tmp_path / "uniproc-only.cat"
    model.write_text('"uniproc only"\nacyclic po-loc | rf | co | fr as uniproc\n')
    # renamed copies of our own LB+datas (handed over) between our PPC tests
    lb = (srcdir / "litmus" / "PPC" / "LB+datas.litmus").read_text()
    assert lb.startswith("PPC LB+datas\n"), lb[:40]
    files = []
    for k, other in enumerate(suite(srcdir, "PPC")[:9]):
        copy = tmp_path / f"LB+datas-{k}.litmus"
        copy.write_text(lb.replace("PPC LB+datas\n", f"PPC LB+datas-{k}\n", 1))
        files += [other, copy]
    summaries = set()
    for jobs in ("1", "3"):
        p = run_weft("-j", jobs, "-stats", "-model", model, *files, timeout=TIMEOUT * 4)
        assert p.returncode == 0, p.stderr
        notes = [l for l in p.stderr.splitlines() if l.startswith("weft: note: rsmc left ")]
        summaries.add("\n".join(notes))
        got = blocks(p.stdout)
        handed = [name for name, (_, stats) in got.items() if stats.endswith("fallback enumerate")]
        assert len(handed) >= 9, handed     # more than a summary names
        assert len(notes) == 1, p.stderr    # one reason: the order may have a cycle
        want = (f"rsmc left {len(handed)} tests under model 'uniproc-only' to the enumerator "
                f"({', '.join(handed[:5])} and {len(handed) - 5} more): an execution may have "
                "a cycle")
        assert notes[0].startswith("weft: note: " + want), (notes[0], want)
    assert len(summaries) == 1, summaries
