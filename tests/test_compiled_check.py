"""The compiled check (src/cat/cat_prog.c): a model's checks run as a
program over bit matrices give the cat evaluator's blocks (weft -interpret),
say in -stats which candidates they left to the evaluator, and leave it
what they cannot express.  On the bundled suite under weft's models, on
models of our own (choices, let rec, functions of rf, different-values,
a procedure over rf) and, when ../shared is present, on a sample of the
corpus's C and AArch64 folders under herd's kernel model and aarch64.cat."""
import re

import pytest

from conftest import SRCDIR, CORPUS, result_blocks, run_weft

LITMUS = SRCDIR / "litmus"
HERDCAT = CORPUS / "herd-cat" / "7.58"


def blocks(*args):
    r = run_weft("-q", "-stats", "-engine", "enumerate", *args)
    assert r.returncode == 0, r.stderr
    return result_blocks(r.stdout)


def same_as_evaluator(*args):
    """Run with and without -interpret; the blocks must be the same.
    Returns the compiled run's Stats lines."""
    compiled = blocks(*args)
    interpreted = blocks("-interpret", *args)
    assert compiled.keys() == interpreted.keys()
    assert compiled, args
    for name in compiled:
        assert compiled[name][0] == interpreted[name][0], name
        # the evaluator's own run leaves nothing to the compiled check
        assert " interpreted " not in interpreted[name][1]
    return {name: stats for name, (_, stats) in compiled.items()}


def interpreted(stats):
    m = re.search(r" interpreted (\d+)$", stats)
    return int(m.group(1)) if m else 0


def candidates(stats):
    return int(re.search(r" candidates (\d+) ", stats).group(1))


@pytest.mark.parametrize("model", ["power", "sc"])
def test_ppc_suite(model):
    stats = same_as_evaluator("-model", model, str(LITMUS / "PPC"))
    assert all(interpreted(s) == 0 for s in stats.values())


def test_x86_suite():
    stats = same_as_evaluator("-model", "tso", str(LITMUS / "X86"))
    assert all(interpreted(s) == 0 for s in stats.values())


# A model of our own with what the compiled check must get right: a
# choice among relations (rf's own, or none), a let rec, a function of a
# value that depends on rf, different-values, a flag.
CHOOSER = """"chooser"
let pick-rf = { rf, 0 }
with r from pick-rf
let twice(x) = x ; x
let rec hb = po | r | fr | co | (hb ; hb)
acyclic hb as sc-ish
let dv = different-values(rf)
flag ~empty dv as rf-differs
flag ~empty twice(r & ext) as two-hops
"""

# A choice among static relations (the compiled check's evaluator keeps
# its set once per static part), then one among sets that read it, the
# same element bound again from candidate to candidate.
STATIC_CHOICE = """"static-choice"
let pick = { po-loc, po & (W * W), 0 }
with s from pick
with r from { rf, s }
acyclic s | r | co | fr as with-static
flag ~empty (r & s) as overlap
"""

# The same work through a procedure over rf: not compiled.
PROCEDURAL = """"procedural"
procedure no-cycle(r) =
  acyclic r
end
call no-cycle(po | rf | co | fr)
"""


def write_model(tmp_path, name, text):
    p = tmp_path / f"{name}.cat"
    p.write_text(text)
    return str(p)


def test_model_with_choices(tmp_path):
    model = write_model(tmp_path, "chooser", CHOOSER)
    stats = same_as_evaluator("-model", model, str(LITMUS / "PPC"), str(LITMUS / "X86"))
    assert all(interpreted(s) == 0 for s in stats.values())


def test_model_with_static_choices(tmp_path):
    model = write_model(tmp_path, "static-choice", STATIC_CHOICE)
    stats = same_as_evaluator("-model", model, str(LITMUS / "PPC"), str(LITMUS / "X86"))
    assert all(interpreted(s) == 0 for s in stats.values())
    # each candidate counts once per branch that passes: the choices ran
    assert any(int(re.search(r" complete (\d+) ", s).group(1)) > candidates(s) for s in stats.values())


def test_procedure_left_to_evaluator(tmp_path):
    model = write_model(tmp_path, "procedural", PROCEDURAL)
    stats = same_as_evaluator("-model", model, str(LITMUS / "X86"))
    # every candidate is the evaluator's, and -stats says so
    assert all(interpreted(s) == candidates(s) > 0 for s in stats.values())


def sample(folder, every):
    files = sorted((CORPUS / "tests" / folder).glob("*.litmus"))
    return [str(f) for f in files[::every]]


def test_corpus_c_lkmm(corpus):
    stats = same_as_evaluator("-I", str(HERDCAT), "-I", str(HERDCAT / "lkmm"), "-conf", "linux-kernel.cfg",
                              *sample("C", 25))
    assert sum(interpreted(s) for s in stats.values()) == 0


def test_corpus_aarch64(corpus):
    stats = same_as_evaluator("-I", str(HERDCAT), "-model", "aarch64.cat", *sample("AArch64", 25))
    total = sum(candidates(s) for s in stats.values())
    assert sum(interpreted(s) for s in stats.values()) < total // 10
