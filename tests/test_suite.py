"""Running suites: selection, sharding, workers, limits, YAML output, -expect,
and scripts/herd-log-to-yaml."""
import os
import pathlib
import re
import subprocess
import sys

import pytest
import yaml

from conftest import SRCDIR

LITMUS = SRCDIR / "litmus"
CONVERTER = SRCDIR / "scripts" / "herd-log-to-yaml"
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


# ---- helpers ---------------------------------------------------------------

def header_name(path):
    """The test name as herd7 reads it: second word of the first line."""
    with open(path) as f:
        for line in f:
            if line.strip():
                name = line.split()[1]
                return name[:-len(".litmus")] if name.endswith(".litmus") else name
    raise AssertionError(f"{path}: empty")


def suite_files(folder):
    return sorted(str(p) for p in pathlib.Path(folder).rglob("*.litmus"))


def block_names(stdout):
    """Names of the result blocks (and records) of a herd-format log, in order."""
    return re.findall(r"^Test (\S+) ", stdout, re.M)


def without_time(text):
    return "".join(l for l in text.splitlines(True) if not l.startswith("Time "))


def herd_blocks(stdout):
    """name -> dict(kind, states, verdict, pos, neg, hash) from herd text."""
    blocks = {}
    for chunk in stdout.strip().split("\n\n"):
        lines = chunk.splitlines()
        head = lines[0].split()
        b = {"kind": head[2]}
        n = int(lines[1].split()[1])
        b["states"] = lines[2:2 + n]
        verdict = lines[2 + n].split()[-1]
        b["verdict"] = verdict
        for l in lines:
            if l.startswith("Observation "):
                w = l.split()
                b["pos"], b["neg"] = int(w[-2]), int(w[-1])
            if l.startswith("Hash="):
                b["hash"] = l[len("Hash="):]
        blocks[head[1]] = b
    return blocks


def big_test(tmp_path, threads=4, stores=6, name="BIG"):
    """A PPC test whose enumeration takes minutes: many stores to one
    location from several threads (the coherence orders multiply)."""
    cols = [[f"li r1,{t * stores + k + 1}" if i % 2 == 0 else "stw r1,0(r2)"
             for k in range(stores) for i in range(2)] for t in range(threads)]
    lines = [f"PPC {name}", "{ " + " ".join(f"{t}:r2=x;" for t in range(threads)) + " }",
             " | ".join(f"P{t}" for t in range(threads)) + " ;"]
    lines += [" | ".join(c[i] for c in cols) + " ;" for i in range(len(cols[0]))]
    lines.append("exists (x=1)")
    f = tmp_path / f"{name}.litmus"
    f.write_text("\n".join(lines) + "\n")
    return f


def corpus_sample(corpus, model, arch, every, limit=None):
    """A deterministic sample of corpus tests that have herd7 results under
    `model`: (test paths, expected-log paths)."""
    exp_dir = corpus / "expected" / model / arch
    logs = sorted(exp_dir.glob("*.litmus.expected"))[::every]
    if limit:
        logs = logs[:limit]
    tests = [corpus / "tests" / arch / p.name[:-len(".expected")] for p in logs]
    return tests, logs


# ---- selection ---------------------------------------------------------------

def test_select_regex_picks_by_header_name(weft):
    ppc = suite_files(LITMUS / "PPC")
    want = [header_name(f) for f in ppc if re.search(r"^MP\+", header_name(f))]
    assert 2 <= len(want) < len(ppc)
    r = weft("-q", "-j", "2", "-select", r"^MP\+", LITMUS / "PPC")
    assert r.returncode == 0, r.stderr
    assert block_names(r.stdout) == want


def test_several_selects_are_a_union_and_excl_regex_wins(weft):
    ppc = suite_files(LITMUS / "PPC")
    names = [header_name(f) for f in ppc]
    want = [n for n in names if (n.startswith("SB") or n.startswith("LB")) and "sync" not in n]
    assert want
    r = weft("-q", "-select", "^SB", "-select", "^LB", "-excl", "sync", LITMUS / "PPC")
    assert r.returncode == 0, r.stderr
    assert block_names(r.stdout) == want


def test_names_file_and_excl_file(weft, tmp_path):
    names = tmp_path / "names"
    names.write_text("# herd-style name list\nMP\n\nSB   trailing words are ignored\nIRIW\nNoSuchTest\n")
    r = weft("-q", "-names", names, LITMUS / "PPC")
    assert r.returncode == 0, r.stderr
    assert block_names(r.stdout) == ["IRIW", "MP", "SB"]
    excl = tmp_path / "excl"
    excl.write_text("SB\n")
    r2 = weft("-q", "-names", names, "-excl", excl, LITMUS / "PPC")
    assert block_names(r2.stdout) == ["IRIW", "MP"]


def test_selection_uses_header_not_file_name(weft, tmp_path):
    src = (LITMUS / "PPC" / "MP.litmus").read_text()
    (tmp_path / "a.litmus").write_text(src.replace("PPC MP", "PPC Foo+bar", 1))
    (tmp_path / "b.litmus").write_text(src.replace("PPC MP", "PPC Other", 1))
    r = weft("-q", "-select", r"^Foo\+bar$", tmp_path)
    assert block_names(r.stdout) == ["Foo+bar"]


def test_bad_regex_and_missing_names_file_are_usage_errors(weft, tmp_path):
    r = weft("-select", "MP(", LITMUS / "PPC")
    assert r.returncode == 2 and "-select" in r.stderr and "MP(" in r.stderr
    assert r.stdout == ""
    r2 = weft("-names", tmp_path / "absent", LITMUS / "PPC")
    assert r2.returncode == 2 and "absent" in r2.stderr


def test_shards_partition_the_selection_in_order(weft):
    full = block_names(weft("-q", LITMUS).stdout)
    assert len(full) > 10
    parts = [block_names(weft("-q", "-shard", f"{k}/3", LITMUS).stdout) for k in (1, 2, 3)]
    assert all(parts)
    assert sorted(sum(parts, [])) == sorted(full)
    for k, part in enumerate(parts):
        # round-robin: shard k holds positions k, k+3, ... in input order
        assert part == full[k::3]


@pytest.mark.parametrize("args", [["-shard", "0/3"], ["-shard", "4/3"], ["-shard", "x"],
                                  ["-j", "0"], ["-j", "300"], ["-format", "xml"], ["-maxmem", "-5"]])
def test_bad_suite_options_exit_2(weft, args):
    r = weft(*args, LITMUS / "PPC" / "MP.litmus")
    assert r.returncode == 2, args
    assert "-help" in r.stderr


# ---- workers -------------------------------------------------------------------

def test_j2_output_identical_to_j1_on_bundled_suite(weft):
    one = weft("-j", "1", LITMUS)
    two = weft("-j", "2", LITMUS)
    assert one.returncode == two.returncode
    assert len(block_names(one.stdout)) == len(suite_files(LITMUS))
    assert without_time(one.stdout) == without_time(two.stdout)
    # diagnostics come in input order too; only the summary's time differs
    strip = lambda e: re.sub(r" in [0-9.]+s$", "", e, flags=re.M)
    assert strip(one.stderr) == strip(two.stderr)


def test_j2_output_identical_to_j1_on_corpus_sample(weft, corpus):
    tests = []
    for arch, every in (("PPC", 150), ("X86", 20), ("X86_64", 60)):
        tests += sorted((corpus / "tests" / arch).glob("*.litmus"))[::every]
    assert len(tests) > 60
    one = weft("-q", "-j", "1", "-timeout", "60", *tests)
    two = weft("-q", "-j", "2", "-timeout", "60", *tests)
    assert len(block_names(one.stdout)) > 50
    assert without_time(one.stdout) == without_time(two.stdout)
    assert one.stderr == two.stderr
    assert one.returncode == two.returncode


def test_summary_and_no_progress_when_not_a_terminal(weft):
    r = weft("-j", "2", LITMUS / "PPC")
    assert "\r" not in r.stderr and "ETA" not in r.stderr
    blocks = herd_blocks(r.stdout)
    ok = sum(b["verdict"] == "Ok" for b in blocks.values())
    m = re.search(r"^weft: (\d+) tests, (\d+) Ok, (\d+) No, 0 timeouts, 0 errors in [0-9.]+s$",
                  r.stderr, re.M)
    assert m, r.stderr
    assert (int(m[1]), int(m[2]), int(m[3])) == (len(blocks), ok, len(blocks) - ok)
    assert weft("-q", LITMUS / "PPC").stderr == ""
    # one test: no summary
    assert "weft:" not in weft(LITMUS / "PPC" / "MP.litmus").stderr


def run_with_tty_stderr(args):
    """Run weft with stderr on a pseudo-terminal; return (stdout, terminal text)."""
    import pty
    from conftest import WEFT
    master, slave = pty.openpty()
    p = subprocess.Popen([str(WEFT), *map(str, args)], stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    out = p.stdout.read()
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the terminal's last writer is gone
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=120)
    os.close(master)
    return out.decode(), b"".join(chunks).decode()


def test_progress_line_on_a_terminal(weft, tmp_path):
    # a test that takes a second keeps the run alive long enough to draw
    big = big_test(tmp_path)
    out, tty = run_with_tty_stderr(["-j", "2", "-timeout", "1", LITMUS / "PPC", big])
    assert "ETA" in tty and "/s" in tty and "\r" in tty
    total = len(suite_files(LITMUS / "PPC")) + 1
    assert re.search(r"\[ *\d+/%d\] \d+ failed" % total, tty), tty
    assert "BIG" in tty  # the test the output waits for is named
    assert "Test BIG Timeout 1" in out and "ETA" not in out
    assert re.search(r"weft: %d tests, .* 1 timeout" % total, tty)
    out_q, tty_q = run_with_tty_stderr(["-q", "-timeout", "1", big])
    assert tty_q.strip() == "" and "Test BIG Timeout 1" in out_q


def test_progress_line_shows_one_long_tests_work(tmp_path):
    """One long test is not a frozen [0/1] line: after a second the line
    says what its engine has done so far, and how fast."""
    big = big_test(tmp_path)
    out, tty = run_with_tty_stderr(["-timeout", "3", big])
    assert "Test BIG Timeout 3" in out
    work = re.findall(r"BIG: (?:([\d.]+[kMGT]?) candidates, )?([\d.]+[kMGT]?) executions, ([\d.]+[kMGT]?)/s", tty)
    assert work, tty
    # the counts grow as the test runs
    first, last = work[0], work[-1]
    value = lambda s: float(s[:-1]) * {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}[s[-1]] if s[-1] in "kMGT" \
        else float(s)
    assert len(work) >= 2 and value(last[0] or last[1]) > value(first[0] or first[1]) > 0, work


def test_workers_die_with_a_killed_parent(tmp_path):
    """A weft killed outright (a harness's timeout, kill -9) takes its
    workers with it: none goes on running a test for no one."""
    import signal
    import time
    from conftest import WEFT
    big = big_test(tmp_path)
    p = subprocess.Popen([str(WEFT), "-q", "-timeout", "120", big], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    children = []
    deadline = time.time() + 20
    while not children and time.time() < deadline:
        time.sleep(0.2)
        try:
            children = pathlib.Path(f"/proc/{p.pid}/task/{p.pid}/children").read_text().split()
        except OSError:
            pytest.skip("no /proc children list to find the workers by")
    assert children, "no worker started"
    p.send_signal(signal.SIGKILL)
    p.wait()

    def alive(pid):
        try:
            stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")   # a zombie has ended
    deadline = time.time() + 10
    while any(alive(c) for c in children) and time.time() < deadline:
        time.sleep(0.1)
    assert not any(alive(c) for c in children), children


def test_closed_output_stops_the_run(tmp_path):
    """`weft ... | head`: once the reader is gone, the workers are stopped
    instead of finishing a test no one will see."""
    from conftest import WEFT
    big = big_test(tmp_path)
    # after MP nothing more is written until BIG ends: the parent must
    # notice the closed pipe by itself, not by a failed write
    p = subprocess.Popen([str(WEFT), "-j", "2", "-timeout", "60", LITMUS / "PPC" / "MP.litmus", big],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout.readline().startswith(b"Test ")
    p.stdout.close()
    p.wait(timeout=20)  # BIG alone would take 60 s
    assert p.returncode == 1
    assert b"weft:" not in p.stderr.read()  # no summary of a cut run


# ---- limits ----------------------------------------------------------------------

def test_timeout_is_reported_in_place_and_counted(weft, tmp_path):
    big = big_test(tmp_path)
    mp = LITMUS / "PPC" / "MP.litmus"
    r = weft("-j", "2", "-timeout", "1", mp, big, mp, timeout=120)
    assert r.returncode == 1
    assert block_names(r.stdout) == ["MP", "BIG", "MP"]
    assert "Test BIG Timeout 1\n\n" in r.stdout
    assert re.search(r"^weft: 3 tests, 2 Ok, 0 No, 1 timeout, 0 errors in", r.stderr, re.M), r.stderr
    # -failures-ok: still reported and counted, but not a failure
    r2 = weft("-q", "-failures-ok", "-timeout", "1", big, timeout=120)
    assert r2.returncode == 0
    assert r2.stdout == "Test BIG Timeout 1\n\n"
    y = weft("-q", "-format", "yaml", "-timeout", "1", big, timeout=120)
    doc, = yaml.safe_load_all(y.stdout)
    assert doc["name"] == "BIG" and doc["verdict"] == "Timeout" and doc["timeout"] == 1
    assert "states" not in doc


def test_out_of_memory_is_reported_in_place_and_counted(weft, tmp_path):
    mp = LITMUS / "PPC" / "MP.litmus"
    # 1,200 stores: one relation over its events is ~180 KB, which malloc
    # asks of the system, and 1 MB of address space is less than the worker
    # already has mapped, so that request fails.  (A small test may now run
    # in what the worker inherits from its parent without asking for more.)
    big1 = big_test(tmp_path, threads=2, stores=600, name="HUGE1")
    big2 = big_test(tmp_path, threads=2, stores=600, name="HUGE2")
    r = weft("-j", "2", "-timeout", "60", "-maxmem", "1", big1, big2, timeout=180)
    if "not enforced" in r.stderr:
        pytest.skip("sanitizer build: -maxmem is not enforced")
    assert r.returncode == 1
    assert r.stdout == "Test HUGE1 OutOfMemory\n\nTest HUGE2 OutOfMemory\n\n", r.stdout
    assert re.search(r"^weft: 2 tests, 0 Ok, 0 No, 0 timeouts, 0 errors, 2 out of memory in", r.stderr, re.M)
    assert weft("-q", "-failures-ok", "-timeout", "60", "-maxmem", "1", big1, timeout=120).returncode == 0
    doc, = yaml.safe_load_all(weft("-q", "-format", "yaml", "-timeout", "60", "-maxmem", "1", big1,
                                   timeout=120).stdout)
    assert (doc["name"], doc["verdict"], doc["maxmem"]) == ("HUGE1", "OutOfMemory", 1)
    # a limit with room to work changes nothing
    roomy = weft("-q", "-maxmem", "2000", mp)
    assert roomy.returncode == 0 and block_names(roomy.stdout) == ["MP"]


# ---- models: loaded once, in the parent ------------------------------------------------

def test_a_model_that_cannot_be_loaded_is_reported_once(weft, tmp_path):
    """The parent loads every model before it starts any worker: a model
    that cannot be loaded is one located error for the whole run (not one per
    test), its tests count as errors, and a good model next to it runs as if
    alone."""
    bad = tmp_path / "bad.cat"
    bad.write_text('"bad"\nlet x = po |\nacyclic x\n')
    ppc, x86 = suite_files(LITMUS / "PPC"), suite_files(LITMUS / "X86")
    located = re.compile(r"^%s:3:1: error: .+\n$" % re.escape(str(bad)))
    unknown = re.compile(r"^nosuch: error: cannot find model 'nosuch' \(looked in [^\n]+\)\n$")
    for model, message in ((bad, located), ("nosuch", unknown)):
        one = weft("-model", model, ppc[0])
        assert (one.returncode, one.stdout) == (1, ""), one.stderr
        assert message.match(one.stderr), one.stderr
        for j in ("1", "2"):
            q = weft("-q", "-j", j, "-model", model, LITMUS / "PPC")
            assert (q.returncode, q.stdout) == (1, "")
            assert q.stderr == one.stderr, (j, q.stderr)
        r = weft("-j", "2", "-model", model, LITMUS / "PPC")
        assert r.returncode == 1 and r.stdout == ""
        err = r.stderr.splitlines(keepends=True)
        assert err[0] == one.stderr and len(err) == 2, r.stderr
        assert re.match(r"weft: %d tests, 0 Ok, 0 No, 0 timeouts, %d errors in " % (len(ppc), len(ppc)),
                        err[1]), err[1]
    # YAML: an Error document for every test, the message still once
    y = weft("-q", "-j", "2", "-format", "yaml", "-model", bad, LITMUS / "X86")
    docs = list(yaml.safe_load_all(y.stdout))
    assert y.returncode == 1 and located.match(y.stderr), y.stderr
    assert [(d["file"], d["model"], d["verdict"]) for d in docs] == [(f, "bad", "Error") for f in x86]
    # a good model after the bad one: its blocks are those of a run of its own
    mixed = weft("-j", "2", "-model", bad, "-model", "sc", LITMUS / "X86")
    alone = weft("-q", "-j", "2", "-model", "sc", LITMUS / "X86")
    assert mixed.returncode == 1 and alone.returncode == 0
    assert re.sub(r"^Model sc\n", "", without_time(mixed.stdout), flags=re.M) == without_time(alone.stdout)
    assert len(block_names(mixed.stdout)) == len(x86)
    err = mixed.stderr.splitlines(keepends=True)
    assert len(err) == 2 and located.match(err[0]), mixed.stderr
    assert re.match(r"weft: %d tests x 2 models: .* %d errors in " % (len(x86), len(x86)), err[1]), err[1]


def test_check_and_dump_keep_input_order_with_workers(weft, tmp_path):
    good = (LITMUS / "PPC" / "MP.litmus").read_text()
    files = []
    for i in range(12):
        f = tmp_path / f"t{i:02}.litmus"
        # every third file is broken on its first line of code
        f.write_text(good.replace("PPC MP", f"PPC T{i}", 1) if i % 3 else f"PPC T{i}\n{{ x= }}\n")
        files.append(f)
    one = weft("-check", "-j", "1", *files)
    two = weft("-check", "-j", "2", *files)
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout == ""
    assert one.stderr == two.stderr
    bad = [str(f) for i, f in enumerate(files) if i % 3 == 0]
    assert [l.split(":")[0] for l in one.stderr.splitlines() if ": error:" in l] == bad
    d1 = weft("-dump", "-j", "1", *[f for i, f in enumerate(files) if i % 3])
    d2 = weft("-dump", "-j", "2", *[f for i, f in enumerate(files) if i % 3])
    assert d1.returncode == 0 and d1.stdout and d1.stdout == d2.stdout


# ---- YAML -------------------------------------------------------------------------

@pytest.mark.parametrize("arch", ["PPC", "X86"])
def test_yaml_round_trips_with_the_herd_values(weft, arch):
    folder = LITMUS / arch
    text = weft("-q", folder)
    ym = weft("-q", "-format", "yaml", folder)
    assert ym.returncode == text.returncode == 0, ym.stderr
    docs = list(yaml.safe_load_all(ym.stdout))
    herd = herd_blocks(text.stdout)
    files = suite_files(folder)
    assert [d["file"] for d in docs] == files
    kind_of = {"exists": "Allowed", "~exists": "Forbidden", "forall": "Required"}
    for d, f in zip(docs, files):
        h = herd[d["name"]]
        assert d["name"] == header_name(f)
        assert d["arch"] == arch
        assert d["model"] == {"PPC": "power", "X86": "tso"}[arch]
        assert d["engine"] == "rsmc"  # the default engine
        assert d["kind"] == h["kind"] == kind_of[d["condition"].split()[0]]
        assert sorted(s["state"] for s in d["states"]) == sorted(h["states"])
        assert (d["positive"], d["negative"]) == (h["pos"], h["neg"])
        assert d["verdict"] == h["verdict"]
        assert d["hash"] == h["hash"]
        assert isinstance(d["time"], (int, float)) and d["time"] >= 0
        assert sum(s["count"] for s in d["states"]) == d["positive"] + d["negative"]
        assert sum(s["count"] for s in d["states"] if s["holds"]) == d["positive"]
        for s in d["states"]:
            # the bindings say what the state line says
            line = {b.split("=")[0].strip("[]"): b.split("=")[1]
                    for b in s["state"].replace(" ", "").split(";") if b}
            assert {str(k): str(v) for k, v in s["bindings"].items()} == line
        outcome = ("forbidden" if d["positive"] == 0 else
                   "required" if d["negative"] == 0 else "allowed")
        assert d["outcome"] == outcome
        assert set(d["stats"]) >= {"candidates", "complete"}
        assert isinstance(d["flags"], list) and isinstance(d["loop"], bool)


# ---- expectations -----------------------------------------------------------------

@pytest.mark.parametrize("arch", ["PPC", "X86"])
def test_expect_passes_on_the_bundled_expectations(weft, arch):
    exp = LITMUS / arch / "expected.yaml"
    # the file speaks of both models: -model must give both (a key that
    # names no -model is an error)
    r = weft("-q", "-model", {"PPC": "power", "X86": "tso"}[arch], "-model", "sc", "-expect", exp, LITMUS / arch)
    assert r.returncode == 0, r.stderr
    assert "expectation" not in r.stderr
    n = len(suite_files(LITMUS / arch))
    assert f"-expect: {2 * n} tests compared, 0 mismatches" in r.stderr


def test_expect_passes_on_the_bundled_c_expectations(weft):
    """litmus/C runs with weft's own macro file and sc, its default for C
    (no -macros, no -model): every hand-derived verdict holds, both engines."""
    for engine in ("rsmc", "enumerate"):
        r = weft("-q", "-engine", engine, "-expect", LITMUS / "C" / "expected.yaml", LITMUS / "C")
        assert r.returncode == 0, r.stderr
        n = len(suite_files(LITMUS / "C"))
        assert n >= 6
        assert f"-expect: {n} tests compared, 0 mismatches" in r.stderr


def test_scripts_try_checks_every_bundled_expectation(weft):
    """scripts/try's weft command (the README's first command, on a clone
    without ../shared): every expected.yaml of litmus/ is given, and every
    test they name is compared, C tests included, with no mismatch."""
    text = (SRCDIR / "scripts" / "try").read_text()
    given = sorted(re.findall(r"-expect (litmus/\S+)", text))
    files = sorted(str(p.relative_to(SRCDIR)) for p in LITMUS.glob("*/expected.yaml"))
    assert given == files and "litmus/C/expected.yaml" in given
    args = [a for f in given for a in ("-expect", SRCDIR / f)]
    r = weft("-q", *args, LITMUS)
    assert r.returncode == 0, r.stderr
    named = sum(len(yaml.safe_load((SRCDIR / f).read_text())) for f in given)
    assert f"-expect: {named} tests compared, 0 mismatches" in r.stderr


def test_expect_lists_every_mismatch_of_doctored_file(weft, tmp_path):
    exp = yaml.safe_load((LITMUS / "PPC" / "expected.yaml").read_text())
    flip = {"allowed": "forbidden", "forbidden": "allowed", "required": "forbidden"}
    doctored = sorted(exp)[::7]
    assert len(doctored) >= 3
    for name in doctored:
        exp[name]["power"] = flip[exp[name]["power"]]
    # and one wrong set of states under sc, keeping its (right) verdict
    exp["MP"]["sc"] = {"verdict": exp["MP"]["sc"], "states": ["1:r1=0; 1:r3=0;", "1:r1=5; 1:r3=5;"]}
    f = tmp_path / "doctored.yaml"
    f.write_text(yaml.safe_dump(exp))
    r = weft("-q", "-expect", f, LITMUS / "PPC")
    assert r.returncode == 1
    listed = re.findall(r"^  (\S+) \(power\): expected (\w+), got (\w+)", r.stderr, re.M)
    assert sorted(n for n, _, _ in listed) == sorted(doctored)
    for name, want, got in listed:
        assert want == exp[name]["power"] and got != want
    assert f"weft: {len(doctored)} expectations not met:" in r.stderr
    # the blocks are still printed, all of them
    assert len(block_names(r.stdout)) == len(suite_files(LITMUS / "PPC"))
    f.write_text(yaml.safe_dump({name: {"sc": v["sc"]} for name, v in exp.items()}))
    r2 = weft("-q", "-model", "sc", "-expect", f, LITMUS / "PPC")
    assert r2.returncode == 1
    assert re.search(r'^  MP \(sc\): states differ: missing "1:r1=5; 1:r3=5;"; unexpected ', r2.stderr, re.M)
    assert r2.stderr.count("\n  ") == 1


def test_expect_accepts_ok_no_and_aliases(weft, tmp_path):
    f = tmp_path / "e.yaml"
    # MP on PPC is allowed under power: Ok for its exists; "ppc" names power
    f.write_text("MP:\n  ppc: Ok\nIRIW+syncs:\n  power: {verdict: Ok}\n")
    assert weft("-q", "-expect", f, LITMUS / "PPC").returncode == 0
    f.write_text("MP:\n  ppc: No\n")
    r = weft("-q", "-expect", f, LITMUS / "PPC")
    assert r.returncode == 1 and "MP (power): expected No, got Ok" in r.stderr


def test_malformed_expectations_are_located(weft, tmp_path):
    f = tmp_path / "e.yaml"
    f.write_text("MP:\n  power: perhaps\n")
    r = weft("-expect", f, LITMUS / "PPC" / "MP.litmus")
    assert r.returncode == 2
    assert f"{f}:2:10: error: unknown verdict 'perhaps'" in r.stderr
    f.write_text("MP: [1,\n")
    r2 = weft("-expect", f, LITMUS / "PPC" / "MP.litmus")
    assert r2.returncode == 2 and str(f) in r2.stderr and "error" in r2.stderr


# ---- herd-log-to-yaml -----------------------------------------------------------------

def convert(*args):
    return subprocess.run([PYTHON, str(CONVERTER), *map(str, args)],
                          capture_output=True, text=True, timeout=300)


def test_converter_round_trips_weft_logs(weft, tmp_path):
    """weft's own herd-format log, converted, is an expectation file weft meets;
    change one block's states and it no longer is."""
    log = tmp_path / "x86.log"
    log.write_text(weft("-q", LITMUS / "X86").stdout)
    r = convert("-model", "tso", log)
    assert r.returncode == 0, r.stderr
    exp = yaml.safe_load(r.stdout)
    assert set(exp) == {header_name(f) for f in suite_files(LITMUS / "X86")}
    assert all(set(v) == {"tso"} and v["tso"]["states"] for v in exp.values())
    (tmp_path / "e.yaml").write_text(r.stdout)
    assert weft("-q", "-expect", tmp_path / "e.yaml", LITMUS / "X86").returncode == 0
    # herd's own verdicts agree with the hand-written file
    hand = yaml.safe_load((LITMUS / "X86" / "expected.yaml").read_text())
    for name, models in hand.items():
        assert exp[name]["tso"]["verdict"] == models["tso"], name
    # a doctored log: one state line changed
    text = log.read_text()
    doctored = re.sub(r"(Test SB Allowed\nStates \d+\n)0:EAX=0;", r"\g<1>0:EAX=9;", text, count=1)
    assert doctored != text
    log.write_text(doctored)
    (tmp_path / "e.yaml").write_text(convert("-model", "tso", log).stdout)
    r2 = weft("-q", "-expect", tmp_path / "e.yaml", LITMUS / "X86")
    assert r2.returncode == 1 and "SB (tso): states differ" in r2.stderr


def test_converter_skips_records_and_takes_model_from_path(tmp_path):
    d = tmp_path / "expected" / "sc" / "PPC"
    d.mkdir(parents=True)
    (d / "a.expected").write_text(
        "Test A Allowed\nStates 1\n0:r1=0;\nNo\nWitnesses\nPositive: 0 Negative: 2\n"
        "Condition exists (0:r1=1)\nObservation A Never 0 2\nHash=x\n\n"
        "Test B Timeout 60\n\n"
        "Test C Forbidden\nStates 1\n0:r1=1;\nNo\nWitnesses\nPositive: 0 Negative: 3\n"
        "Condition ~exists (0:r1=1)\nObservation C Always 3 0\nHash=y\n\n")
    r = convert("-no-states", d / "a.expected")
    assert r.returncode == 0, r.stderr
    assert yaml.safe_load(r.stdout) == {"A": {"sc": "forbidden"}, "C": {"sc": "required"}}
    assert "B has no result" in r.stderr


def test_converted_corpus_logs_make_expect_pass(weft, corpus, tmp_path):
    """herd7's own results for a corpus sample, through the converter, are met
    by weft: same verdicts and the same sets of final states."""
    runs = [("power", "PPC", 100), ("tso", "X86", 12), ("tso", "X86_64", 40), ("sc", "PPC", 250),
            ("sc", "X86_64", 80)]
    checked = 0
    for model, arch, every in runs:
        tests, logs = corpus_sample(corpus, model, arch, every)
        assert tests, (model, arch)
        exp = tmp_path / f"{model}-{arch}.yaml"
        r = convert(*logs)  # model from the path: expected/<model>/<ARCH>/
        assert r.returncode == 0, r.stderr
        exp.write_text(r.stdout)
        assert len(yaml.safe_load(r.stdout)) == len(tests)
        args = ["-model", model] if model == "sc" else []
        w = weft("-q", "-timeout", "120", *args, "-expect", exp, *tests, timeout=1800)
        assert w.returncode == 0, f"{model}/{arch}:\n{w.stderr[-3000:]}"
        assert len(block_names(w.stdout)) == len(tests)
        checked += len(tests)
    assert checked > 100


def test_summary_under_several_models_says_verdicts_count_test_model_pairs(weft, tmp_path):
    # Two models: each test has two verdicts, and the summary says so
    # rather than printing 'N tests' beside N*2 Ok and No.
    r = weft("-model", "sc", "-model", "tso", LITMUS / "X86")
    blocks = r.stdout.count("\nObservation ") + r.stdout.startswith("Observation ")
    n = len(list((LITMUS / "X86").glob("*.litmus")))
    m = re.search(r"^weft: (\d+) tests x 2 models: (\d+) Ok, (\d+) No, 0 timeouts, 0 errors in [0-9.]+s$",
                  r.stderr, re.M)
    assert m, r.stderr
    assert int(m[1]) == n and int(m[2]) + int(m[3]) == 2 * n == blocks
    # The same counts from the saved results.
    saved = tmp_path / "r.yaml"
    saved.write_text(weft("-q", "-format", "yaml", "-model", "sc", "-model", "tso", LITMUS / "X86").stdout)
    r = weft("-results", saved, "-table", "csv")
    assert f"weft: {n} tests x 2 models: {m[2]} Ok, {m[3]} No, 0 timeouts, 0 errors (saved results)" \
        in r.stderr, r.stderr


def test_a_timeout_says_how_far_the_engine_got_and_what_may_answer(weft, tmp_path):
    subprocess.run([str(SRCDIR / "scripts" / "gen-sbnw"), "10", str(tmp_path)], check=True,
                   capture_output=True)
    test = tmp_path / "SB+10W.litmus"   # 184,759 executions under power
    r = weft("-timeout", "0.05", "-model", "power", test)
    assert r.returncode == 1 and "Test SB+10W Timeout 0.05" in r.stdout, r.stdout + r.stderr
    m = re.search(r"SB\+10W\.litmus:1:1: note: SB\+10W timed out after 0\.05 s under power with -engine rsmc: "
                  r"(\d+) allowed executions? found, (\d+) candidates? judged; -engine bmc answers", r.stderr)
    assert m, r.stderr
    assert int(m[1]) <= int(m[2]) < 184759
    # bmc is not sent to itself
    r = weft("-timeout", "0.05", "-engine", "bmc", "-model", "power", test)
    if "Timeout" in r.stdout:
        assert "-engine bmc answers" not in r.stderr and "under power with -engine bmc" in r.stderr, r.stderr
