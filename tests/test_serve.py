"""weft -serve: its JSON API driven over HTTP (urllib) on MP+lwsync+addr and
a folder of tests: the state, a refused commit with the failing check and its
cycle drawn as the witness, undo, an allowed complete state; malformed,
oversized, cross-site and too many requests refused with a reason; the
loopback default and the warning for another address; -serve's usage
errors, and what a weft built without libmicrohttpd says."""
import concurrent.futures
import subprocess
import time

import pytest

from conftest import SRCDIR
from serve_helper import Server, built_with_microhttpd, server_of  # noqa: F401 (a fixture)

MP = SRCDIR / "litmus" / "PPC" / "MP+lwsync+addr.litmus"


def commit(s, event, param):
    return s.request("/api/commit", {"event": event, "param": param})


def looks(graph, look):
    return [(e["from"], e["to"]) for e in graph["edges"] if e["look"] == look]


def test_serve_session_over_http(server_of):
    s = server_of(MP)
    assert s.url.startswith("http://127.0.0.1:")
    status, page = s.request("/")
    assert status == 200 and '<svg id="graph"' in page and "/page.js" in page
    status, st = s.request("/api/state")
    assert status == 200
    assert st["test"]["name"] == "MP+lwsync+addr" and st["test"]["model"] == "power"
    assert [e["name"] for e in st["events"] if e["enabled"]] == ["a", "c", "d"]
    for ev, param in (("a", "i(x)"), ("c", "i(y)"), ("d", "c")):
        status, r = commit(s, ev, param)
        assert status == 200 and r["ok"], r
    status, r = s.request("/api/choices", {"event": "e"})
    assert [(c["param"], c["allowed"], c["check"]) for c in r["choices"]] == \
        [("i(x)", False, "observation"), ("a", True, None)]
    status, r = commit(s, "e", "i(x)")
    assert status == 200 and not r["ok"]
    assert "forbidden by observation" in r["message"]
    g = r["graph"]
    assert g["check"] == "observation" and "-fre->" in g["cycle"] and not g["allowed"]
    # the cycle e -fre-> a -po,lwsync-> c -rfe-> d -po,addr-> e, on the graph
    assert sorted(looks(g, "witness")) == [("a", "c"), ("c", "d"), ("d", "e"), ("e", "a")]
    assert r["state"]["commits"] == ["a i(x)", "c i(y)", "d c"]
    status, r = s.request("/api/why", {"event": "e", "param": "a"})
    assert status == 200 and r["graph"]["allowed"] and not looks(r["graph"], "witness")
    status, r = s.request("/api/undo", {})
    assert r["ok"] and r["state"]["commits"] == ["a i(x)", "c i(y)"]
    for ev, param in (("d", "i(y)"), ("e", "i(x)")):
        status, r = commit(s, ev, param)
        assert r["ok"], r
    assert r["state"]["complete"] and r["state"]["final"] == "1:r1=0; 1:r3=0;"
    assert r["state"]["graph"]["allowed"]
    assert sorted(looks(r["state"]["graph"], "rf")) == [("i(x)", "e"), ("i(y)", "d")]
    status, r = s.request("/api/checks")
    assert status == 200 and "observation" in r["text"]
    status, r = s.request("/api/goto", {"state": "1:r1=1 /\\ 1:r3=1"})
    assert r["ok"] and r["state"]["final"] == "1:r1=1; 1:r3=1;", r
    status, r = s.request("/api/reset", {})
    assert r["ok"] and r["state"]["commits"] == []


@pytest.mark.parametrize("path,body,status,says", [
    ("/api/commit", b'{"event": "a"', 400, "not JSON"),
    ("/api/commit", b'"a"', 400, "must be a JSON object"),
    ("/api/commit", b'{"event": "a"}', 400, "'param' is missing"),
    ("/api/commit", b'{"event": ["a"], "param": "i(x)"}', 400, "must be a string"),
    ("/api/commit", b'{"event": "a", "param": "i(x)", "extra": "1"}', 400, "unknown field 'extra'"),
    ("/api/commit", b'{"event": "q", "param": "i(x)"}', 400, "q"),
    ("/api/commit", b'{"event": "a", "param": "' + b"x" * 100 + b'"}', 400, "longer than"),
    ("/api/open", b'{"test": "/etc/passwd"}', 404, "no test"),
    ("/api/goto", b'{"state": "1:r1="}', 400, "goto"),
    ("/api/nothing", b'{}', 404, "nothing at"),
])
def test_serve_refuses_malformed_requests(server_of, path, body, status, says):
    s = server_of(MP)
    got, r = s.request(path, raw=body, method="POST")
    assert got == status and says in r["error"], r
    # and the server goes on answering
    assert s.request("/api/state")[0] == 200


def test_serve_refuses_by_http_rules(server_of):
    s = server_of(MP)
    got, r = s.request("/api/undo", raw=b"{" + b" " * 20000 + b"}", method="POST")
    assert got == 413 and "larger than" in r["error"]
    got, r = s.request("/api/undo", raw=b"{}", method="POST", headers={"Content-Type": "text/plain"})
    assert got == 415 and "application/json" in r["error"]
    got, r = s.request("/api/state", headers={"Host": "attacker.example:80"})
    assert got == 403 and "Host" in r["error"]
    got, r = s.request("/api/undo", {}, headers={"Origin": "http://attacker.example"})
    assert got == 403 and "another site" in r["error"]
    got, r = s.request("/api/state", headers={"Host": f"localhost:{s.port}"})
    assert got == 200
    got, r = s.request("/api/state", method="DELETE")
    assert got == 405


def test_serve_bounds_the_rate(server_of):
    """A burst of 200 is answered, then 50 a second: 800 requests from 8
    threads at once (faster than 50 a second even on a loaded machine)
    meet a 429; a second later the server answers again."""
    s = server_of(MP)
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(lambda _: s.request("/api/tests")[0], range(800)))
    assert statuses.count(200) >= 200 and 429 in statuses, statuses
    assert set(statuses) == {200, 429}
    time.sleep(1.5)
    assert s.request("/api/tests")[0] == 200


def test_serve_goto_gives_up_in_time(server_of, tmp_path):
    """goto's search is bounded (-timeout, else 30 s): the server answers,
    and says the search was cut, rather than answer nobody for minutes
    (goto on SB+6W takes more than two minutes unbounded)."""
    subprocess.run([str(SRCDIR / "scripts" / "gen-sbnw"), "6", str(tmp_path)], check=True, capture_output=True)
    s = server_of("-timeout", "0.5", tmp_path / "SB+6W.litmus")
    t0 = time.monotonic()
    status, r = s.request("/api/goto", {"state": "0:r3=1 /\\ 1:r3=1"})
    assert status == 200 and r["message"].startswith("gave up after 0.5 s"), r
    assert time.monotonic() - t0 < 30
    assert r["state"]["commits"] == []


def test_serve_a_folder(server_of):
    s = server_of(SRCDIR / "litmus" / "X86")
    status, r = s.request("/api/tests")
    assert status == 200 and len(r["tests"]) > 3 and r["open"] == r["tests"][0]
    assert all(not t.startswith("/") and ".." not in t for t in r["tests"])
    other = next(t for t in r["tests"] if t.startswith("SB"))
    status, r = s.request("/api/open", {"test": other})
    assert status == 200 and r["state"]["test"]["file"] == other and r["state"]["test"]["arch"] == "X86"


def test_serve_warns_off_loopback():
    if not built_with_microhttpd():
        pytest.skip("weft was built without libmicrohttpd")
    s = Server("0.0.0.0:0", MP)
    # reached by another name: the user chose to be (on loopback, a 403)
    status, _ = s.request("/api/state", headers={"Host": f"machine.example:{s.port}"})
    rc, err = s.stop()
    assert status == 200
    assert rc == 0
    assert "warning: listening on 0.0.0.0, not on the loopback address" in err


@pytest.mark.parametrize("args,says,served", [
    (["-serve", MP, MP], "-serve explores one test", False),
    (["-serve", "-i", MP], "-serve explores one test", False),
    (["-serve", "99999", MP], "is not PORT or ADDR:PORT", True),
    (["-serve", "0", SRCDIR / "tests" / "unit"], "no .litmus file here to serve", True),
])
def test_serve_usage_errors(weft, args, says, served):
    if served and not built_with_microhttpd():
        pytest.skip("weft was built without libmicrohttpd: -serve stops before reading its arguments")
    r = weft(*args, timeout=30)
    assert r.returncode in (1, 2) and says in r.stderr, r.stderr


def test_serve_without_microhttpd(weft):
    if built_with_microhttpd():
        pytest.skip("weft was built with libmicrohttpd (this checks the message of a build without it)")
    r = weft("-serve", "0", MP, timeout=30)
    assert r.returncode == 2
    assert "built without libmicrohttpd" in r.stderr and "libmicrohttpd-dev" in r.stderr


def test_help_lists_serve(weft):
    r = weft("-help")
    assert "-serve [[ADDR:]PORT]" in r.stdout and "weft -serve [[ADDR:]PORT]" in r.stdout
