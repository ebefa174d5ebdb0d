"""weft against herd7 on the corpus's RISC-V tests: every result block must
be byte-identical to herd7's (expected files without their Time line).

Two models, each with both engines: herd's own riscv.cat (read unchanged,
with its includes, from the corpus's herd-cat/7.58) and sc (weft's sc.cat
and herd's).  riscv.cat is not a model whose commit order weft proves, so
rsmc may hand a test to the enumerator (that is its sound fallback); the
blocks must agree all the same.  Sampling as in test_corpus.py
(WEFT_CORPUS_SAMPLE, default 1000 here 300; WEFT_FULL_CORPUS=1: all).
Skips when ../shared/corpus is absent (see conftest.py).
"""
import os

import pytest

from test_corpus import ENGINES, compare

SAMPLE = int(os.environ.get("WEFT_CORPUS_RISCV_SAMPLE", "300"))

CASES = [
    # (expected folder, model arguments relative to the corpus, label, proven)
    ("riscv", lambda c: ["-I", str(c / "herd-cat" / "7.58"), "-model", "riscv.cat"], "herd's riscv.cat", False),
    ("sc", lambda c: ["-model", "sc"], "weft's sc", True),
    ("sc", lambda c: ["-I", str(c / "herd-cat" / "7.58"), "-model", "sc.cat"], "herd's sc.cat", True),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", CASES, ids=["riscv.cat", "sc", "herd-sc.cat"])
def test_riscv_corpus_agrees_with_herd(corpus, engine, case, capsys):
    model, args, label, proven = case
    compare(corpus, engine, model, "RISCV", args(corpus), SAMPLE, f"{model}/RISCV with {label}",
            capsys, proven=proven)
