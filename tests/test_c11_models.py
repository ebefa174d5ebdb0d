"""herd's C11 models (c11_partialSC.cat, herd's default for C, c11_orig,
c11_simp, simple-c11, rc11) loaded unchanged from herd's library, and run
on C tests of our own (tests/c11-models/, see its README) against the
blocks herd7 7.58 prints for them; both engines.  Also what they need of
the cat language: a top-level `let` naming something bound nowhere is an
error only where a check reaches it, as herd's lazy `let` makes it."""
import pathlib

import pytest

from conftest import SRCDIR, result_blocks

HERDLIB = SRCDIR.parent / "shared" / "tools" / "herd7" / "libdir"
SUITE = SRCDIR / "tests" / "c11-models"
TESTS = sorted(p.name[: -len(".litmus")] for p in SUITE.glob("*.litmus"))
MODELS = ["c11_partialSC", "rc11"]
C11_MODELS = ["c11_partialSC.cat", "c11_orig.cat", "c11_simp.cat", "simple-c11.cat", "rc11.cat"]


@pytest.fixture(scope="module")
def herdlib():
    if not (HERDLIB / "c11_partialSC.cat").is_file():
        pytest.skip(f"herd's library not found at {HERDLIB}: ../shared is absent, C11 model tests skipped")
    return HERDLIB


def herd_block(name, model):
    return result_blocks((SUITE / f"{name}.litmus.{model}.herd").read_text())[name][0]


@pytest.mark.parametrize("model", C11_MODELS)
def test_check_accepts_herds_c11_models(weft, herdlib, model):
    r = weft("-set-libdir", herdlib, "-check", model)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""


def test_every_test_has_its_herd_blocks():
    assert len(TESTS) >= 5
    for name in TESTS:
        for model in MODELS:
            assert (SUITE / f"{name}.litmus.{model}.herd").is_file(), (name, model)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_blocks_are_herds(weft, herdlib, engine, model):
    files = [SUITE / f"{name}.litmus" for name in TESTS]
    r = weft("-q", "-set-libdir", herdlib, "-model", f"{model}.cat", "-engine", engine, *files)
    assert r.returncode == 0, r.stderr
    blocks = result_blocks(r.stdout)
    assert set(blocks) == set(TESTS)
    for name in TESTS:
        assert blocks[name][0] == herd_block(name, model), (name, model, engine)


def test_the_blocks_pin_undef_and_one_order_per_final_write():
    """What the stored blocks say, so that they cannot be made again from a
    herd that says otherwise without this failing."""
    block = herd_block("3W+plain", "c11_partialSC")
    assert "\nUndef\n" in block and "\nFlag *undef*\n" in block
    assert "Positive: 1 Negative: 2" in block
    assert "Positive: 1 Negative: 1" in herd_block("2W+unobserved", "c11_partialSC")
    assert "Positive: 9 Negative: 21" in herd_block("3W+plain", "rc11")


def model(tmp_path, text):
    cat = tmp_path / "lazy.cat"
    cat.write_text("lazy\n" + text + "\n")
    return cat


def test_a_let_bound_nowhere_that_no_check_reads_is_accepted(weft, tmp_path):
    cat = model(tmp_path, "let co2 = co and coi2 = nowhere\nacyclic po | rf | co2 | fr as sc")
    assert weft("-check", cat).returncode == 0
    r = weft("-model", cat, SRCDIR / "litmus" / "PPC" / "SB.litmus")
    assert r.returncode == 0, r.stderr
    assert "Observation SB Never" in r.stdout


@pytest.mark.parametrize("use", ["acyclic po | bad as c", "let c = bad | po\nacyclic c as c",
                                 "procedure p(r) = acyclic r | bad end\ncall p(po)"])
def test_a_name_bound_nowhere_that_a_check_reads_is_an_error_at_load(weft, tmp_path, use):
    cat = model(tmp_path, "let bad = nowhere\n" + use)
    r = weft("-check", cat)
    assert r.returncode != 0
    assert f"{cat}:2:11: error: unbound name 'nowhere'" in r.stderr


def test_a_name_bound_nowhere_under_try_stays_lazy(weft, tmp_path):
    cat = model(tmp_path, "let bad = nowhere\nlet r = try bad with po\nacyclic r as c")
    assert weft("-check", cat).returncode == 0


def test_a_c_test_without_model_runs_under_herds_default_when_found(weft, herdlib, monkeypatch):
    """herd7's default for C, c11_partialSC.cat, when herd's library is on
    the search path (-set-libdir, $HERDLIB), with a note saying so; else
    sc, with a note saying why."""
    test = SUITE / "3W+plain.litmus"
    r = weft("-set-libdir", herdlib, test)
    assert r.returncode == 0, r.stderr
    assert result_blocks(r.stdout)["3W+plain"][0] == herd_block("3W+plain", "c11_partialSC")
    assert r.stderr.count("note: C tests run under herd7's default for C, c11_partialSC.cat") == 1, r.stderr
    monkeypatch.delenv("HERDLIB", raising=False)
    installed = [pathlib.Path(d) / "c11_partialSC.cat" for d in
                 ("/usr/local/share/herdtools7/herd", "/usr/share/herdtools7/herd",
                  pathlib.Path.home() / ".opam/default/share/herdtools7/herd")]
    if not any(p.is_file() for p in installed):
        r = weft(test)
        assert r.returncode == 0, r.stderr
        assert "\nUndef\n" not in r.stdout   # sc knows no data race
        assert "note: C tests run under sc" in r.stderr and "not on the cat search path" in r.stderr
    # the interactive session starts under the same default
    r = weft("-set-libdir", herdlib, "-i", test, input="quit\n")
    assert "under c11_partialSC" in r.stdout, r.stdout + r.stderr


def test_c11_sets_are_the_events_of_their_memory_order(weft, tmp_path):
    """herd's C11 sets (CAction.ml's arch_sets) as weft makes them: an op of
    memory order X carries the annotation named X (what the C front-end
    gives atomic_*_explicit's accesses; here a .def of our own gives it),
    RLX ... SC are its events, fences included; A the atomic memory
    accesses (no fence, no initial write); NA every other event."""
    (tmp_path / "tags.def").write_text("st_rlx(X,V) { __store{RLX}(X,V); }\nld_acq(X) __load{ACQ}(X)\n"
                                       "fence_sc() { __fence{SC}; }\n")
    test = tmp_path / "T.litmus"
    test.write_text("C T\n{}\nP0(int *x, int *y) { st_rlx(*x, 1); fence_sc(); *y = 1; }\n"
                    "P1(int *x, int *y) { int r0 = ld_acq(*x); int r1 = *y; }\nexists (1:r0=1)\n")
    flags = ["flag ~empty (A & W & RLX) as atomic-rlx-write", "flag ~empty (A & R & ACQ) as atomic-acq-read",
             "flag ~empty (F & SC) as sc-fence", "flag empty (F & A) as fences-not-atomic",
             "flag empty (IW & A) as init-not-atomic", "flag ~empty (NA & M \\ IW) as plain-access",
             "flag empty (A & NA) as disjoint", "flag empty (REL | ACQ_REL | CON) as no-other-order",
             "flag ~empty A & RLX & ACQ as never"]
    cat = model(tmp_path, "\n".join(flags))
    r = weft("-macros", tmp_path / "tags.def", "-model", cat, test)
    assert r.returncode == 0, r.stderr
    fired = sorted(l.split()[1] for l in r.stdout.splitlines() if l.startswith("Flag "))
    assert fired == sorted(f.split()[-1] for f in flags if not f.endswith("never")), r.stdout
