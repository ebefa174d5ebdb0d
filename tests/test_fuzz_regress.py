"""Every input that ever crashed or hung a fuzz target (tests/fuzz/regress/
TARGET/, kept by scripts/fuzz) is replayed through the command line in every
build, the sanitizer build included: no crash, no sanitizer report, and a
run that ends by itself under -timeout 1 with both engines."""
import pathlib
import time

import pytest

from conftest import SRCDIR

REGRESS = SRCDIR / "tests" / "fuzz" / "regress"
FIXED = [SRCDIR / "litmus" / "PPC" / "MP.litmus", SRCDIR / "litmus" / "X86" / "SB.litmus"]


def inputs(target):
    d = REGRESS / target
    return sorted(p for p in d.iterdir() if p.is_file()) if d.is_dir() else []


def replay(weft, args):
    t0 = time.monotonic()
    p = weft("-j", "1", "-timeout", "1", *args, timeout=60)
    elapsed = time.monotonic() - t0
    out = p.stdout + p.stderr
    assert p.returncode >= 0, f"killed by signal {-p.returncode}: {out[-2000:]}"
    assert "Crashed" not in out and "Sanitizer" not in out and "runtime error" not in out, out[-2000:]
    # -timeout 1 is honoured: generous slack for a loaded sanitizer build
    assert elapsed < 20, f"took {elapsed:.1f} s"
    return p


def test_regress_folders_exist():
    assert REGRESS.is_dir()
    assert inputs("litmus"), "the loop tests that crashed and hung weft are kept"


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
@pytest.mark.parametrize("path", inputs("litmus"), ids=lambda p: p.name)
def test_litmus_input(weft, path, engine):
    replay(weft, ["-engine", engine, path])


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
@pytest.mark.parametrize("path", inputs("cat"), ids=lambda p: p.name)
def test_cat_input(weft, path, engine, tmp_path):
    model = tmp_path / "fuzz.cat"
    model.write_bytes(path.read_bytes())
    replay(weft, ["-engine", engine, "-model", model, *FIXED])


@pytest.mark.parametrize("path", inputs("expect"), ids=lambda p: p.name)
def test_expect_input(weft, path):
    replay(weft, ["-expect", path, FIXED[0]])


@pytest.mark.parametrize("path", inputs("hwlog"), ids=lambda p: p.name)
def test_hwlog_input(weft, path):
    replay(weft, ["-table", "csv", "-hardware", path, FIXED[0]])


@pytest.mark.parametrize("path", inputs("results"), ids=lambda p: p.name)
def test_results_input(weft, path, tmp_path):
    for name in ("fuzz.yaml", "fuzz.log"):
        f = tmp_path / name
        f.write_bytes(path.read_bytes())
        replay(weft, ["-table", "csv", "-results", f])
        replay(weft, ["-table", "html", "-force", "-results", f, "-results", f])


@pytest.mark.parametrize("path", inputs("serve"), ids=lambda p: p.name)
def test_serve_input(path):
    """A request that once crashed fuzz_serve ("METHOD PATH", then the body),
    sent to a weft -serve: answered, and the server answers again after."""
    from serve_helper import Server
    data = path.read_bytes()
    head, _, body = data.partition(b"\n")
    method, _, target = head.decode("latin-1").partition(" ")
    if not target:
        method, target = "POST", method
    s = Server("0", SRCDIR / "litmus" / "PPC" / "MP+lwsync+addr.litmus")
    try:
        target = "/" + target.lstrip("/").replace(" ", "%20")
        status, _ = s.request(target, raw=body if method == "POST" else None, method=method or "POST")
        assert 200 <= status < 600
        assert s.request("/api/state")[0] == 200
    finally:
        rc, err = s.stop()
        assert rc == 0 and "Sanitizer" not in err and "runtime error" not in err, err
