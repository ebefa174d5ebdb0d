"""herd's Variant=vmsa (AArch64 virtual memory, man weft VIRTUAL MEMORY):
weft's own tests (tests/aarch64-vmsa/) with sc verdicts worked out by hand
(each file's comment says why), what the translation's events are, the
corpus's coRR+BBM+W under herd's sc.cat (skipped without the corpus), and
the refusals: the bmc engine, weft -i, fault(...) conditions, unknown PTE
fields, other variants; one test under herd's aarch64.cat."""
import re

import pytest

from conftest import SRCDIR, result_blocks

SUITE = SRCDIR / "tests" / "aarch64-vmsa"

# test name -> (Ok/No, Positive, Negative, final states) under sc
VERDICTS = {
    # the invalid entry faults: P0 stops before its store to y
    "V+fault-ends-thread": ("Ok", 1, 0, ["0:X0=0; [y]=0;"]),
    # P1 reads the old entry (x=1) or P0's invalid one (fault, X0 stays 0)
    "V+pte-store-faults": ("Ok", 1, 1, ["1:X0=0;", "1:X0=1;"]),
    # the same thread's later load sees the invalid entry: always a fault
    "V+pte-store-po": ("No", 0, 1, ["0:X0=0;"]),
    # default entry: x on its own page; y's entry maps y onto x's page
    "V+default-pte": ("Ok", 1, 0, ["0:X0=2; 0:X4=7; [x]=7; [y]=0;"]),
    # EL0 thread, entry with el0:0: permission fault; EL1 thread reads
    "V+el0-permission": ("Ok", 1, 0, ["0:X0=0; 1:X0=3;"]),
    # TLBIs are events of their own, nothing sc orders differently
    "V+tlbi": ("No", 0, 3, ["0:X0=0; 0:X3=0;", "0:X0=0; 0:X3=1;", "0:X0=1; 0:X3=1;"]),
    # the entry loaded whole (old or invalidated); x xor x = 0 feeds the
    # store, which faults once P0 has seen the invalid entry
    "V+pte-in-register": ("Ok", 1, 2, ["0:X1=(oa:PA(x), valid:0); [x]=1;", "0:X1=(oa:PA(x)); [x]=1;",
                                       "0:X1=(oa:PA(x)); [x]=2;"]),
    # an entry in the condition, [PTE(x)] or PTE(x): its final value; y,
    # named only in PA(y), has no initial value (herd7: one execution) ...
    "V+pte-cond": ("Ok", 1, 0, ["1:X0=0; [PTE(x)]=(oa:PA(y));"]),
    # ... unless the init block names it: the read through either entry
    "V+pa-named": ("Ok", 2, 0, ["1:X0=0; [PTE(x)]=(oa:PA(y));"]),
    # an access-flag fault the condition names: shown after the rest
    "V+fault-cond": ("Ok", 1, 0, ["1:X0=4; [x]=0; Fault(P0:L0,x,MMU:AccessFlag); ~Fault(P1);"]),
    # the condition's atoms that hold of no fault: ~Fault, greatest first,
    # after herd's separating space (doubled when no fault is shown)
    "V+unmet-faults": ("Ok", 1, 1, ["1:X0=0; Fault(P1:L0,x,MMU:Translation); ~Fault(P2:L1,y);",
                                    "1:X0=1;  ~Fault(P2:L1,y); ~Fault(P1:L0,x);"]),
    # a label on a NOP labels the NOP, not the load after it: the fault
    # is the load's, at L1 only
    "V+nop-label": ("Ok", 1, 0, ["0:X0=0; Fault(P0:L1,x,MMU:Translation); ~Fault(P0:L0);"]),
}


def summary(out):
    """name -> (verdict, Positive, Negative, state lines) of each block"""
    got = {}
    for name, (body, _) in result_blocks(out).items():
        m = re.search(r"States \d+\n(.*?)\n(Ok|No)\n.*Positive: (\d+) Negative: (\d+)", body, re.S)
        got[name] = (m.group(2), int(m.group(3)), int(m.group(4)), m.group(1).splitlines())
    return got


@pytest.mark.parametrize("engine", ["default", "enumerate"])
def test_vmsa_suite_under_sc(weft, engine):
    args = ["-model", "sc"] + ([] if engine == "default" else ["-engine", engine])
    r = weft(*args, SUITE)
    assert r.returncode == 0, r.stderr
    assert summary(r.stdout) == VERDICTS
    if engine == "default":
        # rsmc hands every vmsa test to the enumerator, saying so once for the run
        notes = [l for l in r.stderr.splitlines() if l.startswith("weft: note: rsmc left ")]
        assert len(notes) == 1, r.stderr
        assert notes[0].startswith(f"weft: note: rsmc left {len(VERDICTS)} tests under model 'sc' "), notes
        assert notes[0].endswith("vmsa variant (page tables), which rsmc does not model"), notes


def test_vmsa_translation_events(weft):
    """A load through a virtual address: the implicit read of the entry,
    the commit, then the access or the fault, one instruction (no po
    between them, as -explain's events show)."""
    r = weft("-model", "sc", "-engine", "enumerate", "-explain", SUITE / "V+pte-store-faults.litmus")
    assert r.returncode == 0, r.stderr
    ev = next(l for l in r.stdout.splitlines() if l.strip().startswith("Events:"))
    assert "R PTE(x)=(oa:PA(x), valid:0) (implicit) (P1)" in ev
    assert "B commit (P1)" in ev
    assert "Fault(Translation) x (P1)" in ev
    assert "R x=" not in ev   # the faulting thread reads no data


def test_vmsa_default_entries_and_dump(weft):
    r = weft("-dump", SUITE / "V+default-pte.litmus")
    assert r.returncode == 0, r.stderr
    assert "loc PTE(y) = (oa:PA(x))" in r.stdout
    assert "loc PTE(x) = (oa:PA(x))" in r.stdout   # herd's default entry
    r = weft("-dump", SUITE / "V+pte-cond.litmus")
    assert "\nvmsa el0 P1\n" in r.stdout
    assert "\nloc y = 0 (no initial write: only PA(...) names it)\n" in r.stdout
    assert "\nloc x = 0\n" in r.stdout


@pytest.mark.parametrize("name", ["V+pte-cond", "V+pa-named"])
def test_vmsa_variable_named_only_in_pa_has_no_initial_write(weft, name):
    """herd gives a variable that only PA(...) (or PTE(...)) names no
    initial write: a read through an entry mapping to it never completes.
    herd7's blocks under sc.cat are stored beside the tests."""
    want = (SUITE / f"{name}.litmus.expected").read_text()
    for engine in ("default", "enumerate"):
        args = ["-model", "sc"] + ([] if engine == "default" else ["-engine", engine])
        r = weft("-q", *args, SUITE / f"{name}.litmus")
        assert r.returncode == 0, r.stderr
        assert result_blocks(r.stdout)[name][0] + "\n\n" == want


def test_vmsa_corpus_coRR_BBM_W_under_herd_sc(weft, corpus):
    """herd's block for coRR+BBM+W under its own sc.cat, hash included:
    50 executions (a fault ends P0; the entry read, commit and access of
    one instruction are in no po)."""
    src = corpus / "tests" / "AArch64" / "coRR+BBM+W.litmus"
    want = (corpus / "expected" / "sc" / "AArch64" / (src.name + ".expected")).read_text()
    want = "\n".join(l for l in want.splitlines() if not l.startswith("Time ")).strip()
    for engine in ("enumerate", "rsmc"):
        r = weft("-I", corpus / "herd-cat" / "7.58", "-model", "sc.cat", "-engine", engine, src)
        assert r.returncode == 0, r.stderr
        got = "\n".join(l for l in r.stdout.splitlines() if not l.startswith("Time ")).strip()
        assert got == want


# corpus tests without expected files: sc's states worked out by hand
CORPUS_SC = {
    # P0 stores 2 to x's page; P0's own read of z (mapped on x's page
    # too) sees 1 or 2, the final [x] 2 only when P1's store is last
    "CoWR+tlbi-sync.ishsptev0p": (1, 2, ["0:X4=1; [x]=1;", "0:X4=1; [x]=2;", "0:X4=2; [x]=2;"]),
    # z=1 means P0 invalidated x's entry before: P1's load faults
    "MP.V2I+dsb.ish-tlbi.vaae1is-dsh.ish+dsb.ish-isb":
        (0, 3, ["1:X0=0;  ~Fault(P1:L0,MMU:Translation);", "1:X0=0; Fault(P1:L0,x,MMU:Translation);",
                "1:X0=1; Fault(P1:L0,x,MMU:Translation);"]),
    # the first load's fault (at L1) is not shown: the condition names L0
    "coRR-pte9-mod": (0, 5, ["1:X2=0; 1:X4=0;  ~Fault(P1:L0,x);",
                             "1:X2=0; 1:X4=0; Fault(P1:L0,x,MMU:Translation);",
                             "1:X2=0; 1:X4=1;  ~Fault(P1:L0,x);", "1:X2=1; 1:X4=1;  ~Fault(P1:L0,x);"]),
}


@pytest.mark.parametrize("name", sorted(CORPUS_SC))
def test_vmsa_corpus_tests_without_expected_files(weft, corpus, name):
    src = corpus / "tests" / "AArch64" / (name + ".litmus")
    r = weft("-I", corpus / "herd-cat" / "7.58", "-model", "sc.cat", "-engine", "enumerate", src)
    assert r.returncode == 0, r.stderr
    verdict, pos, neg, states = summary(r.stdout)[name]
    assert (pos, neg, states) == CORPUS_SC[name]


def test_vmsa_refused_by_bmc_and_session(weft):
    src = SUITE / "V+tlbi.litmus"
    r = weft("-model", "sc", "-engine", "bmc", src)
    assert r.returncode != 0
    assert f"{src}:3:1: error: the bmc engine does not run tests under herd's vmsa variant" in r.stderr \
        or "bmc engine is not in this build" in r.stderr
    r = weft("-model", "sc", "-i", src, input="")
    assert f"{src}:3:1: error: the interactive session cannot run a test under herd's vmsa variant" \
        in r.stderr


def test_vmsa_aarch64_cat_lets_a_translation_read_a_stale_entry(weft, corpus):
    """herd's aarch64.cat runs vmsa tests (its vmsa names are bound:
    test_vmsa_cat.py).  Nothing orders P0's store to PTE(x) before its own
    later translation of x (no DSB, no ISB: lwfs orders an entry read only
    before later explicit writes, and fr from an implicit read is in no
    ob), so besides sc's fault the load may use the old entry and read 1."""
    r = weft("-I", corpus / "herd-cat" / "7.58", "-model", "aarch64.cat", "-engine", "enumerate",
             SUITE / "V+pte-store-po.litmus")
    assert r.returncode == 0, r.stderr
    assert summary(r.stdout)["V+pte-store-po"] == ("Ok", 1, 1, ["0:X0=0;", "0:X0=1;"])


BAD = {
    "field": ("[PTE(x)]=(oa:PA(x), color:1);", "unknown page-table entry field 'color'"),
    "flag-value": ("[PTE(x)]=(valid:2);", "expected 0 or 1"),
    "pa-alone": ("0:X1=PA(x);", "a physical address (PA(...)) is supported only as a page-table entry's oa"),
}


@pytest.mark.parametrize("what", sorted(BAD))
def test_vmsa_bad_init_is_located(weft, tmp_path, what):
    entry, words = BAD[what]
    f = tmp_path / "bad.litmus"
    f.write_text("AArch64 bad\nVariant=vmsa\n{\n " + entry + "\n 0:X2=x;\n}\n P0 ;\n LDR W0,[X2] ;\n"
                 "exists (0:X0=0)\n")
    r = weft("-model", "sc", "-engine", "enumerate", f)
    assert r.returncode != 0
    assert f"{f}:4:" in r.stderr and words in r.stderr, r.stderr


def test_vmsa_refusals_located(weft, tmp_path):
    f = tmp_path / "fault.litmus"
    f.write_text("AArch64 fault\n{\n 0:X2=x;\n}\n P0 ;\n L0: LDR W0,[X2] ;\n"
                 "exists (0:X0=0 /\\ fault(P0:L0,x))\n")
    r = weft("-model", "sc", f)
    assert f"{f}:7:19: error: fault(...) in a condition means something only under Variant=vmsa" \
        in r.stderr
    f.write_text("AArch64 fault\nVariant=vmsa\n{\n 0:X2=x;\n}\n P0 ;\n L0: LDR W0,[X2] ;\n"
                 "exists (fault(P0:L1,x))\n")
    r = weft("-model", "sc", f)
    assert f"{f}:8:18: error: thread P0 has no label 'L1'" in r.stderr
    f.write_text("AArch64 fault\nVariant=vmsa\n{\n 0:X2=x;\n}\n P0 ;\n L0: LDR W0,[X2] ;\n"
                 "exists (fault(P0:L0,MMU:Bus))\n")
    r = weft("-model", "sc", f)
    assert f"{f}:8:21: error: unknown fault type" in r.stderr
    f.write_text("AArch64 tthm\nVariant=vmsa\nTTHM=HA\n{\n 0:X2=x;\n}\n P0 ;\n LDR W0,[X2] ;\n"
                 "exists (0:X0=0)\n")
    r = weft("-model", "sc", f)
    assert f"{f}:3:1: error: hardware updates of the access flag and dirty bit (TTHM=HA) are not supported" \
        in r.stderr
    g = tmp_path / "memtag.litmus"
    g.write_text("AArch64 memtag\nVariant=memtag\n{\n}\n P0 ;\n NOP ;\nexists (0:X0=0)\n")
    r = weft("-model", "sc", g)
    assert f"{g}:2:1: error: herd variant 'memtag' (Variant=) is not supported" in r.stderr
    h = tmp_path / "tlbi.litmus"
    h.write_text("AArch64 tlbi\n{\n}\n P0 ;\n TLBI VMALLE1IS ;\nexists (0:X0=0)\n")
    r = weft("-model", "sc", h)
    assert "herd models only under its vmsa variant" in r.stderr


def test_vmsa_hash_as_herd_dumps_the_test(weft):
    """herd's hash of a vmsa test, from tests/herd_hash.py's independent
    writing: an entry set without oa hashed with its own page (phy_x), the
    flags older than el0 always, typed pteval_t, after the variables; a
    fault atom's variable observed like a location (both checked on
    herd's own regression tests' hashes while this was written)."""
    from herd_hash import herd_hash
    want = herd_hash(["0:X1=x", "1:X1=y", "int y=4", "pteval_t pte_x=(oa:phy_x, af:0, db:1, dbm:0, valid:1)"],
                     [["MOV W0,#1", "L00:", "STR W0,[X1]"], ["LDR W0,[X1]"]], ["1:X0", "x"])
    r = weft("-model", "sc", "-engine", "enumerate", SUITE / "V+fault-cond.litmus")
    assert r.returncode == 0, r.stderr
    assert f"Hash={want}" in r.stdout


def test_vmsa_outputs_do_not_crash(weft, tmp_path):
    """-stats, -explain, -show (dot files) and YAML on faults, commits,
    TLBIs and PTE values."""
    for name in ("V+fault-cond", "V+pte-store-faults", "V+tlbi"):
        src = SUITE / (name + ".litmus")
        out = tmp_path / name
        out.mkdir()
        r = weft("-model", "sc", "-stats", "-explain", "-show", "all", "-o", out, src)
        assert r.returncode == 0, r.stderr
        assert f"Stats {name} complete" in r.stdout
        dots = list(out.glob("*.dot"))
        assert dots and all("digraph" in d.read_text() for d in dots)
        r = weft("-model", "sc", "-format", "yaml", src)
        assert r.returncode == 0, r.stderr
    r = weft("-model", "sc", "-format", "yaml", SUITE / "V+fault-cond.litmus")
    assert "fault(P0): 'Fault(P0:L0,x,MMU:AccessFlag);'" in r.stdout and "fault(P1): none" in r.stdout
    r = weft("-model", "sc", "-show", "all", "-o", tmp_path, SUITE / "V+tlbi.litmus")
    assert any("TLBI VAAE1IS tlb_x" in d.read_text() for d in tmp_path.glob("V+tlbi*.dot"))


def test_vmsa_from_the_command_line(weft, tmp_path):
    """herd's -variant vmsa (or kvm, its older name; herd's own vmsa
    regression tests run so) reads an AArch64 test as its Variant=vmsa
    line would: the same block from the same test without that line; a
    test's own `variant=` is read whatever its case, and its fatal taken."""
    text = (SUITE / "V+unmet-faults.litmus").read_text()
    with_line = weft("-model", "sc", "-q", SUITE / "V+unmet-faults.litmus")
    assert with_line.returncode == 0, with_line.stderr
    bare = tmp_path / "V+unmet-faults.litmus"
    bare.write_text(text.replace("Variant=vmsa\n", ""))
    r = weft("-model", "sc", bare)
    assert r.returncode != 0
    assert f"{bare}:4:3: error: PTE(...) means something only under herd's vmsa variant" in r.stderr
    # -i reads the test as the engines do, and refuses vmsa, at the test's start
    r = weft("-model", "sc", "-variant", "vmsa", "-i", bare, input="")
    assert f"{bare}:1:1: error: the interactive session cannot run a test under herd's vmsa variant" \
        in r.stderr
    for tag in ("vmsa", "kvm", "kvm,fatal"):
        r = weft("-model", "sc", "-q", "-variant", tag, bare)
        assert r.returncode == 0, r.stderr
        assert summary(r.stdout) == summary(with_line.stdout)
    lower = tmp_path / "lower.litmus"
    lower.write_text(text.replace("Variant=vmsa", "variant=fatal,vmsa"))
    r = weft("-model", "sc", "-q", lower)
    assert r.returncode == 0, r.stderr
    assert summary(r.stdout) == summary(with_line.stdout)
    fatal = tmp_path / "fatal.litmus"
    fatal.write_text(text.replace("Variant=vmsa", "Variant=fatal"))
    r = weft("-model", "sc", fatal)
    assert f"{fatal}:3:1: error: Variant=fatal without herd's vmsa variant (faults of UDF and SVC ending their " \
           "thread) is not supported" in r.stderr
    r = weft("-model", "sc", "-q", "-variant", "vmsa", fatal)
    assert r.returncode == 0 and summary(r.stdout) == summary(with_line.stdout), r.stderr
    # -variant fatal alone says nothing of a test without vmsa
    plain = SRCDIR / "tests" / "aarch64" / "Array-cells.litmus"
    r = weft("-model", "sc", "-q", "-variant", "fatal", plain)
    assert r.returncode == 0 and summary(r.stdout) == summary(weft("-model", "sc", "-q", plain).stdout), r.stderr


# What herd's vmsa regression tests use beyond weft's vmsa, each test's
# text and the located refusal it gets: fault handlers (a P0.F column),
# other fault-handling variants (skip, faultToNext, ...), faults that are
# not the MMU's, fault atoms observed in `locations`, multi-level tables
VMSA_LACKS = [
    ("Variant=vmsa\n{\n [PTE(x)]=(valid:0);\n 0:X1=x;\n}\n"
     " P0          | P0.F      ;\n LDR W0,[X1] | MOV W2,#1 ;\nexists (0:X2=1)\n",
     "7:16: error: fault handlers ('P0.F', a thread's handler column) are not supported"),
    ("Variant=vmsa,skip\n{\n 0:X1=x;\n}\n P0 ;\n LDR W0,[X1] ;\nexists (0:X0=0)\n",
     "2:1: error: herd variant 'skip' (Variant=) is not supported"),
    ("Variant=vmsa\n{\n 0:X1=x;\n}\n P0 ;\n L0: LDR W0,[X1] ;\nexists (fault(P0,UndefinedInstruction))\n",
     "8:18: error: fault type 'UndefinedInstruction' is not supported"),
    ("Variant=vmsa\n{\n 0:X1=x;\n}\n P0 ;\n L0: LDR W0,[X1] ;\nlocations [fault(P0:L0,x);]\nexists (0:X0=0)\n",
     "8:12: error: fault(...) in 'locations [...]' is not supported"),
    ("Variant=vmsa\n{\n [TTD(x,S1,LV2)]=(valid:0);\n 0:X1=x;\n}\n P0 ;\n LDR W0,[X1] ;\nexists (0:X0=0)\n",
     "4:3: error: page-table entries of other levels or stages ('TTD(...)') are not supported"),
]


@pytest.mark.parametrize("text,words", VMSA_LACKS)
def test_vmsa_features_weft_lacks_are_refused_located(weft, tmp_path, text, words):
    f = tmp_path / "lacks.litmus"
    f.write_text("AArch64 lacks\n" + text)
    r = weft("-model", "sc", f)
    assert r.returncode != 0 and f"{f}:{words}" in r.stderr, r.stderr
