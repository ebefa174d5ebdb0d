"""herd's C11 dialect in weft's C front-end (src/c/c_c11.c): the keywords
herd7's C lexer reads without a macro file (atomic_load_explicit,
atomic_store_explicit, atomic_exchange_explicit, atomic_fetch_OP_explicit,
the compare-exchanges, atomic_thread_fence, lock and unlock) and the
memory orders their events carry, named as herd's C models read them.

litmus/C11/ holds tests of our own with the blocks herd7 7.58 prints for
them beside each (NAME.litmus.MODEL.herd, made by
`herd7 -model MODEL.cat NAME.litmus`, see litmus/C11/README.md) under
sc.cat, herd's default for C (c11_partialSC.cat) and rc11.cat.  Both
engines must print herd's block under sc; under herd's C11 models (read
from herd's own library next to the clone) once weft reads them."""
import pytest

from conftest import SRCDIR, assert_blocks_are_stored, result_blocks, stored_block, suite_tests

SUITE = SRCDIR / "litmus" / "C11"
HERDLIB = SRCDIR.parent / "shared" / "tools" / "herd7" / "libdir"
MODELS = ["sc", "c11_partialSC", "rc11"]
TESTS = suite_tests(SUITE)


def herd_block(name, model):
    return stored_block(SUITE, name, model)


def test_every_test_has_its_herd_blocks():
    assert len(TESTS) >= 23
    for name in TESTS:
        for model in MODELS:
            assert (SUITE / f"{name}.litmus.{model}.herd").is_file(), (name, model)


def test_the_blocks_tell_the_models_apart():
    """What the suite is for: the C11 models answer otherwise than sc,
    and each other, and flag the data races."""
    assert "Never 0 3" in herd_block("MP+rlx", "sc")
    assert "Sometimes 1 3" in herd_block("MP+rlx", "rc11")
    assert "Sometimes 1 3" in herd_block("LB+rlx", "c11_partialSC")
    assert "Never 0 3" in herd_block("LB+rlx", "rc11")
    assert "Flag *undef*" in herd_block("MP+na+rlx", "rc11")
    assert "Flag" not in herd_block("MP+na+rel+acq", "rc11")


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_blocks_under_sc_are_herds(weft, engine):
    assert_blocks_are_stored(weft, SUITE, "-model", "sc", "-engine", engine, at_least=23, model="sc")


def c11_model(weft, model):
    if not HERDLIB.is_dir():
        pytest.skip(f"herd's model library not found at {HERDLIB}: ../shared is absent")
    r = weft("-I", HERDLIB, "-check", f"{model}.cat")
    if r.returncode != 0:
        pytest.skip(f"weft does not read herd's {model}.cat yet (issue 30, item 2): {r.stderr.strip()}")
    return f"{model}.cat"


@pytest.mark.parametrize("model", ["c11_partialSC", "rc11"])
@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_blocks_under_herds_c11_models_are_herds(weft, engine, model):
    cat = c11_model(weft, model)
    assert_blocks_are_stored(weft, SUITE, "-I", HERDLIB, "-model", cat, "-engine", engine, at_least=23,
                             model=model)


def dump(weft, path):
    r = weft("-model", "sc", "-dump", path)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_dump_shows_the_memory_orders(weft):
    """Each access and fence carries its memory order as herd's set name;
    a plain access carries none."""
    out = dump(weft, SUITE / "MP+fences.litmus")
    assert "store [x] <- 1 {RLX}" in out
    assert "fence REL {REL}" in out
    assert "fence ACQ {ACQ}" in out
    out = dump(weft, SUITE / "MP+na+rel+acq.litmus")
    assert "store [x] <- 1\n" in out
    assert "store [y] <- 1 {REL}" in out
    assert "<- [y] {ACQ}" in out


def test_dump_shows_single_event_read_modify_writes(weft):
    """An exchange or a fetch_OP is a read and a write of one statement,
    both atomic and fused (one event for the models), with its order."""
    out = dump(weft, SUITE / "XCHG+xchg.litmus")
    assert out.count("{ACQ_REL}") == 2
    ops = [l for l in out.splitlines() if "[x]" in l]
    assert len(ops) == 4 and all("flags X,fused" in l for l in ops), out


def write(tmp_path, name, body):
    p = tmp_path / f"{name}.litmus"
    p.write_text(f"C {name}\n{{}}\n{body}\nexists (x=1)\n")
    return p


def error_of(weft, path, *args):
    r = weft("-model", "sc", *args, path)
    assert r.returncode != 0, r.stdout
    return r.stderr


@pytest.mark.parametrize("body,where,says", [
    ("P0(atomic_int *x) {\n  int r0 = atomic_load_explicit(x, 2);\n}", "4:36",
     "argument 2 must be a memory order"),
    ("P0(atomic_int *x) {\n  int r0 = memory_order_relaxed;\n}", "4:12",
     "memory_order_relaxed is a memory order"),
    ("P0(atomic_int *x) {\n  int r0 = atomic_store_explicit(x, 1, memory_order_relaxed);\n}", "4:12",
     "atomic_store_explicit(...) is a statement in herd's C"),
    ("P0(atomic_int *x) {\n  atomic_thread_fence();\n}", "4:3", "takes 1 argument"),
    ("P0(atomic_int *x, atomic_int *y) {\n"
     "  int r0 = atomic_fetch_add_explicit(x, 1, memory_order_relaxed)"
     " + atomic_exchange_explicit(y, 1, memory_order_relaxed);\n}", "4:68",
     "a second atomic read-modify-write in one statement"),
])
def test_what_weft_does_not_run_is_a_located_error(weft, tmp_path, body, where, says):
    err = error_of(weft, write(tmp_path, "E", body))
    assert f"E.litmus:{where}: error: " in err and says in err, err


@pytest.mark.parametrize("text,where,says", [
    ("C E\n{ _Atomic int; }\nP0(int *x) {\n}\nexists (x=0)\n", "2:14",
     "expected the location an _Atomic type declares"),
    ("C E\n{ _Atomic 3 x; }\nP0(int *x) {\n}\nexists (x=0)\n", "2:11", "expected a type after _Atomic"),
    ("C E\n{}\nP0(_Atomic( *x) {\n}\nexists (x=0)\n", "3:13", "expected a type, then ')'"),
    ("C E\n{}\nP0(atomic<int *x) {\n}\nexists (x=0)\n", "3:16", "expected a type, then '>'"),
    ("C E\n{}\nP0(int *x) {\n}\nregions x:A\nexists (x=0)\n", "5:9", "expected ':' after regions"),
])
def test_malformed_types_and_regions_are_located_errors(weft, tmp_path, text, where, says):
    p = tmp_path / "E.litmus"
    p.write_text(text)
    err = error_of(weft, p)
    assert f"E.litmus:{where}: error: " in err and says in err, err


def test_keywords_are_herds_whatever_the_macro_file(weft, tmp_path):
    """herd's lexer makes atomic_load_explicit a keyword: a .def cannot
    redefine it (herd's c11.def defines atomic_load through it)."""
    d = tmp_path / "odd.def"
    d.write_text("atomic_load_explicit(X,M) __load{once}(*X)\n"
                 "atomic_load(X) atomic_load_explicit(X,memory_order_seq_cst)\n")
    p = tmp_path / "L.litmus"
    p.write_text("C L\n{}\nP0(atomic_int *x) {\n  int r0 = atomic_load(x);\n"
                 "  int r1 = atomic_load_explicit(x, memory_order_acquire);\n}\nexists (0:r0=1)\n")
    r = weft("-macros", d, "-model", "sc", "-dump", p)
    assert r.returncode == 0, r.stderr
    assert "<- [x] {SC}" in r.stdout and "<- [x] {ACQ}" in r.stdout, r.stdout
    assert "once" not in r.stdout


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_compare_exchange_takes_herds_alternatives(weft, tmp_path, engine):
    """A strong compare-exchange fails only on another value than the
    expected one, which it then writes to the expected location; a weak
    one may fail on the expected value too.  Alone, with *e = *f = *g =
    0: the strong one succeeds on x's 0; the weak one on x then reads 5
    and fails, writing 5 to f; the weak one on y reads 0 and goes either
    way (its failure writes the 0 back to g)."""
    p = tmp_path / "CAS1.litmus"
    p.write_text("C CAS1\n{ e = 0; f = 0; g = 0; }\n"
                 "P0(atomic_int *x, atomic_int *y, int *e, int *f, int *g) {\n"
                 "  int r0 = atomic_compare_exchange_strong(x, e, 5);\n"
                 "  int r1 = atomic_compare_exchange_weak(x, f, 7);\n"
                 "  int r2 = atomic_compare_exchange_weak_explicit(y, g, 9, memory_order_release,"
                 " memory_order_relaxed);\n}\n"
                 "locations [0:r1; 0:r2; e; f; g; x; y;]\nexists (0:r0=1)\n")
    r = weft("-model", "sc", "-engine", engine, p)
    assert r.returncode == 0, r.stderr
    body = result_blocks(r.stdout)["CAS1"][0]
    assert "States 2\n" in body, body
    assert "0:r0=1; 0:r1=0; 0:r2=0; [e]=0; [f]=5; [g]=0; [x]=5; [y]=0;" in body, body
    assert "0:r0=1; 0:r1=0; 0:r2=1; [e]=0; [f]=5; [g]=0; [x]=5; [y]=9;" in body, body
    assert "Positive: 2 Negative: 0" in body, body


SYM = SRCDIR / "tests" / "c11-sym"


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_symbolic_values_through_rmws_are_herds(weft, engine):
    """herd's S<n> and counts on load buffering through C11 read-modify-
    writes (tests/c11-sym/README.md)."""
    if not HERDLIB.is_dir():
        pytest.skip(f"herd's model library not found at {HERDLIB}: ../shared is absent")
    assert_blocks_are_stored(weft, SYM, "-I", SYM, "-I", HERDLIB, "-model", "co-local.cat", "-engine", engine,
                             at_least=6, model="co-local")
    # what they pin: numbers that depend on how the compare-exchange reads
    for name, n in {"LB+scas": 12, "LB+wcas": 11, "LB+scas-if": 18, "LB+wcas-if": 17, "LB+xchg": 9}.items():
        assert f"=S{n};" in stored_block(SYM, name, "co-local"), name



def test_the_session_takes_a_compare_exchanges_alternatives(weft, tmp_path):
    """weft -i: the choice is herd's alternative (1: the failure, its
    first); a strong failure that reads the expected value is no
    execution of herd's, and the session says so; reading another value
    it goes on to the write of the expected location."""
    p = tmp_path / "CAS1.litmus"
    p.write_text("C CAS1\n{ e = 0; }\nP0(atomic_int *x, int *e) {\n"
                 "  int r0 = atomic_compare_exchange_strong(x, e, 5);\n}\n"
                 "P1(atomic_int *x) {\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n}\n"
                 "exists (0:r0=1)\n")
    steps = ["commit a i(e)", "commit b 1", "commit c i(x)", "commit b i(x)", "show", "undo", "commit b c",
             "show"]
    r = weft("-i", "-model", "sc", p, input="".join(s + "\n" for s in steps) + "quit\n")
    assert r.returncode == 0, r.stderr
    shows = r.stdout.split("Test CAS1 (C) under sc")
    assert "does not hold for the value read (herd has no such execution)" in shows[-2], shows[-2]
    assert "W e=1 (P0)" in shows[-1], shows[-1]


@pytest.mark.parametrize("name", ["SB+sc", "XCHG+xchg", "CAS+strong"])
def test_explain_names_the_cycle_on_c11_tests(weft, name):
    """-explain on C11 tests: sc forbids their conditions, with a cycle
    through the read-write events' reads."""
    r = weft("-explain", "-model", "sc", SUITE / f"{name}.litmus")
    assert r.returncode == 0, r.stderr
    assert f"Explain {name} sc: forbidden" in r.stdout, r.stdout
    assert "Failing checks: sc" in r.stdout and "Cycle: " in r.stdout, r.stdout
