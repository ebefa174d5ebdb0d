"""The rvf engine against the enumerator on the corpus, under sc, every
architecture (C with the kernel's linux-kernel.def for its primitives):
every test rvf accepts gets the enumerator's States, verdict and flags,
and Positive + Negative is its number of states (rvf counts distinct
final states); every test it does not accept is refused by name ("not
supported by rvf: ..."), for one of the reasons rvf.h lists; and it
accepts at least 95% of the tests.

All tests of each folder with WEFT_FULL_CORPUS=1 (`make check-corpus`);
otherwise every k-th test, WEFT_CORPUS_RVF_SAMPLE per architecture
(default 100).  Skips when ../shared/corpus is absent (conftest.py)."""
import os
import re

import pytest

from conftest import assert_accepts_95_percent, engine_refusals, outcome_blocks
from test_corpus_pop import model_args, run   # the same runs as pop's

ARCHS = ["PPC", "X86", "X86_64", "AArch64", "RISCV", "C"]
FULL = os.environ.get("WEFT_FULL_CORPUS") == "1"
SAMPLE = int(os.environ.get("WEFT_CORPUS_RVF_SAMPLE", "100"))
REASONS = ("an instruction with two accesses", "herd's vmsa variant", "instructions fetched from memory",
           "a branch to where a register says")
REFUSAL = re.compile(r"^(.*?):\d+:\d+: error: not supported by rvf: (.*)$", re.M)

accepted_total = {}


@pytest.mark.parametrize("arch", ARCHS)
def test_corpus_rvf_as_enumerator(corpus, arch, capsys):
    files = sorted((corpus / "tests" / arch).glob("*.litmus"))
    if not files:
        pytest.skip(f"no corpus tests for {arch}")
    if not FULL and len(files) > SAMPLE:
        step = len(files) / SAMPLE
        files = [files[int(i * step)] for i in range(SAMPLE)]
    args = model_args(corpus, arch)
    rvf_out, rvf_err = run("rvf", args, files)
    ref_out, _ = run("enumerate", args, files)
    got, want = outcome_blocks(rvf_out), outcome_blocks(ref_out)
    refused = engine_refusals(rvf_err, REFUSAL, REASONS, len(got), len(files))
    differ = [name for name, (states, verdict, flags, _) in got.items()
              if name not in want or want[name][:3] != (states, verdict, flags)]
    miscounted = [name for name, (states, _, _, (pos, neg)) in got.items() if pos + neg != len(states)]
    with capsys.disabled():
        print(f"\ncorpus rvf/sc/{arch}: {len(got) - len(differ)}/{len(got)} outcomes as the enumerator's, "
              f"{len(refused)} of {len(files)} refused")
    assert not differ, differ[:20]
    assert not miscounted, miscounted[:20]
    accepted_total[arch] = (len(got), len(files))


def test_corpus_rvf_accepts_95_percent(corpus):
    """After the folders above (pytest runs this file's tests in order)."""
    assert_accepts_95_percent(accepted_total, ARCHS)
