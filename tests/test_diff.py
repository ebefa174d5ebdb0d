"""-diff: the tests whose results differ between two models, from a live run
and from saved runs, checked against two separate runs of each model."""
import json
import re

from conftest import SRCDIR

LITMUS = SRCDIR / "litmus"
SUMMARY = re.compile(r"^weft -diff: (\S+) vs (\S+): (\d+) of (\d+) tests? differ: (\d+) verdict, (\d+) states, "
                     r"(\d+) counts, (\d+) failed, (\d+) missing$", re.M)


def blocks(text):
    """herd blocks by test name, without Time lines."""
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith("Test "):
            cur = line.split()[1]
            out[cur] = []
        if cur and line.strip() and not line.startswith("Time "):
            out[cur].append(line)
    return out


def diff_lines(text):
    return [l.split("\t") for l in text.splitlines() if not l.startswith("\t")]


def test_live_diff_lists_exactly_the_tests_whose_blocks_differ(weft):
    folders = (LITMUS / "X86",)   # names are unique in one folder
    r = weft("-diff", "-model", "sc", "-model", "tso", *folders)
    assert r.returncode == 1, r.stderr
    sc = blocks(weft("-q", "-model", "sc", *folders).stdout)
    tso = blocks(weft("-q", "-model", "tso", *folders).stdout)
    differing = {n for n in sc if sc[n] != tso.get(n)}
    lines = diff_lines(r.stdout)
    assert {l[1] for l in lines} == differing and len(lines) == len(differing) > 3
    for kind, name, a, b in lines:
        assert a.startswith("sc: ") and b.startswith("tso: ")
        verdict = lambda blk: "Sometimes" in blk[-2] or "Always" in blk[-2]
        obs = lambda blk: next(l for l in blk if l.startswith("Observation"))
        states = lambda blk: blk[2:2 + int(blk[1].split()[1])]
        if kind == "verdict":
            assert (obs(sc[name]).split()[2] == "Never") != (obs(tso[name]).split()[2] == "Never"), name
        elif kind == "states":
            assert states(sc[name]) != states(tso[name]), name
        else:
            assert kind == "counts", (kind, name)
    m = SUMMARY.search(r.stderr)
    assert m, r.stderr
    kinds = [l[0] for l in lines]
    assert (m[1], m[2], int(m[3])) == ("sc", "tso", len(lines))
    assert [int(m[i]) for i in (5, 6, 7)] == [kinds.count(k) for k in ("verdict", "states", "counts")]
    # the states only one side has, under a line that says the sets differ
    text = r.stdout
    assert re.search(r"^(verdict|states)\t.*\n\t\+ \S+;$", text, re.M), text


def test_same_model_twice_differs_nowhere(weft, tmp_path):
    copy = tmp_path / "mysc.cat"
    copy.write_text((SRCDIR / "cat" / "sc.cat").read_text())
    r = weft("-diff", "-model", "sc", "-model", copy, LITMUS / "X86")
    assert (r.returncode, r.stdout) == (0, ""), r.stderr
    m = SUMMARY.search(r.stderr)
    assert m and (m[1], m[2], m[3]) == ("sc", "mysc", "0"), r.stderr


def test_saved_runs_diff_as_the_live_run(weft, tmp_path):
    live = weft("-diff", "-model", "sc", "-model", "tso", LITMUS / "X86")
    a, b = tmp_path / "sc.yaml", tmp_path / "tso.jsonl"
    a.write_text(weft("-q", "-format", "yaml", "-model", "sc", LITMUS / "X86").stdout)
    b.write_text(weft("-q", "-format", "json", "-model", "tso", LITMUS / "X86").stdout)
    saved = weft("-diff", "-results", a, "-results", b)
    assert (saved.returncode, saved.stdout) == (1, live.stdout), saved.stderr
    # herd logs too: their columns are named by the files
    la, lb = tmp_path / "sc.log", tmp_path / "tso.log"
    la.write_text(weft("-q", "-model", "sc", LITMUS / "X86").stdout)
    lb.write_text(weft("-q", "-model", "tso", LITMUS / "X86").stdout)
    logs = weft("-diff", "-results", la, "-results", lb)
    assert (logs.returncode, logs.stdout) == (1, live.stdout), logs.stderr


def test_missing_and_failed_sides(weft, tmp_path):
    docs = [json.loads(l) for l in weft("-q", "-format", "json", "-model", "sc", LITMUS / "X86").stdout.splitlines()]
    a = tmp_path / "a.json"
    a.write_text("".join(json.dumps(d) + "\n" for d in docs))
    other = [dict(d, model="other", run=dict(d["run"], id="x", models=["other"])) for d in docs]
    gone = other.pop(0)["name"]
    failed = other[0]["name"]
    other[0] = {k: other[0][k] for k in ("name", "file", "model", "run")} | {"verdict": "Timeout", "timeout": 1}
    b = tmp_path / "b.json"
    b.write_text("".join(json.dumps(d) + "\n" for d in other))
    # -force: b's run is cut short, and its Timeout has no model file
    r = weft("-diff", "-force", "-results", a, "-results", b)
    assert r.returncode == 1, r.stderr
    assert diff_lines(r.stdout) == [
        ["missing", gone, next(l for l in r.stdout.splitlines() if gone in l).split("\t")[2], "other: absent"],
        ["failed", failed, next(l for l in r.stdout.splitlines() if failed in l).split("\t")[2], "other: Timeout"],
    ]


def test_diff_usage(weft, tmp_path):
    r = weft("-diff", "-model", "sc", LITMUS / "X86")
    assert r.returncode == 1 and "-diff: error: compares two models, and this run has 1" in r.stderr, r.stderr
    r = weft("-diff", "-table", "csv", "-model", "sc", "-model", "tso", LITMUS / "X86")
    assert r.returncode == 2 and "-diff prints the differences instead of a table" in r.stderr
    r = weft("-diff", "-format", "json", "-model", "sc", "-model", "tso", LITMUS / "X86")
    assert r.returncode == 2 and "-diff cannot be combined with -format" in r.stderr
    out = tmp_path / "d.txt"
    r = weft("-q", "-diff", "-o", out, "-model", "sc", "-model", "tso", LITMUS / "X86")
    assert r.returncode == 1 and r.stdout == "" and r.stderr == "" and out.read_text().startswith(("verdict", "states"))
