"""The C front-end (herd's C litmus dialect, src/c/) on weft's own kernel-style
tests in tests/c/, with a macro file of our own given by -macros
(tests/c/kernel-mini.def), and without one (weft's own
cat/kernel-primitives.def, the bundled suite's litmus/C/):
the states sc allows, worked out by hand; the events each kernel primitive
makes, as -dump shows them (tags from the .def, lock events, read-modify-
writes); that the meaning of a call is read from the .def given (an edited
one changes it); -macros and -conf; and the located errors for what weft
does not run.  With the corpus present, the same tests also run with the
kernel's own linux-kernel.def."""
import pytest

from conftest import CORPUS, SRCDIR, result_blocks

SUITE = SRCDIR / "tests" / "c"
MINI = SRCDIR / "tests" / "c" / "kernel-mini.def"

# Every final state sequential consistency allows, by hand: each test's
# condition names an outcome no interleaving gives.
SC_STATES = {
    "MP+rel+acq": {"1:r0=0; 1:r1=0;", "1:r0=0; 1:r1=1;", "1:r0=1; 1:r1=1;"},
    "MP+locks": {"1:r0=0; 1:r1=0;", "1:r0=0; 1:r1=1;", "1:r0=1; 1:r1=1;"},
    "RCU-MP": {"1:r0=0; 1:r1=0;", "1:r0=0; 1:r1=1;", "1:r0=1; 1:r1=1;"},
    "SB+mbs": {"0:r0=0; 1:r0=1;", "0:r0=1; 1:r0=0;", "0:r0=1; 1:r0=1;"},
    # the pointer read is a, the initial one (and a holds 0), or b after
    # the store of b's 1
    "MP+rcu-pointer": {"1:r0=a; 1:r1=0;", "1:r0=b; 1:r1=1;"},
    # the two increments never overlap
    "INC+fetch-adds": {"[x]=2;"},
    # the first cmpxchg wins; the second reads its value and fails
    "CAS+cmpxchgs": {"0:r0=0; 1:r0=1;", "0:r0=2; 1:r0=0;"},
    # P1 first: x=-1, P0 takes the else branch; P0 first: P1 reads 0 or 2
    "LB+ctrl+data": {"0:r0=-1; 1:r0=0;", "0:r0=0; 1:r0=0;", "0:r0=0; 1:r0=2;"},
    # sc.cat knows nothing of lock.cat's mutual exclusion: lock events are
    # accesses of the lock like any other, so P1's two reads may fall on
    # either side of each of P0's writes
    "MP+3-lockers": {"1:r0=0; 1:r1=0;", "1:r0=0; 1:r1=1;", "1:r0=1; 1:r1=0;", "1:r0=1; 1:r1=1;"},
    # the self-justified values of test_c_self_justified.py: sc forbids
    # every po u rf cycle, so only values from the initial ones and P2's 5
    "LB+copies+W": {"0:r0=0; 1:r0=0;", "0:r0=5; 1:r0=0;", "0:r0=5; 1:r0=5;"},
    "LB+mul+copy": {"0:r0=0;"},
    "LB+add0+copy": {"0:r0=0;"},
    "LB+ctrl-store+copy": {"0:r0=0;"},
}
# Tests whose condition sc allows (see above); every other one's it forbids.
SC_REACHED = {"MP+3-lockers"}


def states(body):
    lines = body.splitlines()
    n = int(lines[1].split()[1])
    return set(lines[2:2 + n])


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_kernel_tests_under_sc(weft, engine):
    r = weft("-macros", MINI, "-model", "sc", "-engine", engine, SUITE)
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    assert set(blocks) == set(SC_STATES)
    for name, want in SC_STATES.items():
        body = blocks[name][0]
        assert states(body) == want, (name, body)
        assert ("\nOk\n" if name in SC_REACHED else "\nNo\n") in body, (name, body)


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_kernel_tests_with_the_kernels_def(weft, corpus, engine):
    """The kernel's linux-kernel.def gives the same executions under sc."""
    r = weft("-macros", corpus / "herd-cat" / "7.58" / "lkmm" / "linux-kernel.def", "-model", "sc",
             "-engine", engine, SUITE)
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    for name, want in SC_STATES.items():
        assert states(blocks[name][0]) == want, name


def dump(weft, test, macros=MINI):
    r = weft("-macros", macros, "-model", "sc", "-dump", SUITE / test)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_dump_shows_tags_and_lock_events(weft):
    out = dump(weft, "MP+locks.litmus")
    # parameters are registers holding their variable's address
    assert "reg lock = lock" in out
    assert "store [data] <- 1 {ONCE}" in out
    # spin_lock: LKR then LKW, two po steps; spin_unlock: UL
    lk = out.index("fence LKR [lock]")
    lkw = out.index("fence LKW [lock]")
    assert lk < lkw and "instr" in out[lk:lkw]
    assert "fence UL [lock]" in out
    out = dump(weft, "MP+rel+acq.litmus")
    assert "load #0 <- [flag] {ACQUIRE}" in out
    assert "store [flag] <- 1 {RELEASE}" in out
    out = dump(weft, "RCU-MP.litmus")
    for tag in ("rcu-lock", "rcu-unlock", "sync-rcu"):
        assert f"fence {tag} {{{tag}}}" in out


def test_dump_shows_read_modify_writes(weft):
    out = dump(weft, "CAS+cmpxchgs.litmus")
    # the read and the write, both atomic and tagged; the write only when
    # the read saw the old value (a branch inside the primitive)
    assert "load #0 <- [x] flags X {MB}" in out
    assert "store [x] <- 1 flags X {MB}" in out
    assert "silent" in out
    out = dump(weft, "INC+fetch-adds.litmus")
    assert "alu add" in out and "store [x] <- #1 flags X {MB}" in out


def test_an_edited_def_changes_the_meaning(weft, tmp_path):
    """The meaning of READ_ONCE comes from the .def, not from weft."""
    edited = tmp_path / "edited.def"
    edited.write_text(MINI.read_text().replace("READ_ONCE(X) __load{ONCE}(X)",
                                               "READ_ONCE(X) __load{MY-TAG}(X)"))
    out = dump(weft, "SB+mbs.litmus", macros=edited)
    assert "{MY-TAG}" in out and "load #0 <- [y] {ONCE}" not in out
    # and a fence macro turned into nothing removes the fence events
    edited.write_text(MINI.read_text().replace("smp_mb() { __fence{MB}; }", "smp_mb() { }"))
    out = dump(weft, "SB+mbs.litmus", macros=edited)
    assert "fence" not in out


def test_conf_sets_the_macro_file(weft, tmp_path):
    cfg = tmp_path / "mini.cfg"
    cfg.write_text("macros kernel-mini.def\nmodel sc\n")
    r = weft("-I", MINI.parent, "-conf", cfg, SUITE / "SB+mbs.litmus")
    assert r.returncode == 0, r.stderr
    assert "Observation SB+mbs Never 0 3" in r.stdout


def write(tmp_path, name, body):
    f = tmp_path / name
    f.write_text(body)
    return f


def error_of(weft, path, *args):
    r = weft(*args, "-model", "sc", path)
    assert r.returncode != 0
    return r.stderr


SHIPPED = SRCDIR / "cat" / "kernel-primitives.def"


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_without_macros_weft_uses_its_own_def_and_sc(weft, engine):
    """No -macros, no -model: the primitives come from weft's
    kernel-primitives.def and the model is sc, so the blocks are those of
    -model sc with kernel-mini.def (the same primitives) on every test."""
    r = weft("-engine", engine, SUITE)
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    assert set(blocks) == set(SC_STATES)
    for name, want in SC_STATES.items():
        assert states(blocks[name][0]) == want, name
    # the tags are the kernel's bell's, from our file
    r = weft("-dump", SUITE / "MP+rel+acq.litmus")
    assert r.returncode == 0, r.stderr
    assert "load #0 <- [flag] {ACQUIRE}" in r.stdout
    assert "store [flag] <- 1 {RELEASE}" in r.stdout


def test_a_name_no_macro_file_defines_is_a_located_error(weft, tmp_path):
    f = write(tmp_path, "T.litmus", "C T\n{}\nP0(int *x)\n{\n\tint r0 = frob(x);\n}\nexists (0:r0=1)\n")
    r = weft("-model", "sc", f)
    assert r.returncode != 0
    assert f"{f}:5:11: error: unknown macro 'frob' (not in " in r.stderr
    assert "kernel-primitives.def; herd7: Unknown macro frob (User error))" in r.stderr
    # a macro file with no definitions at all: every call is an error
    empty = write(tmp_path, "empty.def", "// nothing here\n")
    err = error_of(weft, SUITE / "SB+mbs.litmus", "-macros", empty)
    assert "SB+mbs.litmus:7:2: error: unknown macro 'WRITE_ONCE' (not in " in err
    assert "empty.def; herd7: Unknown macro WRITE_ONCE (User error))" in err


def test_the_shipped_def_parses_and_every_macro_expands(weft, tmp_path):
    """Each macro of kernel-primitives.def, called once in a test of its
    own, expands down to herd's primitives (none names a missing one)."""
    import re
    lines = [l for l in SHIPPED.read_text().splitlines() if l and not l.startswith("//")]
    assert len(lines) >= 40
    for i, line in enumerate(lines):
        m = re.match(r"(\w+)\(([^)]*)\)\s*(.*)", line)
        assert m, line
        name, params, body = m.group(1), [p for p in m.group(2).split(",") if p], m.group(3)
        # pointers for the address parameters (the lvalue itself for the
        # primitives the kernel's tests call on `*p`), 1 for values
        lvalue = ("READ_ONCE", "WRITE_ONCE", "rcu_dereference", "rcu_assign_pointer")
        args = ", ".join("*x" if name in lvalue and k == 0
                         else "x" if p in ("X", "P", "L") else "1" for k, p in enumerate(params))
        call = f"{name}({args})"
        stmt = f"\t{call};\n" if body.startswith("{") else f"\tint r0 = {call};\n"
        f = write(tmp_path, f"M{i}.litmus", f"C M{i}\n{{}}\nP0(int *x)\n{{\n{stmt}}}\nexists (x=0)\n")
        r = weft("-dump", f)
        assert r.returncode == 0, (line, r.stderr)


def test_the_default_model_for_c_is_sc(weft):
    plain = weft(SUITE / "SB+mbs.litmus")
    sc = weft("-model", "sc", SUITE / "SB+mbs.litmus")
    assert plain.returncode == 0 and sc.returncode == 0, plain.stderr
    drop = lambda out: [l for l in out.splitlines() if not l.startswith("Time ")]
    assert drop(plain.stdout) == drop(sc.stdout)
    # sc is not herd7's default for C, and a kernel developer who forgot
    # -conf must not read its Never as the kernel model's: one note a run,
    # however many C tests; none when the model is chosen
    note = "note: C tests run under sc, weft's default for C"
    assert plain.stderr.count(note) == 1, plain.stderr
    two = weft(SUITE / "SB+mbs.litmus", SUITE / "MP+rel+acq.litmus")
    assert two.returncode == 0 and two.stderr.count(note) == 1, two.stderr
    assert note not in sc.stderr, sc.stderr


def test_a_conf_finds_the_files_it_names_in_its_own_folder(weft, tmp_path):
    """`-conf DIR/x.cfg` naming `macros mini.def` finds DIR/mini.def
    without -I, from another folder."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "mini.def").write_text(MINI.read_text())
    (lib / "mini.cfg").write_text("macros mini.def\nmodel sc\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = weft("-conf", lib / "mini.cfg", SUITE / "SB+mbs.litmus", cwd=elsewhere)
    assert r.returncode == 0, r.stderr
    assert "Observation SB+mbs Never 0 3" in r.stdout
    # the same file through an -I folder is found once, not twice
    r = weft("-I", lib, "-conf", "mini.cfg", SUITE / "SB+mbs.litmus", cwd=elsewhere)
    assert r.returncode == 0, r.stderr


def test_the_readme_kernel_command_on_our_own_c_test(weft, corpus):
    """README's example: the kernel developers' -conf linux-kernel.cfg,
    named by its path, on a test of litmus/C: the LKMM lets MP+onces's
    reads see the writes out of order (sc does not)."""
    lib = corpus / "herd-cat" / "7.58"
    test = SRCDIR / "litmus" / "C" / "MP+onces.litmus"
    r = weft("-I", lib, "-conf", lib / "lkmm" / "linux-kernel.cfg", test)
    assert r.returncode == 0, r.stderr
    assert "Observation MP+onces Sometimes 1 3" in r.stdout
    r = weft(test)
    assert "Observation MP+onces Never 0 3" in r.stdout


def test_unsupported_constructs_are_located_errors(weft, tmp_path):
    head = "C T\n{}\nP0(int *x)\n{\n"
    cases = [
        ("\tint r0 = 0;\n\tfor (r0 = 0; r0 < 2; r0 = r0 + 1)\n\t\tWRITE_ONCE(*x, r0);\n}\nexists (x=1)\n",
         ":6:2: error: unsupported: 'for' in a C test (herd's C has while loops and if/else only)"),
        ("\tint r0 = 0;\n\tdo {\n\t\tr0 = READ_ONCE(*x);\n\t} while (r0 == 0);\n}\nexists (0:r0=1)\n",
         ":6:2: error: unsupported: 'do' in a C test"),
        ("\twhile (1) {\n\t\tif (READ_ONCE(*x))\n\t\t\tbreak;\n\t}\n}\nexists (x=1)\n",
         ":7:4: error: unsupported: 'break' in a C test"),
        ("\tint r0 = READ_ONCE(x);\n}\nexists (0:r0=1)\n", ":5:11: error: bad __load argument"),
        ("\tint r0 = frob(x);\n}\nexists (0:r0=1)\n", ":5:11: error: unknown macro 'frob' (not in"),
        ("\tint r0 = READ_ONCE(*x)\n}\nexists (0:r0=1)\n", ":6:1: error: expected ';', found '}'"),
    ]
    for i, (body, want) in enumerate(cases):
        f = write(tmp_path, f"t{i}.litmus", head + body)
        err = error_of(weft, f, "-macros", MINI)
        assert str(f) + want in err, (body, err)
    f = write(tmp_path, "order.litmus", "C T\n{}\nP1(int *x)\n{\n}\nexists (x=1)\n")
    err = error_of(weft, f, "-macros", MINI)
    assert "order.litmus:3:1: error: threads must be P0, P1, ... in order" in err


def test_a_bad_macro_file_is_a_located_error(weft, tmp_path):
    bad = write(tmp_path, "bad.def", "READ_ONCE(X) __load{ONCE}(X)\nWRITE_ONCE(X,V { }\n")
    err = error_of(weft, SUITE / "SB+mbs.litmus", "-macros", bad)
    assert "bad.def:2:16: error: expected ',' or ')' in the macro's parameters" in err
    r = weft("-macros", "no-such.def", "-model", "sc", SUITE / "SB+mbs.litmus")
    assert r.returncode == 2 and "cannot read -macros file 'no-such.def'" in r.stderr


TAGS_MODEL = '''"tag sets"
let once = try ONCE with emptyset
let acquire = try ACQUIRE with emptyset
let rcu = try (Rcu-lock | Rcu-unlock | Sync-rcu) with emptyset
flag ~empty once as once
flag ~empty acquire as acquire
flag ~empty rcu as rcu
flag ~empty ([LKR]; po; [LKW]) & loc as lock-pair
flag ~empty UL as unlock
flag ~empty F as fence
flag ~empty F & (LKR | LKW | UL) as lock-in-F
'''


def flags(body):
    return {l.split()[1] for l in body.splitlines() if l.startswith("Flag ")}


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_models_see_the_tags_and_lock_events(weft, tmp_path, engine):
    """A tag T of the .def is the set named T with its first letter in upper
    case (herd's bell: {rcu-lock} is Rcu-lock), fences included; lock
    events are the sets LKR, LKW, UL, on the lock's location, and not
    fences (F), as in herd.  Two tests
    whose ops carry the same annotation bit for different tags, in one
    process, each get their own sets."""
    model = tmp_path / "tags.cat"
    model.write_text(TAGS_MODEL)
    once = write(tmp_path, "A.litmus", "C A\n{}\nP0(int *x)\n{\n\tint r0 = READ_ONCE(*x);\n}\nexists (0:r0=0)\n")
    acq = write(tmp_path, "B.litmus", "C B\n{}\nP0(int *x)\n{\n\tint r0 = smp_load_acquire(x);\n}\n"
                "exists (0:r0=0)\n")
    r = weft("-macros", MINI, "-model", model, "-engine", engine, "-j", "1", once, acq, once,
             SUITE / "RCU-MP.litmus", SUITE / "MP+locks.litmus")
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    assert flags(blocks["A"][0]) == {"once"}
    assert flags(blocks["B"][0]) == {"acquire"}
    assert flags(blocks["RCU-MP"][0]) == {"once", "rcu", "fence"}
    assert flags(blocks["MP+locks"][0]) == {"once", "lock-pair", "unlock"}


TRYLOCK = """C TRY
{}
P0(spinlock_t *l, int *x)
{
	int r0 = spin_trylock(l);
	if (r0)
		WRITE_ONCE(*x, 1);
	int r1 = spin_is_locked(l);
}
exists (0:r0=1 /\\ 0:r1=0)
"""


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_trylock_and_is_locked_take_both_alternatives(weft, tmp_path, engine):
    """herd's spin_trylock either takes the lock (LKR, LKW, value 1) or
    fails (LF, value 0); spin_is_locked reads it locked (RL, 1) or unlocked
    (RU, 0).  sc does not look at lock events, so all four combinations
    are executions; the write happens exactly when the trylock succeeded."""
    macros = write(tmp_path, "try.def", MINI.read_text() +
                   "spin_trylock(X) __trylock(X)\nspin_is_locked(X) __islocked(X)\n")
    f = write(tmp_path, "TRY.litmus", TRYLOCK)
    r = weft("-macros", macros, "-model", "sc", "-engine", engine, f)
    assert r.returncode == 0, r.stderr
    body = result_blocks(r.stdout)["TRY"][0]
    assert states(body) == {"0:r0=0; 0:r1=0;", "0:r0=0; 0:r1=1;", "0:r0=1; 0:r1=0;", "0:r0=1; 0:r1=1;"}
    r = weft("-macros", macros, "-model", "sc", "-dump", f)
    for ev in ("choice", "fence LKR [l]", "fence LKW [l]", "fence LF [l]", "fence RL [l]", "fence RU [l]"):
        assert ev in r.stdout, ev


EXPRS = """C EXPR
{
\tx=3;
}
P0(int *x, int *y)
{
\tint r0 = READ_ONCE(*x);
\tint r1 = 1 + r0 * 2 - (8 >> 1);        /* 3: * before +, >> */
\tint r2 = r0 == 3 && !(r0 & 4);         /* 1 */
\tint r3 = (r0 < 2 || r0 >= 3) + (r0 != 3); /* 1 */
\tint r4 = -r0 % 2 + (~r0 ^ 1);          /* -1 + -3 = -4 */
\tint r5 = (int)r0 << 2 | 1;             /* 13: a cast is dropped */
\tr6 = y == x;                            /* 0: two addresses */
\tif (r0 > 2) { r7 = 1; } else r7 = 2;
}
exists (0:r1=3 /\\ 0:r2=1 /\\ 0:r3=1 /\\ 0:r4=-4 /\\ 0:r5=13 /\\ 0:r6=0 /\\ 0:r7=1)
"""


def test_c_expressions_compute_as_in_c(weft, tmp_path):
    f = write(tmp_path, "EXPR.litmus", EXPRS)
    r = weft("-macros", MINI, "-model", "sc", f)
    assert r.returncode == 0, r.stderr
    body = result_blocks(r.stdout)["EXPR"][0]
    assert "Observation EXPR Always 1 0" in body, body


def test_conf_finds_the_bell_on_the_search_path(weft, tmp_path):
    """The kernel's linux-kernel.cfg names its bell and macro files without
    a folder: found with -I, as herd's libfind does."""
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "tiny.bell").write_text('"tiny bell"\nlet mine = R\n')
    (tmp_path / "lib" / "tiny.cat").write_text('"tiny"\nflag ~empty mine as has-mine\n')
    cfg = tmp_path / "lib" / "tiny.cfg"
    cfg.write_text("macros kernel-mini.def\nbell tiny.bell\nmodel tiny.cat\n")
    r = weft("-I", MINI.parent, "-I", tmp_path / "lib", "-conf", "tiny.cfg", SUITE / "SB+mbs.litmus",
             cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "Flag has-mine" in r.stdout


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_an_if_controls_its_branches_only(weft, tmp_path, engine):
    """herd's C: the reads an if tests control the events of its branches,
    not the events after it (C-IngoMolnar-After is allowed under the LKMM
    for that reason)."""
    model = tmp_path / "ctrl.cat"
    model.write_text('"ctrl"\nlet last = W \\ domain(po)\nflag ~empty ctrl as has-ctrl\n'
                     'flag ~empty ctrl; [last] as ctrl-after-if\n')
    f = write(tmp_path, "IF.litmus", "C IF\n{}\nP0(int *a, int *b, int *c)\n{\n\tint r1 = READ_ONCE(*a);\n"
              "\tif (r1) {\n\t\tif (r1 == 1)\n\t\t\tWRITE_ONCE(*b, 1);\n\t} else\n\t\tWRITE_ONCE(*b, 2);\n"
              "\tWRITE_ONCE(*c, 1);\n}\nexists (0:r1=0)\n")
    r = weft("-macros", MINI, "-model", model, "-engine", engine, f)
    assert r.returncode == 0, r.stderr
    body = result_blocks(r.stdout)["IF"][0]
    assert flags(body) == {"has-ctrl"}, body


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_final_writes_and_failed_rmws_as_herds_c(weft, tmp_path, engine):
    """herd's C: FW holds the final writes of the locations the test
    observes only (the LKMM's lock-final never fires on a lock or srcu
    struct no condition names), and RMW holds every access of an atomic
    primitive, a failed cmpxchg's lone read too (the LKMM's FailedRMW)."""
    model = tmp_path / "fw.cat"
    model.write_text('"fw"\nflag ~empty FW as fw\n'
                     'flag ~empty RMW \\ (domain(rmw) | range(rmw)) as failed-rmw\n')
    body = "C {name}\n{{}}\nP0(int *x, int *y)\n{{\n\tWRITE_ONCE(*y, 1);\n\tint r0 = READ_ONCE(*x);\n}}\nexists ({cond})\n"
    seen = write(tmp_path, "SEEN.litmus", body.format(name="SEEN", cond="y=1"))
    unseen = write(tmp_path, "UNSEEN.litmus", body.format(name="UNSEEN", cond="0:r0=0"))
    r = weft("-macros", MINI, "-model", model, "-engine", engine, seen, unseen, SUITE / "CAS+cmpxchgs.litmus")
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    assert flags(blocks["SEEN"][0]) == {"fw"}
    assert flags(blocks["UNSEEN"][0]) == set()
    assert "failed-rmw" in flags(blocks["CAS+cmpxchgs"][0])


# herd hashes a C test as litmus7 reads it: each thread function printed
# "P<n>(<type>* <name>, ...) {\n<body>\n}\n", the body every byte between
# its braces as written, the type the parameter's with its outer '*' taken
# off in herd's spelling; the functions are the columns of herd's table
# (herd_hash.py), one line each.
HASHED = """C hash-shape
"a comment line and metadata are not hashed"
Cycle=whatever
{
  atomic_t v = ATOMIC_INIT(3);
  int *p = &x;
  int 1:r2;
}

/* between the functions: not hashed */
P0(int *x,volatile int*y,  int **p, atomic_t *v)
{
	WRITE_ONCE(*x, 1); /* kept, as written */

	WRITE_ONCE(*y, 1);
}

P1(int *x, volatile int *y, int **p)
{ int r0; int r2; r0 = READ_ONCE(*y);
  r2 = READ_ONCE(*x); }

locations [v;]
exists (1:r0=1 /\\ 1:r2=0)
"""

HASHED_CELLS = [
    "P0(int* x, volatile int* y, int** p, atomic_t* v) {\n"
    "\n\tWRITE_ONCE(*x, 1); /* kept, as written */\n\n\tWRITE_ONCE(*y, 1);\n"
    "\n}\n",
    "P1(int* x, volatile int* y, int** p) {\n"
    " int r0; int r2; r0 = READ_ONCE(*y);\n  r2 = READ_ONCE(*x); "
    "\n}\n",
]


def hash_of(weft, path):
    r = weft("-macros", MINI, "-model", "sc", path)
    assert r.returncode == 0, r.stderr
    return result_blocks(r.stdout)[path.read_text().split()[1]][0].split("Hash=")[1].split()[0]


def test_hash_is_herds_over_the_functions_as_written(weft, tmp_path):
    from herd_hash import herd_hash
    want = herd_hash(["int 1:r2=0", "int *p=x", "atomic_t v=3"],
                     [[c] for c in HASHED_CELLS], ["1:r0", "1:r2", "v"])
    assert hash_of(weft, write(tmp_path, "hash-shape.litmus", HASHED)) == want


def test_hash_follows_the_bodies_not_the_layout_around_them(weft, tmp_path):
    base = hash_of(weft, write(tmp_path, "a.litmus", HASHED))
    # spacing of the parameters, comments between functions, metadata:
    # not hashed
    same = HASHED.replace("P0(int *x,volatile int*y,  int **p", "P0(int* x, volatile int * y, int** p") \
                 .replace("/* between the functions: not hashed */", "// another comment") \
                 .replace("Cycle=whatever", "Cycle=other")
    assert hash_of(weft, write(tmp_path, "b.litmus", same)) == base
    # a blank inside a body is hashed (herd keeps the body's text)
    other = HASHED.replace("{ int r0;", "{  int r0;")
    assert hash_of(weft, write(tmp_path, "c.litmus", other)) != base


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_a_while_controls_its_body_and_later_tests_only(weft, tmp_path, engine):
    """herd's C nests each iteration of a while in the previous test's
    branch: a test's reads control the body and the later tests, and
    nothing after the loop."""
    model = tmp_path / "ctrl.cat"
    model.write_text('"ctrl"\nlet last = W \\ domain(po)\n'
                     'flag ~empty ctrl; [W] as ctrl-to-body\n'
                     'flag ~empty ctrl; [R] as ctrl-to-next-test\n'
                     'flag ~empty ctrl; [last] as ctrl-after-loop\n')
    f = write(tmp_path, "WH.litmus", "C WH\n{ a=1; }\nP0(int *a, int *b, int *c)\n{\n"
              "\twhile (READ_ONCE(*a) == 1)\n\t\tWRITE_ONCE(*b, 1);\n\tWRITE_ONCE(*c, 1);\n}\n"
              "P1(int *a)\n{\n\tWRITE_ONCE(*a, 0);\n}\nexists (b=1)\n")
    r = weft("-model", model, "-engine", engine, f)
    assert r.returncode == 0, r.stderr
    body = result_blocks(r.stdout)["WH"][0]
    assert flags(body) == {"ctrl-to-body", "ctrl-to-next-test"}, body
    # the states: the body ran (b=1) or not, c written every time
    assert states(body) == {"[b]=0;", "[b]=1;"}, body


def test_while_in_a_dump_and_in_a_macro(weft, tmp_path):
    """A while lowers to a jump to its test, the body, the test jumping
    back (named While, as herd's cut says), and the join; a macro's body
    may hold one."""
    f = write(tmp_path, "W.litmus", "C W\n{}\nP0(int *x)\n{\n\tint r0 = 0;\n"
              "\twhile (r0 < 1) {\n\t\tr0 = r0 + 1;\n\t}\n\tspin_until_set(x);\n}\nexists (0:r0=1)\n")
    macros = write(tmp_path, "spin.def", MINI.read_text() +
                   "spin_until_set(X) { while (READ_ONCE(*X) == 0) { } }\n")
    r = weft("-macros", macros, "-dump", f)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "branch always -> @" in out and "ctrl-scope" in out
    assert out.count("-> While") == 2 and out.count("ctrl-join") == 2
    r = weft("-macros", macros, "-model", "sc", f)
    assert r.returncode == 0, r.stderr
    # the spin on x (never written) is cut at every unrolling: no state
    assert "States 0" in r.stdout and "Loop No" in r.stdout
    assert "warning: unrolling limit exceeded at While" in r.stderr


def test_goto_on_a_c_test_reads_its_bodies_as_c(weft):
    """weft -i's goto reads the test again with another condition: `(*x`
    in a thread body is C, not the start of a herd comment (it used to
    swallow the condition: "cannot find the test's final condition")."""
    r = weft("-i", SRCDIR / "litmus" / "C" / "MP+onces.litmus", input="goto 1:r0=0 /\\ 1:r1=1\n")
    assert r.returncode == 0, r.stderr
    assert "reached: an allowed execution ends in that state" in r.stdout, r.stdout + r.stderr
