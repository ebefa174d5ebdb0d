"""weft against herd7 on the corpus's RISC-V tests: every result block must
be byte-identical to herd7's (expected files without their Time line).

Two models, each with both engines: herd's own riscv.cat (read unchanged,
with its includes, from the corpus's herd-cat/7.58), and sc (weft's sc.cat
and herd's).  rsmc may hand a RISC-V test to the enumerator, which is its
sound fallback: riscv.cat's commit order is not one weft proves, and rsmc
does not model sc's reservation (lr/sc tests) nor AMOs under every order
(blocked runs); the blocks must agree all the same, and with -stats every
complete count must equal herd's executions.  A deterministic sample by
default (WEFT_CORPUS_RISCV_SAMPLE, default 300 per model); WEFT_FULL_CORPUS=1
runs all 2,583 tests with expected files.  Skips when ../shared/corpus is
absent (conftest.py).
"""
import os

import pytest

from test_corpus import ENGINES, compare

SAMPLE = int(os.environ.get("WEFT_CORPUS_RISCV_SAMPLE", "300"))

CASES = [
    # (expected folder, model arguments for the corpus, label, proven order)
    ("riscv", lambda c: ["-I", str(c / "herd-cat" / "7.58"), "-model", "riscv.cat"], "herd's riscv.cat", False),
    ("sc", lambda c: ["-model", "sc"], "weft's sc", False),
    ("sc", lambda c: ["-I", str(c / "herd-cat" / "7.58"), "-model", "sc.cat"], "herd's sc.cat", False),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", CASES, ids=["riscv.cat", "sc", "herd-sc.cat"])
def test_riscv_corpus_agrees_with_herd(corpus, engine, case, capsys):
    model, args, label, proven = case
    compare(corpus, engine, model, "RISCV", args(corpus), SAMPLE, f"{model}/RISCV with {label}",
            capsys, proven=proven)
