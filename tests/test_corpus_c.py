"""weft against herd7 on the corpus's C tests (the Linux-kernel memory model's
tests): under sc, as herd7 was run for expected/sc/C (-conf linux-kernel.cfg
-model sc.cat: the kernel's linux-kernel.def gives the primitives their
meaning; here -macros names it and weft's sc.cat is the model), every block
must be herd7's, with both engines, on all 1,557 tests with an expected file
(a few seconds each).

One thing is not matched yet, and the test checks that it stays so, so
that a fix shows up as a failure to update it:
  - the Hash= line: herd7 hashes a C test from its source text (lib/
    CTestHash.ml), in a form weft has not reproduced, so blocks are compared
    without it and the number of equal hashes is printed (0 today).
The lkmm model needs the bell file (not read yet): not compared here.
Skips when ../shared/corpus is absent (conftest.py)."""
import collections
import subprocess

import pytest

from conftest import WEFT
from test_corpus import ENGINES, executions, expected_name, first_difference, split_blocks

# Tests weft gives no block for, and why (the error says so): none today.
REFUSED = {}

BATCH = 400


def without_hash(block):
    return "".join(l for l in block.splitlines(keepends=True) if not l.startswith("Hash="))


@pytest.mark.parametrize("engine", ENGINES)
def test_c_corpus_under_sc_agrees_with_herd(corpus, engine, capsys):
    if not WEFT.exists():
        pytest.fail(f"weft binary not found at {WEFT} (build first, or set WEFT)")
    exp_dir = corpus / "expected" / "sc" / "C"
    cases = [(corpus / "tests" / "C" / e.name[: -len(".expected")], e)
             for e in sorted(exp_dir.glob("*.litmus.expected"))]
    if not cases:
        pytest.skip("no expected results for sc/C")
    macros = corpus / "herd-cat" / "7.58" / "lkmm" / "linux-kernel.def"
    engine_args = [] if engine == "default" else ["-engine", engine]
    out, err = "", ""
    for i in range(0, len(cases), BATCH):
        p = subprocess.run([str(WEFT), "-q", "-j", "2", "-stats", *engine_args, "-macros", str(macros),
                            "-model", "sc", "-timeout", "120", *[str(s) for s, _ in cases[i:i + BATCH]]],
                           capture_output=True, text=True, timeout=3600)
        out += p.stdout
        err += p.stderr
    stats = {}
    got = split_blocks(out, stats)
    agree = hash_agree = 0
    classes = collections.defaultdict(list)
    refused = {}
    for src, exp in cases:
        want = exp.read_text()
        name = expected_name(want)
        block = got.get(name)
        if block is None:
            why = [l for l in err.splitlines() if src.name + ":" in l and "error" in l]
            refused[name] = why[0] if why else "(no message)"
            continue
        if without_hash(block) == without_hash(want):
            agree += 1
        else:
            classes[first_difference(block, want)].append(name)
        if [l for l in block.splitlines() if l.startswith("Hash=")] == \
           [l for l in want.splitlines() if l.startswith("Hash=")]:
            hash_agree += 1
        st = stats.get(name)
        if st is not None and executions(want) is not None and st["complete"] != executions(want):
            classes["complete != herd's Positive+Negative"].append(f"{name} ({st['complete']})")
    summary = [f"corpus sc/C [{engine}]: {agree}/{len(cases)} blocks agree (Hash= aside), "
               f"{hash_agree} hashes agree, {len(refused)} refused"]
    if hash_agree:
        classes["hashes agree now: update this test's docstring and assertion"].append(str(hash_agree))
    for cls, names in sorted(classes.items()):
        summary.append(f"  {cls}: {len(names)} e.g. {', '.join(names[:5])}")
    with capsys.disabled():
        print("\n" + "\n".join(summary))
    assert not classes, "\n".join(summary)
    assert set(refused) == set(REFUSED), refused
    for name, construct in REFUSED.items():
        assert f"error: unsupported: {construct}" in refused[name], refused[name]
    assert agree == len(cases) - len(REFUSED)
