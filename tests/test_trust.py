"""Runs that check nothing, or compare nothing, must not pass, and every
column and label must say which model it is (issue 12)."""
import pathlib
import shutil

import pytest

from conftest import SRCDIR

PPC = SRCDIR / "litmus" / "PPC"
SB = PPC / "SB.litmus"


# ---- 1. an empty selection is an error --------------------------------------

def test_empty_folder_is_an_error(weft, tmp_path):
    r = weft(tmp_path)
    assert r.returncode == 1
    assert "no tests" in r.stderr


@pytest.mark.parametrize("args", [["-select", "NOMATCH"], ["-names", "/dev/null"]])
def test_selection_that_keeps_nothing_is_an_error(weft, args):
    r = weft(*args, PPC)
    assert r.returncode == 1
    assert "no tests selected" in r.stderr
    assert r.stdout == ""


def test_empty_names_file_is_an_error(weft, tmp_path):
    names = tmp_path / "none.names"
    names.write_text("# nothing here\n")
    r = weft("-names", names, PPC)
    assert r.returncode == 1 and "no tests selected" in r.stderr


@pytest.mark.parametrize("arg", ["nosuch/slow.names", "slow.names", "skip.txt"])
def test_excl_path_that_does_not_exist_is_an_error(weft, tmp_path, arg):
    r = weft("-excl", arg, SB, cwd=tmp_path)
    assert r.returncode != 0
    assert "cannot open" in r.stderr
    assert "Test SB" not in r.stdout


def test_excl_regex_still_works(weft):
    r = weft("-excl", "^SB$", "-select", "^(SB|MP)$", PPC)
    assert r.returncode == 0, r.stderr
    assert "Test MP " in r.stdout and "Test SB " not in r.stdout


def test_empty_shard_of_a_selection_is_not_an_error(weft):
    r = weft("-shard", "2/2", SB)
    assert r.returncode == 0, r.stderr


# ---- 2. -expect says what it compared, and compares something --------------------

def test_expect_reports_how_many_tests_it_compared(weft):
    exp = PPC / "expected.yaml"
    r = weft("-q", "-model", "power", "-model", "sc", "-expect", exp, PPC)
    assert r.returncode == 0, r.stderr
    n = len(list(PPC.glob("*.litmus")))
    assert f"weft: -expect: {2 * n} tests compared, 0 mismatches" in r.stderr


def test_expect_that_compares_nothing_fails(weft, tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    r = weft("-q", "-expect", empty, SB)
    assert r.returncode == 1
    assert "0 tests compared" in r.stderr and "compared nothing" in r.stderr
    other = tmp_path / "other.yaml"
    other.write_text("NoSuchTest:\n  power: allowed\n")
    r = weft("-q", "-expect", other, SB)
    assert r.returncode == 1 and "compared nothing" in r.stderr


def test_expect_key_that_names_no_model_of_the_run_fails(weft, tmp_path):
    f = tmp_path / "e.yaml"
    f.write_text("SB:\n  pwoer: allowed\n")
    r = weft("-q", "-expect", f, SB)
    assert r.returncode == 1
    assert f"{f}:2:" in r.stderr and "'pwoer' is none of this run's models" in r.stderr
    assert r.stdout == ""   # found before anything ran
    # herd's key `power` against a model of another name
    mine = tmp_path / "power-nolw.cat"
    mine.write_text((SRCDIR / "cat" / "power.cat").read_text())
    f.write_text("SB:\n  power: allowed\n")
    r = weft("-q", "-model", mine, "-expect", f, SB)
    assert r.returncode == 1 and "'power' is none of this run's models (power-nolw)" in r.stderr


def test_expect_keys_are_label_argument_or_title(weft, tmp_path):
    mine = tmp_path / "power-nolw.cat"
    mine.write_text('"My Power"\n' + (SRCDIR / "cat" / "power.cat").read_text().split("\n", 1)[1])
    for key in ["power-nolw", str(mine), "My Power"]:
        f = tmp_path / "e.yaml"
        f.write_text(f"SB:\n  '{key}': allowed\n")
        r = weft("-q", "-model", mine, "-expect", f, SB)
        assert r.returncode == 0, (key, r.stderr)
        assert "1 test compared" in r.stderr


def test_own_yaml_output_is_an_expect_baseline(weft, tmp_path):
    base = tmp_path / "base.yaml"
    r = weft("-q", "-format", "yaml", "-model", "power", "-model", "sc", PPC)
    assert r.returncode == 0, r.stderr
    base.write_text(r.stdout)
    n = len(list(PPC.glob("*.litmus")))
    r = weft("-q", "-model", "power", "-model", "sc", "-expect", base, PPC)
    assert r.returncode == 0, r.stderr
    assert f"{2 * n} tests compared, 0 mismatches" in r.stderr
    # the baseline keeps states: a changed one is a mismatch
    doctored = r_text = base.read_text()
    doctored = r_text.replace("state: 0:r3=0; 1:r3=0; [x]=1; [y]=1;", "state: 0:r3=7; 1:r3=0; [x]=1; [y]=1;", 1)
    assert doctored != r_text
    base.write_text(doctored)
    r = weft("-q", "-model", "power", "-model", "sc", "-expect", base, PPC)
    assert r.returncode == 1 and "states differ" in r.stderr and "1 mismatch" in r.stderr


def test_make_install_installs_the_log_converter(tmp_path):
    import os
    import subprocess
    from conftest import WEFT
    build = WEFT.parent
    if not (build / "Makefile").is_file():
        pytest.skip("weft was not built by this tree's Makefile")
    r = subprocess.run(["make", "-s", "-C", str(build), "install", f"DESTDIR={tmp_path}"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    found = list(tmp_path.rglob("bin/herd-log-to-yaml"))
    assert found and os.access(found[0], os.X_OK)


# ---- 5. -check type-checks a model; a model's error is reported once ----------

BAD_MODEL = '"Bad"\nlet bad = po & W\nacyclic bad as t\n'


def test_check_finds_a_type_error_in_a_model(weft, tmp_path):
    bad = tmp_path / "bad.cat"
    bad.write_text(BAD_MODEL)
    r = weft("-check", bad)
    assert r.returncode == 1
    assert f"{bad}:2:14: error: intersection of a relation and an event set" in r.stderr
    assert r.stderr.count("error: intersection") == 1


def test_check_passes_the_bundled_models(weft, srcdir):
    for model in ("power", "sc", "tso"):
        r = weft("-check", srcdir / "cat" / f"{model}.cat")
        assert r.returncode == 0, (model, r.stderr)
        assert r.stderr == ""


def test_model_error_at_run_time_is_reported_once(weft, tmp_path):
    bad = tmp_path / "bad.cat"
    bad.write_text(BAD_MODEL)
    tests = [PPC / "SB.litmus", PPC / "MP.litmus", PPC / "LB.litmus"]
    r = weft("-q", "-model", bad, *tests)
    assert r.returncode == 1
    assert r.stderr.count("intersection of a relation and an event set") == 1
    r = weft("-model", bad, *tests)
    assert "3 errors" in r.stderr


# ---- 3. every model its own label ----------------------------------------------------

def two_powers(tmp_path):
    v = tmp_path / "v"
    v.mkdir()
    (v / "power.cat").write_text((SRCDIR / "cat" / "power.cat").read_text())
    return ["-model", "power", "-model", v / "power.cat"]


def test_models_with_one_short_name_get_distinct_labels(weft, tmp_path):
    import yaml
    models = two_powers(tmp_path)
    other = str(tmp_path / "v" / "power.cat")
    r = weft("-q", "-format", "yaml", *models, SB)
    assert r.returncode == 0, r.stderr
    assert [d["model"] for d in yaml.safe_load_all(r.stdout)] == ["power", other]
    r = weft("-q", "-table", "csv", *models, SB)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].split(",")[1:3] == ["power", other]
    r = weft("-q", *models, SB)
    assert r.stdout.count("\nModel power\n\n") == 1 and f"\nModel {other}\n\n" in r.stdout


def test_one_model_given_twice_is_labelled_apart(weft):
    r = weft("-q", "-table", "csv", "-model", "sc", "-model", "sc", SB)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0].split(",")[1:3] == ["sc", "sc#2"]


def test_one_model_prints_herds_block_unchanged(weft):
    r = weft("-q", SB)
    assert "Model " not in r.stdout


# ---- 4. -hardware reads litmus7's histogram ----------------------------------------

LITMUS7_LOG = """\
Test SB Forbid
Histogram (3 states)
120:> 0:r3=0; 1:r3=1;
4803397 :> 0:r3=1; 1:r3=0;
77:> 0:r3=1; 1:r3=1;
Ok
Witnesses
Positive: 4803594 Negative: 0
Condition exists (0:r3=0 /\\ 1:r3=0) is validated
Hash=0

Test MP Allow
Histogram (2 states)
5 :> 1:r1=1; 1:r3=0;
9:> 1:r1=1; 1:r3=1;
Ok
Witnesses
Positive: 5 Negative: 9
Condition exists (1:r1=1 /\\ 1:r3=0) is validated
Hash=0

"""


def test_litmus7_log_is_read_from_its_histogram(weft, tmp_path):
    log = tmp_path / "run.log"
    log.write_text(LITMUS7_LOG)
    r = weft("-q", "-table", "csv", "-model", "sc", "-hardware", log, PPC / "SB.litmus", PPC / "MP.litmus")
    assert r.returncode == 0, r.stderr
    cells = {row.split(",")[0]: row.split(",")[2] for row in r.stdout.splitlines()[1:]}
    # SB's Forbid summary counts the runs that missed its state: not observed
    assert cells == {"SB": "Unobserved", "MP": "Observed"}


def test_hardware_log_and_mcompare_table_agree_on_the_corpus(weft, corpus, tmp_path):
    import re
    hw = corpus / "hardware"
    if not (hw / "ppc.observed").is_file() or not (hw / "ppc.allowed").is_file():
        pytest.skip("no POWER hardware logs in the corpus")
    logged = set(re.findall(r"^Test (\S+)", (hw / "ppc.observed").read_text(), re.M))
    tabled = {l.split("|")[0].split()[0] for l in (hw / "ppc.allowed").read_text().splitlines()
              if "|" in l and len(l.split("|")[0].split()) == 1}
    both = logged & tabled
    files, seen = [], set()
    for f in sorted((corpus / "tests" / "PPC").rglob("*.litmus")):
        words = next((l.split() for l in f.read_text(errors="replace").splitlines() if l.strip()), [])
        name = words[1].removesuffix(".litmus") if len(words) > 1 else ""
        if name in both and name not in seen:
            seen.add(name)
            files.append(str(f))
    assert len(files) > 1000
    lst = tmp_path / "both.list"
    lst.write_text("\n".join(files) + "\n")

    def column(log):
        r = weft("-q", "-timeout", "30", "-table", "csv", "-model", "sc", "-hardware", log, f"@{lst}")
        rows = [row.split(",") for row in r.stdout.splitlines()[1:]]
        return {row[0]: row[-1] for row in rows}
    observed, allowed = column(hw / "ppc.observed"), column(hw / "ppc.allowed")
    assert len(observed) == len(files)
    differ = sorted(n for n in observed if observed[n] != allowed[n])
    assert differ == [], differ[:20]
    assert observed["MP+syncs"] == "Unobserved"


# ---- 8. the small points ------------------------------------------------------------

def test_unwritable_table_or_missing_hardware_log_fails_before_any_test(weft, tmp_path):
    tests = [PPC / "SB.litmus", PPC / "MP.litmus"]
    r = weft("-table", "csv", "-o", tmp_path / "no" / "t.csv", *tests)
    assert r.returncode == 1 and "cannot write the table" in r.stderr
    assert r.stdout == "" and "2 tests" not in r.stderr   # nothing ran
    r = weft("-table", "csv", "-hardware", tmp_path / "absent.log", *tests)
    assert r.returncode == 1 and "absent.log" in r.stderr
    assert r.stdout == "" and "2 tests" not in r.stderr


def test_stats_line_counts_candidates_and_forbidden(weft):
    import re
    r = weft("-q", "-stats", "-model", "sc", SB)
    m = re.search(r"^Stats SB complete (\d+) blocked \d+ commits \d+ candidates (\d+) forbidden (\d+)", r.stdout, re.M)
    assert m, r.stdout
    complete, candidates, forbidden = map(int, m.groups())
    assert forbidden >= 1 and candidates >= complete + forbidden


def test_stats_works_with_tables(weft):
    r = weft("-q", "-stats", "-table", "csv", "-model", "sc", SB)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1].startswith('SB,"Forbidden (') and "forbidden)" in r.stdout


# ---- 6. a model written for one architecture ----------------------------------------

def ppc_only_model(tmp_path):
    m = tmp_path / "powerppc.cat"
    text = (SRCDIR / "cat" / "power.cat").read_text()
    m.write_text(text.replace("\n", "\n(* arch: PPC *)\n", 1))
    return m


def test_model_for_another_architecture_is_refused(weft, tmp_path):
    m = ppc_only_model(tmp_path)
    x86 = SRCDIR / "litmus" / "X86" / "SB.litmus"
    r = weft("-q", "-model", m, x86)
    assert r.returncode == 1 and r.stdout == ""
    assert "the model is for PPC ((* arch: PPC *)), not for X86" in r.stderr
    assert weft("-q", "-model", m, SB).returncode == 0


def test_herds_fence_include_names_the_architecture(weft, corpus, tmp_path):
    ppc = corpus / "herd-cat" / "ppc.cat"
    if not ppc.is_file():
        pytest.skip("no herd ppc.cat in the corpus")
    r = weft("-q", "-model", ppc, SRCDIR / "litmus" / "X86" / "SB.litmus")
    assert r.returncode == 1 and 'not for X86' in r.stderr and 'include "ppcfences.cat"' in r.stderr


def test_table_leaves_a_cell_empty_for_a_model_of_another_architecture(weft, tmp_path):
    m = ppc_only_model(tmp_path)
    x86 = SRCDIR / "litmus" / "X86" / "MP.litmus"
    r = weft("-q", "-table", "csv", "-model", m, "-model", "sc", x86, PPC / "MP.litmus")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["test,powerppc,sc", "MP,-,Forbidden", "MP,Allowed,Forbidden"]
    assert r.stderr.count("does not run the X86 tests") == 1
    # herd output: no block of that model for the X86 test
    r = weft("-q", "-model", m, "-model", "sc", x86, PPC / "MP.litmus")
    assert r.returncode == 0, r.stderr
    import re
    assert re.findall(r"^Model (\S+)$", r.stdout, re.M) == ["sc", "powerppc", "sc"]


# ---- 7. LaTeX tables for papers ---------------------------------------------------------

def have_pdflatex():
    import shutil
    import subprocess
    return bool(shutil.which("pdflatex") and shutil.which("kpsewhich")) and \
        subprocess.run(["kpsewhich", "booktabs.sty"], capture_output=True).returncode == 0


def pdflatex(folder, name):
    import subprocess
    return subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", name], cwd=folder,
                          capture_output=True, text=True, timeout=300)


def test_latex_table_is_a_booktabs_fragment_with_caption_label_and_legend(weft, tmp_path):
    log = tmp_path / "hw.allowed"
    log.write_text("*Revalidation*\n" + " " * 20 + " | Model.txt Hardware.txt\n"
                   + f"{'SB':20} | Ok No\n")
    r = weft("-q", "-table", "latex", "-table-caption", "Two models", "-table-label", "tab:m",
             "-model", "power", "-model", "sc", "-hardware", log, SB)
    assert r.returncode == 0, r.stderr
    t = r.stdout
    assert "\\documentclass" not in t and "\\begin{document}" not in t
    assert t.index("\\begin{table}") < t.index("\\begin{tabular}{llll}") < t.index("\\toprule") \
        < t.index("\\midrule") < t.index("\\bottomrule") < t.index("\\end{tabular}") \
        < t.index("the model allows states") < t.index("\\caption{Two models}") \
        < t.index("\\label{tab:m}") < t.index("\\end{table}")
    assert "\\weftAllowedUnobserved{Allowed}" in t[:t.index("\\end{tabular}")]
    plain = weft("-q", "-table", "latex", SB).stdout
    assert "\\begin{table}" not in plain and "the model allows states" not in plain   # no marks, no legend
    doc = weft("-q", "-table", "latex-doc", SB).stdout
    assert doc.startswith("\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n")
    assert doc.rstrip().endswith("\\end{document}") and plain in doc
    r = weft("-q", "-table", "markdown", "-table-caption", "x", SB)
    assert r.returncode == 2 and "-table-caption needs -table latex" in r.stderr


@pytest.mark.skipif(not have_pdflatex(), reason="pdflatex or booktabs absent "
                    "(scripts/install-deps --optional installs them)")
def test_man_page_latex_example_compiles(weft, tmp_path):
    r = weft("-q", "-table", "latex", "-table-caption", "POWER and SC", "-table-label", "tab:models",
             "-model", "power", "-model", "sc", "-o", tmp_path / "table.tex", PPC)
    assert r.returncode == 0, r.stderr
    (tmp_path / "paper.tex").write_text("\\documentclass{article}\\usepackage{booktabs}\n"
                                        "\\begin{document}\\input{table}\\end{document}\n")
    p = pdflatex(tmp_path, "paper.tex")
    assert p.returncode == 0, p.stdout[-3000:]
    assert (tmp_path / "paper.pdf").stat().st_size > 1000
    r = weft("-q", "-table", "latex-doc", "-o", tmp_path / "doc.tex", "-model", "power",
             "-hardware", LITMUS7_LOG_FILE(tmp_path), SB, PPC / "MP.litmus")
    assert r.returncode == 0, r.stderr
    p = pdflatex(tmp_path, "doc.tex")
    assert p.returncode == 0, p.stdout[-3000:]


def LITMUS7_LOG_FILE(tmp_path):
    log = tmp_path / "run.log"
    log.write_text(LITMUS7_LOG)
    return log


def test_unknown_include_lists_the_folders_searched_and_hints_at_I(weft, tmp_path):
    m = tmp_path / "m.cat"
    m.write_text('"m"\ninclude "nosuchinc.cat"\n')
    r = weft("-check", m)
    assert r.returncode == 1
    assert f'{m}:2:1: error: cannot find included file "nosuchinc.cat" (looked in {tmp_path}' in r.stderr
    assert "add a folder with -I DIR" in r.stderr


def test_unknown_model_lists_the_folders_searched(weft, tmp_path):
    r = weft("-model", "nosuch", "-I", tmp_path, SB)
    assert r.returncode == 1
    assert "cannot find model 'nosuch' (looked in " in r.stderr and str(tmp_path) in r.stderr


def test_diagnostics_cut_a_long_quoted_source_line(weft, tmp_path):
    f = tmp_path / "long.litmus"
    f.write_text("PPC LONG\n{ 0:r2=x; }\n P0 ;\n li r1," + "x" * 3000 + " ;\nexists (0:r1=1)\n")
    r = weft("-q", f)
    assert r.returncode == 1
    line, = [l for l in r.stderr.splitlines() if "malformed PPC instruction" in l]
    assert len(line) < 300 and "xxx...'" in line and line.endswith("expected a number or a location name")


def test_model_error_only_some_tests_reach_is_printed_once(weft, tmp_path):
    # the probe has no eieio: only tests with one reach the type error
    late = tmp_path / "late.cat"
    late.write_text('"Late"\nlet a = match EIEIO with || {} -> po || e ++ es -> po & W end\nacyclic a as t\n')
    src = (PPC / "MP+eieio+addr.litmus").read_text()
    tests = []
    for k in range(3):
        f = tmp_path / f"e{k}.litmus"
        f.write_text(src.replace("MP+eieio+addr", f"MP+eieio+addr{k}", 1))
        tests.append(f)
    r = weft("-q", "-j", "2", "-model", late, *tests, SB)
    assert r.returncode == 1
    assert r.stderr.count("error: intersection of a relation and an event set") == 1, r.stderr
    assert r.stderr.count("could not evaluate an execution") == 3
    assert "Test SB Allowed" in r.stdout


def test_hardware_column_titled_like_a_model_gets_its_own_label(weft, tmp_path):
    log = tmp_path / "hw.allowed"
    log.write_text(" " * 20 + " | model.txt power.txt\n" + f"{'SB':20} | Ok Ok\n")
    r = weft("-q", "-table", "csv", "-model", "power", "-hardware", log, SB)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "test,power,power (hardware)"
