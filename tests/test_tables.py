"""Several models per run and -table: shape and cells in Markdown, LaTeX and
CSV, checked against weft's own result blocks and herd7's expected results;
the hardware column against ppc.allowed and against result logs."""
import csv
import io
import pathlib
import re
import shutil
import subprocess

import pytest

from conftest import SRCDIR
from test_suite import big_test, block_names, header_name, herd_blocks, suite_files, without_time

LITMUS = SRCDIR / "litmus"


# ---- reading the three formats back --------------------------------------------

def md_table(text):
    """(header cells, [row cells]) of the first Markdown table in text."""
    lines = [l for l in text.splitlines() if l.startswith("|")]
    split = lambda l: [c.strip().replace("\\", "") for c in l.strip().strip("|").split("|")]
    assert re.fullmatch(r"\|(---\|)+", lines[1]), lines[1]
    return split(lines[0]), [split(l) for l in lines[2:]]


def csv_table(text):
    rows = list(csv.reader(io.StringIO(text, newline="")))
    return rows[0], rows[1:]


def tex_unescape(s):
    s = re.sub(r"\\text(backslash|asciitilde|asciicircum|less|greater|bar)\{\}",
               lambda m: {"backslash": "\\", "asciitilde": "~", "asciicircum": "^", "less": "<",
                          "greater": ">", "bar": "|"}[m.group(1)], s)
    s = s.replace("-{}", "-")
    return re.sub(r"\\([{}&%$#_])", r"\1", s)


def tex_table(text):
    """(header, rows) of the booktabs tabular; checks the fragment's structure."""
    assert "\\documentclass" not in text   # a fragment, to \input
    assert text.index("\\providecommand{\\weftForbiddenObserved}") < text.index("\\begin{tabular}") \
        < text.index("\\toprule") < text.index("\\midrule") < text.index("\\bottomrule") \
        < text.index("\\end{tabular}")
    # braces balance once escaped ones are removed
    bare = re.sub(r"\\[{}]", "", text)
    depth = 0
    for ch in bare:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        assert depth >= 0
    assert depth == 0
    body = text[text.index("\\begin{tabular}"):text.index("\\end{tabular}")]
    spec = re.match(r"\\begin\{tabular\}\{([^}]*)\}", body).group(1)
    ncols = len(spec)
    lines = [l for l in body.splitlines()[1:] if l.endswith("\\\\")]
    cells = []
    for l in lines:
        # split on unescaped &
        parts = [p.strip() for p in re.split(r"(?<!\\)&", l[:-2])]
        assert len(parts) == ncols, l
        cells.append(parts)
    unwrap = lambda c: tex_unescape(re.sub(r"^\\(?:texttt|weft\w+)\{(.*)\}$", r"\1", c))
    header = [unwrap(c) for c in cells[0]]
    rows = [[unwrap(c) for c in r] for r in cells[1:]]
    return header, rows


def read_table(fmt, text):
    return {"markdown": md_table, "csv": csv_table, "latex": tex_table}[fmt](text)


def plain(cell):
    """A Markdown cell without its highlighting."""
    return cell.replace("*", "").replace(" (!)", "").replace(" (?)", "")


def blocks_by_model(weft, models, paths):
    """{(name, model): herd block} from plain runs, one model at a time."""
    out = {}
    for m in models:
        r = weft("-q", "-model", m, *paths)
        assert r.returncode in (0, 1), r.stderr
        for name, b in herd_blocks(r.stdout).items():
            out[(name, m)] = b
    return out


def expected_cell(block, cells="verdict"):
    word = "Allowed" if block["pos"] > 0 else "Forbidden"
    if cells == "counts":
        return f"{word} {block['pos']}/{block['neg']}"
    if cells == "states":
        n = len(block["states"])
        return f"{word}, {n} state{'s' if n != 1 else ''}"
    return word


# ---- several models --------------------------------------------------------------

def test_two_models_give_blocks_per_test_then_model(weft):
    files = suite_files(LITMUS / "PPC")[:6]
    r = weft("-q", "-j", "2", "-model", "power", "-model", "sc", *files)
    assert r.returncode == 0, r.stderr
    names = [header_name(f) for f in files]
    assert block_names(r.stdout) == [n for n in names for _ in (0, 1)]
    # each pair is the power block then the sc block, as separate runs print them
    power = without_time(weft("-q", "-model", "power", *files).stdout).split("\n\n")
    sc = without_time(weft("-q", "-model", "sc", *files).stdout).split("\n\n")
    both = re.sub(r"^Model .*\n", "", without_time(r.stdout), flags=re.M).split("\n\n")
    assert both[:-1] == [b for pair in zip(power[:-1], sc[:-1]) for b in pair]


def test_two_models_in_yaml_have_one_document_each(weft):
    import yaml
    files = suite_files(LITMUS / "X86")[:4]
    r = weft("-q", "-format", "yaml", "-model", "tso", "-model", "sc", *files)
    assert r.returncode == 0, r.stderr
    docs = list(yaml.safe_load_all(r.stdout))
    assert [(d["name"], d["model"]) for d in docs] == \
        [(header_name(f), m) for f in files for m in ("tso", "sc")]


# ---- tables over litmus/ -----------------------------------------------------------

@pytest.mark.parametrize("fmt", ["markdown", "latex", "csv"])
@pytest.mark.parametrize("cells", ["verdict", "counts", "states"])
def test_two_model_table_over_litmus_ppc(weft, fmt, cells):
    files = suite_files(LITMUS / "PPC")
    r = weft("-q", "-table", fmt, "-table-cells", cells, "-model", "power", "-model", "sc", LITMUS / "PPC")
    assert r.returncode == 0, r.stderr
    header, rows = read_table(fmt, r.stdout)
    assert [h.lower() for h in header] == ["test", "power", "sc"]
    names = [header_name(f) for f in files]
    assert [row[0] for row in rows] == names
    blocks = blocks_by_model(weft, ["power", "sc"], [LITMUS / "PPC"])
    for row in rows:
        for col, model in ((1, "power"), (2, "sc")):
            assert plain(row[col]) == expected_cell(blocks[(row[0], model)], cells), (row, model)
    # both verdicts occur, so a table of one word everywhere would fail
    assert {plain(c).split()[0].rstrip(",") for row in rows for c in row[1:]} == {"Allowed", "Forbidden"}


def test_table_without_model_has_a_column_per_default_model(weft):
    r = weft("-q", "-table", "csv", LITMUS)
    assert r.returncode == 0, r.stderr
    header, rows = csv_table(r.stdout)
    # in the order the defaults are met: litmus/C and C11 (sc) sort first
    assert header == ["test", "sc", "power", "tso"]
    files = suite_files(LITMUS)
    assert [row[0] for row in rows] == [header_name(f) for f in files]
    column = {"C": 1, "C11": 1, "PPC": 2, "X86": 3, "X86_64": 3}
    for f, row in zip(files, rows):
        own = column[pathlib.Path(f).parent.name]
        assert row[own] in ("Allowed", "Forbidden")
        assert all(row[k] == "-" for k in (1, 2, 3) if k != own)


def test_table_to_file_and_failure_cells(weft, tmp_path):
    bad = tmp_path / "BAD.litmus"
    bad.write_text("PPC BAD\n{ 0:r2=x; }\n P0 ;\n frobnicate r1 ;\nexists (0:r1=1)\n")
    big = big_test(tmp_path)
    out = tmp_path / "t.csv"
    r = weft("-q", "-timeout", "1", "-table", "csv", "-o", out, "-model", "power", "-model", "sc",
             LITMUS / "PPC" / "MP.litmus", bad, big)
    assert r.returncode == 1
    assert r.stdout == ""
    header, rows = csv_table(out.read_text())
    assert header == ["test", "power", "sc"]
    assert rows[0] == ["MP", "Allowed", "Forbidden"]
    assert rows[1] == ["BAD", "Error", "Error"]
    assert rows[2][0] == "BIG" and rows[2][1] == "Timeout"
    assert "error" in r.stderr


def test_latex_escapes_names(weft, tmp_path):
    src = (LITMUS / "PPC" / "MP.litmus").read_text().splitlines()
    # the litmus parser takes _ in names; the rest of LaTeX's specials are
    # checked through a model key below
    src[0] = "PPC MP_a_b"
    f = tmp_path / "odd.litmus"
    f.write_text("\n".join(src) + "\n")
    r = weft("-q", "-table", "latex", f)
    assert r.returncode == 0, r.stderr
    header, rows = tex_table(r.stdout)
    assert rows[0][0] == "MP_a_b"
    assert "MP\\_a\\_b" in r.stdout
    odd = tmp_path / "m&o%d#e~l^{x}$.cat"
    shutil.copy(SRCDIR / "cat" / "sc.cat", odd)
    r2 = weft("-q", "-table", "latex", "-model", odd, f)
    assert r2.returncode == 0, r2.stderr
    assert tex_table(r2.stdout)[0] == ["Test", "m&o%d#e~l^{x}$"]
    if shutil.which("pdflatex") and shutil.which("kpsewhich") and subprocess.run(
            ["kpsewhich", "booktabs.sty"], capture_output=True).returncode == 0:
        (tmp_path / "frag.tex").write_text(r.stdout)
        (tmp_path / "t.tex").write_text("\\documentclass{article}\\usepackage{booktabs}\n"
                                        "\\begin{document}\\input{frag}\\end{document}\n")
        p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "t.tex"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stdout[-2000:]


# ---- the hardware column --------------------------------------------------------------

def mcompare(rows):
    """An mcompare table in herdtools7's layout."""
    bar = "-" * 60
    lines = ["*Revalidation*", f"{'':40} | Model.txt Hardware.txt", bar]
    for name, model, hw in rows:
        lines += [f"{name:40} | {model:15} {hw}", bar]
    return "\n".join(lines) + "\n"


def test_hardware_highlights_in_all_formats(weft, tmp_path):
    # power allows MP and SB, forbids MP+syncs and SB+syncs; the "hardware"
    # below disagrees on MP (never seen) and MP+syncs (seen).
    log = tmp_path / "hw.allowed"
    log.write_text(mcompare([("MP", "Ok", "No"), ("MP+syncs", "No", "Ok"), ("SB", "Ok", "Ok"),
                             ("SB+syncs", "No", "No")]))
    files = [LITMUS / "PPC" / f"{n}.litmus" for n in ("MP", "MP+syncs", "SB", "SB+syncs", "LB")]
    md = weft("-q", "-table", "markdown", "-hardware", log, *files)
    assert md.returncode == 0, md.stderr
    header, rows = md_table(md.stdout)
    assert header == ["Test", "power", "Hardware"]
    assert rows == [["MP", "Allowed (?)", "Unobserved"], ["MP+syncs", "**Forbidden** (!)", "Observed"],
                    ["SB", "Allowed", "Observed"], ["SB+syncs", "Forbidden", "Unobserved"],
                    ["LB", "Allowed", "-"]]
    assert "(1 cell); (?) the model allows states the hardware never showed (1 cell)" in md.stdout
    tex = weft("-q", "-table", "latex", "-hardware", log, *files).stdout
    assert "\\weftForbiddenObserved{Forbidden}" in tex and "\\weftAllowedUnobserved{Allowed}" in tex
    tabular = tex[tex.index("\\begin{tabular}"):tex.index("\\end{tabular}")]
    assert tabular.count("\\weftForbiddenObserved{") == 1   # one cell
    # and a legend for the marks after the tabular
    assert "\\weftForbiddenObserved{Forbidden}: the model forbids" in tex[tex.index("\\end{tabular}"):]
    assert "\\providecommand{\\weftForbiddenObserved}" in tex
    header, rows = tex_table(tex)
    assert rows[1] == ["MP+syncs", "Forbidden", "Observed"]
    c = weft("-q", "-table", "csv", "-hardware", log, *files).stdout
    assert csv_table(c)[1][:2] == [["MP", "Allowed", "Unobserved"], ["MP+syncs", "Forbidden", "Observed"]]


def test_hardware_column_from_a_herd_log(weft, tmp_path):
    # sc's results as a "hardware" log: Observed exactly where sc allows.
    log = tmp_path / "sc.log"
    r = weft("-q", "-model", "sc", LITMUS / "PPC")
    log.write_text(r.stdout)
    t = weft("-q", "-table", "csv", "-model", "power", "-model", "sc", "-hardware", log, LITMUS / "PPC")
    assert t.returncode == 0, t.stderr
    header, rows = csv_table(t.stdout)
    assert header == ["test", "power", "sc", "sc.log"]
    for row in rows:
        assert row[3] == {"Allowed": "Observed", "Forbidden": "Unobserved"}[row[2]], row


def test_hardware_column_from_a_litmus7_log_reads_not_exists_swapped(weft, tmp_path):
    log = tmp_path / "run.log"
    log.write_text("Test MP Allow\nHistogram (2 states)\n5 :> 1:r1=0; 1:r3=0;\n7 :> 1:r1=1; 1:r3=0;\nOk\n"
                   "Witnesses\nPositive: 7 Negative: 5\nCondition exists (1:r1=1 /\\ 1:r3=0) is validated\n\n"
                   "Test SB Forbid\nHistogram (1 states)\n9 :> 0:r3=1; 1:r3=1;\nOk\nWitnesses\n"
                   "Positive: 9 Negative: 0\nCondition ~exists (0:r3=0 /\\ 1:r3=0) is validated\n\n"
                   "Test LB Forbid\nHistogram (1 states)\n9 :> 0:r1=1; 1:r1=1;\nNo\nWitnesses\n"
                   "Positive: 8 Negative: 1\nCondition ~exists (0:r1=1 /\\ 1:r1=1) is not validated\n")
    files = [LITMUS / "PPC" / f"{n}.litmus" for n in ("MP", "SB", "LB")]
    header, rows = csv_table(weft("-q", "-table", "csv", "-hardware", log, *files).stdout)
    assert [r[2] for r in rows] == ["Observed", "Unobserved", "Observed"]


def test_hardware_log_errors(weft, tmp_path):
    empty = tmp_path / "empty.log"
    empty.write_text("nothing here\n")
    f = LITMUS / "PPC" / "MP.litmus"
    for log in (empty, tmp_path / "missing.allowed"):
        r = weft("-q", "-table", "csv", "-hardware", log, f)
        assert r.returncode == 1
        assert str(log) in r.stderr and "error" in r.stderr


# ---- the corpus ---------------------------------------------------------------------------

def expected_observation(corpus, model, arch, test_file):
    p = corpus / "expected" / model / arch / (test_file.name + ".expected")
    if not p.exists():
        return None
    m = re.search(r"^Observation \S+ (\w+) (\d+) (\d+)", p.read_text(), re.M)
    return m and ("Forbidden" if m.group(1) == "Never" else "Allowed")


def allowed_rows(corpus):
    rows = {}
    for line in (corpus / "hardware" / "ppc.allowed").read_text().splitlines():
        m = re.match(r"^(\S+)\s+\|\s+(Ok|No)\s+(Ok|No)\s*$", line)
        if m:
            rows[m.group(1)] = (m.group(2), m.group(3))
    return rows


def test_two_model_table_over_a_corpus_sample(weft, corpus, tmp_path):
    hw = allowed_rows(corpus)
    tests = sorted((corpus / "tests" / "PPC").glob("*.litmus"))
    # a deterministic sample of small tests that herd7 ran under both models
    sample = [t for t in tests[::97] if expected_observation(corpus, "power", "PPC", t)
              and expected_observation(corpus, "sc", "PPC", t) and t.stat().st_size < 1200][:24]
    assert len(sample) >= 10
    lst = tmp_path / "sample.list"
    lst.write_text("\n".join(str(t) for t in sample) + "\n")
    for fmt in ("markdown", "latex", "csv"):
        r = weft("-q", "-j", "2", "-timeout", "60", "-table", fmt, "-model", "power", "-model", "sc",
                 "-hardware", corpus / "hardware" / "ppc.allowed", f"@{lst}")
        assert r.returncode == 0, r.stderr
        header, rows = read_table(fmt, r.stdout)
        assert [h.lower() for h in header] == ["test", "power", "sc", "power-hardware"]
        assert [row[0] for row in rows] == [header_name(t) for t in sample]
        for t, row in zip(sample, rows):
            assert plain(row[1]) == expected_observation(corpus, "power", "PPC", t), row
            assert plain(row[2]) == expected_observation(corpus, "sc", "PPC", t), row
            name = row[0]
            want_hw = {"Ok": "Observed", "No": "Unobserved"}[hw[name][1]] if name in hw else "-"
            assert row[3] == want_hw, row


def test_hardware_column_matches_ppc_allowed(weft, corpus, tmp_path):
    hw = allowed_rows(corpus)
    by_name = {}
    for t in sorted((corpus / "tests" / "PPC").glob("*.litmus")):
        by_name.setdefault(header_name(t), t)
    # every 150th row of ppc.allowed that has a test file, both verdicts present
    names = [n for n in sorted(hw) if n in by_name][::150]
    assert {hw[n][1] for n in names} == {"Ok", "No"}
    lst = tmp_path / "rows.list"
    lst.write_text("\n".join(str(by_name[n]) for n in names) + "\n")
    r = weft("-q", "-j", "2", "-timeout", "60", "-table", "csv", "-hardware",
             corpus / "hardware" / "ppc.allowed", f"@{lst}")
    assert r.returncode == 0, r.stderr
    header, rows = csv_table(r.stdout)
    assert header == ["test", "power", "Power-Hardware"]
    assert [row[0] for row in rows] == names
    for row in rows:
        model, hardware = hw[row[0]]
        assert row[2] == {"Ok": "Observed", "No": "Unobserved"}[hardware], row
        # weft's power model against herd's ppc.cat column
        assert row[1] == {"Ok": "Allowed", "No": "Forbidden"}[model], row
