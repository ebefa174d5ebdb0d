"""-explain and -show: the check that forbids an outcome, a cycle whose every
edge is checked against the execution printed with it, witnesses of allowed
outcomes, and Graphviz files that `dot` accepts."""
import pathlib
import re
import shutil
import subprocess

import pytest
import yaml

from conftest import SRCDIR
from test_suite import block_names, header_name, herd_blocks, suite_files

LITMUS = SRCDIR / "litmus"
EVENT = r"([a-z]+|i\([^)]*\)): ([RWFB]\*?(?: [^ ]+)?) \((P\d+|init)\)"


# ---- reading an explanation back --------------------------------------------------

def explanations(stdout):
    """[(name, model, outcome, {field: text})] of every Explain paragraph."""
    out = []
    for chunk in stdout.split("\n\n"):
        lines = chunk.strip("\n").splitlines()
        if not lines or not lines[0].startswith("Explain "):
            continue
        m = re.match(r"Explain (\S+) (\S+): (allowed|forbidden)$", lines[0])
        assert m, lines[0]
        fields = {}
        for l in lines[1:]:
            k, _, v = l.strip().partition(":")
            fields[k] = v.strip()
        out.append((m.group(1), m.group(2), m.group(3), fields))
    return out


class Execution:
    """Events, rf and co as an explanation prints them."""

    def __init__(self, f):
        self.desc, self.thread, self.order = {}, {}, []
        for m in re.finditer(EVENT, f["Events"]):
            self.add(m)
        self.rf = set()
        for pair in filter(None, f["rf"].split("; ")):
            w, r = pair.split(" -> ")
            self.rf.add((w, r))
        self.co_pos = {}
        for chain in filter(None, f["co"].split("; ")):
            for i, w in enumerate(chain.split(" -> ")):
                self.co_pos[w] = i
        self.state = f["State"]

    def add(self, m):
        name, desc, th = m.groups()
        if name not in self.desc:
            self.desc[name], self.thread[name] = desc, th
            if th != "init":
                self.order.append(name)

    def loc(self, e):
        return self.desc[e].split()[1].split("=")[0]

    def val(self, e):
        return self.desc[e].split("=")[1]

    def kind(self, e):
        return self.desc[e][0]

    def po(self, a, b):
        return (self.thread[a] == self.thread[b] != "init"
                and self.order.index(a) < self.order.index(b))

    def co(self, a, b):
        return (self.kind(a) == self.kind(b) == "W" and self.loc(a) == self.loc(b)
                and self.co_pos.get(a, 0) < self.co_pos.get(b, 0))

    def fr(self, r, w):
        src = [a for a, b in self.rf if b == r]
        return self.kind(r) == "R" and len(src) == 1 and self.co(src[0], w)

    def fences_between(self, a, b):
        return {self.desc[f].split()[1] for f in self.order
                if self.kind(f) == "F" and self.po(a, f) and self.po(f, b)}

    def check_rf(self):
        """Every read reads from one write of its location with its value."""
        for r in self.order:
            if self.kind(r) != "R":
                continue
            src = [w for w, b in self.rf if b == r]
            assert len(src) == 1, (r, src)
            w = src[0]
            assert self.kind(w) == "W" and self.loc(w) == self.loc(r) and self.val(w) == self.val(r)


def check_edge(x, a, labels, b):
    """Each base relation named in labels holds from a to b in x."""
    internal = x.thread[a] == x.thread[b] != "init"
    assert labels != ["?"], (a, b)
    for lab in labels:
        if lab in ("rfe", "rfi"):
            assert (a, b) in x.rf and internal == (lab == "rfi"), (a, lab, b)
        elif lab in ("coe", "coi"):
            assert x.co(a, b) and internal == (lab == "coi"), (a, lab, b)
        elif lab in ("fre", "fri"):
            assert x.fr(a, b) and internal == (lab == "fri"), (a, lab, b)
        elif lab == "po":
            assert x.po(a, b), (a, b)
        elif lab in ("addr", "data", "ctrl", "rmw"):
            assert "po" in labels or lab == "rmw", (a, lab, b)
        else:
            # a fence name: written after po, one of the fences between
            assert "po" in labels and lab in x.fences_between(a, b), (a, lab, b)


def check_cycle(fields, closed=True):
    """Parse the Cycle line, check every edge; returns (events, labels)."""
    x = Execution(fields)
    x.check_rf()
    text = fields["Cycle"] if "Cycle" in fields else fields["Path"]
    assert " ... " not in text
    parts = re.split(r" -([^ >]+)-> ", text)
    events = [re.fullmatch(EVENT, p) for p in parts[0::2]]
    assert all(events), parts
    for m in events:
        name, desc, th = m.groups()
        # the cycle describes events as the Events line does
        assert x.desc.get(name, desc) == desc and x.thread.get(name, th) == th, name
        x.add(m)
    names = [m.group(1) for m in events]
    edges = [p.split(":")[0].split(",") for p in parts[1::2]]
    for a, labels, b in zip(names, edges, names[1:]):
        check_edge(x, a, labels, b)
    if closed:
        assert names[0] == names[-1] and len(names) >= 3
    return names, edges


def run_explain(weft, *args):
    r = weft("-q", "-explain", *args)
    assert r.returncode == 0, r.stderr
    return r, explanations(r.stdout)


# ---- forbidden outcomes: the check and its cycle -----------------------------------------

@pytest.mark.parametrize("test, model, check", [
    ("PPC/SB+syncs", "power", "propagation"),
    ("PPC/MP+lwsync+addr", "power", "observation"),
    ("PPC/IRIW+syncs", "power", "propagation"),
    ("PPC/LB+datas", "power", "thinair"),
    ("PPC/CoRR", "power", "uniproc"),
    ("X86/MP", "tso", "tso"),
    ("X86/SB+mfences", "tso", "tso"),
    ("PPC/SB", "sc", "sc"),
])
def test_forbidden_outcome_names_check_and_cycle(weft, test, model, check):
    r, ex = run_explain(weft, "-model", model, LITMUS / f"{test}.litmus")
    (name, m, outcome, f), = ex
    assert (m, outcome) == (model, "forbidden")
    assert f["Forbidden by"].startswith(check + " (")
    assert f["Failing checks"].split(", ")[0] == check
    assert f["In check " + check]
    names, edges = check_cycle(f)
    # the communication edges that make these shapes are there
    flat = {l for e in edges for l in e}
    assert flat & {"fre", "rfe", "coe"}
    # the state shown is a target state: the block's condition reaches it
    # only in executions the model forbids, so it is not among the block's
    # allowed states with the proposition holding
    block = herd_blocks(r.stdout[:r.stdout.index("Explain ")])[name]
    state = " ".join(sorted(f["State"].split()))
    assert state not in {" ".join(sorted(s.replace("[", "").replace("]", "").split()))
                         for s in block["states"]} or block["kind"] == "Required"


def test_fence_labels_name_the_fence_between(weft):
    _, ex = run_explain(weft, LITMUS / "PPC" / "SB+syncs.litmus")
    names, edges = check_cycle(ex[0][3])
    assert ["po", "sync"] in edges
    _, ex = run_explain(weft, LITMUS / "X86" / "SB+mfences.litmus")
    names, edges = check_cycle(ex[0][3])
    assert ["po", "mfence"] in edges
    assert ex[0][3]["Target"].endswith("fails (a counterexample to forall)")


def test_every_forbidden_outcome_of_litmus_has_a_checked_cycle(weft):
    for arch, models in (("PPC", ("power", "sc")), ("X86", ("tso", "sc"))):
        args = [a for m in models for a in ("-model", m)]
        r, ex = run_explain(weft, *args, LITMUS / arch)
        files = suite_files(LITMUS / arch)
        assert [(n, m) for n, m, _, _ in ex] == [(header_name(f), m) for f in files for m in models]
        blocks = {}
        for m in models:
            blocks[m] = herd_blocks(weft("-q", "-model", m, LITMUS / arch).stdout)
        n_cycles = 0
        for name, model, outcome, f in ex:
            b = blocks[model][name]
            target = b["neg"] if b["kind"] == "Required" or "forall" in f["Target"] else b["pos"]
            # herd's Required/forall blocks count the other way round
            assert outcome == ("allowed" if target > 0 else "forbidden"), (name, model)
            if outcome == "forbidden" and "Cycle" in f:
                check_cycle(f)
                n_cycles += 1
            elif outcome == "allowed":
                Execution(f).check_rf()
        assert n_cycles >= 10, arch


# ---- allowed outcomes: a witness -------------------------------------------------------

def test_allowed_outcome_shows_a_witness_reaching_the_condition(weft):
    r, ex = run_explain(weft, LITMUS / "PPC" / "MP.litmus", LITMUS / "X86" / "SB.litmus")
    assert [(n, o) for n, _, o, _ in ex] == [("MP", "allowed"), ("SB", "allowed")]
    for (name, _, _, f), want in zip(ex, ({"1:r1": "1", "1:r3": "0"}, {"0:EAX": "0", "1:EAX": "0"})):
        assert f["Witness"].startswith("an allowed execution")
        state = dict(b.split("=") for b in f["State"].replace(" ", "").split(";") if b)
        assert state == want
        x = Execution(f)
        x.check_rf()
        # the witness's reads of 0 read the initial writes
        zero_reads = [e for e in x.order if x.kind(e) == "R" and x.val(e) == "0"]
        assert zero_reads and all((f"i({x.loc(e)})", e) in x.rf for e in zero_reads)


def test_no_reaching_candidate_is_said(weft, tmp_path):
    src = (LITMUS / "PPC" / "MP.litmus").read_text()
    f = tmp_path / "MP9.litmus"
    f.write_text(re.sub(r"exists \(.*\)", "exists (1:r1=9)", src).replace("PPC MP", "PPC MP9", 1))
    _, ex = run_explain(weft, f)
    assert ex[0][2] == "forbidden"
    assert "No candidate execution reaches the condition's states." in ex[0][3]
    assert "Cycle" not in ex[0][3] and "Forbidden by" not in ex[0][3]


def test_explain_with_yaml_is_a_usage_error(weft):
    r = weft("-explain", "-format", "yaml", LITMUS / "PPC" / "MP.litmus")
    assert r.returncode == 2 and "-explain" in r.stderr


# ---- Graphviz ------------------------------------------------------------------------------

needs_dot = pytest.mark.skipif(not shutil.which("dot"), reason="graphviz's dot is not installed")


def dot_ok(path):
    p = subprocess.run(["dot", "-Tsvg", str(path), "-o", "/dev/null"], capture_output=True, text=True,
                       timeout=60)
    return p.returncode == 0 and p.stderr == "", p.stderr


@needs_dot
@pytest.mark.parametrize("show", ["prop", "neg", "all"])
def test_show_writes_one_accepted_dot_file_per_execution(weft, tmp_path, show):
    n_files = 0
    for arch, model in (("PPC", "power"), ("X86", "tso")):
        out = tmp_path / arch
        out.mkdir()
        r = weft("-q", "-show", show, "-o", out, *suite_files(LITMUS / arch)[::3])
        assert r.returncode == 0, r.stderr
        blocks = herd_blocks(r.stdout)
        files = sorted(out.glob("*.dot"))
        n_files += len(files)
        want_total = 0
        for name, b in blocks.items():
            # the Observation counts (not herd's Witnesses) are the proposition's
            want = {"prop": b["pos"], "neg": b["neg"], "all": b["pos"] + b["neg"]}[show]
            want_total += want
            safe = re.sub(r"[^A-Za-z0-9+._-]", "_", name)
            mine = sorted(p.name for p in files if p.name.startswith(f"{safe}.{model}."))
            assert mine == sorted(f"{safe}.{model}.{k}.dot" for k in range(1, want + 1)), (name, show)
        assert len(files) == want_total
        for p in files:
            ok, err = dot_ok(p)
            assert ok, (p.name, err)
            text = p.read_text()
            assert 'group="P0"' in text and 'group="init"' in text
            # every read has its rf edge drawn
            reads = re.findall(r'^  "([a-z]+)" \[label="[a-z]+: R', text, re.M)
            rf_to = re.findall(r'-> "([a-z]+)" \[label="rf"', text)
            assert sorted(reads) == sorted(rf_to), p.name
    assert n_files > 0


@needs_dot
def test_explained_execution_is_drawn_with_its_cycle(weft, tmp_path):
    r, ex = run_explain(weft, "-o", tmp_path, LITMUS / "PPC" / "MP+lwsync+addr.litmus",
                        LITMUS / "PPC" / "SB.litmus")
    forbidden = tmp_path / "MP+lwsync+addr.power.explain.dot"
    allowed = tmp_path / "SB.power.explain.dot"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([forbidden.name, allowed.name])
    for p in (forbidden, allowed):
        ok, err = dot_ok(p)
        assert ok, err
    names, edges = check_cycle(ex[0][3])
    hl = re.findall(r'^  "([^"]+)" -> "([^"]+)" \[label="([^"]*)", color=magenta, fontcolor=magenta, penwidth=3',
                    forbidden.read_text(), re.M)
    # the cycle's edges, each drawn once (in the picture's order)
    assert sorted((a, b) for a, b, _ in hl) == sorted(zip(names, names[1:]))
    assert "penwidth=3" not in allowed.read_text()
    # rf, co, fr and a dependency are drawn (merged labels: po,addr)
    text = forbidden.read_text()
    for lab in ("rf", "co", "fr", "po", "addr"):
        assert re.search(rf'label="([^"]*[,:])?{lab}([,:][^"]*)?"', text), lab


def test_show_makes_a_missing_folder(weft, tmp_path):
    r = weft("-q", "-show", "all", "-o", tmp_path / "new", LITMUS / "PPC" / "MP.litmus")
    assert r.returncode == 0, r.stderr
    assert block_names(r.stdout) == ["MP"]
    assert sorted(p.name for p in (tmp_path / "new").iterdir())[0].startswith("MP.")


def test_show_into_a_folder_that_cannot_be_made_fails_before_any_test(weft, tmp_path):
    r = weft("-q", "-show", "all", "-o", tmp_path / "no" / "pe", LITMUS / "PPC" / "MP.litmus")
    assert r.returncode == 1
    assert "pe" in r.stderr and "error" in r.stderr
    assert r.stdout == ""


# ---- the corpus ------------------------------------------------------------------------------

@pytest.mark.parametrize("arch, step, herd_cat", [
    ("PPC", 80, None), ("X86", 10, None), ("X86_64", 40, None),
    ("PPC", 160, "ppc.cat"), ("X86", 20, "x86tso.cat"),
    # a catdep model: herd's dependency relations, ob told through its
    # operands (test_catdep.py)
    ("AArch64", 37, "7.58/aarch64.cat"),
])
def test_corpus_sample_explanations_check_out(weft, corpus, arch, step, herd_cat):
    """Every cycle printed for a sample of the corpus (under weft's models,
    and under herd7's own cat files) passes the edge checks."""
    files = sorted((corpus / "tests" / arch).glob("*.litmus"))[::step]
    model = pathlib.Path(herd_cat) if herd_cat else None
    args = ["-I", corpus / "herd-cat" / model.parent, "-model", model.name] if herd_cat else []
    r = weft("-q", "-j", "2", "-timeout", "30", "-explain", *args, *files)
    assert r.returncode == 0, r.stderr[-2000:]
    ex = explanations(r.stdout)
    assert len(ex) == len(files)
    cycles = 0
    for name, model, outcome, f in ex:
        if outcome == "allowed":
            Execution(f).check_rf()
        elif "Cycle" in f or "Path" in f:
            check_cycle(f, closed="Cycle" in f)
            cycles += 1
        else:
            assert "No candidate execution reaches the condition's states." in f \
                or any(k.startswith("In check") for k in f), (name, f)
    assert cycles >= len(files) // 5


def test_an_explicit_rsmc_with_explain_or_show_is_a_usage_error_saying_why(weft, srcdir, tmp_path):
    """rsmc never completes a forbidden execution, so it has nothing to
    explain or draw: asking for it by name is refused, whatever the order or
    spelling of the options."""
    sb = srcdir / "litmus" / "PPC" / "SB.litmus"
    for args in (["-engine", "rsmc", "-explain"], ["-explain", "--engine=rsmc"],
                 ["-engine", "rsmc", "-show", "all", "-o", tmp_path],
                 ["-show", "neg", "-o", tmp_path, "-engine", "rsmc", "-explain"]):
        r = weft(*args, sb)
        assert r.returncode == 2, args
        first = r.stderr.splitlines()[0]
        assert first.startswith("weft: -explain and -show need -engine enumerate: rsmc "), first
        assert "forbidden executions" in first
        assert r.stderr.endswith("Try 'weft -help'.\n")
        assert r.stdout == ""
    assert list(tmp_path.iterdir()) == []
    # the same options with the enumerator named, or with no engine at all, run
    for args in (["-engine", "enumerate", "-explain"], ["-explain"]):
        assert weft("-q", *args, sb).returncode == 0, args


def test_explain_and_show_run_the_enumerator_without_engine(weft, srcdir, tmp_path):
    """With -explain or -show and no -engine, the run is the enumerator's:
    the same output as -engine enumerate, explanations of forbidden
    outcomes included, result blocks the same as the default engine's, and
    nothing said on stderr."""
    tests = [srcdir / "litmus" / "PPC" / n for n in ("SB.litmus", "MP+lwsync+addr.litmus")]
    strip = lambda s: re.sub(r"^Time .*\n", "", s, flags=re.M)
    default = weft("-q", "-explain", *tests)
    named = weft("-q", "-engine", "enumerate", "-explain", *tests)
    assert default.returncode == named.returncode == 0, default.stderr
    assert default.stderr == ""
    assert strip(default.stdout) == strip(named.stdout)
    outcomes = {(n, o) for n, _, o, _ in explanations(default.stdout)}
    assert outcomes == {("SB", "allowed"), ("MP+lwsync+addr", "forbidden")}
    # the result blocks are those of a run without -explain (rsmc's)
    plain = weft("-q", *tests)
    blocks = lambda out: [c for c in strip(out).split("\n\n") if c.startswith("Test ")]
    assert blocks(default.stdout) == blocks(plain.stdout) and len(blocks(plain.stdout)) == 2
    # -stats tells the engines apart: the enumerator commits nothing
    stats = weft("-q", "-stats", "-explain", *tests)
    commits = [int(m) for m in re.findall(r"^Stats \S+ .* commits (\d+)\b", stats.stdout, re.M)]
    assert commits == [0, 0], stats.stdout
    # -show alone: one graph per allowed execution, and YAML names the engine
    out = tmp_path / "g"
    out.mkdir()
    y = weft("-q", "-show", "all", "-o", out, "-format", "yaml", tests[0])
    assert y.returncode == 0 and y.stderr == "", y.stderr
    (doc,) = yaml.safe_load_all(y.stdout)
    assert doc["engine"] == "enumerate"
    assert len(list(out.glob("SB.power.*.dot"))) == doc["positive"] + doc["negative"] > 0


def dot_layout(dot_file):
    """(column of each node, {node: (x, y)}) of a picture laid out by
    Graphviz (dot -Tplain): a node's column is its group (P0, ..., init)."""
    text = dot_file.read_text()
    group = dict(re.findall(r'^  "([^"]+)" \[label=.*?group="([^"]+)"', text, re.M))
    plain = subprocess.run(["dot", "-Tplain", str(dot_file)], capture_output=True, text=True,
                           check=True).stdout
    pos = {}
    for line in plain.splitlines():
        p = line.split()
        if p[0] == "node":
            pos[p[1].strip('"')] = (float(p[2]), float(p[3]))
    return group, pos


@needs_dot
def test_iriw_syncs_explanation_shows_its_threads_left_to_right(weft, tmp_path):
    """The explanation's picture: P0..P3 in columns left to right, each
    thread's events in its column in program order (top down), the initial
    writes above them; the failing cycle in a colour no relation has."""
    r = weft("-q", "-explain", "-o", tmp_path, LITMUS / "PPC" / "IRIW+syncs.litmus")
    assert r.returncode == 0, r.stderr
    f = tmp_path / "IRIW+syncs.power.explain.dot"
    ok, err = dot_ok(f)
    assert ok, err
    group, pos = dot_layout(f)
    heads = [pos[f"P{t}"][0] for t in range(4)]
    assert heads == sorted(heads) and len(set(heads)) == 4, heads
    events = {n: g for n, g in group.items() if g != "init"}
    assert sorted(set(events.values())) == ["P0", "P1", "P2", "P3"]
    for n, g in events.items():
        assert abs(pos[n][0] - pos[g][0]) < 0.01, (n, g)
        assert pos[n][1] < pos[g][1]          # under its column's title
    # program order reads top down: events are named in program order
    for t in range(4):
        col = sorted((n for n, g in events.items() if g == f"P{t}"), key=lambda n: (len(n), n))
        ys = [pos[n][1] for n in col]
        assert ys == sorted(ys, reverse=True), (t, col, ys)
    init_y = [pos[n][1] for n, g in group.items() if g == "init"]
    assert init_y and min(init_y) > max(pos[n][1] for n in events)
    text = f.read_text()
    assert "color=magenta" in text
    base = set(re.findall(r'\bcolor=(\w+)', text.replace("color=magenta", "")))
    assert "magenta" not in base
    # the final state is in the title, every edge once
    assert re.search(r'label="[^"]*\\n1:r1=1; 1:r3=0; 3:r1=1; 3:r3=0;"', text), text
    pairs = re.findall(r'^  ("[^"]+" -> "[^"]+") \[label', text, re.M)
    assert len(pairs) == len(set(pairs))


@needs_dot
def test_the_models_show_directives_are_drawn(weft, tmp_path):
    """show NAME and show EXPR as LABEL draw that relation (between
    immediate successors) with its label; unshow takes it back."""
    model = tmp_path / "shown.cat"
    model.write_text('"shown"\ninclude "power.cat"\nlet fenced = lwsync\nshow fenced\n'
                     "show rf as seen\nshow po as order\nunshow order\n"
                     "show po & (W * W) as ww\nshow W as writes\nshow nosuchname as nothing\n")
    out = tmp_path / "dots"
    r = weft("-q", "-model", model, "-show", "all", "-o", out, LITMUS / "PPC" / "MP+lwsync+addr.litmus")
    assert r.returncode == 0, r.stderr
    files = sorted(out.glob("*.dot"))
    assert files
    for f in files:
        ok, err = dot_ok(f)
        assert ok, err
        text = f.read_text()
        # P0's write of x is lwsync-before its write of y: a -> c
        assert re.search(r'^  "a" -> "c" \[label="fenced,ww", color=saddlebrown', text, re.M), text
        # rf is a base relation: its edges say both names, once
        assert re.search(r'-> "d" \[label="rf,seen"', text), text
        assert "order" not in text
        # a set, or a name the model does not bind, is not drawn, nor an error
        assert "writes" not in text and "nothing" not in text
