"""rsmc gives the enumerator's answer for models it does not know: generated
mutants of our models (and, with the corpus, of herd's), scripts/model-diff.

Each mutant drops a union term, a fence, or a check, weakens an acyclicity
check to irreflexivity, or changes the title; the mutants are chosen with a
fixed seed.  The script compares rsmc's blocks with the enumerator's on
weft's own suite (and a corpus sample when ../shared is present) and exits
1 on any difference.  Weft's old engine disagreed on 51 of these 116
mutants; the test also asserts that rsmc answered most tests itself, so
agreement does not come from leaving everything to the enumerator."""
import os
import re
import subprocess
import sys

from conftest import CORPUS, SRCDIR, WEFT

MUTANTS = 40        # of our three models
HERD_MUTANTS = 20   # of herd's ppc.cat, x86tso.cat, sc.cat (corpus only)


def test_mutants_agree_with_enumerate(weft):
    args = [sys.executable, str(SRCDIR / "scripts" / "model-diff"), "--weft", str(WEFT),
            "--mutants", str(MUTANTS), "--seed", "11", "--every", "60"]
    if CORPUS.is_dir():
        args += ["--herd", str(HERD_MUTANTS)]
    p = subprocess.run(args, capture_output=True, text=True, timeout=1800)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
    rows = [l for l in p.stdout.splitlines() if re.match(r"m\d\d ", l)]
    want = MUTANTS + (HERD_MUTANTS if CORPUS.is_dir() else 0)
    assert len(rows) == want, p.stdout
    assert all(r.endswith(", OK") for r in rows), p.stdout
    m = re.search(r"(\d+) test runs, rsmc answered (\d+), 0 mutants with mismatches", p.stdout)
    assert m, p.stdout
    runs, answered = int(m.group(1)), int(m.group(2))
    # our own suite alone gives each mutant at least 18 tests (X86)
    assert runs >= 18 * MUTANTS and answered >= runs // 2, p.stdout[-2000:]
    # a retitled model is the original: rsmc answers every test itself
    for r in rows:
        if "retitle" in r:
            assert re.search(r": (\d+) tests, rsmc \1, enumerator 0,", r), r
