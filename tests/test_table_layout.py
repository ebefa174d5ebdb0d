"""Tables as they go into a paper or a browser: row order (-table-order), a
thirty-test LaTeX table with labelled columns compiled by pdflatex without an
overfull box, missing cells spelled per format, and the HTML page rendered by
headless chromium with a distinct style for every kind of cell."""
import json
import re
import shutil
import subprocess

import pytest

from conftest import SRCDIR
from test_tables import csv_table, md_table, mcompare

LITMUS = SRCDIR / "litmus"
PPC = LITMUS / "PPC"


def names_of(rows):
    return [r[0] for r in rows]


# ---- row order -----------------------------------------------------------------------

def test_rows_in_given_order_by_default(weft):
    files = [PPC / "SB.litmus", PPC / "IRIW+syncs.litmus", PPC / "IRIW.litmus"]
    r = weft("-q", "-table", "csv", *files)
    assert r.returncode == 0, r.stderr
    assert names_of(csv_table(r.stdout)[1]) == ["SB", "IRIW+syncs", "IRIW"]


def test_rows_by_name_in_mcompare_order(weft):
    # mcompare7 sorts names as OCaml's String.compare does: bytes, so '+'
    # (0x2b) before letters and 'IRIW' before 'IRIW+syncs'
    r = weft("-q", "-table", "csv", "-table-order", "name", PPC)
    assert r.returncode == 0, r.stderr
    names = names_of(csv_table(r.stdout)[1])
    assert names == sorted(names, key=lambda s: s.encode())
    assert names.index("IRIW") < names.index("IRIW+lwsyncs") < names.index("IRIW+syncs")
    assert names.index("2+2W") < names.index("2+2W+lwsyncs") < names.index("CoRR")


def test_rows_in_the_order_of_the_names_file(weft, tmp_path):
    lst = tmp_path / "paper.names"
    lst.write_text("# the paper's order\nSB\nIRIW\n\nMP   trailing words are ignored\nIRIW+syncs\nSB\n")
    r = weft("-q", "-table", "markdown", "-names", lst, "-table-order", "names", PPC)
    assert r.returncode == 0, r.stderr
    assert names_of(md_table(r.stdout)[1]) == ["SB", "IRIW", "MP", "IRIW+syncs"]
    # -diff lists its lines in the same order
    r = weft("-q", "-diff", "-model", "power", "-model", "sc", "-names", lst, "-table-order", "names", PPC)
    listed = [l.split("\t")[1] for l in r.stdout.splitlines() if not l.startswith("\t")]
    assert listed == ["SB", "IRIW", "MP"]   # IRIW+syncs: both forbid


def test_rows_by_name_from_saved_results(weft, tmp_path):
    run = tmp_path / "run.yaml"
    r = weft("-q", "-format", "yaml", "-o", run, PPC / "SB.litmus", PPC / "MP.litmus", PPC / "IRIW.litmus")
    assert r.returncode == 0, r.stderr
    r = weft("-q", "-table", "csv", "-results", run)
    assert names_of(csv_table(r.stdout)[1]) == ["SB", "MP", "IRIW"]
    r = weft("-q", "-table", "csv", "-table-order", "name", "-results", run)
    assert names_of(csv_table(r.stdout)[1]) == ["IRIW", "MP", "SB"]


def test_table_order_errors(weft, tmp_path):
    r = weft("-q", "-table", "csv", "-table-order", "names", PPC / "SB.litmus")
    assert r.returncode == 2 and "-table-order names needs -names FILE" in r.stderr
    r = weft("-q", "-table-order", "name", PPC / "SB.litmus")
    assert r.returncode == 2 and "-table-order needs -table or -diff" in r.stderr
    r = weft("-q", "-table", "csv", "-table-order", "size", PPC / "SB.litmus")
    assert r.returncode == 2 and "unknown table order 'size' (available: input, name, names)" in r.stderr


# ---- LaTeX for a paper -------------------------------------------------------------------

def have_pdflatex():
    return bool(shutil.which("pdflatex") and shutil.which("kpsewhich")) and \
        subprocess.run(["kpsewhich", "booktabs.sty"], capture_output=True).returncode == 0


def thirty_tests():
    files = sorted(PPC.glob("*.litmus"))[:30]
    assert len(files) == 30
    return files


def hardware_log(tmp_path, files):
    """An mcompare log of our own: every other test observed, the last absent."""
    rows = [(f.stem, "Ok", "Ok" if i % 2 else "No") for i, f in enumerate(files[:-1])]
    log = tmp_path / "power8.allowed"
    log.write_text(mcompare(rows))
    return log


def test_missing_cells_are_dashes_in_latex(weft, tmp_path):
    files = [PPC / "MP.litmus", LITMUS / "X86" / "SB.litmus"]
    log = hardware_log(tmp_path, files)
    r = weft("-q", "-table", "latex", "-hardware", f"HW={log}", *files)
    assert r.returncode == 0, r.stderr
    body = r.stdout[r.stdout.index("\\midrule"):r.stdout.index("\\bottomrule")]
    mp, sb = [l for l in body.splitlines() if l.endswith("\\\\")]
    # MP runs under power only, SB under tso only; SB is not in the log
    assert mp.split(" & ")[2] == "--" and sb.split(" & ")[1] == "--"
    assert sb.split(" & ")[3] == "-- \\\\"
    assert "-{}" not in body


@pytest.mark.skipif(not have_pdflatex(), reason="pdflatex or booktabs absent "
                    "(scripts/install-deps --optional installs them)")
def test_thirty_tests_three_labelled_models_and_hardware_compile_without_overfull_box(weft, tmp_path):
    files = thirty_tests()
    log = hardware_log(tmp_path, files)
    copy = tmp_path / "power-copy.cat"
    shutil.copy(SRCDIR / "cat" / "power.cat", copy)
    shutil.copy(SRCDIR / "cat" / "stdlib.cat", tmp_path / "stdlib.cat")
    r = weft("-q", "-table", "latex", "-table-caption", "Thirty PPC tests under three models",
             "-table-label", "tab:thirty", "-model", "POWER=power", "-model", "SC=sc",
             "-model", f"PowerCopy={copy}", "-hardware", f"POWER8={log}",
             "-o", tmp_path / "table.tex", *files)
    assert r.returncode == 0, r.stderr
    tex = (tmp_path / "table.tex").read_text()
    assert "Test & POWER & SC & PowerCopy & POWER8 \\\\" in tex
    assert tex.count("\\texttt{") == 30
    # the two marks of a disagreement with the hardware both occur, so the
    # legend and the macros are exercised
    assert "\\weftAllowedUnobserved{Allowed}" in tex.split("\\bottomrule")[0]
    assert "\\weftForbiddenObserved{Forbidden}" in tex.split("\\bottomrule")[0]
    (tmp_path / "paper.tex").write_text("\\documentclass{article}\\usepackage{booktabs}\n"
                                        "\\begin{document}\\input{table}\\end{document}\n")
    p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout[-3000:]
    logtext = (tmp_path / "paper.log").read_text(errors="replace")
    assert "Overfull" not in logtext, logtext[logtext.find("Overfull") - 200:][:800]
    # and the same table is too wide at \normalsize: the fit is what keeps it in
    (tmp_path / "plain.tex").write_text("\\documentclass{article}\\usepackage{booktabs}\n"
                                        "\\newcommand\\weftFit[1]{#1}\n"
                                        "\\begin{document}\\input{table}\\end{document}\n")
    p = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "plain.tex"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0
    assert "Overfull" in (tmp_path / "plain.log").read_text(errors="replace")


# ---- HTML in a browser -------------------------------------------------------------------

def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


CHROMIUM = find_chromium()

# Injected into a copy of the page: the computed style of every body cell,
# by its class, written into the document for --dump-dom to carry out.
PROBE = """<script>
(function () {
  var seen = {};
  document.querySelectorAll('#outcomes tbody td').forEach(function (td) {
    if (td.className === 'test') return;
    var s = getComputedStyle(td);
    seen[td.className] = [s.backgroundColor, s.backgroundImage, s.outlineStyle, s.outlineColor,
                          s.fontStyle, s.fontWeight, s.color].join('|');
  });
  var pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(seen);
  document.body.appendChild(pre);
})();
</script>
"""


def chromium(tmp_path, *args):
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                           f"--user-data-dir={tmp_path / 'profile'}", *args],
                          capture_output=True, text=True, timeout=120)


def every_kind_page(weft, tmp_path):
    bad = tmp_path / "BAD.litmus"
    bad.write_text("PPC BAD\n{ 0:r2=x; }\n P0 ;\n frobnicate r1 ;\nexists (0:r1=1)\n")
    files = [PPC / "MP.litmus", PPC / "MP+syncs.litmus", PPC / "SB.litmus", PPC / "MP+lwsyncs.litmus",
             LITMUS / "X86" / "SB.litmus", bad]
    log = tmp_path / "hw.allowed"
    # MP allowed, never observed; MP+syncs forbidden, observed; SB (PPC)
    # allowed and observed; MP+lwsyncs (forbidden), X86's SB and BAD not
    # in the log
    log.write_text(mcompare([("MP", "Ok", "No"), ("MP+syncs", "No", "Ok"), ("SB", "Ok", "Ok")]))
    page = tmp_path / "table.html"
    r = weft("-q", "-table", "html", "-table-caption", "Every <kind> of cell", "-hardware", f"HW={log}",
             "-o", page, *files)
    assert r.returncode == 1   # BAD is an error
    return page.read_text()


def test_html_caption_and_cell_classes(weft, tmp_path):
    html = every_kind_page(weft, tmp_path)
    assert "<title>Every &lt;kind&gt; of cell</title>" in html
    assert "<caption>Every &lt;kind&gt; of cell</caption>" in html
    classes = set(re.findall(r'<td class="([^"]+)"', html)) - {"test"}
    assert classes == {"allowed", "forbidden", "failed", "notrun", "observed", "unobserved", "absent",
                       "allowed ALLOWED-UNOBSERVED", "forbidden FORBIDDEN-OBSERVED"}, classes
    # not run and not in the log say so in words, and differ from Unobserved
    assert ">not run</td>" in html and ">not in the log</td>" in html and ">Unobserved</td>" in html


@pytest.mark.skipif(CHROMIUM is None, reason="chromium absent (scripts/install-deps --optional installs it)")
def test_html_renders_every_kind_of_cell_distinctly_in_chromium(weft, tmp_path):
    html = every_kind_page(weft, tmp_path)
    probe = tmp_path / "probe.html"
    probe.write_text(html.replace("</body>", PROBE + "</body>"))
    p = chromium(tmp_path, "--dump-dom", probe.as_uri())
    assert p.returncode == 0, p.stderr[-2000:]
    m = re.search(r'<pre id="probe">(.*?)</pre>', p.stdout, re.S)
    assert m, p.stdout[-2000:]
    styles = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert len(styles) == 9, styles
    by_style = {}
    for cls, style in styles.items():
        by_style.setdefault(style, []).append(cls)
    assert all(len(v) == 1 for v in by_style.values()), by_style
    # the rows are sortable still: the script ran without error
    assert 'data-row="5"' in p.stdout
    shot = tmp_path / "table.png"
    p = chromium(tmp_path, f"--screenshot={shot}", "--window-size=900,600", (tmp_path / "table.html").as_uri())
    assert p.returncode == 0, p.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000


# ---- two tests of one name -----------------------------------------------------------------

def test_two_tests_of_one_name_stay_two_rows_from_saved_results(weft, tmp_path):
    """SB in PPC/ and SB in X86/: two rows in a live table, and two rows in
    the table made from the runs' saved results, even when the runs named
    the files from different folders (relative, then absolute paths)."""
    ppc, x86 = PPC / "SB.litmus", LITMUS / "X86" / "SB.litmus"
    live = weft("-q", "-table", "csv", "-model", "sc", "-model", "tso", ppc, x86)
    assert live.returncode == 0, live.stderr
    rows = csv_table(live.stdout)[1]
    assert names_of(rows) == ["SB", "SB"]
    a, b = tmp_path / "a.yaml", tmp_path / "b.json"
    assert weft("-q", "-model", "sc", "-format", "yaml", "-o", a, ppc, x86).returncode == 0
    r = weft("-q", "-model", "tso", "-format", "json", "-o", b, ppc.relative_to(SRCDIR),
             x86.relative_to(SRCDIR), cwd=SRCDIR)
    assert r.returncode == 0, r.stderr
    saved = weft("-q", "-table", "csv", "-results", a, "-results", b)
    assert saved.returncode == 0, saved.stderr
    assert csv_table(saved.stdout)[1] == rows
    # a repeated result (the same file saved twice) is still one row
    again = weft("-q", "-table", "csv", "-force", "-results", a, "-results", a, "-results", b)
    assert csv_table(again.stdout)[1] == rows


def test_results_label_heads_the_one_column_of_a_path(weft, tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    assert weft("-q", "-model", "sc", "-format", "yaml", "-o", a, PPC / "MP.litmus").returncode == 0
    assert weft("-q", "-model", "power", "-format", "yaml", "-o", b, PPC / "MP.litmus").returncode == 0
    r = weft("-q", "-table", "csv", "-results", f"SC={a}", "-results", f"POWER={b}")
    assert r.returncode == 0, r.stderr
    assert csv_table(r.stdout) == (["test", "SC", "POWER"], [["MP", "Forbidden", "Allowed"]])
    # the labels choose columns as any saved label does
    r = weft("-q", "-table", "csv", "-results", f"SC={a}", "-results", f"POWER={b}", "-model", "POWER")
    assert csv_table(r.stdout) == (["test", "POWER"], [["MP", "Allowed"]])
    both = tmp_path / "both"
    both.mkdir()
    for f in (a, b):
        (both / f.name).write_text(f.read_text())
    r = weft("-q", "-table", "csv", "-results", f"Both={both}")
    assert r.returncode == 1
    assert f"-results Both={both} names one column, and {both} holds results under 'sc' and 'power'" in r.stderr \
        or f"-results Both={both} names one column, and {both} holds results under 'power' and 'sc'" in r.stderr
