"""A test's CacheType= line becomes the model variants herd makes of it:
DIC brings IDC with it (herd's lib/cacheType.mll), which aarch64.cat's
`if "DIC" && "IDC"` counts on.  Checked against herd7's blocks stored
beside our own tests (tests/cache-type/README.md), with both engines."""
import pathlib

import pytest

HERE = pathlib.Path(__file__).parent / "cache-type"
TESTS = sorted(HERE.glob("*.litmus"))


def herd_lines(text):
    return [l for l in text.splitlines() if l.strip() and not l.startswith("Time ")]


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
@pytest.mark.parametrize("test", TESTS, ids=lambda p: p.stem)
def test_cache_type_variants_are_herds(weft, test, engine):
    r = weft("-q", "-engine", engine, "-model", HERE / "cache-probe.cat", test)
    assert r.returncode == 0, r.stderr
    want = (test.parent / (test.name + ".expected")).read_text()
    assert herd_lines(r.stdout) == herd_lines(want)


def test_dic_implies_idc(weft):
    r = weft("-q", "-model", HERE / "cache-probe.cat", HERE / "CT-DIC.litmus")
    flags = [l for l in r.stdout.splitlines() if l.startswith("Flag ")]
    assert flags == ["Flag DIC-on", "Flag IDC-on"], r.stdout
