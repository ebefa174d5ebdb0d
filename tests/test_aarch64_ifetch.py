"""herd's ifetch variant (self-modifying code) on weft's own tests
(tests/aarch64-ifetch/, verdicts worked out by hand in each file's comment)
and on the corpus's two instruction-fetch tests: the models' sets and
relations of fetches, herd's hash spelling of label and instruction
values, and what weft refuses, each at its place."""
import hashlib

import pytest

from conftest import SRCDIR, result_blocks, verdict_counts

SUITE = SRCDIR / "tests" / "aarch64-ifetch"

# test name -> (Ok/No, executions) under sc (weft's and herd's sc.cat),
# then under herd's aarch64.cat
VERDICTS = {
    "IF-self": (("Ok", 1), ("No", 2)),          # aarch64.cat: a stale fetch too
    "IF-MP+dmb.st+po": (("No", 3), ("Ok", 4)),  # nothing orders P1's fetch
    "IF-offset": (("Ok", 2), ("Ok", 2)),        # B .+8 or the stored B .+4
    "IF-cache": (("Ok", 1), ("Ok", 1)),         # DC CVAU; DSB; IC IVAU; DSB; ISB
}


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_ifetch_suite_under_sc(weft, engine):
    r = weft("-model", "sc", "-engine", engine, SUITE)
    assert r.returncode == 0, r.stderr
    assert verdict_counts(r.stdout) == {k: v[0] for k, v in VERDICTS.items()}
    if engine == "rsmc":
        # rsmc does not model fetches: the enumerator answers, and says so
        assert f"rsmc left {len(VERDICTS)} tests under model 'sc' to the enumerator" in r.stderr, r.stderr
        assert "herd's ifetch variant" in r.stderr, r.stderr


@pytest.mark.parametrize("model,which", [("sc.cat", 0), ("aarch64.cat", 1)])
def test_ifetch_suite_under_herds_models(weft, corpus, model, which):
    r = weft("-I", corpus / "herd-cat" / "7.58", "-model", model, "-engine", "enumerate", SUITE)
    assert r.returncode == 0, r.stderr
    assert verdict_counts(r.stdout) == {k: v[which] for k, v in VERDICTS.items()}


CORPUS_TESTS = ["DIC1.MP.FF+dmb.st+po.litmus", "MP.FF+dc.cvau-dsb.ish-ic.ivau-dsb.ish+po.litmus"]


def corpus_run(weft, corpus, engine, *model):
    folder = corpus / "tests" / "AArch64"
    r = weft("-I", corpus / "herd-cat" / "7.58", *model, "-engine", engine, *[folder / f for f in CORPUS_TESTS])
    assert r.returncode == 0, r.stderr
    return {name: body for name, (body, _) in result_blocks(r.stdout).items()}


@pytest.mark.parametrize("model", [["-model", "sc"], ["-model", "sc.cat"], []])
def test_corpus_ifetch_tests_run_and_engines_agree(weft, corpus, model):
    """The corpus's two fetch tests (no expected files: herd's answers are
    not in the corpus) run under weft's sc, herd's sc.cat and the default
    aarch64.cat, rsmc handing them to the enumerator, with one answer."""
    enum = corpus_run(weft, corpus, "enumerate", *model)
    assert corpus_run(weft, corpus, "rsmc", *model) == enum
    dic, ff = enum["DIC1.MP.FF+dmb.st+po"], enum["MP.FF+dc.cvau-dsb.ish-ic.ivau-dsb.ish+po"]
    # By hand, sc: P1 sees P0's second patch only after its first
    # (X10=1, X11=0 never): 3 executions; MP.FF: the new branch at m0
    # then the old one at m1 never (X9=1): 2 executions.  aarch64.cat
    # agrees: DIC makes the fetches of P1 ordered by coherence (IC-ob),
    # and the DC CVAU / IC IVAU sequence with its DSBs orders P0's patches
    # for P1's fetches (IC-ca), each other order being a cycle.
    assert "Observation DIC1.MP.FF+dmb.st+po Never 0 3" in dic
    assert "Observation MP.FF+dc.cvau-dsb.ish-ic.ivau-dsb.ish+po Never 0 2" in ff
    # herd7 7.58's hashes (run on them): DIC1's digests its CacheType line
    assert "Hash=317f8ab94aa7926b2985831ad167d0da" in dic
    assert "Hash=ef21063dbb2aee2f6047c3fdd3ac8615" in ff
    for block in (dic, ff):
        flagged = "Flag Assuming-no-two-modified-instructions-are-on-the-same-cache-line" in block
        assert flagged == (model == []), block   # aarch64.cat's flag: two patched places


def test_corpus_dic_is_the_test_s_own_variant(weft, corpus, tmp_path):
    """CacheType=DIC is what makes aarch64.cat order P1's fetches: the
    same test without that line allows X10=1, X11=0."""
    src = (corpus / "tests" / "AArch64" / CORPUS_TESTS[0]).read_text()
    t = tmp_path / "NoDIC.litmus"
    t.write_text("\n".join(l for l in src.splitlines() if not l.startswith("CacheType")) + "\n")
    r = weft("-I", corpus / "herd-cat" / "7.58", "-engine", "enumerate", t)
    assert r.returncode == 0, r.stderr
    assert "Observation DIC1.MP.FF+dmb.st+po Sometimes 1 3" in r.stdout, r.stdout


def herd_hash(init, columns, observed):
    """herd's digest (lib/testHash.ml, as weft's test_hash.c documents it)."""
    def d(s):
        return hashlib.md5(s.encode()).digest()
    width = [max(len(x) for x in c) for c in columns]
    rows = max(len(c) for c in columns)
    code = "".join("|".join(" %-*s " % (width[k], c[i] if i < len(c) else "")
                            for k, c in enumerate(columns)) + ";\n" for i in range(rows))
    return hashlib.md5(d(init) + d(code) + d(observed)).hexdigest()


def test_ifetch_hash_is_herds_spelling(weft):
    """herd hashes a label value `P0:L0` as 0:L0 and an instruction value as
    written with its type ins_t, written or not (checked against herd's
    own outputs of its AArch64.self tests S24, S28 and S30)."""
    want = herd_hash('1:X1=0:L0; ins_t 1:X2=instr:"B .+4"',
                     [["MOV W3,#1", "L00:", "B .+8", "ADD W3,W3,#2"], ["STR W2,[X1]"]], "0:X3")
    r = weft("-model", "sc", SUITE / "IF-offset.litmus")
    assert r.returncode == 0, r.stderr
    assert f"Hash={want}" in r.stdout, r.stdout


@pytest.mark.parametrize("model,test,expect_none", [
    # the fetch is a read of the code location, in Instr and NExp, not Exp
    ("empty Instr & R as c", "IF-self.litmus", True),
    ("empty Instr & W as c", "IF-self.litmus", True),
    ("empty NExp & Instr & R as c", "IF-self.litmus", True),
    ("empty Exp & Instr & R as c", "IF-self.litmus", False),
    # its commit event is a branch, not herd's conditional BCC
    ("catdep\nempty B as c", "IF-self.litmus", True),
    ("catdep\nempty BCC as c", "IF-self.litmus", False),
    # herd's f-ib: fetch -iico_data-> commit -iico_ctrl-> the fetched
    # instruction's events (here MOV W5 has none, the stale branch none)
    ("empty [NExp & R]; iico_data; [B] as c", "IF-self.litmus", True),
    ("empty iico_ctrl as c", "IF-MP+dmb.st+po.litmus", False),
    # the cache maintenance events, at the patched place
    ("empty DC.CVAU as c", "IF-cache.litmus", True),
    ("empty IC.IVAU as c", "IF-cache.litmus", True),
    ("empty (DC.CVAU * IC.IVAU) & loc as c", "IF-cache.litmus", True),
    ("empty (DC.CVAU | IC.IVAU) & (M | F) as c", "IF-cache.litmus", False),
    # NOP and B are free to modify concurrently (Arm ARM B2.2.5)
    ("empty Restricted-CMODX as c", "IF-MP+dmb.st+po.litmus", False),
])
def test_ifetch_event_sets(weft, tmp_path, model, test, expect_none):
    cat = tmp_path / "probe.cat"
    cat.write_text("probe\n" + model + "\n")
    r = weft("-model", cat, "-engine", "enumerate", SUITE / test)
    assert r.returncode == 0, r.stderr
    n = int(next(l for l in r.stdout.splitlines() if l.startswith("States ")).split()[1])
    assert (n == 0) == expect_none, f"{model} on {test}: {n} states"


def test_restricted_cmodx_holds_a_restricted_instruction(weft, tmp_path):
    """A patch writing MOV (not one of the Arm ARM's free instructions) is
    in Restricted-CMODX, and so is a fetch that reads it."""
    t = tmp_path / "R.litmus"
    t.write_text("AArch64 R\nVariant=ifetch\n{\n ins_t 0:X0=instr:\"MOV W5,#2\"; 0:X1=1:L0;\n}\n"
                 " P0          | P1        ;\n STR W0,[X1] |L0:        ;\n             | MOV W5,#1 ;\n"
                 "exists (1:X5=2)\n")
    cat = tmp_path / "probe.cat"
    cat.write_text("probe\nempty Restricted-CMODX & R as c\n")
    r = weft("-model", cat, "-engine", "enumerate", t)
    assert r.returncode == 0, r.stderr
    # only the execution whose fetch reads the old MOV W5,#1... which is
    # restricted as well: no execution passes
    assert "States 0" in r.stdout, r.stdout
    r = weft("-model", "sc", "-engine", "enumerate", t)
    assert "States 2" in r.stdout and "1:X5=2;" in r.stdout, r.stdout


@pytest.mark.parametrize("text,where,words", [
    # instruction values and labels as values need the variant, but in
    # AArch64 (tests/aarch64-mem/Label-values: herd runs them there)
    ("PPC A\n{\n ins_t 0:r0=NOP;\n}\n P0 ;\n nop ;\nexists (0:r0=0)\n", "3:2", "need herd's ifetch variant"),
    ("PPC A\n{\n 0:r0=P0:L0;\n}\n P0 ;\nL0: nop ;\nexists (0:r0=0)\n", "3:7", "labels as values"),
    # the variant itself, for AArch64 only; others refused as before
    ("PPC A\nVariant=ifetch\n{\n}\n P0 ;\n nop ;\nexists (0:r1=0)\n", "2:1", "AArch64 tests only"),
    ("AArch64 A\nVariant=memtag\n{\n}\n P0 ;\n NOP ;\nexists (0:X0=0)\n", "2:1", "herd variant 'memtag'"),
    ("AArch64 A\nCacheType=XYZ\n{\n}\n P0 ;\n NOP ;\nexists (0:X0=0)\n", "2:1", "unknown cache type 'XYZ'"),
    # a label no instruction of that thread has
    ("AArch64 A\nVariant=ifetch\n{\n 0:X1=1:L9;\n}\n P0 | P1 ;\n NOP | NOP ;\nexists (0:X0=0)\n", "4:7",
     "'L9' is not the label of an instruction of thread P1"),
    # herd's other cache operations
    ("AArch64 A\nVariant=ifetch\n{\n}\n P0 ;\n IC IALLU ;\nexists (0:X0=0)\n", "6:2", "DC CVAU and IC IVAU only"),
    # a fetch that may read what is no instruction: herd's fault
    ("AArch64 A\nVariant=ifetch\n{\n 0:X1=0:L0;\n}\n P0 ;\n STR W2,[X1] ;\nL0: NOP ;\nexists (0:X0=0)\n", "8:5",
     "may read 0, which is no instruction"),
])
def test_ifetch_refusals_are_located(weft, tmp_path, text, where, words):
    t = tmp_path / "A.litmus"
    t.write_text(text)
    r = weft("-model", "sc", "-engine", "enumerate", t)
    assert r.returncode != 0
    assert f"{t}:{where}: error:" in r.stderr and words in r.stderr, r.stderr


@pytest.mark.parametrize("args,words", [
    (["-engine", "bmc"], "not supported by bmc: instructions fetched from memory"),
    (["-i"], "the interactive session cannot run a test whose instructions are fetched"),
])
def test_ifetch_engines_that_refuse_say_where(weft, args, words):
    t = SUITE / "IF-self.litmus"
    r = weft("-model", "sc", *args, t, input="quit\n")
    if "bmc" in args and "not built" in r.stderr:
        pytest.skip("weft built without CaDiCaL: no bmc")
    assert f"{t}:15:2: error: {words}" in r.stderr, r.stderr
