"""Columns named by the user: -model LABEL=FILE and -hardware LABEL=LOG, in
tables, YAML, herd output and -diff, live and from saved results."""
import csv
import io

from conftest import SRCDIR

LITMUS = SRCDIR / "litmus"


def header(text):
    return next(csv.reader(io.StringIO(text)))


def test_model_labels_name_columns_documents_and_blocks(weft, tmp_path):
    copy = tmp_path / "my-power.cat"
    copy.write_text((SRCDIR / "cat" / "power.cat").read_text())
    t = weft("-q", "-table", "csv", "-model", "weft=power", "-model", f"edited={copy}", LITMUS / "PPC")
    assert t.returncode == 0, t.stderr
    assert header(t.stdout) == ["test", "weft", "edited"]
    # the same cells as without labels
    plain = weft("-q", "-table", "csv", "-model", "power", "-model", copy, LITMUS / "PPC")
    assert plain.stdout.split("\n", 1)[1] == t.stdout.split("\n", 1)[1]
    y = weft("-q", "-format", "yaml", "-model", "mine=sc", LITMUS / "X86" / "SB.litmus")
    assert "\nmodel: mine\n" in y.stdout and "models: [mine]" in y.stdout
    h = weft("-q", "-model", "a=sc", "-model", "b=tso", LITMUS / "X86" / "SB.litmus")
    assert [l for l in h.stdout.splitlines() if l.startswith("Model ")] == ["Model a", "Model b"]
    d = weft("-q", "-diff", "-model", "strong=sc", "-model", "weak=tso", LITMUS / "X86")
    assert d.returncode == 1 and all("\tstrong: " in l and "\tweak: " in l
                                     for l in d.stdout.splitlines() if not l.startswith("\t"))


def test_saved_columns_and_hardware_relabelled(weft, tmp_path):
    saved = tmp_path / "r.yaml"
    saved.write_text(weft("-q", "-format", "yaml", "-model", "power", "-model", "sc", LITMUS / "PPC").stdout)
    log = tmp_path / "sc.log"
    log.write_text(weft("-q", "-model", "sc", LITMUS / "PPC").stdout)
    t = weft("-q", "-results", saved, "-table", "csv", "-model", "Power=power", "-model", "SC=sc",
             "-hardware", f"Silicon={log}")
    assert t.returncode == 0, t.stderr
    assert header(t.stdout) == ["test", "Power", "SC", "Silicon"]
    plain = weft("-q", "-results", saved, "-table", "csv", "-model", "power", "-model", "sc", "-hardware", log)
    assert [r[1:] for r in csv.reader(io.StringIO(plain.stdout))][1:] == \
        [r[1:] for r in csv.reader(io.StringIO(t.stdout))][1:]


def test_label_rules(weft, tmp_path):
    r = weft("-model", "a=sc", "-model", "a=tso", LITMUS / "X86" / "SB.litmus")
    assert r.returncode == 2 and "two -model arguments are labelled 'a'" in r.stderr
    # a file whose name has '=' in it is that file, not a label
    odd = tmp_path / "x=y.cat"
    odd.write_text((SRCDIR / "cat" / "sc.cat").read_text())
    r = weft("-q", "-format", "yaml", "-model", odd, LITMUS / "X86" / "SB.litmus")
    assert r.returncode in (0, 1) and "\nmodel: x=y\n" in r.stdout, r.stdout[:300] + r.stderr
