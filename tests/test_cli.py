"""The command line: help, version, usage errors, and how inputs expand."""
import re
import pathlib

MP = """PPC MP-cli
{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }
 P0           | P1           ;
 li r1,1      | lwz r1,0(r2) ;
 stw r1,0(r2) | lwz r3,0(r4) ;
 li r3,1      |              ;
 stw r3,0(r4) |              ;
exists (1:r1=1 /\\ 1:r3=0)
"""


def test_help_lists_every_option(weft, srcdir):
    r = weft("-help")
    assert r.returncode == 0
    assert r.stdout.startswith("Usage: weft")
    for opt in ("-model", "-engine", "-I", "-timeout", "-stats", "-check", "-dump", "-version",
                "-format", "-select", "-names", "-excl", "-shard", "-j", "-maxmem", "-failures-ok",
                "-expect", "-q", "-table", "-table-cells", "-hardware", "-o", "-explain", "-show",
                "-results", "-force"):
        assert re.search(r"^\s+" + re.escape(opt) + r"\b", r.stdout, re.M), opt
    # The man page documents every option the help lists.
    man = (srcdir / "man" / "weft.1").read_text()
    for opt in re.findall(r"^\s+-([a-zA-Z][a-zA-Z-]*)", r.stdout, re.M):
        assert ("\\-" + opt.replace("-", "\\-")) in man, f"man page lacks -{opt}"


def test_double_dash_and_equals_forms(weft):
    assert weft("--help").returncode == 0
    assert weft("--version").stdout.startswith("weft ")
    assert weft("-version").stdout == weft("--version").stdout


def test_j_glued_and_separate_forms(weft, tmp_path):
    f = tmp_path / "MP.litmus"
    f.write_text(MP)
    for args in (["-j2"], ["-j", "2"], ["--j=2"]):
        r = weft("-check", *args, f)
        assert (r.returncode, r.stderr) == (0, ""), args


def test_several_models_give_one_block_each_in_command_line_order(weft, tmp_path):
    f = tmp_path / "MP.litmus"
    f.write_text(MP)
    r = weft("-q", "-model", "sc", "-model", "power", f)
    assert r.returncode == 0, r.stderr
    obs = re.findall(r"^Observation MP-cli (\w+)", r.stdout, re.M)
    # sc forbids MP's relaxed outcome, power allows it: the order shows.
    assert obs == ["Never", "Sometimes"]
    one = [weft("-q", "-model", m, f).stdout for m in ("sc", "power")]
    # each block ends with its model's label, the only difference
    assert re.findall(r"^Model (\S+)\n\n", r.stdout, re.M) == ["sc", "power"]
    strip = lambda s: re.sub(r"^(Time|Model) .*\n", "", s, flags=re.M)
    assert strip(r.stdout) == strip(one[0]) + strip(one[1])


def test_table_option_combinations_are_usage_errors(weft, tmp_path):
    f = tmp_path / "MP.litmus"
    f.write_text(MP)
    for args in (["-table-cells", "counts"], ["-hardware", f], ["-o", tmp_path / "x"],
                 ["-show", "all"], ["-table", "csv", "-explain"], ["-table", "pdf"],
                 ["-table", "csv", "-format", "yaml"], ["-show", "some", "-o", tmp_path]):
        r = weft(*args, f)
        assert r.returncode == 2, args
        assert "weft:" in r.stderr and "-help" in r.stderr, args


def test_usage_errors_exit_2(weft):
    for args in (["-nosuch"], ["-model"], ["-timeout", "soon", "x.litmus"], [], ["-check=1"]):
        r = weft(*args)
        assert r.returncode == 2, args
        assert "weft:" in r.stderr and "-help" in r.stderr


def test_missing_file_is_located_error(weft, tmp_path):
    r = weft("-check", tmp_path / "nope.litmus")
    assert r.returncode == 1
    assert "nope.litmus" in r.stderr and "error" in r.stderr


def test_check_prints_nothing_for_good_file(weft, tmp_path):
    f = tmp_path / "MP.litmus"
    f.write_text(MP)
    r = weft("-check", f)
    assert (r.returncode, r.stdout, r.stderr) == (0, "", "")


def test_directories_and_lists_expand_in_order(weft, tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "deep").mkdir(parents=True)
    for rel, name in (("b/z.litmus", "Z"), ("a/deep/y.litmus", "Y"), ("a/x.litmus", "X")):
        (tmp_path / rel).write_text(MP.replace("MP-cli", name))
    (tmp_path / "a" / "notes.txt").write_text("not a test")
    r = weft("-dump", tmp_path)
    assert r.returncode == 0, r.stderr
    order = [m for m in re.findall(r"\b(X|Y|Z)\b", r.stdout)]
    # sorted by path: a/deep/y, a/x, b/z
    assert [o for i, o in enumerate(order) if o not in order[:i]] == ["Y", "X", "Z"]
    lst = tmp_path / "a" / "list"
    lst.write_text("# comment\n\nx.litmus\n../b/z.litmus\n")
    r2 = weft("-dump", "@" + str(lst))
    assert r2.returncode == 0, r2.stderr
    names = [o for o in re.findall(r"\b(X|Y|Z)\b", r2.stdout)]
    assert [o for i, o in enumerate(names) if o not in names[:i]] == ["X", "Z"]


def test_list_naming_missing_file_fails(weft, tmp_path):
    lst = tmp_path / "list"
    lst.write_text("missing.litmus\n")
    r = weft("-check", "@" + str(lst))
    assert r.returncode == 1
    assert "missing.litmus" in r.stderr


def test_default_engine_is_rsmc_and_enumerate_stays_available(weft, srcdir, tmp_path):
    """Without -engine the run is rsmc's (it commits stores, the enumerator
    never does); -engine enumerate still runs, with the same blocks."""
    f = tmp_path / "MP.litmus"
    f.write_text(MP)
    tests = [f, srcdir / "litmus" / "PPC" / "SB.litmus", srcdir / "litmus" / "X86" / "SB.litmus"]
    no_time = lambda s: re.sub(r"^Time .*\n", "", s, flags=re.M)
    no_stats = lambda s: re.sub(r"^Stats .*\n", "", no_time(s), flags=re.M)
    runs = {}
    for name, args in (("default", []), ("rsmc", ["-engine", "rsmc"]),
                       ("enumerate", ["-engine", "enumerate"]), ("gnu", ["--engine=enumerate"])):
        r = weft("-q", "-stats", *args, *tests)
        assert (r.returncode, r.stderr) == (0, ""), (name, r.stderr)
        runs[name] = r.stdout
    commits = lambda s: [int(c) for c in re.findall(r"^Stats \S+ .* commits (\d+)\b", s, re.M)]
    assert len(commits(runs["default"])) == 3 and min(commits(runs["default"])) > 0
    assert commits(runs["enumerate"]) == [0, 0, 0]
    assert no_time(runs["default"]) == no_time(runs["rsmc"])
    assert no_time(runs["enumerate"]) == no_time(runs["gnu"])
    assert no_stats(runs["default"]) == no_stats(runs["enumerate"])
    y = weft("-q", "-format", "yaml", f)
    assert "\nengine: rsmc\n" in y.stdout, y.stdout
    r = weft("-engine", "nosuch", f)
    assert r.returncode == 2 and "unknown engine 'nosuch' (available: enumerate, rsmc, bmc, pop, await, rvf)" in r.stderr


def test_help_and_man_page_name_rsmc_the_default(weft, srcdir):
    help_text = " ".join(weft("-help").stdout.split())
    assert "rsmc (default" in help_text
    assert "enumerate (every candidate execution" in help_text
    assert "the default with -explain or -show" in help_text
    man = " ".join((srcdir / "man" / "weft.1").read_text().split())
    assert "\\fBrsmc\\fR (the default)" in man
    assert "\\fBenumerate\\fR (the default)" not in man


def test_mistyped_option_names_the_nearest_one(weft):
    # A swap, a missing and an extra letter each name the option meant,
    # in its one-dash spelling whichever form was typed.
    for typed, meant in (("-modle", "-model"), ("--enigne", "-engine"), ("-timout", "-timeout"),
                         ("-statss", "-stats")):
        r = weft(typed, "sc", "x.litmus")
        assert r.returncode == 2, typed
        assert f"unknown option '{typed}' (did you mean '{meant}'?)" in r.stderr, (typed, r.stderr)
    # Nothing close: no guess, and a short name never suggests a long one.
    for typed in ("-xyzzy", "-x"):
        r = weft(typed)
        assert r.returncode == 2 and f"unknown option '{typed}'\n" in r.stderr, (typed, r.stderr)
