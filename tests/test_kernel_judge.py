"""weft as the Linux kernel's tools/memory-model scripts use herd7, and
`weft -judge`, their judgement built in.

The kernel's judgelitmus.sh holds each test's first ` * Result:` comment
against herd7's output (FILE.litmus.out, stdout and stderr together).
`kernel_judge` below is our own rendering of its rules in Python; the tests
judge herd7's stored outputs of tests/c-judge with it and check that
`weft -judge` says the same of every test, that weft's own output of a test
is herd7's (what cmplitmushist.sh compares exactly), and that the lines the
scripts grep are there: herd's ": Unknown macro NAME (User error)" inside
weft's located message, nothing extra on stderr (the notes on -conf keys
weft ignores, and rsmc's hand-overs, are for -v).
"""
import pathlib
import re

import pytest

from conftest import SRCDIR

JUDGE_DIR = SRCDIR / "tests" / "c-judge"
OWN_C = SRCDIR / "tests" / "c"

RESULT = re.compile(r"^[( ]\* Result: ")
RESULT_RACE = re.compile(r"^[( ]\* Result: .* DATARACE")
# weft's record of a test it gave up on (herd7's runs show /usr/bin/time's
# "Command exited with non-zero status 124" instead)
TIMEOUT = re.compile(r"^(Test \S+ Timeout|Command exited with non-zero status 124)")


def kernel_judge(source, output, path):
    """judgelitmus.sh's rules: (verdict, the line it prints or None), the
    verdict one of pass, forgiven, fail, unjudged (no Result: comment and an
    Observation: the script fails it as "non-specified", weft counts it
    apart)."""
    src = source.splitlines()
    out = output.splitlines()
    results = [l for l in src if RESULT.match(l)]
    modeled = "Flag data-race" in out
    outcome = None
    if results:
        words = results[0].split()
        outcome = words[2] if len(words) > 2 else ""
        predicted = any(RESULT_RACE.match(l) for l in src)
        if predicted and not modeled:
            return "fail", f"!!! Predicted data race not modeled {path}"
        if modeled and not predicted:
            return "fail", f"!!! Unexpected data race modeled {path}"
    observations = [l for l in out if l.startswith("Observation")]
    if not observations:
        macros = [l for l in out if ": Unknown macro " in l]
        if macros:
            names = [re.sub(r" \(User error\).*$", "", re.sub(r"^.*: Unknown macro ", "", l)) for l in macros]
            # the script echoes the message unquoted: blanks collapse
            return "fail", " ".join(f'!!! Current LKMM version does not know "{" ".join(names)}" {path}'.split())
        if any(TIMEOUT.match(l) for l in out):
            return "fail", f" !!! Timeout {path}"
        return "fail", f" !!! Verification error {path}"
    if outcome is None:
        return "unjudged", None
    deadlock = any(l.endswith("Never 0 0") for l in observations)
    if outcome == "DEADLOCK":
        return ("pass", None) if deadlock else ("fail", f" !!! Unexpected non-DEADLOCK verification {path}")
    if deadlock:
        return "fail", f" !!! Unexpected non-{outcome} deadlock {path}"
    if outcome == "Maybe" or (outcome and any(outcome in l for l in observations)):
        return "pass", None
    if modeled:
        return "forgiven", f" --- Forgiven non-{outcome} verification {path}"
    return "fail", f" !!! Unexpected non-{outcome} verification {path}"


def judge_tests():
    return sorted(JUDGE_DIR.glob("*.litmus"))


def herd_output(test):
    """herd7 7.58's output of a tests/c-judge test, stored beside it."""
    return pathlib.Path(str(test) + ".expected").read_text()


def judged_lines(stdout):
    """Test path -> weft -judge's line for it, and the summary line."""
    lines = stdout.splitlines()
    assert lines, stdout
    per_test = {}
    for l in lines[:-1]:
        path = l.split()[-1]
        assert path not in per_test, stdout
        per_test[path] = l
    return per_test, lines[-1]


def lkmm(corpus):
    lib = corpus / "herd-cat" / "7.58"
    return ["-I", lib, "-conf", lib / "lkmm" / "linux-kernel.cfg"]


def test_our_rendering_of_the_rules_fails_the_tests_written_to_fail():
    """The tests/c-judge files written wrong on purpose fail on herd7's own
    outputs, the others pass or are forgiven: the rendering judges."""
    got = {t.name: kernel_judge(t.read_text(), herd_output(t), t.name) for t in judge_tests()}
    assert len(got) >= 17
    fails = {n for n, (v, _) in got.items() if v == "fail"}
    assert fails == {n for n in got if "wrong" in n or "race-un" in n or "race-not" in n
                     or n in ("unknown-primitive.litmus", "syntax-error.litmus")}, got
    assert got["MP+plain+race-forgiven.litmus"][0] == "forgiven"
    assert got["MP+onces+no-result.litmus"] == ("unjudged", None)
    assert got["unknown-primitive.litmus"][1] == \
        '!!! Current LKMM version does not know "smp_frob" unknown-primitive.litmus'
    assert got["lock-twice+wrong-never.litmus"][1] == \
        " !!! Unexpected non-Never deadlock lock-twice+wrong-never.litmus"
    assert got["MP+locks+wrong-deadlock.litmus"][1] == \
        " !!! Unexpected non-DEADLOCK verification MP+locks+wrong-deadlock.litmus"
    kinds = {l.split()[2] for t in judge_tests() for l in t.read_text().splitlines() if RESULT.match(l)}
    assert {"Always", "Sometimes", "Never", "Maybe", "DEADLOCK"} <= kinds


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_judge_says_what_the_kernel_says_of_herds_outputs(weft, corpus, jobs):
    """weft -judge -conf linux-kernel.cfg on tests/c-judge: for each test the
    line judgelitmus.sh prints from herd7's output, nothing for a pass, and
    the summary; exit 1 since some fail; the same whatever -j."""
    r = weft(*lkmm(corpus), "-judge", "-j", jobs, JUDGE_DIR)
    assert r.returncode == 1, r.stderr
    per_test, summary = judged_lines(r.stdout)
    want = {}
    counts = {"pass": 0, "forgiven": 0, "fail": 0, "unjudged": 0}
    for t in judge_tests():
        path = str(JUDGE_DIR / t.name)
        verdict, line = kernel_judge(t.read_text(), herd_output(t), path)
        counts[verdict] += 1
        if line:
            want[path] = line
    assert per_test == want
    judged = counts["pass"] + counts["forgiven"] + counts["fail"]
    assert summary == (f" ^^^ VERIFICATION MISMATCHES: {counts['fail']} failed of {judged} judged "
                       f"({counts['forgiven']} forgiven a data race); {counts['unjudged']} ran without "
                       "a Result: comment (-v names them)")
    # the located errors of the two tests that do not run, as usual
    assert "unknown-primitive.litmus:" in r.stderr and "syntax-error.litmus:" in r.stderr
    # test order, as the kernel's checkalllitmus.sh goes through a folder
    assert list(per_test) == sorted(per_test)


def test_judge_agrees_with_the_rules_on_weft_own_output(weft):
    """Without the corpus: weft's own primitives under sc.  Each test's
    -judge line is what the rules say of weft's own output of that test
    (its block and diagnostics, 2>&1)."""
    tests = judge_tests()
    r = weft("-judge", "-v", JUDGE_DIR)
    per_test, summary = judged_lines(r.stdout)
    want = {}
    for t in tests:
        one = weft(t)
        verdict, line = kernel_judge(t.read_text(), one.stdout + one.stderr, str(t))
        if verdict == "unjudged":
            line = f" --- No Result: comment {t}"
        if line:
            want[str(t)] = line
    assert per_test == want
    assert summary.startswith(" ^^^ VERIFICATION MISMATCHES: ") and "(-v names them)" not in summary
    assert r.returncode == 1


def test_weft_prints_what_herd_prints_for_each_test_that_runs(weft, corpus):
    """What cmplitmushist.sh compares exactly (after dropping Time lines):
    herd7's stdout and stderr against weft's, here for every test of
    tests/c-judge herd7 answers, those rsmc leaves to the enumerator (the
    locks) included."""
    compared = 0
    for t in judge_tests():
        herd = herd_output(t)
        if "\nObservation " not in herd:
            continue
        r = weft(*lkmm(corpus), t)
        assert r.returncode == 0, r.stderr
        assert r.stderr == "", (t.name, r.stderr)
        drop_time = lambda text: [l for l in text.splitlines() if not l.startswith("Time")]
        assert drop_time(r.stdout) == drop_time(herd), t.name
        compared += 1
    assert compared >= 15
    # -stats says who answered the locked tests
    r = weft(*lkmm(corpus), "-stats", JUDGE_DIR / "MP+locks+never.litmus")
    assert "fallback enumerate" in r.stdout


def test_an_unknown_primitive_names_itself_in_herds_words(weft, tmp_path):
    """judgelitmus.sh and cmplitmushist.sh take the name after
    ': Unknown macro ' up to ' (User error)': weft's located message holds
    herd's words, with a macro file given or weft's own."""
    t = JUDGE_DIR / "unknown-primitive.litmus"
    for args in ([], ["-macros", OWN_C / "kernel-mini.def", "-model", "sc"]):
        r = weft(*args, t)
        assert r.returncode == 1
        lines = [l for l in r.stderr.splitlines() if ": Unknown macro " in l]
        assert len(lines) == 1, r.stderr
        assert lines[0].startswith(f"{t}:14:2: error: unknown macro 'smp_frob' ("), lines[0]
        name = re.sub(r" \(User error\).*$", "", re.sub(r"^.*: Unknown macro ", "", lines[0]))
        assert name == "smp_frob"
    # and in the -judge line, in the kernel's words
    r = weft("-judge", t)
    assert r.stdout.splitlines()[0] == f'!!! Current LKMM version does not know "smp_frob" {t}'


def test_judge_counts_tests_without_result_apart(weft, tmp_path):
    """A test without a Result: comment is never a silent pass: counted in
    the summary, named with -v; a run where no test has one judged nothing
    and exits 1; one whose tests all pass exits 0."""
    none = tmp_path / "none"
    none.mkdir()
    src = (JUDGE_DIR / "MP+onces+no-result.litmus").read_text()
    (none / "a.litmus").write_text(src)
    (none / "b.litmus").write_text(src.replace("C MP+onces+no-result", "C other"))
    r = weft("-judge", none)
    assert r.returncode == 1
    assert r.stdout == " ^^^ NOTHING JUDGED: no test has a Result: comment; 2 ran without a Result: " \
                       "comment (-v names them)\n"
    r = weft("-judge", "-v", none)
    assert r.stdout.splitlines()[:2] == [f" --- No Result: comment {none / 'a.litmus'}",
                                         f" --- No Result: comment {none / 'b.litmus'}"]
    good = tmp_path / "good"
    good.mkdir()
    for name in ("MP+rel+acq+never", "W+R+always", "SB+onces+maybe", "MP+locks+never"):
        (good / f"{name}.litmus").write_text((JUDGE_DIR / f"{name}.litmus").read_text())
    (good / "a.litmus").write_text(src)
    r = weft("-judge", good)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout == "All litmus tests verified as was expected: 4 judged; 1 ran without a Result: " \
                       "comment (-v names them)\n"


def test_judge_usage(weft):
    t = JUDGE_DIR / "W+R+always.litmus"
    for args in (["-model", "sc", "-model", "tso"], ["-table", "csv"], ["-format", "yaml"], ["-explain"],
                 ["-check"]):
        r = weft("-judge", *args, t)
        assert r.returncode == 2, args
        assert "-judge judges each test's one result block" in r.stderr, args
    assert "-judge" in weft("-help").stdout


def test_conf_notes_only_with_v(weft, tmp_path):
    """The kernel's linux-kernel.cfg has 14 keys that only shape herd's
    graphs: weft says so only with -v (the scripts capture stderr)."""
    cfg = tmp_path / "k.cfg"
    cfg.write_text("macros kernel-mini.def\nmodel sc.cat\ngraph columns\nsquished true\nshowevents noregs\n")
    t = OWN_C / "SB+mbs.litmus"
    r = weft("-I", OWN_C, "-conf", cfg, t)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    r = weft("-I", OWN_C, "-conf", cfg, "-v", t)
    assert r.stderr.splitlines() == [f"{cfg}:3:1: note: 3 keys ignored (graph, squished, showevents): each "
                                     "only shapes herd's execution graphs"]


def test_a_timeout_is_judged_in_the_kernels_words(weft, corpus):
    """A test weft gives up on (its `Test NAME Timeout` record, where the
    scripts see /usr/bin/time's exit status 124 after herd7) fails as a
    timeout: the corpus's C-atomic-01 takes seconds, not 50 ms."""
    t = corpus / "tests" / "C" / "C-atomic-01.litmus"
    r = weft(*lkmm(corpus), "-judge", "-timeout", "0.05", t)
    assert r.returncode == 1
    assert r.stdout.splitlines()[0] == f" !!! Timeout {t}"
    record = weft(*lkmm(corpus), "-timeout", "0.05", t).stdout
    assert kernel_judge(t.read_text(), record, str(t)) == ("fail", f" !!! Timeout {t}")
