"""herd's selection options: -through (forbidden executions let through,
counted and drawn), -skipchecks (checks whose outcome is ignored) and
-conds (other final conditions), on the bundled suite and, when present,
the corpus test MOREDETOUR0503."""
import re
import shutil
import subprocess

import pytest

from conftest import SRCDIR, run_weft

MP_ADDR = SRCDIR / "litmus" / "PPC" / "MP+lwsync+addr.litmus"
SB = SRCDIR / "litmus" / "X86" / "SB.litmus"


def ok(*args):
    r = run_weft("-q", *args)
    assert r.returncode == 0, r.stderr
    return r


def field(out, pattern):
    m = re.search(pattern, out, re.M)
    assert m, (pattern, out)
    return m.groups()


def counts(out):
    """(states, positive, negative, observation) of a single result block."""
    states = int(field(out, r"^States (\d+)$")[0])
    pos, neg = map(int, field(out, r"^Positive: (\d+) Negative: (\d+)$"))
    obs = field(out, r"^Observation \S+ (\w+) ")[0]
    return states, pos, neg, obs


def stats(out):
    """(candidates, forbidden) of the -stats line."""
    return tuple(map(int, field(out, r"^Stats .* candidates (\d+) forbidden (\d+)$")))


# ---- -through -----------------------------------------------------------------------------

def test_through_counts_every_candidate():
    plain = ok("-stats", "-engine", "enumerate", MP_ADDR).stdout
    cands, forbidden = stats(plain)
    assert forbidden > 0 and counts(plain)[3] == "Never"
    for how in ("all", "invalid"):
        through = ok("-stats", "-through", how, MP_ADDR).stdout
        states, pos, neg, obs = counts(through)
        # every candidate counted, none forbidden, the forbidden state shown
        assert pos + neg == cands and stats(through) == (cands, 0), through
        assert obs == "Sometimes" and "1:r1=1; 1:r3=0;" in through
        assert states > counts(plain)[0]
    # none is the default
    assert ok("-through", "none", MP_ADDR).stdout.split("Time")[0] == ok(MP_ADDR).stdout.split("Time")[0]


def test_through_draws_forbidden_executions(tmp_path):
    out = tmp_path / "dots"
    ok("-show", "prop", "-o", out, MP_ADDR)
    assert list(out.glob("*.dot")) == [], "without -through the forbidden state has no picture"
    ok("-through", "invalid", "-show", "prop", "-o", out, MP_ADDR)
    dots = list(out.glob("*.dot"))
    assert len(dots) == 1
    text = dots[0].read_text()
    assert re.search(r'label="[^"]*the proposition holds, forbidden by observation \(its witness in bold magenta\)'
                     r'\\n1:r1=1; 1:r3=0;"', text), text
    assert "color=magenta" in text
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tplain", str(dots[0])], check=True, capture_output=True)


def test_through_and_skipchecks_need_the_enumerator():
    for opt in (["-through", "all"], ["-skipchecks", "observation"]):
        r = run_weft("-engine", "rsmc", *opt, MP_ADDR)
        assert r.returncode == 2 and "need -engine enumerate" in r.stderr, r.stderr
    r = run_weft("-through", "some", MP_ADDR)
    assert r.returncode == 2 and "unknown -through" in r.stderr


# ---- -skipchecks --------------------------------------------------------------------------

def test_skipchecks_ignores_the_named_checks():
    assert counts(ok(MP_ADDR).stdout)[3] == "Never"
    assert counts(ok("-skipchecks", "propagation", MP_ADDR).stdout)[3] == "Never"
    skipped = ok("-skipchecks", "observation", MP_ADDR).stdout
    assert counts(skipped)[3] == "Sometimes"
    # the lists add up, comma-separated or repeated
    a = ok("-skipchecks", "uniproc,observation", MP_ADDR).stdout
    b = ok("-skipchecks", "uniproc", "-skipchecks", "observation", MP_ADDR).stdout
    assert counts(a) == counts(b)
    # skipping every check is -through
    c = ok("-skipchecks", "uniproc,atomic,thinair,propagation,observation,scXX", MP_ADDR).stdout
    assert counts(c) == counts(ok("-through", "all", MP_ADDR).stdout)


def test_skipchecks_of_an_unknown_name_warns():
    r = ok("-skipchecks", "nosuchcheck", MP_ADDR)
    assert "warning" in r.stderr and "nosuchcheck" in r.stderr, r.stderr
    # the warning names the model's checks, read from the model's own file
    names = re.findall(r"^\s*(?:acyclic|irreflexive|empty)\b.*\bas (\S+)", (SRCDIR / "cat" / "power.cat").read_text(),
                       re.M)
    assert len(names) >= 5
    assert "(its checks: " + ", ".join(f"'{n}'" for n in names) + ")" in r.stderr, r.stderr
    assert counts(r.stdout) == counts(ok(MP_ADDR).stdout)


@pytest.mark.parametrize("model", ["power", "herd"])
def test_moredetour0503_needs_both_propagation_and_observation_skipped(corpus, model):
    """The coherent candidate reaching the condition fails propagation and
    observation (its MP+lwsync+addr part): skipping propagation alone
    leaves it forbidden, under weft's power.cat and herd's ppc.cat alike."""
    t = corpus / "tests" / "PPC" / "MOREDETOUR0503.litmus"
    m = "power" if model == "power" else corpus / "herd-cat" / "ppc.cat"
    assert counts(ok("-model", m, t).stdout)[3] == "Never"
    assert counts(ok("-model", m, "-skipchecks", "propagation", t).stdout)[3] == "Never"
    assert counts(ok("-model", m, "-skipchecks", "observation", t).stdout)[3] == "Never"
    both = counts(ok("-model", m, "-skipchecks", "propagation,observation", t).stdout)
    assert both[3] == "Sometimes" and both[1] == 1


# ---- -conds -------------------------------------------------------------------------------

def test_conds_replaces_the_condition(tmp_path):
    conds = tmp_path / "c.conds"
    conds.write_text("# other conditions\n\nMP+lwsync+addr exists (1:r1=1 /\\ 1:r3=1)\n"
                     'SB "~exists (0:EAX=1 /\\ 1:EAX=1)"\n')
    plain = ok(MP_ADDR, SB).stdout
    other = ok("-conds", conds, MP_ADDR, SB).stdout
    assert "Condition exists (1:r1=1 /\\ 1:r3=1)" in other
    assert "Condition ~exists (0:EAX=1 /\\ 1:EAX=1)" in other
    # same executions, another proposition
    mp_plain, mp_other = (b.split("\n\n")[0] for b in (plain, other))
    assert counts(mp_plain)[0] == counts(mp_other)[0]
    assert counts(mp_other)[3] == "Sometimes" and counts(mp_plain)[3] == "Never"
    # a test the file does not name keeps its condition
    lone = tmp_path / "lone.conds"
    lone.write_text("NoSuchTest exists (0:r1=1)\n")
    assert ok("-conds", lone, MP_ADDR).stdout.split("Time")[0] == plain.split("\n\n")[0].split("Time")[0]


def test_conds_with_show_prop_draws_the_executions_reaching_the_states(tmp_path):
    conds = tmp_path / "c.conds"
    conds.write_text("MP+lwsync+addr exists (1:r1=0)\n")
    out = tmp_path / "dots"
    r = ok("-conds", conds, "-show", "prop", "-o", out, MP_ADDR)
    pos = counts(r.stdout)[1]
    dots = list(out.glob("*.dot"))
    assert pos > 0 and len(dots) == pos
    for d in dots:
        # each drawn execution reads y=0 on P1 (r1=0): its y read is from the initial write
        assert re.search(r'"\S+" \[label="\S+: R y=0"', d.read_text()), d.read_text()


def test_conds_errors_are_located(tmp_path):
    bad = tmp_path / "bad.conds"
    bad.write_text("# fine\nMP+lwsync+addr\n")
    r = run_weft("-conds", bad, MP_ADDR)
    assert r.returncode == 2 and re.search(r"bad\.conds:2:\d+: error: ", r.stderr), r.stderr
    worse = tmp_path / "worse.conds"
    worse.write_text("MP+lwsync+addr exists (7:r1=1)\n")
    r = run_weft("-conds", worse, MP_ADDR)
    assert r.returncode == 1 and "error" in r.stderr and "worse.conds:1:1: note" in r.stderr, r.stderr
    r = run_weft("-conds", tmp_path / "missing.conds", MP_ADDR)
    assert r.returncode == 2 and "missing.conds" in r.stderr


def test_conds_comments_after_the_condition(tmp_path):
    """herd's files may end a line with a comment, `#` or `%`, quoted
    condition or not; a quote left open, or text after it, is an error at its
    place."""
    want = "Condition exists (1:r1=1 /\\ 1:r3=1)"
    for text in ('MP+lwsync+addr "exists (1:r1=1 /\\ 1:r3=1)"   % both loads see the stores\n',
                 '% a comment line\nMP+lwsync+addr "exists (1:r1=1 /\\ 1:r3=1)" # both\n',
                 'MP+lwsync+addr exists (1:r1=1 /\\ 1:r3=1)  # unquoted\n'):
        conds = tmp_path / "c.conds"
        conds.write_text(text)
        assert want in ok("-conds", conds, MP_ADDR).stdout, text
    for text, col, says in (('MP+lwsync+addr "exists (1:r1=1)\n', 16, "not closed"),
                            ('MP+lwsync+addr "exists (1:r1=1)" 1:r3=0\n', 33, "after the quoted condition")):
        conds = tmp_path / "bad.conds"
        conds.write_text(text)
        r = run_weft("-conds", conds, MP_ADDR)
        assert r.returncode == 2 and f"bad.conds:1:{col}: error: " in r.stderr and says in r.stderr, r.stderr


def test_conds_of_each_state_counts_its_executions(tmp_path):
    """For every final state of a plain run (YAML: state and count), a
    condition naming exactly that state holds on as many executions as the
    state has, and -show prop draws that many."""
    import yaml
    for test in ("SB", "MP", "IRIW+lwsyncs", "LB+ctrls"):
        f = SRCDIR / "litmus" / "PPC" / f"{test}.litmus"
        plain = next(yaml.safe_load_all(ok("-format", "yaml", f).stdout))
        total = plain["positive"] + plain["negative"]
        for i, st in enumerate(plain["states"]):
            prop = " /\\ ".join(f"{k}={v}" if ":" in k else f"[{k}]={v}" for k, v in st["bindings"].items())
            conds = tmp_path / f"{test}.{i}.conds"
            conds.write_text(f'{test} "exists ({prop})"\n')
            d = next(yaml.safe_load_all(ok("-format", "yaml", "-conds", conds, f).stdout))
            assert d["condition"] == f"exists ({prop})"
            assert (d["positive"], d["negative"]) == (st["count"], total - st["count"]), (test, st)
            out = tmp_path / f"g.{test}.{i}"
            ok("-conds", conds, "-show", "prop", "-o", out, f)
            assert len(list(out.glob("*.dot"))) == st["count"], (test, st)


def test_conds_files_add_up(tmp_path):
    """Several -conds, as herd's: each file's tests get its conditions, and a
    later file's line for a name wins; an error in the second file is located
    there."""
    a, b = tmp_path / "a.conds", tmp_path / "b.conds"
    a.write_text("MP+lwsync+addr exists (1:r1=0)\nSB exists (0:EAX=1)\n")
    b.write_text("MP+lwsync+addr exists (1:r1=1 /\\ 1:r3=1)\n")
    out = ok("-conds", a, "-conds", b, MP_ADDR, SB).stdout
    assert "Condition exists (1:r1=1 /\\ 1:r3=1)" in out
    assert "Condition exists (0:EAX=1)" in out
    b.write_text("# fine\nSB\n")
    r = run_weft("-conds", a, "-conds", b, MP_ADDR)
    assert r.returncode == 2 and re.search(r"b\.conds:2:\d+: error: ", r.stderr), r.stderr


def test_explain_witness_says_what_lets_it_through():
    """With checks skipped, -explain's witness is one the whole model allows
    when there is one (SB under power: no Let through line), else it says
    which skipped check it fails: the one the plain -explain names."""
    plain = ok("-explain", SRCDIR / "litmus" / "PPC" / "SB+syncs.litmus").stdout
    check = re.search(r"^  Forbidden by: (\S+) ", plain, re.M).group(1)
    for args in (["-skipchecks", check], ["-through", "all"]):
        out = ok(*args, "-explain", SRCDIR / "litmus" / "PPC" / "SB+syncs.litmus").stdout
        assert "Explain SB+syncs power: allowed" in out
        assert re.search(rf"^  Let through: it fails {re.escape(check)}, a check skipped ", out, re.M), out
    for args in (["-skipchecks", check], ["-through", "all"]):
        out = ok(*args, "-explain", SRCDIR / "litmus" / "PPC" / "SB.litmus").stdout
        assert "Explain SB power: allowed" in out and "Witness:" in out and "Let through" not in out, out


def test_saved_results_say_what_was_skipped(tmp_path):
    """A -skipchecks (or -through, -conds) run's saved results are not the
    model's: their run options say so, and -results refuses to put them in
    one column with a plain run's (the model's fingerprint is the same)."""
    import yaml
    plain = tmp_path / "plain.yaml"
    plain.write_text(ok("-format", "yaml", "-engine", "enumerate", SRCDIR / "litmus" / "PPC" / "SB.litmus").stdout)
    conds = tmp_path / "c.conds"
    conds.write_text("SB+syncs exists (0:r3=1)\n")
    for args in (["-skipchecks", "propagation,observation"], ["-through", "invalid"], ["-conds", conds]):
        other = tmp_path / "other.yaml"
        doc = ok("-format", "yaml", *args, SRCDIR / "litmus" / "PPC" / "SB+syncs.litmus").stdout
        other.write_text(doc)
        options = next(yaml.safe_load_all(doc))["run"]["options"]
        shown = " ".join(map(str, args)).replace("invalid", "all")
        assert options.endswith(shown), (options, args)
        r = run_weft("-results", plain, "-results", other, "-table", "markdown")
        assert r.returncode == 1 and "mixes producers" in r.stderr, (args, r.stderr)


def test_show_draws_why_a_let_through_execution_is_forbidden(tmp_path):
    """-through with -show: each forbidden execution's picture has the witness
    of the check its title names, in the witness style (bold magenta): for
    power's acyclic and irreflexive checks, edges that close into a cycle;
    allowed executions have none."""
    out = tmp_path / "g"
    ok("-through", "all", "-show", "all", "-o", out, "-j", "2", *sorted((SRCDIR / "litmus" / "PPC").glob("*.litmus")))
    forbidden = allowed = 0
    for d in sorted(out.glob("*.dot")):
        text = d.read_text()
        title = re.search(r'^  label="([^"]*)";', text, re.M).group(1)
        witness = re.findall(r'^\s*"([^"]+)" -> "([^"]+)" \[[^\]]*color=magenta', text, re.M)
        m = re.search(r"forbidden by (\S+) \(its witness in bold magenta\)", title)
        if not m:
            assert not witness, d
            allowed += 1
            continue
        forbidden += 1
        assert witness, d
        if m.group(1) in ("uniproc", "thinair", "propagation", "observation", "scXX"):
            # a cycle: every event on it is left as often as it is entered
            outs = sorted(a for a, _ in witness)
            ins = sorted(b for _, b in witness)
            assert outs == ins, (d, witness)
    assert forbidden > 20 and allowed > 20, (forbidden, allowed)


def test_strictskip_keeps_what_only_the_skipped_checks_forbid():
    """herd's -strictskip true: the executions failing the skipped check and
    passing the others.  Allowed with the check skipped = allowed by the
    whole model + those, disjointly; so, state by state, the counts with
    -strictskip are the differences, for each of power's checks on the
    suite."""
    import yaml
    files = sorted((SRCDIR / "litmus" / "PPC").glob("*.litmus"))

    def docs(*args):
        r = run_weft("-q", "-j", "2", "-format", "yaml", "-engine", "enumerate", *args, *files)
        assert r.returncode == 0, r.stderr
        return {d["name"]: {s["state"]: s["count"] for s in d["states"]} for d in yaml.safe_load_all(r.stdout) if d}

    plain = docs()
    nonempty = 0
    for check in ("uniproc", "thinair", "propagation", "observation"):
        skipped, strict = docs("-skipchecks", check), docs("-skipchecks", check, "-strictskip", "true")
        for name in plain:
            diff = {s: skipped[name][s] - plain[name].get(s, 0) for s in skipped[name]}
            assert strict[name] == {s: n for s, n in diff.items() if n}, (check, name)
            nonempty += bool(strict[name])
    assert nonempty > 10
    # false is the plain -skipchecks
    assert docs("-skipchecks", "observation", "-strictskip", "false") == docs("-skipchecks", "observation")


def test_strictskip_usage():
    r = run_weft("-strictskip", "true", MP_ADDR)
    assert r.returncode == 2 and "give -skipchecks" in r.stderr
    r = run_weft("-skipchecks", "observation", "-strictskip", "true", "-explain", MP_ADDR)
    assert r.returncode == 2 and "-explain" in r.stderr
    r = run_weft("-skipchecks", "observation", "-strictskip", "maybe", MP_ADDR)
    assert r.returncode == 2 and "true or false" in r.stderr
