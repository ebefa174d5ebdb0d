"""Why, under a catdep model (herd's aarch64.cat, read from the corpus's
herd-cat/7.58): -explain prints the failing check's cycle, checked edge by
edge (a corpus sample: test_explain.py), weft -i runs, its verdicts those
of the enumerator, and rsmc runs it itself.  The
dependency relations such a model reads are the ones the engines compute
(man weft, HERD'S DEPENDENCY RELATIONS); -explain and the session see the
same.  Skips when ../shared/corpus is absent (conftest.py)."""
import re

import pytest

from conftest import assert_blocks_are_stored, result_blocks, run_weft
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


def test_a_session_waits_for_a_store_exclusive_before_a_read_of_its_location(srcdir, aarch64_cat):
    """LDXR-STXR-LDR (tests/catdep): what the read of x after the
    store-exclusive depends on through memory (herd's lrs) is known once the
    store-exclusive is decided, so P0 stops there until then; a success
    orders the read of y after the flag's by herd's addr, a failure not."""
    path = srcdir / "tests" / "catdep" / "LDXR-STXR-LDR.litmus"
    out = session(aarch64_cat, path, ["show"])
    assert "P0 stops: at a read of a location after a store-conditional to it not decided yet" in out
    out = session(aarch64_cat, path, ["commit f i(z)", "commit a f", "commit b i(x)", "commit c i(x)", "show"])
    assert "committed c i(x)" in out
    assert re.search(r"^  d: R x \(P0\)$", out.split("committed c i(x)")[1], re.M), out
    out = session(aarch64_cat, path, ["goto 0:X4=1 /\\ 0:X8=0 /\\ 0:X2=0", "goto 0:X4=1 /\\ 0:X8=0"])
    assert re.search(r"^  external: cycle a: R z=1 \(P0\) -po:addr-> e: R y=0 \(P0\) -fre-> ", out, re.M), out
    assert "reached: an allowed execution ends in that state" in out
    assert re.search(r"^  Commits: .*commit c fail", out, re.M), out


# ---- rsmc ------------------------------------------------------------------------------------

@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_own_tests_give_herds_blocks(weft, srcdir, aarch64_cat, engine):
    """tests/catdep's tests, with herd7's blocks under aarch64.cat stored
    beside them (tests/catdep/README.md)."""
    assert_blocks_are_stored(weft, srcdir / "tests" / "catdep", "-engine", engine, *aarch64_cat, at_least=4)


def stats(out):
    """Per test: its Stats line's fields."""
    return {m.group(1): m.group(2) for m in re.finditer(r"^Stats (\S+) (.*)$", out, re.M)}


def test_rsmc_runs_aarch64_cat_itself(srcdir, aarch64_cat):
    """Asked for, rsmc answers under a catdep model (no fallback) and its
    checks on partial executions cut forbidden runs early: on SB+4W it
    judges a small part of the enumerator's candidates, for the same block."""
    sb = srcdir / "tests" / "catdep" / "SB+3W.litmus"
    mp = srcdir / "tests" / "aarch64" / "MP+dmb.sy+rfi-addr.litmus"
    r = run_weft("-stats", "-engine", "rsmc", *aarch64_cat, sb, mp)
    assert r.returncode == 0, r.stderr
    for name, s in stats(r.stdout).items():
        assert "fallback" not in s and "order generic" in s, (name, s)
    sb4 = srcdir / "tests" / "catdep" / "SB+4W.litmus"
    runs = {e: run_weft("-stats", "-engine", e, *aarch64_cat, sb4) for e in ("rsmc", "enumerate")}
    blocks = {e: result_blocks(r.stdout)["SB+4W"][0] for e, r in runs.items()}
    assert blocks["rsmc"] == blocks["enumerate"]
    cand = {e: int(re.search(r"candidates (\d+)", stats(r.stdout)["SB+4W"]).group(1)) for e, r in runs.items()}
    assert cand["rsmc"] * 20 < cand["enumerate"], cand


def test_the_default_leaves_small_catdep_tests_to_the_enumerator(srcdir, aarch64_cat):
    """By default (no -engine) the enumerator answers a test under a
    catdep model when it judges at most 2,000 candidates (SB+3W: 733),
    where it is faster than rsmc; past that rsmc answers (SB+4W: the
    enumerator would judge 14,400).  -v says why."""
    sb3 = srcdir / "tests" / "catdep" / "SB+3W.litmus"
    sb4 = srcdir / "tests" / "catdep" / "SB+4W.litmus"
    r = run_weft("-v", "-stats", *aarch64_cat, sb3, sb4)
    assert r.returncode == 0, r.stderr
    s = stats(r.stdout)
    assert "fallback enumerate" in s["SB+3W"] and "candidates 733 " in s["SB+3W"], s
    assert "fallback" not in s["SB+4W"] and "order generic" in s["SB+4W"], s
    assert "test SB+3W, model 'aarch64': the model computes herd's dependencies (catdep) and the test is small, " \
           "where the enumerator is faster (it judged at most 2,000 candidates)" in r.stderr, r.stderr
    assert "SB+4W, model" not in r.stderr
    for e in ("rsmc", "enumerate"):
        other = result_blocks(run_weft("-engine", e, *aarch64_cat, sb3, sb4).stdout)
        for name, (block, _) in result_blocks(r.stdout).items():
            assert other[name][0] == block, (e, name)


def test_rsmc_gives_the_enumerators_blocks_on_a_corpus_sample(corpus, aarch64_cat):
    """Both engines print the same blocks under aarch64.cat on a sample of
    the corpus (make check-corpus compares every test with herd7's), rsmc
    answering most of them itself."""
    files = sorted(corpus_aarch64(corpus).glob("*.litmus"))[::11]
    runs = {e: run_weft("-q", "-j", "2", "-stats", "-engine", e, *aarch64_cat, *files)
            for e in ("rsmc", "enumerate")}
    for r in runs.values():
        assert r.returncode == 0, r.stderr[-2000:]
    blocks = {e: result_blocks(r.stdout) for e, r in runs.items()}
    assert len(blocks["rsmc"]) == len(files)
    for name, (block, _) in blocks["enumerate"].items():
        assert blocks["rsmc"][name][0] == block, name
    own = [n for n, s in stats(runs["rsmc"].stdout).items() if "fallback" not in s]
    assert len(own) >= len(files) // 2, len(own)
