"""The AArch64 front-end on weft's own tests (tests/aarch64/, kept out of
litmus/ since their default model, herd's aarch64.cat, does not ship with
weft): verdicts under sc and under herd's aarch64.cat (read from the corpus,
skipped without it) worked out by hand (each file's comment says why), the
event sets the models see (A, Q, L, NoRet, exclusives, DMB/DSB/ISB), herd's
dependency relations a catdep model gets, herd's hash spelling, and what
weft says about what it does not run."""
import os
import subprocess

import pytest

from conftest import SRCDIR, WEFT, result_blocks, verdict_counts

SUITE = SRCDIR / "tests" / "aarch64"

# test name -> (Ok/No, executions) under sc, then under aarch64.cat
VERDICTS = {
    "MP+dmb.sys": (("No", 3), ("No", 3)),
    "SB+rel+acq": (("No", 3), ("Ok", 4)),       # STLR then LDAPR: not ordered
    # forall: one success then one failure; herd's 2 x 3 variants of them
    "CAS-ok-fail": (("Ok", 6), ("Ok", 6)),
    "LDADD+STADD": (("Ok", 2), ("Ok", 2)),      # forall: both adds land, either order
    "SWP+LDCLR": (("Ok", 1), ("Ok", 1)),        # forall: SWP, LDCLR, LDEOR, LDSET values
    "LDXR-STXR": (("No", 4), ("No", 4)),        # the store cannot come between the pair
    "STXR-alone": (("Ok", 1), ("Ok", 1)),       # forall: no reservation, the store fails
    "CSEL+branches": (("Ok", 1), ("Ok", 1)),    # forall: CSEL, CBZ, CBNZ, B.NE, B
    "MP+dmb.sy+addr": (("No", 3), ("No", 3)),   # addr orders the reads
    "MP+dmb.sy+ctrl": (("No", 3), ("Ok", 4)),   # ctrl alone does not order a read
    "MP+dmb.sy+ctrl-isb": (("No", 3), ("No", 3)),
    "MP+dmb.sy+rfi-addr": (("No", 3), ("No", 3)),  # a dependency through memory
    "LB+dmb.sy+csel": (("No", 3), ("No", 3)),   # CSEL's pick dependency orders
    "LB+dmb.sy+po": (("No", 3), ("Ok", 4)),     # nothing orders P1
    # pairs: one instruction's two accesses are in no program order (sc
    # allows every value pair); LDIAPP's reads and STILP's writes are in
    # herd's iico_order (the other way round with STILP's pre-index)
    "MP+dmb.sy+LDIAPP": (("Ok", 4), ("No", 3)),
    "MP+dmb.sy+LDP": (("Ok", 4), ("Ok", 4)),
    "MP+STILP+dmb.sy": (("Ok", 4), ("No", 3)),
    "MP+STILP-pre+dmb.sy": (("Ok", 4), ("Ok", 4)),
    "MP+STP+dmb.sy": (("Ok", 4), ("Ok", 4)),
    "Array-cells": (("Ok", 1), ("Ok", 1)),      # forall: cells by byte offset
}


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_aarch64_suite_under_sc(weft, engine):
    r = weft("-model", "sc", "-engine", engine, SUITE)
    assert r.returncode == 0, r.stderr
    assert verdict_counts(r.stdout) == {k: v[0] for k, v in VERDICTS.items()}


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_aarch64_suite_under_herds_aarch64_cat(weft, corpus, engine):
    r = weft("-I", corpus / "herd-cat" / "7.58", "-model", "aarch64.cat", "-engine", engine, SUITE)
    assert r.returncode == 0, r.stderr
    assert verdict_counts(r.stdout) == {k: v[1] for k, v in VERDICTS.items()}


@pytest.mark.parametrize("model,test,expect_none", [
    # a catdep model's `let` of one of herd's dependency relations that
    # reads register events is the relation weft computes
    ("catdep\nlet addr = Rreg * Rreg\nempty addr as c", "MP+dmb.sy+addr.litmus", True),
    ("catdep\nlet addr = Rreg * Rreg\nempty addr as c", "MP+dmb.sy+ctrl.litmus", False),
    ("catdep\nlet ctrl = Rreg * Rreg\nempty ctrl as c", "MP+dmb.sy+ctrl.litmus", True),
    ("catdep\nlet data = Rreg * Rreg\nempty data as c", "LB+dmb.sy+csel.litmus", False),
    ("catdep\nlet pick-data-dep = Rreg * Rreg\nempty pick-data-dep as c", "LB+dmb.sy+csel.litmus", True),
    # through memory: both the read of z and, through z, the read of y
    # are addr sources of the read of x
    ("catdep\nlet addr = Rreg * Rreg\nempty (addr ; addr^-1) \\ id as c", "MP+dmb.sy+rfi-addr.litmus", True),
    ("catdep\nlet addr = Rreg * Rreg\nempty (addr ; addr^-1) \\ id as c", "MP+dmb.sy+addr.litmus", False),
    # any other let is evaluated: herd's register sets are empty here,
    # BCC the branch events
    ("catdep\nlet dtrm = rf-reg | iico_data\nempty dtrm as c", "MP+dmb.sy+addr.litmus", False),
    ("catdep\nempty BCC as c", "MP+dmb.sy+ctrl.litmus", True),
    # iico_order: from LDIAPP's first read to its second, from STILP's
    # first write to its second; nothing between LDP's reads
    ("catdep\nempty iico_order as c", "MP+dmb.sy+LDIAPP.litmus", True),
    ("catdep\nempty iico_order as c", "MP+dmb.sy+LDP.litmus", False),
    ("catdep\nempty iico_order \\ (R * R) as c", "MP+dmb.sy+LDIAPP.litmus", False),
    ("catdep\nempty iico_order \\ (W * W) as c", "MP+STILP+dmb.sy.litmus", False),
    ("catdep\nempty iico_order & loc as c", "MP+STILP+dmb.sy.litmus", False),
    ("empty B as c", "MP+dmb.sy+ctrl.litmus", True),
])
def test_aarch64_herd_dependencies(weft, tmp_path, model, test, expect_none):
    n = states(weft, model, test, tmp_path)
    assert (n == 0) == expect_none, f"{model} on {test}: {n} states"


def states(weft, model_text, test, tmp_path):
    """Number of states a one-check model allows on a test of the suite."""
    cat = tmp_path / "probe.cat"
    cat.write_text("probe\n" + model_text + "\n")
    r = weft("-model", cat, "-engine", "enumerate", SUITE / test)
    assert r.returncode == 0, r.stderr
    return int(next(l for l in r.stdout.splitlines() if l.startswith("States ")).split()[1])


@pytest.mark.parametrize("model,test,expect_none", [
    # LDAR's read is in A, STLR's write in L, LDAPR's read in Q
    ("empty A & R as c", "SB+rel+acq.litmus", True),
    ("empty L & W as c", "SB+rel+acq.litmus", True),
    ("empty Q & R as c", "SB+rel+acq.litmus", True),
    ("empty A & W as c", "SB+rel+acq.litmus", False),
    # DMB SY is a fence of set DMB.SY, not DMB.LD
    ("empty DMB.SY as c", "MP+dmb.sys.litmus", True),
    ("empty DMB.LD | DSB.SY | ISB as c", "MP+dmb.sys.litmus", False),
    # STADD discards the old value: its read is NoRet; LDADDAL's is A
    ("empty NoRet as c", "LDADD+STADD.litmus", True),
    ("empty A & R as c", "LDADD+STADD.litmus", True),
    ("empty NoRet & A as c", "LDADD+STADD.litmus", False),
    # an atomic's read and write are one rmw, both atomic (X)
    ("empty rmw as c", "LDADD+STADD.litmus", True),
    ("empty X \\ (domain(rmw) | range(rmw)) as c", "LDADD+STADD.litmus", False),
    # the exclusives are X and EX; a CSEL and a CAS make no branch event
    ("empty X & EX as c", "LDXR-STXR.litmus", True),
    ("empty B as c", "CAS-ok-fail.litmus", False),
    ("empty B as c", "CSEL+branches.litmus", True),
    # LDIAPP's reads are acquire-PC, STILP's writes release, LDP's plain;
    # a pair's accesses are one instance, not in po
    ("empty Q & R as c", "MP+dmb.sy+LDIAPP.litmus", True),
    ("empty L & W as c", "MP+STILP+dmb.sy.litmus", True),
    ("empty Q | A as c", "MP+dmb.sy+LDP.litmus", False),
    ("empty (same-instance \\ id) & (R * R) as c", "MP+dmb.sy+LDP.litmus", True),
    ("empty po & same-instance as c", "MP+dmb.sy+LDP.litmus", False),
])
def test_aarch64_event_sets(weft, tmp_path, model, test, expect_none):
    n = states(weft, model, test, tmp_path)
    assert (n == 0) == expect_none, f"{model} on {test}: {n} states"


def test_aarch64_hash_is_herds_spelling(weft, tmp_path):
    """herd hashes its own printing: upper case, no blanks after commas,
    decimal immediates, renamed labels, a post-index as "[X3]#4"; an init
    entry written "0: X1 = x" is the register 0:X1."""
    from herd_hash import herd_hash
    t = tmp_path / "H.litmus"
    t.write_text("AArch64 H\n{\n0: X1 = x; 0:X3=y;\n}\n"
                 " P0                  ;\n"
                 " ldr w0, [x1]        ;\n"
                 " cbnz W0, out        ;\n"
                 " MOV W2, #0x10       ;\n"
                 " STR W2,[X3],#4      ;\n"
                 " out:                ;\n"
                 "exists (0:X0=1)\n")
    want = herd_hash(["0:X1=x", "0:X3=y"],
                     [["LDR W0,[X1]", "CBNZ W0,L00", "MOV W2,#16", "STR W2,[X3]#4", "L00:"]],
                     ["0:X0"])
    r = weft("-model", "sc", t)
    assert r.returncode == 0, r.stderr
    assert f"Hash={want}" in r.stdout


@pytest.mark.parametrize("code,words", [
    ("LDRSB X0,[X1,#1]!,#1", "malformed"),
    # what herd7 7.58's parser refuses of the memory side (checked with it)
    ("STUR W0,[X1]", "SIMD registers only"),
    ("LDUR W0,[X1],#4", "malformed"),
    ("LDUR W0,[X1,X2]", "takes [Xn] or [Xn,#k]"),
    ("LDURB W0,[X1]", "unsupported AArch64 instruction 'LDURB W0,[X1]'"),
    ("LDXP W0,W0,[X1]", "unpredictable"),
    ("STXP X9,W0,W2,[X1]", "the status register of a store-exclusive is a W register"),
    ("CASP W0,X1,W2,W3,[X1]", "all W or all X"),
    ("LDPSW W0,W2,[X1]", "LDPSW loads X registers"),
    # LDIAPP and STILP take herd's (the architecture's) addresses only
    ("LDIAPP W0,W2,[X1,#8]!", "LDIAPP's address is [Xn], or [Xn],#8 to write back"),
    ("LDIAPP W0,W2,[X1],#4", "LDIAPP's address is [Xn], or [Xn],#8 to write back"),
    ("LDIAPP X0,X2,[X1,#16]", "LDIAPP's address is [Xn], or [Xn],#16 to write back"),
    ("STILP W0,W2,[X1],#8", "STILP's address is [Xn], or [Xn,#-8]! to write back"),
    ("STILP W0,W2,[X1,#-4]!", "STILP's address is [Xn], or [Xn,#-8]! to write back"),
    ("STILP X0,X2,[X1,#8]", "STILP's address is [Xn], or [Xn,#-16]! to write back"),
    ("LDP W0,X2,[X1]", "both W or both X"),
    ("LDP W0,W0,[X1]", "unpredictable"),
    ("STP W1,W2,[X1,#8]!", "writeback of a register it transfers"),
    ("LDP W0,W2,[X1,X3]", "a pair's address"),
    ("TLBI VAAE1IS,X1", "vmsa"),
    ("DMB XX", "barrier option"),
    ("FOO W0", "unsupported AArch64 instruction 'FOO W0'"),
    # data processing (test_aarch64_alu.py): herd7 fails on these (an
    # assertion, a fatal error, no such token)
    ("MOV X0,W1", "MOV takes two registers of one width"),
    ("MOVZ W0,#65535", "a 16-bit immediate from 0 to 65534"),
    ("MOVZ W0,#1,LSL #32", "LSL #0 or LSL #16"),
    ("MOVK X0,#1,LSL #8", "LSL #0 or LSL #16, #32 or #48"),
    ("ADD X0,X1,X2,MSL #2", "'MSL' is not a shift"),
    ("ADD X0,X1,X2,LSL #64", "a shift amount from 0 to 63"),
    ("CSEL X0,X1,X2,NV", "expected a condition"),
    ("SMULL W0,W1,W2", "SMULL writes an X register"),
    ("REV32 W0,W1", "REV32 takes X registers"),
    ("MRS W0,ELR_EL1", "MRS takes an X register (herd: unexpected W)"),
    ("MSR ESR_EL1,W0", "MSR takes an X register (herd: unexpected W)"),
    ("MRS X0,ELR_EL2", "'ELR_EL2' is no system register herd7 7.58 knows"),
    # herd runs these (bit numbers past the register, computed by
    # OCaml's shifts out of range): weft does not
    ("UBFM W0,W1,#64,#1", "a bit number from 0 to 63"),
    ("UBFM W0,W1,#33,#1", "herd would shift by a negative amount"),
    ("TBZ W0,#64,L0", "a bit number from 0 to 63"),
    # aliases herd's parser does not know
    ("UBFX X0,X1,#1,#2", "unsupported AArch64 instruction 'UBFX X0,X1,#1,#2'"),
    ("CMN X0,#1", "unsupported AArch64 instruction 'CMN X0,#1'"),
])
def test_aarch64_refuses_by_name(weft, tmp_path, code, words):
    t = tmp_path / "U.litmus"
    t.write_text("AArch64 U\n{\n0:X1=x;\n}\n P0 ;\n " + code + " ;\nexists (0:X0=0)\n")
    r = weft("-model", "sc", t)
    assert r.returncode != 0
    assert f"{t}:6:" in r.stderr and "error:" in r.stderr and words in r.stderr, r.stderr


def test_aarch64_pair_hash_is_herds_spelling(weft):
    """An array's init entry hashes as herd's "type name[size]"; a pair
    and a pre-index as herd prints them."""
    from herd_hash import herd_hash
    want = herd_hash(["0:X0=1", "0:X1=1", "0:X2=x", "1:X2=x", "int x[2]"],
                     [["ADD X2,X2,#8", "STILP W0,W1,[X2,#-8]!"],
                      ["LDR W0,[X2,#4]", "DMB SY", "LDR W1,[X2]"]],
                     ["1:X0", "1:X1"])
    r = weft("-model", "sc", SUITE / "MP+STILP-pre+dmb.sy.litmus")
    assert r.returncode == 0, r.stderr
    assert f"Hash={want}" in r.stdout


@pytest.mark.parametrize("init,code,cond,where,words", [
    # accesses are checked where they happen, against the array's cells
    ("int x[2]={1,2}; 0:X1=x;", "LDR W0,[X1,#8]", "0:X0=0", "6:2", "byte offset 8 is outside array 'x'"),
    ("int x[2]={1,2}; 0:X1=x;", "LDR W0,[X1,#-4]", "0:X0=0", "6:2", "byte offset -4 is outside array"),
    ("int x[2]={1,2}; 0:X1=x;", "LDR W0,[X1,#2]", "0:X0=0", "6:2", "not at the start of a cell"),
    # an access of another size than the cells' is run (herd asks one
    # size per location, not the type's: LDR X0,[X1,#4] reads cell 1),
    # but one reaching past a cell's start, as herd7 refuses it
    ("int x[2]={1,2}; 0:X1=x;", "LDP X0,X2,[X1]", "0:X0=0", "6:2", "byte offset 8 is outside array 'x'"),
    ("int64_t x[2]; 0:X1=x;", "LDP W0,W2,[X1]", "0:X0=0", "6:2", "not at the start of a cell"),
    # a scalar has no cells
    ("0:X1=x;", "LDP W0,W2,[X1]", "0:X0=0", "6:2", "not a location"),
    # declarations
    ("int x[2]={1,2,3}; 0:X1=x;", "LDR W0,[X1]", "0:X0=0", "3:15", "2 cells but more initial values"),
    ("int x[3]={1}; 0:X1=x;", "LDR W0,[X1]", "0:X0=0", "3:10", "3 cells but 1 initial value"),
    ("x[2]; 0:X1=x;", "LDR W0,[X1]", "0:X0=0", "3:1", "array 'x' needs an element type"),
    ("int x[0]; 0:X1=x;", "LDR W0,[X1]", "0:X0=0", "3:7", "the array's size"),
    ("int x[2]={1,2}; int x[2];", "NOP", "0:X0=0", "3:21", "initialised twice"),
    ("int [x][2];", "NOP", "0:X0=0", "3:8", "an array is declared 'type name[size]'"),
    ("int x[1001];", "NOP", "0:X0=0", "3:7", "array too large (at most 1000 cells)"),
    ("int x[2]={1 2};", "NOP", "0:X0=0", "3:13", "expected ',' or '}' in the array's values"),
    # conditions name cells that exist (herd7's errors)
    ("int x[2]={1,2}; 0:X1=x;", "LDR W0,[X1]", "x[2]=2", "8:11", "array x has 2 cells: no cell 2"),
    ("int x=1; 0:X1=x;", "LDR W0,[X1]", "x[0]=2", "8:11", "location x is no array"),
])
def test_arrays_errors_are_located(weft, tmp_path, init, code, cond, where, words):
    t = tmp_path / "E.litmus"
    t.write_text("AArch64 E\n{\n" + init + "\n}\n P0 ;\n " + code + " ;\n" + "\nexists (" + cond + ")\n")
    r = weft("-model", "sc", "-engine", "enumerate", t)
    assert r.returncode != 0
    assert f"{t}:{where}: error:" in r.stderr and words in r.stderr, r.stderr


def test_arrays_in_another_architecture(weft, tmp_path):
    """Arrays belong to the litmus layer: a PPC test addresses cells by
    byte offset too, through displacements and a register moved by addi."""
    t = tmp_path / "PA.litmus"
    t.write_text("PPC PA\n{\n int a[3]={7,8,9};\n 0:r2=a;\n}\n P0 ;\n lwz r1,8(r2) ;\n"
                 " addi r3,r2,4 ;\n lwz r4,0(r3) ;\n stw r1,0(r3) ;\n lwz r5,4(r2) ;\n"
                 "forall (0:r1=9 /\\ 0:r4=8 /\\ 0:r5=9)\n")
    for engine in ("rsmc", "enumerate"):
        r = weft("-model", "sc", "-engine", engine, t)
        assert r.returncode == 0, r.stderr
        assert verdict_counts(r.stdout) == {"PA": ("Ok", 1)}


def test_aarch64_variant_is_refused(weft, tmp_path):
    """Variants other than vmsa (test_vmsa.py) and ifetch
    (test_aarch64_ifetch.py) are refused, located."""
    t = tmp_path / "V.litmus"
    t.write_text("AArch64 V\nVariant=memtag\n{\n0:X1=x;\n}\n P0 ;\n LDR W0,[X1] ;\nexists (0:X0=0)\n")
    r = weft("-model", "sc", t)
    assert r.returncode != 0
    assert f"{t}:2:1: error: herd variant 'memtag'" in r.stderr, r.stderr


def test_aarch64_missing_default_model_names_file_and_folders(tmp_path):
    """Without -model the default is herd's aarch64.cat on the search path;
    a one-line error names it and the folders searched when it is absent."""
    env = {k: v for k, v in os.environ.items() if k not in ("HERDLIB",)}
    env["HOME"] = str(tmp_path)
    env["WEFT_CAT_PATH"] = str(tmp_path)
    r = subprocess.run([str(WEFT), SUITE / "MP+dmb.sys.litmus"], capture_output=True, text=True, env=env)
    if r.returncode == 0:
        pytest.skip("herd's aarch64.cat is installed on this machine: the default model was found")
    line = [l for l in r.stderr.splitlines() if "cannot find model 'aarch64'" in l]
    assert line, r.stderr
    assert str(tmp_path) in line[0] and "herdtools7" in line[0]


def test_dump_needs_no_model():
    """-dump reads the test only: with no aarch64.cat on the search path it
    prints the program and no error (it used to report the missing default
    model while dumping)."""
    env = dict(os.environ, WEFT_CAT_PATH=str(SRCDIR / "cat"), HERDLIB="/nonexistent")
    p = subprocess.run([WEFT, "-dump", str(SRCDIR / "tests" / "aarch64" / "CAS-ok-fail.litmus")],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("arch AArch64\n")
    assert p.stderr == ""
