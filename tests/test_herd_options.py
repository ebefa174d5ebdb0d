"""herd7's options (issue 14, item 4): the ones weft honours do what herd
does with them, the ones that only shape herd's own output are noted in one
line and skipped with their argument, the ones that would change results are
refused by name, and every option of the man page's HERD7 OPTIONS table is
exercised here.  Expectations are worked out from herd7's documented meaning
(herd/herd.ml's option table, herd/lexConf_herd.mll's configuration keys,
herd/top_herd.ml's speedcheck and nshow), as the comments say."""
import os
import re
import shutil
import subprocess

from conftest import SRCDIR, WEFT, result_blocks

SB = SRCDIR / "litmus" / "PPC" / "SB.litmus"
MP = SRCDIR / "litmus" / "PPC" / "MP.litmus"
COUNT3 = SRCDIR / "litmus" / "loops" / "PPC" / "count3.litmus"

NEG = """PPC neg-hexa
"a register holding -1 and one holding 255, for -hexa"
{ }
 P0          ;
 li r1,-1    ;
 li r2,255   ;
forall (0:r1=-1 /\\ 0:r2=255)
"""


def with_herdlib(lib, *args):
    env = dict(os.environ, HERDLIB=str(lib))
    return subprocess.run([str(WEFT), *map(str, args)], env=env, capture_output=True, text=True, timeout=600)


def block(r, name):
    return result_blocks(r.stdout)[name][0]


def man_table_rows():
    """(options, what) of each row of man/weft.1's HERD7 OPTIONS table."""
    man = (SRCDIR / "man" / "weft.1").read_text()
    table = man[man.index(".SH HERD7 OPTIONS"):]
    table = table[table.index(".TS"):table.index(".TE")]
    cells = re.findall(r"T\{\n(.*?)\nT\}@T\{\n(.*?)\nT\}", table, re.S)
    rows = []
    for first, what in cells:
        names = re.findall(r"\\-([a-z][a-z0-9\\-]*)", first)
        rows.append(([n.replace("\\-", "-") for n in names], what))
    return rows


def option_names(fragment):
    return [n for opts, what in man_table_rows() if fragment in what for n in opts]


# ---- honoured options ---------------------------------------------------------


def test_conf_reads_keys_as_options(weft, tmp_path):
    # herd's .cfg: `key value` or `key = value`, # comments, blank lines;
    # model sc, hexa true: the block is the sc block with hexadecimal states
    cfg = tmp_path / "my.cfg"
    cfg.write_text("# a comment\n\nmodel sc\nhexa = true\n")
    plain = weft("-model", "sc", SB)
    r = weft("-conf", cfg, SB)
    assert r.returncode == 0, r.stderr
    want = block(plain, "SB").replace("=0;", "=0x0;").replace("=1;", "=0x1;")
    want = want.replace("=0 ", "=0x0 ").replace("=0)", "=0x0)")   # the condition's values too
    assert block(r, "SB") == want
    assert r.stderr == ""


def test_conf_model_yields_to_the_command_line(weft, tmp_path):
    # herd keeps the last model; weft lets -model win over a configuration
    # file's model whatever the order (documented)
    cfg = tmp_path / "sc.cfg"
    cfg.write_text("model sc\n")
    power = weft("-model", "power", SB)
    for args in (["-conf", cfg, "-model", "power"], ["-model", "power", "-conf", cfg]):
        r = weft(*args, SB)
        assert block(r, "SB") == block(power, "SB")
    # and SB's relaxed outcome is what tells power and sc apart
    assert block(weft("-conf", cfg, SB), "SB") != block(power, "SB")


def test_conf_unroll_is_unroll(weft, tmp_path):
    cfg = tmp_path / "u.cfg"
    cfg.write_text("unroll 1\n")
    assert block(weft("-conf", cfg, COUNT3), "count3") == block(weft("-unroll", "1", COUNT3), "count3")
    # and 1 is not the default: count3 jumps back twice to store 3
    assert block(weft("-unroll", "1", COUNT3), "count3") != block(weft(COUNT3), "count3")


def test_conf_ignored_and_unknown_and_refused_keys(weft, tmp_path):
    cfg = tmp_path / "graph.cfg"
    cfg.write_text("graph columns\nsquished true\nedgeattr co,color,blue\nedgeattr rf,color,red\n")
    r = weft("-conf", cfg, SB)
    assert r.returncode == 0
    assert block(r, "SB") == block(weft(SB), "SB")
    # herd says nothing of them, and the kernel's scripts compare herd's
    # whole output (stderr too): the notes are for -v, before or after -conf
    assert r.stderr == ""
    for args in (("-v", "-conf", cfg), ("-conf", cfg, "-v")):
        r = weft(*args, SB)
        assert r.returncode == 0
        assert block(r, "SB") == block(weft(SB), "SB")
        # one note sums up the keys ignored for one reason, each named once
        notes = r.stderr.splitlines()
        assert notes == [f"{cfg}:1:1: note: 3 keys ignored (graph, squished, edgeattr): each only shapes "
                         "herd's execution graphs"]
    one = tmp_path / "one.cfg"
    one.write_text("squished true\n")
    assert weft("-conf", one, SB).stderr == ""
    assert weft("-v", "-conf", one, SB).stderr.splitlines() == \
        [f"{one}:1:1: note: key 'squished' only shapes herd's execution graphs: ignored"]
    bad = tmp_path / "bad.cfg"
    bad.write_text("# fine\n  frobnicate 3\n")
    r = weft("-conf", bad, SB)
    assert r.returncode == 2
    assert f"{bad}:2:3: error: unknown key 'frobnicate' in configuration file" in r.stderr
    refused = tmp_path / "skip.cfg"
    refused.write_text("restrict observed\n")
    r = weft("-conf", refused, SB)
    assert r.returncode == 2
    assert f"{refused}:1:1: error: key 'restrict' restricts the outcomes herd prints, which weft cannot " \
        "honour" in r.stderr
    novalue = tmp_path / "novalue.cfg"
    novalue.write_text("model\n")
    r = weft("-conf", novalue, SB)
    assert r.returncode == 2 and f"{novalue}:1:6: error: key 'model' needs a value" in r.stderr


def test_conf_nests_and_is_found_on_the_library_path(weft, tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "inner.cfg").write_text("model sc\n")
    (lib / "outer.cfg").write_text("conf inner.cfg\n")
    sc = block(weft("-model", "sc", SB), "SB")
    # found through -I, -set-libdir and $HERDLIB, as herd's libfind does
    assert block(weft("-I", lib, "-conf", "outer.cfg", SB), "SB") == sc
    assert block(weft("-set-libdir", lib, "-conf", "outer.cfg", SB), "SB") == sc
    assert block(with_herdlib(lib, "-conf", "outer.cfg", SB), "SB") == sc
    # a file that names itself stops with a message, not a crash
    (lib / "loop.cfg").write_text("conf loop.cfg\n")
    r = weft("-I", lib, "-conf", "loop.cfg", SB)
    assert r.returncode == 2 and "nest more than 16 deep" in r.stderr
    r = weft("-conf", tmp_path / "missing.cfg", SB)
    assert r.returncode == 2 and "cannot read configuration file" in r.stderr


def test_set_libdir_and_herdlib_find_models(weft, tmp_path):
    lib = tmp_path / "herdlib"
    lib.mkdir()
    shutil.copy(SRCDIR / "cat" / "sc.cat", lib / "mysc.cat")
    sc = block(weft("-model", "sc", SB), "SB")
    assert block(weft("-set-libdir", lib, "-model", "mysc", SB), "SB") == sc
    assert weft("-model", "mysc", SB).returncode != 0   # not found without it
    r = with_herdlib(lib, "-model", "mysc", SB)
    assert r.returncode == 0 and block(r, "SB") == sc


SB_X86 = """X86 SB
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV [y],$1  ;
 MOV EAX,[y] | MOV EAX,[x] ;
exists (0:EAX=0 /\\ 1:EAX=0)
"""


def test_default_model_is_wefts_whatever_the_library_path_holds(weft, tmp_path):
    """An X86 test without -model runs under weft's tso even when a folder
    on the path (-I, $HERDLIB) has a tso.cat of its own, as herd's library
    does; naming the file (-model tso.cat) takes the path's."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "tso.cat").write_text('"not weft\'s tso"\nacyclic po | rf | co | fr as sc\n')
    test = tmp_path / "SB.litmus"
    test.write_text(SB_X86)

    def observation(*args, env=None):
        r = subprocess.run([str(WEFT), "-q", *args, str(test)], capture_output=True, text=True,
                           env=env, timeout=60)
        assert r.returncode == 0, r.stderr
        return [l for l in r.stdout.splitlines() if l.startswith("Observation")][0]

    # TSO lets both loads read 0 (store buffering); the decoy forbids it
    assert observation() == "Observation SB Sometimes 1 3"
    assert observation("-I", lib) == "Observation SB Sometimes 1 3"
    assert observation("-model", "tso", "-I", lib) == "Observation SB Sometimes 1 3"
    assert observation(env={**os.environ, "HERDLIB": str(lib)}) == "Observation SB Sometimes 1 3"
    assert observation("-model", "tso.cat", "-I", lib) == "Observation SB Never 0 3"
    assert observation("-model", lib / "tso.cat") == "Observation SB Never 0 3"


def test_hexa(weft, tmp_path):
    f = tmp_path / "neg-hexa.litmus"
    f.write_text(NEG)
    # -1 prints as OCaml's "0x%Lx" of the 64-bit value; the argument of
    # herd's boolean may be left out (true), or given as true / false
    for args in (["-hexa"], ["-hexa", "true"], ["--hexa=true"]):
        r = weft(*args, f)
        assert r.returncode == 0, r.stderr
        assert "0:r1=0xffffffffffffffff; 0:r2=0xff;\n" in r.stdout
        # the condition's values too: herd prints its atoms with the
        # states' printer (Constraints.pp_atom: V.pp C.hexa)
        assert "Condition forall (0:r1=0xffffffffffffffff /\\ 0:r2=0xff)" in r.stdout
    assert "0:r1=-1; 0:r2=255;\n" in weft("-hexa", "false", f).stdout
    assert weft("--hexa=maybe", f).returncode == 2


def test_speedcheck_fast_stops_at_the_first_witness(weft, tmp_path):
    full = weft("-engine", "enumerate", "-stats", SB)
    fast = weft("-speedcheck", "fast", "-stats", SB)
    assert fast.returncode == 0, fast.stderr
    m_full = re.search(r"Positive: (\d+) Negative: (\d+)", full.stdout)
    m_fast = re.search(r"Positive: (\d+) Negative: (\d+)", fast.stdout)
    # exists: the first execution where the proposition holds ends the run
    assert int(m_fast.group(1)) == 1
    assert int(m_fast.group(2)) <= int(m_full.group(2))
    assert "\nOk\n" in fast.stdout
    cands = lambda r: int(re.search(r"candidates (\d+)", r.stdout).group(1))
    assert cands(fast) < cands(full)
    # forall that fails: the first counter-example ends it, verdict No
    f = tmp_path / "forall.litmus"
    f.write_text(SB.read_text().replace("exists (0:r3=0 /\\ 1:r3=0)", "forall (0:r3=1)")
                 .replace("PPC SB", "PPC SBforall"))
    r = weft("-speedcheck", "fast", f)
    assert re.search(r"Positive: \d+ Negative: 1\n", r.stdout) and "\nNo\n" in r.stdout
    # an exists with no witness is never decided early: the full block
    g = tmp_path / "never.litmus"
    g.write_text(SB.read_text().replace("exists (0:r3=0 /\\ 1:r3=0)", "exists (0:r3=2)")
                 .replace("PPC SB", "PPC SBnever"))
    assert block(weft("-speedcheck", "fast", g), "SBnever") == block(weft(g), "SBnever")
    # true and false list every state, as herd's output does
    for tag in ("true", "false"):
        assert block(weft("-speedcheck", tag, SB), "SB") == block(weft(SB), "SB")
    assert weft("-speedcheck", "fast", "-engine", "rsmc", SB).returncode == 2
    assert weft("-speedcheck", "quick", SB).returncode == 2


def test_nshow_and_showone_bound_the_graphs(weft, tmp_path):
    counts = {}
    for name, args in (("all", []), ("two", ["-nshow", "2"]), ("one", ["-showone", "true"]),
                       ("one-bare", ["-showone"])):
        out = tmp_path / name
        r = weft("-show", "all", "-o", out, *args, SB)
        assert r.returncode == 0, r.stderr
        counts[name] = len(list(out.glob("*.dot")))
    assert counts["all"] > 2
    assert counts["two"] == 2 and counts["one"] == 1 and counts["one-bare"] == 1
    assert weft("-nshow", "2", SB).returncode == 2      # needs -show
    assert weft("-nshow", "0", "-show", "all", "-o", tmp_path / "z", SB).returncode == 2


def test_initwrites_and_variant(weft):
    base = block(weft(SB), "SB")
    r = weft("-initwrites", "true", SB)
    assert block(r, "SB") == base and r.stderr == ""
    r = weft("-initwrites", "false", SB)
    assert block(r, "SB") == base
    assert r.stderr == "weft: note: -initwrites false: weft always represents initial values as write events\n"
    # a variant no model tests changes nothing (models' `if "TAG"`: test_cat_choices.py)
    r = weft("-variant", "SwitchDepScWrite", SB)
    assert block(r, "SB") == base and r.stderr == ""


def test_cat_is_model(weft):
    assert block(weft("-cat", "sc", SB), "SB") == block(weft("-model", "sc", SB), "SB")


# ---- ignored and refused options, row by row of the man page's table -----------

UNIT = {"gv", "evince", "preview", "v", "switch", "web", "c11"}


def test_every_ignored_option_is_noted_and_skipped(weft):
    names = option_names("noted and ignored")
    assert "graph" in names and "debug" in names and len(names) > 60
    base = block(weft(SB), "SB")
    for n in names:
        args = [f"-{n}"] if n in UNIT else [f"-{n}", "xyz"]
        r = weft(*args, SB)
        assert r.returncode == 0, (n, r.stderr)
        assert block(r, "SB") == base, n
        lines = r.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"weft: note: herd7's option -{n} ") \
            and lines[0].endswith(": ignored"), (n, r.stderr)


def test_every_refused_option_is_named(weft):
    names = option_names("refused")
    assert "throughflag" in names and "restrict" in names
    for n in names:
        args = [f"-{n}"] if n in UNIT else [f"-{n}", "xyz"]
        r = weft(*args, SB)
        assert r.returncode == 2, n
        assert f"herd7's option '-{n}' " in r.stderr and "which weft cannot honour" in r.stderr, (n, r.stderr)
        assert r.stdout == ""


def test_every_table_option_is_accepted(weft, tmp_path):
    # no row of the table names an option weft calls unknown
    for opts, what in man_table_rows():
        for n in opts:
            r = weft(f"-{n}", "x", SB) if n not in UNIT else weft(f"-{n}", SB)
            assert "unknown option" not in r.stderr, n


def test_ignored_option_without_its_argument(weft):
    r = weft(SB, "-fontsize")
    assert r.returncode == 2 and "option '-fontsize' needs an argument" in r.stderr


def test_skipcheck_is_skipchecks(weft):
    # herd's -skipcheck NAME (one check, cumulative) is weft's -skipchecks
    a = weft("-skipcheck", "observation", "-model", "power", MP)
    b = weft("-skipchecks", "observation", "-model", "power", MP)
    assert a.returncode == 0 and block(a, "MP") == block(b, "MP")


def test_weft_options_in_the_table_keep_their_meaning(weft, tmp_path):
    # the table's "as weft's options of those names" row: each is accepted
    # with herd's argument and does what weft's option does
    names = tmp_path / "n.names"
    names.write_text("SB\n")
    r = weft("-q", "-names", names, SB, MP)
    assert list(result_blocks(r.stdout)) == ["SB"]
    r = weft("-q", "-excl", names, SB, MP)
    assert list(result_blocks(r.stdout)) == ["MP"]
    assert weft("-timeout", "30", SB).returncode == 0
    assert weft("-version").stdout.startswith("weft ")
