"""Tables from saved results (-results): shards joined back exactly, missing
and repeated shards and mixed producers refused, herd logs as results, the
HTML page, and scripts/campaign (GNU parallel) as the tested recipe."""
import html.parser
import os
import re
import shutil
import subprocess

import pytest
import yaml

from conftest import SRCDIR, WEFT

LITMUS = SRCDIR / "litmus"
PPC = LITMUS / "PPC"
FORMATS = ("markdown", "latex", "latex-doc", "csv", "html")


def shards(weft, tmp_path, n, *args, folder=PPC, name="shard", status=0):
    """Run the n shards of a -format yaml run, each to its own file."""
    paths = []
    for k in range(1, n + 1):
        out = tmp_path / f"{name}-{k}.yaml"
        r = weft("-q", "-j", "2", "-format", "yaml", "-shard", f"{k}/{n}", "-o", out, *args, folder)
        assert r.returncode == status or (status is None and r.returncode in (0, 1)), r.stderr
        assert r.stdout == "", "with -o the documents go to the file"
        paths.append(out)
    return paths


def results_args(paths):
    return [a for p in paths for a in ("-results", p)]


def without_time(summary):
    return re.sub(r" (in [0-9.]+s|\(saved results\))$", "", summary.strip().splitlines()[-1])


@pytest.mark.parametrize("cells", ["verdict", "counts", "states"])
def test_joined_shards_give_the_direct_table_byte_for_byte(weft, tmp_path, cells):
    models = ("-model", "power", "-model", "sc")
    paths = shards(weft, tmp_path, 4, *models, "-stats")
    for fmt in FORMATS:
        direct = weft("-j", "2", "-stats", *models, "-table", fmt, "-table-cells", cells, PPC)
        joined = weft("-stats", "-table", fmt, "-table-cells", cells, *results_args(reversed(paths)))
        assert direct.returncode == 0 and joined.returncode == 0, joined.stderr
        assert joined.stdout == direct.stdout, fmt
        assert without_time(joined.stderr) == without_time(direct.stderr)
        assert joined.stdout.count("Allowed") > 0 and joined.stdout.count("Forbidden") > 0


def test_failed_tests_join_like_the_direct_run(weft, tmp_path):
    # a test that times out, one that cannot be parsed, and good ones, with
    # a hardware column read from a herd log (Observed where sc allows)
    from test_suite import big_test
    suite = tmp_path / "suite"
    suite.mkdir()
    big_test(suite)
    for n in ("MP", "SB", "LB"):
        shutil.copy(PPC / f"{n}.litmus", suite)
    (suite / "broken.litmus").write_text("PPC broken\n{ x=0; }\n P0 ;\n bogus r1 ;\nexists (0:r1=1)\n")
    hw = tmp_path / "hw.log"
    hw.write_text(weft("-q", "-model", "sc", *(suite / f"{n}.litmus" for n in ("MP", "SB", "LB"))).stdout)
    args = ("-timeout", "1", "-model", "power", "-model", "sc")
    out = tmp_path / "out"
    out.mkdir()
    paths = shards(weft, out, 2, *args, folder=suite, status=None)
    docs = [d for p in paths for d in yaml.safe_load_all(p.read_text())]
    timeouts = [d for d in docs if d["verdict"] == "Timeout"]
    assert timeouts and all(d["condition"].startswith("exists") for d in timeouts)
    assert any(d["verdict"] == "Error" for d in docs)
    for fmt in ("markdown", "csv", "html"):
        direct = weft("-j", "2", *args, "-table", fmt, "-hardware", hw, suite, timeout=120)
        joined = weft("-table", fmt, "-hardware", hw, "-results", out)
        assert direct.returncode == 1 and joined.returncode == 0, joined.stderr
        assert joined.stdout == direct.stdout
        assert "Timeout" in joined.stdout and "Error" in joined.stdout
        assert without_time(joined.stderr) == without_time(direct.stderr)


def test_a_folder_of_shards_joins_like_the_files(weft, tmp_path):
    d = tmp_path / "results"
    d.mkdir()
    shards(weft, d, 3)
    direct = weft("-q", "-table", "csv", PPC).stdout
    assert weft("-q", "-table", "csv", "-results", d).stdout == direct


def test_more_shards_than_tests(weft, tmp_path):
    # 4 tests in 8 shards: four shard files are empty, and nothing is missing
    sel = ("-select", "^(MP|SB|LB|R)$")
    paths = shards(weft, tmp_path, 8, *sel)
    assert sum(p.stat().st_size == 0 for p in paths) == 4
    r = weft("-table", "csv", "-results", tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == weft("-q", "-table", "csv", *sel, PPC).stdout
    assert len(r.stdout.splitlines()) == 5
    paths[1].unlink()
    r = weft("-table", "csv", "-results", tmp_path)
    assert r.returncode == 1 and "shard 2/8 is missing" in r.stderr


def test_documents_say_their_place_and_producer(weft, tmp_path):
    paths = shards(weft, tmp_path, 2, "-model", "power", "-model", "sc")
    docs = [doc for p in paths for doc in yaml.safe_load_all(p.read_text())]
    runs = {doc["run"]["id"] for doc in docs}
    assert len(runs) == 1, "every shard of one run has the same id"
    run = docs[0]["run"]
    assert run["models"] == ["power", "sc"] and run["engine"] == "rsmc"
    assert "-unroll 2" in run["options"]
    n = len(list(PPC.glob("*.litmus")))
    assert run["selected"] == n
    assert sorted({doc["seq"] for doc in docs}) == list(range(1, n + 1))
    assert {doc["run"]["shard"] for doc in docs} == {"1/2", "2/2"}
    for doc in docs:
        assert doc["seq"] % 2 == int(doc["run"]["shard"][0]) % 2
        assert os.path.isabs(doc["model_file"]) and doc["model_file"].endswith(doc["model"] + ".cat")
        assert re.fullmatch(r"[0-9a-f]{32}", doc["model_fingerprint"])
    other = yaml.safe_load_all(weft("-q", "-format", "yaml", "-engine", "enumerate", PPC / "MP.litmus").stdout)
    assert next(other)["run"]["id"] not in runs, "another producer, another run"


def test_a_missing_shard_is_an_error_naming_it(weft, tmp_path):
    paths = shards(weft, tmp_path, 4)
    r = weft("-table", "markdown", *results_args(paths[:2] + paths[3:]))
    assert r.returncode == 1
    assert r.stdout == "", "never a silently short table"
    assert "error" in r.stderr and "shard 3/4 is missing" in r.stderr
    assert "shard 1/4" not in r.stderr and "shard 4/4" not in r.stderr
    forced = weft("-force", "-table", "csv", *results_args(paths[:2] + paths[3:]))
    assert forced.returncode == 0 and "note" in forced.stderr and "shard 3/4 is missing" in forced.stderr
    direct_rows = weft("-q", "-table", "csv", PPC).stdout.splitlines()
    assert len(forced.stdout.splitlines()) < len(direct_rows)


def test_a_shard_cut_short_is_found(weft, tmp_path):
    (path,) = shards(weft, tmp_path, 1)
    text = path.read_text()
    docs = text.split("\n---\n")
    path.write_text("\n---\n".join(docs[: len(docs) // 2]) + "\n")
    r = weft("-table", "csv", "-results", path)
    assert r.returncode == 1 and r.stdout == ""
    assert "shard 1/1 is incomplete" in r.stderr and "a shard cut short" in r.stderr
    half = text[: len(text) // 2 + 7]
    path.write_text(half)
    r = weft("-table", "csv", "-results", path)
    assert r.returncode == 1 and r.stdout == ""
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: error", r.stderr), r.stderr


def test_a_repeated_shard_is_an_error(weft, tmp_path):
    paths = shards(weft, tmp_path, 3)
    r = weft("-table", "csv", *results_args(paths + [paths[1]]))
    assert r.returncode == 1 and r.stdout == ""
    assert "shard 2/3" in r.stderr and "saved twice" in r.stderr
    copy = tmp_path / "copy.yaml"
    shutil.copy(paths[1], copy)
    forced = weft("-q", "-force", "-table", "csv", *results_args(paths + [copy]))
    assert forced.returncode == 0
    assert forced.stdout == weft("-q", "-table", "csv", PPC).stdout


def test_two_producers_in_one_column_are_refused(weft, tmp_path):
    a, b = tmp_path / "rsmc.yaml", tmp_path / "enum.yaml"
    files = [PPC / "MP.litmus", PPC / "SB.litmus"]
    weft("-q", "-format", "yaml", "-o", a, *files)
    weft("-q", "-format", "yaml", "-engine", "enumerate", "-o", b, *files)
    r = weft("-table", "csv", "-results", a, "-results", b)
    assert r.returncode == 1 and r.stdout == ""
    assert "column power mixes producers" in r.stderr
    assert "-engine enumerate" in r.stderr and "-engine rsmc" in r.stderr
    forced = weft("-q", "-force", "-table", "csv", "-results", a, "-results", b)
    assert forced.returncode == 0 and "note: " in forced.stderr
    assert forced.stdout == weft("-q", "-table", "csv", *files).stdout
    # another -unroll is another producer too
    c = tmp_path / "unroll.yaml"
    weft("-q", "-format", "yaml", "-unroll", "3", "-o", c, *files)
    assert weft("-table", "csv", "-results", a, "-results", c).returncode == 1


def test_selection_applies_to_saved_tests(weft, tmp_path):
    paths = shards(weft, tmp_path, 2, "-model", "power", "-model", "sc")
    names = tmp_path / "some.names"
    names.write_text("MP\nSB\nLB\n")
    for sel in (["-select", "^MP"], ["-excl", "^(MP|SB)"], ["-names", names]):
        direct = weft("-q", "-model", "power", "-model", "sc", "-table", "markdown", *sel, PPC)
        joined = weft("-q", "-table", "markdown", *sel, *results_args(paths))
        assert joined.returncode == 0, joined.stderr
        assert joined.stdout == direct.stdout, sel
    r = weft("-table", "csv", "-select", "^NoSuchTest$", *results_args(paths))
    assert r.returncode == 1 and "no saved result left" in r.stderr


def test_model_chooses_and_orders_columns(weft, tmp_path):
    paths = shards(weft, tmp_path, 2, "-model", "power", "-model", "sc")
    r = weft("-q", "-table", "csv", "-model", "sc", "-model", "ppc", *results_args(paths))
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "test,sc,power"
    assert r.stdout == weft("-q", "-table", "csv", "-model", "sc", "-model", "power", PPC).stdout


def test_herd_logs_are_results(weft, tmp_path):
    # one log a model, the column named after the file; and weft's own
    # several-model log, whose Model lines name the columns
    for model in ("power", "sc"):
        (tmp_path / f"{model}.log").write_text(weft("-q", "-model", model, PPC).stdout)
    direct = weft("-q", "-model", "power", "-model", "sc", "-table", "csv", "-table-cells", "counts", PPC).stdout
    r = weft("-q", "-table", "csv", "-table-cells", "counts", "-results", tmp_path / "power.log",
             "-results", tmp_path / "sc.log")
    assert r.returncode == 0, r.stderr
    assert r.stdout == direct
    both = tmp_path / "both.txt"
    both.write_text(weft("-q", "-model", "power", "-model", "sc", PPC).stdout)
    r = weft("-q", "-table", "csv", "-table-cells", "counts", "-results", both)
    assert r.stdout == direct
    # a herd log and weft's YAML are two producers
    y = tmp_path / "power.yaml"
    weft("-q", "-format", "yaml", "-o", y, PPC)
    r = weft("-table", "csv", "-results", y, "-results", tmp_path / "power.log")
    assert r.returncode == 1 and "mixes producers" in r.stderr and "a herd log" in r.stderr


def test_any_yaml_layout_reads_like_weft_s_own(weft, tmp_path):
    # weft's own layout is read line by line; any other layout (here the
    # documents dumped again by PyYAML, block style, keys sorted, quotes
    # of its own) goes through libyaml: both must give the same table
    paths = shards(weft, tmp_path, 2, "-model", "power", "-model", "sc", "-stats")
    again = tmp_path / "again"
    again.mkdir()
    for p in paths:
        docs = list(yaml.safe_load_all(p.read_text()))
        text = yaml.safe_dump_all(docs, default_flow_style=False, default_style=None)
        assert "run:\n" in text, "block style: not weft's layout"
        (again / p.name).write_text("# dumped again\n" + text)
    for fmt in ("csv", "markdown"):
        for cells in ("counts", "states"):
            want = weft("-q", "-stats", "-table", fmt, "-table-cells", cells, *results_args(paths))
            got = weft("-q", "-stats", "-table", fmt, "-table-cells", cells, "-results", again)
            assert got.returncode == 0, got.stderr
            assert got.stdout == want.stdout
    # a value weft's layout would quote differently, in its own layout
    odd = tmp_path / "odd.yaml"
    odd.write_text("---\nname: 'it''s'\nmodel: \"p\\x6fwer\"\nverdict: Ok\npositive: 2\nnegative: 1\n"
                   "kind: Allowed\nstates: []\n")
    r = weft("-q", "-table", "csv", "-table-cells", "counts", "-results", odd)
    assert r.stdout.splitlines() == ["test,power", "it's,Allowed 2/1"]


def test_bad_saved_results_are_located_errors(weft, tmp_path):
    cases = {
        "expect.yaml": "MP: {power: allowed}\n",
        "junk.log": "hello\nworld\n",
        "nocounts.log": "Test MP Allowed\nStates 1\n0:r1=0;\nOk\n\n",
        "badverdict.yaml": "---\nname: MP\nmodel: power\nverdict: Maybe\n",
        "badseq.yaml": "---\nname: MP\nmodel: power\nverdict: Ok\npositive: 1\nnegative: 0\nseq: x\n",
        "binary.log": "\x00\x01\x02",
    }
    for name, text in cases.items():
        f = tmp_path / name
        f.write_text(text)
        r = weft("-table", "csv", "-results", f)
        assert r.returncode == 1, name
        assert r.stdout == "", name
        assert r.stderr.startswith(f"{f}"), (name, r.stderr)
        assert "error:" in r.stderr, name
    empty = tmp_path / "empty"
    empty.mkdir()
    r = weft("-table", "csv", "-results", empty)
    assert r.returncode == 1 and "no .yaml, .yml, .json, .jsonl or .log file" in r.stderr
    r = weft("-table", "csv", "-results", tmp_path / "absent.yaml")
    assert r.returncode == 1 and "absent.yaml" in r.stderr


def test_results_usage_errors(weft, tmp_path):
    f = tmp_path / "r.yaml"
    weft("-q", "-format", "yaml", "-o", f, PPC / "MP.litmus")
    for args in (["-results", f], ["-results", f, "-table", "csv", PPC / "SB.litmus"],
                 ["-force", "-table", "csv", PPC], ["-results", f, "-table", "csv", "-shard", "1/2"],
                 ["-results", f, "-table", "csv", "-expect", f]):
        r = weft(*args)
        assert r.returncode == 2, args
        assert "Try 'weft -help'" in r.stderr


def test_yaml_output_file_that_cannot_be_written(weft, tmp_path):
    r = weft("-q", "-format", "yaml", "-o", tmp_path / "no" / "such" / "dir.yaml", PPC / "MP.litmus")
    assert r.returncode == 1 and "cannot write the results" in r.stderr


# ---- the HTML page ----------------------------------------------------------------------

class Page(html.parser.HTMLParser):
    """Cells by class, and every reference to something outside the page."""

    def __init__(self):
        super().__init__()
        self.cells, self.outside, self.scripts, self.stack = [], [], 0, []
        self.text = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("src", "href"):
            if key in attrs:
                self.outside.append(attrs[key])
        if tag == "script":
            self.scripts += 1
        if tag == "td":
            self.text = [attrs.get("class", ""), ""]

    def handle_data(self, data):
        if self.text is not None:
            self.text[1] += data

    def handle_endtag(self, tag):
        if tag == "td" and self.text is not None:
            self.cells.append(tuple(self.text))
            self.text = None


def test_html_page_is_self_contained_and_marks_disagreements(weft, tmp_path):
    log = tmp_path / "hw.allowed"
    bar = "-" * 60
    rows = [("MP", "Ok", "No"), ("MP+syncs", "No", "Ok"), ("SB", "Ok", "Ok")]
    log.write_text("\n".join(["*Revalidation*", f"{'':40} | Model.txt Hardware.txt", bar] +
                             [line for n, m, h in rows for line in (f"{n:40} | {m:15} {h}", bar)]) + "\n")
    files = [PPC / f"{n}.litmus" for n in ("MP", "MP+syncs", "SB", "LB")]
    r = weft("-q", "-table", "html", "-hardware", log, *files)
    assert r.returncode == 0, r.stderr
    page = Page()
    page.feed(r.stdout)
    assert page.outside == [], "openable from disk: nothing fetched"
    assert page.scripts == 1 and "addEventListener('click'" in r.stdout
    cells = dict((text, cls) for cls, text in page.cells)
    assert "FORBIDDEN-OBSERVED" in cells["Forbidden (!)"] and "forbidden" in cells["Forbidden (!)"]
    assert "ALLOWED-UNOBSERVED" in cells["Allowed (?)"]
    classes = [cls for cls, _ in page.cells]
    assert sum("allowed" in c.split() for c in classes) == 3    # MP, SB, LB under power
    assert r.stdout.count("<tr data-row=") == 4
    assert "(1 cell); (?) the model allows states the hardware never showed (1 cell)" in r.stdout
    odd = tmp_path / "odd.log"
    odd.write_text("Test <b>&x Allowed\nStates 1\n0:r1=0;\nOk\nWitnesses\nPositive: 1 Negative: 0\n"
                   "Condition exists (0:r1=0)\nObservation <b>&x Always 1 0\n\n")
    r = weft("-q", "-table", "html", "-results", odd)
    assert "&lt;b&gt;&amp;x" in r.stdout and "<b>&x" not in r.stdout


# ---- scripts/campaign: the GNU parallel recipe -------------------------------------------------

def test_campaign_with_gnu_parallel_joins_to_the_direct_table(weft, tmp_path):
    if not shutil.which("parallel"):
        pytest.skip("GNU parallel is not installed (Debian package parallel; scripts/install-deps --optional)")
    out = tmp_path / "campaign"
    env = dict(os.environ, WEFT=str(WEFT))
    p = subprocess.run([str(SRCDIR / "scripts" / "campaign"), "-n", "3", "-j", "2", "-o", out, "-table", "csv",
                        "--", "-model", "power", "-model", "sc", str(PPC)],
                       capture_output=True, text=True, env=env, timeout=600)
    assert p.returncode == 0, p.stderr
    assert sorted(f.name for f in out.glob("*.yaml")) == [f"shard-{k}-of-3.yaml" for k in (1, 2, 3)]
    direct = weft("-q", "-model", "power", "-model", "sc", "-table", "csv", PPC)
    assert p.stdout == direct.stdout
    # the table again from what it saved, in another format
    again = weft("-q", "-table", "markdown", "-results", out)
    assert again.stdout == weft("-q", "-model", "power", "-model", "sc", "-table", "markdown", PPC).stdout
    # a shard that fails is said, and the join refuses the rest
    (out / "shard-2-of-3.yaml").unlink()
    r = weft("-table", "csv", "-results", out)
    assert r.returncode == 1 and "shard 2/3 is missing" in r.stderr


def test_campaign_over_sshlogin_quotes_arguments(weft, tmp_path):
    # -S goes through parallel's --sshlogin; ":" is this machine without
    # ssh, so the remote path (quoting, --results bringing stdout back) is
    # the one taken.  A regex with shell characters must reach weft as is.
    if not shutil.which("parallel"):
        pytest.skip("GNU parallel is not installed (Debian package parallel; scripts/install-deps --optional)")
    out = tmp_path / "ssh"
    sel = "^(MP|SB)($|\\+)"
    p = subprocess.run([str(SRCDIR / "scripts" / "campaign"), "-n", "4", "-S", ":", "-o", out, "-table", "csv",
                        "--", "-model", "power", "-select", sel, str(PPC)],
                       capture_output=True, text=True, env=dict(os.environ, WEFT=str(WEFT)), timeout=600)
    assert p.returncode == 0, p.stderr
    direct = weft("-q", "-model", "power", "-select", sel, "-table", "csv", PPC).stdout
    assert p.stdout == direct
    assert 3 < len(direct.splitlines()) < len(list(PPC.glob("*.litmus")))


def test_campaign_usage(tmp_path):
    p = subprocess.run([str(SRCDIR / "scripts" / "campaign"), "-n", "0", "--", str(PPC)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "usage" in p.stderr.lower()


# ---- the corpus: the PPC folder under power and sc, 4 shards ----------------------------------

def test_corpus_ppc_shards_join_to_the_direct_table(weft, corpus, tmp_path):
    """Done-when of issue 20: -shard k/4 runs of the PPC corpus folder under
    power and sc, joined by -results, give the direct table byte for byte in
    every format; a missing shard is an error naming it."""
    folder = corpus / "tests" / "PPC"
    if os.environ.get("WEFT_FULL_CORPUS") != "1":
        # make check: every 16th test (make check-corpus: the whole folder)
        sample = tmp_path / "sample.lst"
        sample.write_text("".join(f"{p}\n" for p in sorted(folder.glob("*.litmus"))[::16]))
        folder = f"@{sample}"
    models = ("-model", "power", "-model", "sc")
    paths = shards(weft, tmp_path, 4, *models, "-timeout", "60", folder=folder)
    for fmt in ("markdown", "latex", "csv"):
        direct = weft("-j", "2", "-timeout", "60", *models, "-table", fmt, folder)
        joined = weft("-table", fmt, *results_args(paths))
        assert direct.returncode == 0, direct.stderr[-2000:]
        assert joined.returncode == 0, joined.stderr[-2000:]
        assert joined.stdout == direct.stdout, fmt
        assert without_time(joined.stderr) == without_time(direct.stderr)
    r = weft("-table", "csv", *results_args(paths[1:]))
    assert r.returncode == 1 and r.stdout == "" and "shard 1/4 is missing" in r.stderr


def test_corpus_herd7_logs_tabulate_like_weft(weft, corpus, tmp_path):
    """herd7's own result blocks (the corpus's expected files, concatenated
    into one log a model) read by -results give the table weft's run gives:
    same rows in the same order, same execution counts."""
    names = sorted(p.name for p in (corpus / "expected" / "sc" / "PPC").glob("*.expected"))
    names = [n for n in names if (corpus / "expected" / "power" / "PPC" / n).is_file()][::25]
    assert len(names) > 100
    for model in ("power", "sc"):
        log = tmp_path / f"{model}.log"
        log.write_text("".join((corpus / "expected" / model / "PPC" / n).read_text() for n in names))
    tests = tmp_path / "tests.lst"
    tests.write_text("".join(f"{corpus / 'tests' / 'PPC' / n[:-len('.expected')]}\n" for n in names))
    direct = weft("-q", "-j", "2", "-model", "power", "-model", "sc", "-table", "csv", "-table-cells", "counts",
                  f"@{tests}")
    herd = weft("-q", "-table", "csv", "-table-cells", "counts", "-results", tmp_path / "power.log",
                "-results", tmp_path / "sc.log")
    assert herd.returncode == 0, herd.stderr
    assert herd.stdout == direct.stdout
