"""Why, under a catdep model (herd's aarch64.cat, read from the corpus's
herd-cat/7.58): -explain prints the failing check's cycle, checked edge by
edge, and weft -i runs, its verdicts those of the enumerator.  The
dependency relations such a model reads are the ones the engines compute
(man weft, HERD'S DEPENDENCY RELATIONS); -explain and the session see the
same.  Skips when ../shared/corpus is absent (conftest.py)."""
import re

import pytest

from conftest import run_weft
from test_explain import check_cycle, explanations
from test_interactive import closest_failing, goto_answer


@pytest.fixture(scope="module")
def aarch64_cat(corpus):
    """The model arguments for herd's aarch64.cat."""
    return ["-I", str(corpus / "herd-cat" / "7.58"), "-model", "aarch64.cat"]


def corpus_aarch64(corpus):
    return corpus / "tests" / "AArch64"


def session(model_args, path, commands):
    r = run_weft("-i", *model_args, path, input="".join(c + "\n" for c in commands) + "quit\n", timeout=300)
    assert r.returncode == 0, r.stderr
    assert "internal error" not in r.stdout, r.stdout
    return r.stdout


# ---- -explain ----------------------------------------------------------------------------

def test_explain_prints_the_external_cycle_of_mp_dmb_sys(corpus, aarch64_cat):
    """MP+dmb.sys is forbidden by aarch64.cat's `irreflexive ob as
    external`: ob is a let rec closed by ob;ob, and its cycle is told as
    edges of its other operands (bob across each dmb, Exp-obs's rfe, fre)."""
    r = run_weft("-q", "-explain", *aarch64_cat, corpus_aarch64(corpus) / "MP+dmb.sys.litmus")
    assert r.returncode == 0, r.stderr
    [(name, model, outcome, f)] = explanations(r.stdout)
    assert (name, model, outcome) == ("MP+dmb.sys", "aarch64", "forbidden")
    assert f["Failing checks"] == "external"
    names, edges = check_cycle(f)
    labels = [lab for e in edges for lab in e]
    assert "rfe" in labels and "fre" in labels and "po" in labels
    assert ":bob-" in f["Cycle"]
    # the cycle goes through both threads' accesses
    assert len({n for n in names if n != names[0]}) >= 3


def test_explain_tells_a_dependency_edge_by_herds_relation(srcdir, aarch64_cat):
    """MP+dmb.sy+addr (our own): the forbidden outcome's cycle crosses P1
    by herd's addr, the relation aarch64deps.cat defines from register
    events."""
    r = run_weft("-q", "-explain", *aarch64_cat, srcdir / "tests" / "aarch64" / "MP+dmb.sy+addr.litmus")
    assert r.returncode == 0, r.stderr
    [(_, _, outcome, f)] = explanations(r.stdout)
    assert outcome == "forbidden"
    names, edges = check_cycle(f)
    assert re.search(r"-po(,[a-z.]+)*:addr->|-po(,[a-z.]+)*,addr(:[^ ]+)?->", f["Cycle"]), f["Cycle"]


def test_corpus_sample_explanations_under_aarch64_cat_check_out(corpus, aarch64_cat):
    """Every forbidden outcome of a sample of the corpus's AArch64 tests has
    a cycle (or path) whose every edge holds in the execution printed."""
    files = sorted(corpus_aarch64(corpus).glob("*.litmus"))[::37]
    r = run_weft("-q", "-j", "2", "-timeout", "30", "-explain", *aarch64_cat, *files)
    assert r.returncode == 0, r.stderr[-2000:]
    ex = explanations(r.stdout)
    assert len(ex) == len(files)
    cycles = 0
    for name, model, outcome, f in ex:
        if outcome == "forbidden" and "Failing checks" in f:
            assert "Cycle" in f or "Path" in f, (name, f)
            check_cycle(f, closed="Cycle" in f)
            cycles += 1
    assert cycles >= len(files) // 4


# ---- weft -i ------------------------------------------------------------------------------

def test_a_session_under_aarch64_cat_reaches_an_allowed_and_a_forbidden_state(corpus, aarch64_cat):
    path = corpus_aarch64(corpus) / "MP+dmb.sys.litmus"
    out = session(aarch64_cat, path, ["goto", "goto 1:X0=1 /\\ 1:X2=1"])
    assert out.startswith("weft -i: MP+dmb.sys under aarch64.cat;"), out
    assert goto_answer(out) == "forbidden"
    assert "external" in closest_failing(out)
    assert re.search(r"^  external: cycle a: W x=1 \(P0\) .*-rfe[^ ]*-> .*-fre-> a: W x=1 \(P0\)$", out, re.M), out
    assert "reached: an allowed execution ends in that state" in out
    assert "State: 1:X0=1; 1:X2=1;" in out
    # step by step: the read of x=0 after the flag is refused by external
    out = session(aarch64_cat, path, ["commit c i(y)", "commit d c", "commit a i(x)", "commit f i(x)",
                                      "commit f a", "checks"])
    assert re.search(r"^refused: f: R x \(P1\) reads i\(x\) is forbidden by external$", out, re.M), out
    assert "committed f a" in out
    assert re.search(r"^  external: holds", out, re.M), out


def expected_outcomes(corpus, aarch64_cat, files):
    """Per test name: whether the enumerator's run allows the condition's
    proposition (Positive > 0) -- the tests all say `exists`."""
    r = run_weft("-q", "-j", "2", "-engine", "enumerate", *aarch64_cat, *files)
    assert r.returncode == 0, r.stderr[-2000:]
    return {m.group(1): int(m.group(2)) > 0
            for m in re.finditer(r"^Observation (\S+) \S+ (\d+) \d+$", r.stdout, re.M)}


def test_session_goto_agrees_with_the_enumerator_on_dependency_tests(corpus, aarch64_cat):
    """goto of each test's condition is reached exactly when the enumerator
    allows it, on corpus tests whose outcome depends on herd's addr, data,
    ctrl and their pick forms (the session computes them as it fetches)."""
    files = [f for f in sorted(corpus_aarch64(corpus).glob("*.litmus"))
             if re.search(r"(addr|data|ctrl|csel)", f.name) and "exists" in f.read_text()][::29]
    assert len(files) >= 10
    allowed = expected_outcomes(corpus, aarch64_cat, files)
    both = 0
    for f in files:
        name = re.search(r"^AArch64 (\S+)", f.read_text(), re.M).group(1)
        out = session(aarch64_cat, f, ["goto"])
        if "cannot" in out.splitlines()[0] or "stops: an instruction with variants" in out:
            continue
        answer = goto_answer(out)
        assert (answer == "reached") == allowed[name], (name, out)
        both += answer in ("reached", "forbidden")
    assert both >= len(files) // 2


def test_a_catdep_model_on_another_architecture_is_refused_by_the_session(tmp_path, srcdir):
    model = tmp_path / "deps.cat"
    model.write_text("catdep\nlet data = [R]; rf-reg; [W]\nacyclic po | rf | data as x\n")
    r = run_weft("-i", "-model", model, srcdir / "litmus" / "PPC" / "MP+lwsync+addr.litmus", input="quit\n")
    assert r.returncode != 0
    assert "computes herd's dependencies (catdep), which weft tracks on AArch64 tests only, not on " \
           "this PPC test" in r.stderr
