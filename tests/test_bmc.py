"""The symbolic engine (-engine bmc) against the reference enumerator.

bmc reads final states out of a SAT solver, one distinct state per call, so
its Positive/Negative count states, not executions: what must agree with
the enumerator is the set of States lines, the verdict line (Ok / No, with
herd's Loop) and the flags.  Checked on weft's own suite (litmus/) and on
the corpus sample issue 15 names: every 41st PPC test under power and sc,
every 6th X86 test under tso (skipped when ../shared/corpus is absent).
Also: the -stats line, -speedcheck fast, and the "not supported by bmc"
errors, located in the model.
"""
import os
import subprocess

import pytest

from conftest import CORPUS, WEFT, run_weft

TIMEOUT = int(os.environ.get("WEFT_BMC_TIMEOUT", "60"))


@pytest.fixture(scope="module")
def bmc():
    p = run_weft("-engine", "bmc", "-model", "sc", str(WEFT.parent.parent / "litmus" / "PPC" / "SB.litmus"))
    if p.returncode != 0 and "not in this build" in p.stderr:
        pytest.skip("weft was built without CaDiCaL (libcadical-dev): no bmc engine")
    return True


def blocks(text):
    """Test name -> (set of state lines, verdict line, flag lines, Positive/Negative line)."""
    out = {}
    for chunk in text.split("\n\n"):
        lines = [l for l in chunk.splitlines() if l]
        if not lines or not lines[0].startswith("Test "):
            continue
        i = next(k for k, l in enumerate(lines) if l.startswith("States "))
        n = int(lines[i].split()[1])
        flags = frozenset(l for l in lines if l.startswith("Flag "))
        posneg = next(l for l in lines if l.startswith("Positive: "))
        out[lines[0].split()[1]] = (frozenset(lines[i + 1:i + 1 + n]), lines[i + 1 + n], flags, posneg)
    return out


def run_engine(engine, model, files, *extra):
    p = subprocess.run([str(WEFT), "-q", "-j", "1", "-engine", engine, "-model", model,
                        "-timeout", str(TIMEOUT), *extra, *map(str, files)],
                       capture_output=True, text=True, timeout=TIMEOUT * (len(files) + 2) + 120)
    return blocks(p.stdout), p


def compare(model, files):
    """bmc and enumerate on files: every test the enumerator answers gets
    the same states, verdict and flags from bmc, and Positive + Negative
    is bmc's number of states.  Returns the number compared."""
    got, pb = run_engine("bmc", model, files)
    want, pe = run_engine("enumerate", model, files)
    problems = []
    for name, (wstates, wverdict, wflags, _) in want.items():
        if name not in got:
            problems.append(f"{name}: no bmc block ({pb.stderr.strip()[:300]})")
            continue
        gstates, gverdict, gflags, gposneg = got[name]
        if (gstates, gverdict, gflags) != (wstates, wverdict, wflags):
            problems.append(f"{name} under {model}:\n--- bmc\n{sorted(gstates)} {gverdict} {sorted(gflags)}"
                            f"\n--- enumerate\n{sorted(wstates)} {wverdict} {sorted(wflags)}")
        pos, neg = int(gposneg.split()[1]), int(gposneg.split()[3])
        if pos + neg != len(gstates):
            problems.append(f"{name}: bmc's {gposneg} does not count its {len(gstates)} states")
    assert not problems, "\n".join(problems[:5])
    assert len(got) == len(want), f"bmc answered {len(got)} tests, enumerate {len(want)}"
    return len(want)


@pytest.mark.parametrize("arch,model", [("PPC", "power"), ("PPC", "sc"), ("X86", "tso"), ("X86", "sc")])
def test_own_suite(srcdir, bmc, arch, model):
    files = sorted((srcdir / "litmus" / arch).glob("*.litmus"))
    files += sorted((srcdir / "litmus" / "loops" / arch).glob("*.litmus"))
    assert compare(model, files) >= len(files) - 2


def corpus_sample(arch, every):
    folder = CORPUS / "tests" / arch
    if not folder.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}: ../shared is absent, corpus sample skipped")
    return sorted(folder.glob("*.litmus"))[::every]


@pytest.mark.parametrize("arch,every,model", [("PPC", 41, "power"), ("PPC", 41, "sc"), ("X86", 6, "tso")])
def test_corpus_sample(bmc, arch, every, model):
    files = corpus_sample(arch, every)
    assert compare(model, files) == len(files)


def test_riscv_amos(srcdir, bmc):
    """RISC-V's single-event AMOs: the models see the read and the write
    as one event, rf/co/fr/FW included; every corpus RISC-V test with an
    AMO (every 2nd) under herd's riscv.cat, and weft's own RISC-V tests
    under sc."""
    assert compare("sc", sorted((srcdir / "tests" / "riscv").glob("*.litmus"))) > 0
    folder = CORPUS / "tests" / "RISCV"
    if not folder.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}: ../shared is absent, RISC-V AMO sample skipped")
    files = [f for f in sorted(folder.glob("*.litmus")) if "amo" in f.read_text().lower()][::2]
    assert len(files) > 20
    riscv = CORPUS / "herd-cat" / "7.58" / "riscv.cat"
    assert compare(str(riscv), files) == len(files)


CONDITION_SHAPES = {
    "F1": """PPC F1
{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }
 P0           | P1           ;
 li r1,1      | li r1,1      ;
 stw r1,0(r2) | stw r1,0(r2) ;
 lwz r3,0(r4) | lwz r3,0(r4) ;
filter (0:r3=0 \\/ 1:r3=0)
forall (0:r3=0 /\\ 1:r3=0 \\/ 0:r3=1 \\/ x=2)
""",
    "F2": """X86 F2
{ x=0; y=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV EAX,[y] ;
 MOV [y],$1  | MOV EBX,[x] ;
 MOV [x],$2  | MOV ECX,[x] ;
locations [y;]
exists (1:EAX=1 /\\ 1:EBX=0 /\\ 1:ECX=1:EBX)
""",
    "F3": """X86 F3
{ x=0; }
 P0          | P1          ;
 MOV [x],$1  | MOV EAX,[x] ;
~exists (1:EAX=1 => x=1)
""",
}


@pytest.mark.parametrize("name", sorted(CONDITION_SHAPES))
def test_condition_shapes(tmp_path, bmc, name):
    """A filter (a hard clause, read on raw values as the enumerator reads
    it), forall, ~exists, implication, a register compared with another,
    a locations list: the same states and verdict as the enumerator."""
    f = tmp_path / f"{name}.litmus"
    f.write_text(CONDITION_SHAPES[name])
    for model in ("sc", "power" if name == "F1" else "tso"):
        assert compare(model, [f]) == 1


def test_stats_line(srcdir, bmc):
    p = run_weft("-engine", "bmc", "-stats", "-model", "sc", srcdir / "litmus" / "PPC" / "SB.litmus")
    assert p.returncode == 0, p.stderr
    line = next(l for l in p.stdout.splitlines() if l.startswith("Stats "))
    w = line.split()
    assert w[:4] == ["Stats", "SB", "engine", "bmc"]
    assert w[4::2] == ["states", "sat-calls", "vars", "clauses"]
    states, calls, nvars, clauses = (int(x) for x in w[5::2])
    # SB under sc: three states; one call per state and a last one
    assert states == 3 and calls == states + 1
    assert nvars > 0 and clauses > 0


def test_speedcheck_one_call(srcdir, bmc):
    files = sorted((srcdir / "litmus" / "PPC").glob("*.litmus"))
    full, _ = run_engine("enumerate", "power", files)
    fast, p = run_engine("bmc", "power", files, "-speedcheck", "fast", "-stats")
    assert set(fast) == set(full)
    for name, (states, verdict, _, _) in fast.items():
        assert verdict == full[name][1], name
        assert len(states) <= 1 and states <= full[name][0], name
    calls = [int(l.split()[7]) for l in p.stdout.splitlines() if l.startswith("Stats ")]
    assert calls and all(c == 1 for c in calls)


UNSUPPORTED = [
    ('let f(r) = r | po\nacyclic f(rf) as bad\n', "applying a function", 2),
    ('let (a, b) = (rf, po)\nacyclic a | b as bad\n', "a name bound by a tuple", 2),
    ('let rec r = rf | (r; po)\nacyclic po \\ r as bad\n', "let rec r", 1),
]


def test_let_in_over_rf(tmp_path, srcdir, bmc):
    """herd's ppo.cat binds relations that depend on rf with let ... in:
    bmc translates the body with those names bound."""
    model = tmp_path / "m.cat"
    model.write_text('"M"\nlet g = (let x = rf & ext and y = po in x | y)\nacyclic g | co | fr as sc\n')
    files = sorted((srcdir / "litmus" / "PPC").glob("*.litmus"))
    assert compare(str(model), files) == len(files)


FLAGS = """flag ~empty (rf & ext) & (W * R) as has-rfe
flag ~acyclic (po & loc) | rf | fr as loc-cycle
flag ~irreflexive fr; rf as fr-rf
flag empty co & ext as no-coe
undefined_unless empty (fr & ext) as no-fre
flag acyclic (po | rf)+ as acyc
flag ~empty rf & (FW * _) as reads-last
"""


@pytest.mark.parametrize("base", ["acyclic po | rf | co | fr as sc",
                                  "acyclic (po & loc) | rf | co | fr as uniproc"])
def test_flags(tmp_path, srcdir, bmc, base):
    """Flags (each a solver call: does some allowed execution fire it?),
    of every test shape, against the enumerator's Flag lines."""
    model = tmp_path / "flags.cat"
    model.write_text('"F"\n' + base + "\n" + FLAGS)
    files = sorted((srcdir / "litmus" / "PPC").glob("*.litmus"))
    got, _ = run_engine("bmc", str(model), files)
    assert any(v[2] for v in got.values()), "no flag fired anywhere: the test would not test flags"
    assert compare(str(model), files) == len(files)


@pytest.mark.parametrize("text,what,line", UNSUPPORTED)
def test_unsupported_is_a_located_error(tmp_path, srcdir, bmc, text, what, line):
    model = tmp_path / "m.cat"
    model.write_text('"M"\n' + text)
    p = run_weft("-engine", "bmc", "-model", model, srcdir / "litmus" / "PPC" / "SB.litmus")
    assert p.returncode != 0
    assert "not supported by bmc" in p.stderr and what in p.stderr, p.stderr
    assert f"m.cat:{line + 1}:" in p.stderr, p.stderr
    # the enumerator runs the same model
    q = run_weft("-engine", "enumerate", "-model", model, srcdir / "litmus" / "PPC" / "SB.litmus")
    assert q.returncode == 0, q.stderr


def test_loop_is_reported(srcdir, bmc):
    """A test whose loop the unroll limit cuts: bmc says Loop, as herd and
    the enumerator do, and warns that outcomes may be missing; with a
    larger -unroll it finds the states the enumerator finds then."""
    f = srcdir / "litmus" / "loops" / "PPC" / "W+retry.litmus"
    p = run_weft("-engine", "bmc", "-model", "power", f)
    assert p.returncode == 0, p.stderr
    assert any(l.startswith("Loop ") for l in p.stdout.splitlines()), p.stdout
    assert "unrolling limit exceeded" in p.stderr
    for unroll in ("1", "3"):
        got = blocks(run_weft("-engine", "bmc", "-unroll", unroll, "-model", "power", f).stdout)
        want = blocks(run_weft("-engine", "enumerate", "-unroll", unroll, "-model", "power", f).stdout)
        assert {k: v[:3] for k, v in got.items()} == {k: v[:3] for k, v in want.items()}


def test_show_needs_the_enumerator(srcdir, bmc, tmp_path):
    p = run_weft("-engine", "bmc", "-show", "prop", "-o", tmp_path, srcdir / "litmus" / "PPC" / "SB.litmus")
    assert p.returncode == 2 and "need -engine enumerate" in p.stderr, p.stderr


def test_gen_bigw_answers_fast(srcdir, bmc, tmp_path):
    """scripts/gen-bigw's family: bmc answers the condition with one SAT
    call; on a small member the enumerator agrees on every state."""
    gen = srcdir / "scripts" / "gen-bigw"
    small = subprocess.run([str(gen), "2", "3", str(tmp_path)], capture_output=True, text=True, check=True)
    small = small.stdout.strip()
    assert compare("power", [small]) == 1
    big = subprocess.run([str(gen), "4", "10", str(tmp_path)], capture_output=True, text=True, check=True)
    p = run_weft("-engine", "bmc", "-speedcheck", "fast", "-stats", "-model", "power", big.stdout.strip(),
                 timeout=120)
    assert p.returncode == 0, p.stderr
    assert "\nOk\n" in p.stdout and " sat-calls 1 " in p.stdout


def explanations(text):
    """Test name -> (headline word: allowed/forbidden, the lines after it)."""
    out = {}
    for chunk in text.split("\n\n"):
        lines = chunk.strip().splitlines()
        if lines and lines[0].startswith("Explain "):
            out[lines[0].split()[1]] = (lines[0].split()[-1], lines[1:])
    return out


def test_explain_with_bmc(srcdir, bmc):
    """-explain -engine bmc: the witness of a state bmc reports, or one
    execution the model forbids that reaches the condition's states; the
    same verdict as the enumerator's explanation, a forbidding check the
    enumerator names too, and a cycle printed."""
    files = sorted((srcdir / "litmus" / "PPC").glob("*.litmus"))
    got = explanations(run_weft("-q", "-engine", "bmc", "-explain", *files).stdout)
    want = explanations(run_weft("-q", "-engine", "enumerate", "-explain", *files).stdout)
    assert got and set(got) == set(want)
    forbidden = 0
    for name, (verdict, lines) in got.items():
        assert verdict == want[name][0], name
        if verdict == "forbidden" and any(l.strip().startswith("Forbidden by:") for l in want[name][1]):
            forbidden += 1
            check = next(l for l in lines if l.strip().startswith("Forbidden by:")).split()[2]
            named = next(l for l in want[name][1] if l.strip().startswith("Forbidden by:"))
            assert check in named, (name, check, named)
            assert any(l.strip().startswith("Cycle:") or l.strip().startswith("In check") for l in lines), name
        if verdict == "allowed":
            assert any(l.strip().startswith("Witness:") for l in lines), name
    assert forbidden > 0


def test_table_cells_say_no_candidates(srcdir, bmc):
    """-table -stats: bmc judges no candidates one by one, and its cells
    say so rather than a count of 0."""
    sb = srcdir / "litmus" / "PPC" / "SB.litmus"
    p = run_weft("-q", "-engine", "bmc", "-stats", "-table", "markdown", sb)
    assert p.returncode == 0, p.stderr
    assert "| SB | Allowed (bmc: no candidates counted) |" in p.stdout, p.stdout
    q = run_weft("-q", "-engine", "enumerate", "-stats", "-table", "markdown", sb)
    assert "candidates, 0 forbidden)" in q.stdout, q.stdout
