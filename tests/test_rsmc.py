"""The RSMC engine against the reference enumerator: identical result blocks
(Time lines aside) and equal numbers of complete executions (-stats), on
weft's own suite (litmus/), on a deterministic corpus sample and on the
SB+nW(+syncs) family of the RSMC paper.

A test that one engine cannot finish within the per-test timeout is left
out of the comparison (and counted); every other block must agree.
"""
import os
import subprocess

import pytest

from conftest import WEFT, result_blocks, run_weft

TIMEOUT = int(os.environ.get("WEFT_RSMC_TIMEOUT", "30"))
# PPC / X86 / X86_64 files of the corpus sample
SAMPLE = {"PPC": 150, "X86": 50, "X86_64": 50}
MODELS = {"PPC": ["power", "sc"], "X86": ["tso", "sc"], "X86_64": ["tso", "sc"]}


def blocks(text):
    """Test name -> (block without Time/Stats lines, complete count, blocked)."""
    out = {}
    for name, (body, stats) in result_blocks(text).items():
        complete = blocked = None
        if stats:
            words = stats.split()
            complete = int(words[words.index("complete") + 1])
            blocked = int(words[words.index("blocked") + 1])
        out[name] = (body, complete, blocked)
    return out


def run_engine(engine, model, files):
    p = subprocess.run([str(WEFT), "-q", "-j", "1", "-stats", "-engine", engine, "-model", model,
                        "-timeout", str(TIMEOUT), *map(str, files)],
                       capture_output=True, text=True, timeout=TIMEOUT * (len(files) + 2) + 120)
    return blocks(p.stdout), p


@pytest.fixture(scope="module")
def rsmc_available():
    p = run_weft("-engine", "rsmc", "-version")
    if p.returncode != 0 and "unknown engine" in (p.stderr + p.stdout):
        pytest.fail("weft's command line does not accept -engine rsmc "
                    "(src/cli/options.c must accept every engine_exists() name)")


def compare(model, files):
    """Run both engines; return (agreeing, left out, rsmc blocked total) and
    fail on the first disagreement."""
    got, pr = run_engine("rsmc", model, files)
    want, pe = run_engine("enumerate", model, files)
    agree = skipped = blocked = 0
    problems = []
    for name, (wbody, wcomplete, _) in want.items():
        if name not in got:
            problems.append(f"{name}: no rsmc block ({pr.stderr.strip()[:200]})")
            continue
        gbody, gcomplete, gblocked = got[name]
        if "Timeout" in wbody or "Timeout" in gbody or "timed out" in wbody + gbody:
            skipped += 1
            continue
        if gbody != wbody:
            problems.append(f"{name} under {model}:\n--- rsmc\n{gbody}\n--- enumerate\n{wbody}")
        elif gcomplete != wcomplete:
            problems.append(f"{name} under {model}: {gcomplete} complete executions, "
                            f"enumerate {wcomplete}")
        else:
            agree += 1
            blocked += gblocked or 0
    assert not problems, "\n".join(problems[:5])
    assert agree + skipped == len(files), f"{len(files)} files, {agree + skipped} blocks"
    return agree, skipped, blocked


@pytest.mark.parametrize("arch,model", [("PPC", "power"), ("PPC", "sc"), ("PPC", "tso"),
                                        ("X86", "tso"), ("X86", "sc")])
def test_own_suite(srcdir, rsmc_available, arch, model):
    files = sorted((srcdir / "litmus" / arch).glob("*.litmus"))
    assert files
    agree, skipped, blocked = compare(model, files)
    print(f"litmus/{arch} {model}: {agree} agree, {skipped} left out, {blocked} blocked runs")
    assert skipped == 0
    # race branches start only where the load can read the racing store,
    # and an rmw's read and write commit together: no run blocks
    assert blocked == 0


def sample(corpus, arch, n):
    files = sorted((corpus / "tests" / arch).glob("*.litmus"))
    if len(files) <= n:
        return files
    step = len(files) / n
    return [files[int(i * step)] for i in range(n)]


@pytest.mark.parametrize("arch,model", [(a, m) for a in SAMPLE for m in MODELS[a]])
def test_corpus_sample(corpus, rsmc_available, arch, model):
    files = sample(corpus, arch, SAMPLE[arch])
    agree, skipped, blocked = compare(model, files)
    print(f"corpus {arch} {model}: {agree}/{len(files)} agree, {skipped} left out (timeout), "
          f"{blocked} blocked runs")
    assert agree >= len(files) * 9 // 10, "too many tests left out"
    assert blocked == 0


@pytest.mark.parametrize("syncs", [False, True])
def test_sbnw(srcdir, tmp_path, rsmc_available, syncs):
    for n in range(4):
        subprocess.run([str(srcdir / "scripts" / "gen-sbnw"), str(n), str(tmp_path)], check=True,
                       capture_output=True)
    files = [tmp_path / f"SB+{n}W{'+syncs' if syncs else ''}.litmus" for n in range(4)]
    got, _ = run_engine("rsmc", "power", files)
    agree, skipped, blocked = compare("power", files)
    assert agree == 4
    # the paper's counts: 3 with syncs, C(2n,n)+3 without
    from math import comb
    for n in range(4):
        name = f"SB+{n}W{'+syncs' if syncs else ''}"
        assert got[name][1] == (3 if syncs else comb(2 * n, n) + 3), name
    assert blocked == 0


def test_every_judged_run_is_counted_once(srcdir, corpus, rsmc_available):
    """rsmc asks the model when a run ends and, when the run is forbidden,
    goes back to the first forbidden state on its way: a run whose path
    turned out forbidden must not be counted.  So every run judged is
    exactly one of complete, forbidden (at its last commit), filtered or
    cut by the unroll limit, on our suite and on a corpus sample."""
    import yaml
    files = sorted((srcdir / "litmus" / "PPC").glob("*.litmus")) + sample(corpus, "PPC", 150)
    p = subprocess.run([str(WEFT), "-q", "-j", "2", "-format", "yaml", "-model", "power",
                        "-timeout", str(TIMEOUT), *map(str, files)],
                       capture_output=True, text=True, timeout=TIMEOUT * len(files) + 120)
    docs = [d for d in yaml.safe_load_all(p.stdout) if d]
    assert len(docs) == len(files), p.stderr
    for d in docs:
        st = d["stats"]
        assert d["engine"] == "rsmc"
        assert st["candidates"] == st["complete"] + st["forbidden"] + st["filtered"] + st["toofar"], d["name"]
        assert st["complete"] == d["positive"] + d["negative"], d["name"]
        assert st["blocked"] == 0, d["name"]
