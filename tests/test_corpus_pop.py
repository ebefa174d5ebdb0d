"""The pop engine against the enumerator on the corpus, under sc, every
architecture (C with the kernel's linux-kernel.def for its primitives):
every test pop accepts gets the enumerator's block, counts included, with
no redundant and no blocked exploration (-stats); every test it does not
accept is refused by name ("not supported by pop: ..."), for one of the
reasons pop.h lists; and it accepts at least 95% of the tests.

All tests of each folder with WEFT_FULL_CORPUS=1 (`make check-corpus`:
20,479 tests, about a minute on two cores, most of it the enumerator's);
otherwise every k-th test, WEFT_CORPUS_POP_SAMPLE per architecture
(default 150).  Skips when ../shared/corpus is absent (conftest.py).

The tests pop refuses today (a full run): the instructions of two
accesses that herd's po leaves unordered, X86's XCHG and locked
instructions (57), AArch64's CAS family (44), SWP family (17), LDADD and
STADD families (5) and the ordered pairs STILP and LDIAPP (2); AArch64's
vmsa (4) and ifetch (2) tests: 131 of 20,479 (0.6%)."""
import os
import re
import subprocess

import pytest

from conftest import assert_accepts_95_percent, engine_refusals, WEFT, result_blocks

ARCHS = ["PPC", "X86", "X86_64", "AArch64", "RISCV", "C"]
FULL = os.environ.get("WEFT_FULL_CORPUS") == "1"
SAMPLE = int(os.environ.get("WEFT_CORPUS_POP_SAMPLE", "150"))
BATCH = 400
REASONS = ("an instruction with two accesses", "herd's vmsa variant", "instructions fetched from memory")
STATS = re.compile(r"^Stats (\S+) engine pop states \d+ executions \d+ redundant (\d+) blocked (\d+) ", re.M)
REFUSAL = re.compile(r"^(.*?):\d+:\d+: error: not supported by pop: (.*)$", re.M)

accepted_total = {}


def model_args(corpus, arch):
    if arch == "C":
        return ["-macros", str(corpus / "herd-cat" / "7.58" / "lkmm" / "linux-kernel.def"), "-model", "sc"]
    return ["-model", "sc"]


def run(engine, args, files):
    out, err = "", ""
    for i in range(0, len(files), BATCH):
        p = subprocess.run([str(WEFT), "-q", "-j", "2", "-timeout", "120", "-engine", engine, *args,
                            *[str(f) for f in files[i:i + BATCH]]],
                           capture_output=True, text=True, timeout=3600)
        out += p.stdout
        err += p.stderr
    return out, err


@pytest.mark.parametrize("arch", ARCHS)
def test_corpus_pop_as_enumerator(corpus, arch, capsys):
    files = sorted((corpus / "tests" / arch).glob("*.litmus"))
    if not files:
        pytest.skip(f"no corpus tests for {arch}")
    if not FULL and len(files) > SAMPLE:
        step = len(files) / SAMPLE
        files = [files[int(i * step)] for i in range(SAMPLE)]
    args = model_args(corpus, arch)
    pop_out, pop_err = run("pop", ["-stats", *args], files)
    ref_out, _ = run("enumerate", args, files)
    got, want = result_blocks(pop_out), result_blocks(ref_out)
    refused = engine_refusals(pop_err, REFUSAL, REASONS, len(got), len(files))
    differ = [name for name, (block, _) in got.items() if name not in want or want[name][0] != block]
    # read from the whole output: a block whose state is empty (no
    # displayed lval) has a blank line inside, which result_blocks splits at
    stats = {m.group(1): m.group(2, 3) for m in STATS.finditer(pop_out)}
    wasted = [name for name in got if stats.get(name) != ("0", "0")]
    with capsys.disabled():
        print(f"\ncorpus pop/sc/{arch}: {len(got) - len(differ)}/{len(got)} blocks as the enumerator's, "
              f"{len(refused)} of {len(files)} refused")
    assert not differ, differ[:20]
    assert not wasted, wasted[:20]
    accepted_total[arch] = (len(got), len(files))


def test_corpus_pop_accepts_95_percent(corpus):
    """After the folders above (pytest runs this file's tests in order)."""
    assert_accepts_95_percent(accepted_total, ARCHS)
