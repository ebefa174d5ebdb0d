"""weft against herd7 on the corpus's AArch64 tests: every result block must
be byte-identical to herd7's (expected files without their Time line).

Models, each with both engines: herd's aarch64.cat (read unchanged, with its
includes, from the corpus's herd-cat/7.58; its dependency relations are the
ones weft computes, see man weft, HERD'S DEPENDENCY RELATIONS), and sc
(weft's sc.cat, and herd's).  rsmc hands to the enumerator tests with
exclusives (a reservation rsmc does not model) or a CAS (variants), and
under aarch64.cat those whose commit order may have a cycle; the blocks
must agree all the same.  Tests weft answers otherwise than herd, or not at
all, are listed in KNOWN with the reason, printed in the summary and
checked to still differ: never skipped silently.  A deterministic sample by
default (WEFT_CORPUS_AARCH64_SAMPLE, default 300 per model);
WEFT_FULL_CORPUS=1 runs all 1,331 tests with expected files.  Skips when
../shared/corpus is absent (conftest.py).
"""
import os
import re

import pytest

from test_corpus import ENGINES, compare, split_blocks

SAMPLE = int(os.environ.get("WEFT_CORPUS_AARCH64_SAMPLE", "300"))

# file name -> why weft gives no block
KNOWN = {
    # per case id: file name -> why weft answers otherwise than herd
    "aarch64.cat": {},
    "sc": {
        "coRR+BBM+W.litmus": "weft's own sc.cat under the vmsa variant: same states and counts as "
                             "herd's sc.cat, but no Flag Assuming-common-inner-shareable-domain line",
    },
    "herd-sc.cat": {},
}

CASES = [
    # (expected folder, model arguments for the corpus, label)
    ("aarch64", lambda c: ["-I", str(c / "herd-cat" / "7.58"), "-model", "aarch64.cat"], "herd's aarch64.cat"),
    ("sc", lambda c: ["-model", "sc"], "weft's sc"),
    ("sc", lambda c: ["-I", str(c / "herd-cat" / "7.58"), "-model", "sc.cat"], "herd's sc.cat"),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", CASES, ids=["aarch64.cat", "sc", "herd-sc.cat"])
def test_aarch64_corpus_agrees_with_herd(corpus, engine, case, capsys):
    model, args, label = case
    case_id = ["aarch64.cat", "sc", "herd-sc.cat"][CASES.index(case)]
    compare(corpus, engine, model, "AArch64", args(corpus), SAMPLE, f"{model}/AArch64 with {label}",
            capsys, proven=False, known=KNOWN[case_id])


# file name -> (line:col, what the error names) for every corpus AArch64 test
# weft refuses to run (those with and without expected files): none now, the
# vmsa tests (test_vmsa*.py) and the two instruction-fetch tests
# (test_aarch64_ifetch.py) run.  A test added here must be refused at its
# place, saying what weft lacks.
REFUSED = {}


def test_aarch64_corpus_refusals_are_located_and_listed(weft, corpus):
    """Every AArch64 corpus test parses except those in REFUSED, and each of
    those is refused with a file:line:col error naming what weft lacks."""
    folder = corpus / "tests" / "AArch64"
    r = weft("-check", folder)
    errors = {}
    for line in r.stderr.splitlines():
        m = re.match(r"(.*/)?([^/:]+\.litmus):(\d+):(\d+): error: (.*)", line)
        if m:
            errors.setdefault(m.group(2), []).append((f"{m.group(3)}:{m.group(4)}", m.group(5)))
    assert set(errors) == set(REFUSED), (sorted(set(errors) - set(REFUSED)),
                                         sorted(set(REFUSED) - set(errors)))
    for name, (place, words) in REFUSED.items():
        got = errors[name]
        assert any(words in msg and at == place for at, msg in got), (name, got)


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
@pytest.mark.parametrize("case", CASES, ids=["aarch64.cat", "sc", "herd-sc.cat"])
def test_aarch64_pair_tests_of_the_corpus(weft, corpus, engine, case):
    """The corpus's two tests of arrays and ordered pairs, whatever the
    sample: MP+dmb.st+LDIAPP gives herd's block; MP+STILP+dmb.ld, which has
    no expected file, runs and both engines give the same block."""
    model, args, _ = case
    src = corpus / "tests" / "AArch64" / "MP+dmb.st+LDIAPP.litmus"
    want = (corpus / "expected" / model / "AArch64" / (src.name + ".expected")).read_text()
    r = weft(*args(corpus), "-engine", engine, src)
    assert r.returncode == 0, r.stderr
    assert split_blocks(r.stdout)["MP+dmb.st+LDIAPP"] == want
    stilp = corpus / "tests" / "AArch64" / "MP+STILP+dmb.ld.litmus"
    blocks = []
    for other in ("rsmc", "enumerate"):
        r = weft(*args(corpus), "-engine", other, stilp)
        assert r.returncode == 0, r.stderr
        blocks.append(split_blocks(r.stdout)["MP+STILP+dmb.ld"])
    assert blocks[0] == blocks[1]
    assert "States " in blocks[0]


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_aarch64_vmsa_test_of_the_corpus_under_aarch64_cat(weft, corpus, engine):
    """coRR+BBM+W (herd's vmsa variant), whatever the sample: herd's block
    under its aarch64.cat, 41 executions from the choices of TLBI-after
    (rsmc hands it to the enumerator)."""
    src = corpus / "tests" / "AArch64" / "coRR+BBM+W.litmus"
    want = (corpus / "expected" / "aarch64" / "AArch64" / (src.name + ".expected")).read_text()
    r = weft("-I", corpus / "herd-cat" / "7.58", "-model", "aarch64.cat", "-engine", engine, src)
    assert r.returncode == 0, r.stderr
    assert split_blocks(r.stdout)["coRR+BBM+W"] == want


VMSA_OTHERS = ["CoWR+tlbi-sync.ishsptev0p", "MP.V2I+dsb.ish-tlbi.vaae1is-dsh.ish+dsb.ish-isb", "coRR-pte9-mod"]


@pytest.mark.parametrize("name", VMSA_OTHERS)
def test_aarch64_vmsa_tests_without_expected_files(weft, corpus, name):
    """The corpus's other vmsa tests (no expected files) run under herd's
    aarch64.cat and both engines give the same block.  MP.V2I's condition,
    P1 seeing P0's z=1 and loading x without a fault, is forbidden: its
    translation of x reads the old entry, either after P0's TLBI (then
    TLBI-ca orders the TLBI before P0's invalidating store, which a DSB
    orders before it: a cycle) or before (TLBI-ob orders it before P0's
    store to z, which P1's read of z, DSB SY and ISB order before it)."""
    src = corpus / "tests" / "AArch64" / (name + ".litmus")
    blocks = []
    for engine in ("rsmc", "enumerate"):
        r = weft("-I", corpus / "herd-cat" / "7.58", "-model", "aarch64.cat", "-engine", engine, src)
        assert r.returncode == 0, r.stderr
        blocks.append(split_blocks(r.stdout)[name])
    assert blocks[0] == blocks[1]
    assert "States " in blocks[0]
    if name.startswith("MP.V2I"):
        assert f"Observation {name} Never 0 " in blocks[0]
