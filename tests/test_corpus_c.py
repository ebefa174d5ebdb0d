"""weft against herd7 on the corpus's C tests (the Linux-kernel memory model's
tests), on all 1,557 tests with an expected file, with both engines:
  - sc, as herd7 was run for expected/sc/C (-conf linux-kernel.cfg -model
    sc.cat: the kernel's linux-kernel.def gives the primitives their
    meaning; here -macros names it and weft's sc.cat is the model);
  - lkmm, herd7's own command: -I herd-cat/7.58 -I herd-cat/7.58/lkmm
    -conf linux-kernel.cfg (macros, bell, model, variant lkmmv2).
Every block must be herd7's, but for the tests listed in KNOWN below (none
today), which the test checks stay exactly those.  The tests whose values
justify themselves through herd's value equations (C-OOTA's symbolic S8,
C-JO-OOTA-4's unsolved cycles, crypto-control-data's r1=1) give herd's
blocks since weft models those equations (src/engine/value_eqs.h).

The Hash= line is herd's too, on every test (KNOWN ones included: the
hash does not depend on the executions): herd hashes a C test as litmus7
reads it, each thread function printed "P0(int* x, ...) {<body as
written>}" (c_hash_form.c), so it is checked apart from the blocks, and
its count is printed.
Skips when ../shared/corpus is absent (conftest.py)."""
import collections
import subprocess

import pytest

from conftest import WEFT
from test_corpus import ENGINES, executions, expected_name, first_difference, split_blocks

# Tests weft gives no block for, and why (the error says so): none today.
REFUSED = {}

# model -> tests whose block differs from herd7's (see the docstring)
KNOWN = {
    "sc": set(),
    "lkmm": set(),
}


def model_args(corpus, model):
    lib = corpus / "herd-cat" / "7.58"
    if model == "sc":
        return ["-macros", str(lib / "lkmm" / "linux-kernel.def"), "-model", "sc"]
    return ["-I", str(lib), "-I", str(lib / "lkmm"), "-conf", "linux-kernel.cfg"]

BATCH = 400


def without_hash(block):
    return "".join(l for l in block.splitlines(keepends=True) if not l.startswith("Hash="))


def hash_line(block):
    return [l for l in block.splitlines() if l.startswith("Hash=")]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("model", ["sc", "lkmm"])
def test_c_corpus_agrees_with_herd(corpus, model, engine, capsys):
    if not WEFT.exists():
        pytest.fail(f"weft binary not found at {WEFT} (build first, or set WEFT)")
    exp_dir = corpus / "expected" / model / "C"
    cases = [(corpus / "tests" / "C" / e.name[: -len(".expected")], e)
             for e in sorted(exp_dir.glob("*.litmus.expected"))]
    if not cases:
        pytest.skip(f"no expected results for {model}/C")
    engine_args = [] if engine == "default" else ["-engine", engine]
    out, err = "", ""
    for i in range(0, len(cases), BATCH):
        p = subprocess.run([str(WEFT), "-q", "-j", "2", "-stats", *engine_args, *model_args(corpus, model),
                            "-timeout", "120", *[str(s) for s, _ in cases[i:i + BATCH]]],
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
            if name in KNOWN[model]:
                classes["agrees now: take it out of KNOWN"].append(name)
        elif name not in KNOWN[model]:
            classes[first_difference(without_hash(block), without_hash(want))].append(name)
        if hash_line(block) == hash_line(want):
            hash_agree += 1
        else:
            classes["Hash= differs from herd's"].append(name)
        st = stats.get(name)
        # complete counts executions as herd does, lock.cat's choices of
        # the lock writes' order included (several for one candidate)
        if st is not None and name not in KNOWN[model] and executions(want) is not None and \
           st["complete"] != executions(want):
            classes["complete != herd's Positive+Negative"].append(f"{name} ({st['complete']})")
    summary = [f"corpus {model}/C [{engine}]: {agree}/{len(cases)} blocks agree (Hash= aside), "
               f"{hash_agree} hashes agree, {len(refused)} refused"]
    for cls, names in sorted(classes.items()):
        summary.append(f"  {cls}: {len(names)} e.g. {', '.join(names[:5])}")
    with capsys.disabled():
        print("\n" + "\n".join(summary))
    assert not classes, "\n".join(summary)
    assert set(refused) == set(REFUSED), refused
    for name, construct in REFUSED.items():
        assert f"error: unsupported: {construct}" in refused[name], refused[name]
    assert agree == len(cases) - len(REFUSED) - len(KNOWN[model])
    assert hash_agree == len(cases) - len(REFUSED)
