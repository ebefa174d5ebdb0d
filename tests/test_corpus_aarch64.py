"""weft against herd7 on the corpus's AArch64 tests: every result block must
be byte-identical to herd7's (expected files without their Time line).

Models, each with both engines: herd's aarch64.cat (read unchanged, with its
includes, from the corpus's herd-cat/7.58; its dependency relations are the
ones weft computes, see man weft, HERD'S DEPENDENCY RELATIONS), and sc
(weft's sc.cat, and herd's).  rsmc hands tests under aarch64.cat to the
enumerator (catdep), and under sc tests with exclusives (a reservation rsmc
does not model) or a CAS (variants); the blocks must agree all the same.  Tests weft answers otherwise than herd, or not at
all, are listed in KNOWN with the reason, printed in the summary and
checked to still differ: never skipped silently.  A deterministic sample by
default (WEFT_CORPUS_AARCH64_SAMPLE, default 300 per model);
WEFT_FULL_CORPUS=1 runs all 1,331 tests with expected files.  Skips when
../shared/corpus is absent (conftest.py).
"""
import os

import pytest

from test_corpus import ENGINES, compare

SAMPLE = int(os.environ.get("WEFT_CORPUS_AARCH64_SAMPLE", "300"))

# file name -> why weft gives no block
KNOWN = {
    "MP+dmb.st+LDIAPP.litmus": "arrays (int x[2]) are not supported",
    "coRR+BBM+W.litmus": "herd's vmsa variant (page tables) is not supported",
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
    compare(corpus, engine, model, "AArch64", args(corpus), SAMPLE, f"{model}/AArch64 with {label}",
            capsys, proven=False, known=KNOWN)
