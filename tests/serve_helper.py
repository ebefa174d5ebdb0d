"""A weft -serve process for the tests: started on a free port (-serve 0),
its address read from the line it prints, stopped with SIGTERM."""
import json
import re
import signal
import subprocess
import urllib.error
import urllib.request

import pytest

from conftest import WEFT


def built_with_microhttpd():
    """Whether the weft under test has -serve (its build's config.h says)."""
    config = WEFT.parent / "config.h"
    return config.is_file() and "#define HAVE_MICROHTTPD 1" in config.read_text()


class Server:
    def __init__(self, *args):
        if not built_with_microhttpd():
            pytest.skip("weft was built without libmicrohttpd: no -serve (test_serve's "
                        "test_serve_without_microhttpd checks what it says)")
        self.proc = subprocess.Popen([str(WEFT), "-serve", *map(str, args)], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        m = re.search(r" at (http://[0-9.]+:(\d+)/) ", line)
        if not m:
            self.proc.kill()
            raise AssertionError(f"weft -serve printed {line!r}, stderr {self.proc.stderr.read()!r}")
        self.url, self.port = m.group(1), int(m.group(2))

    def request(self, path, body=None, method=None, headers=None, raw=None):
        """(status, parsed JSON or text) of one request; body is sent as JSON."""
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        hdrs = {"Content-Type": "application/json"} if data is not None else {}
        hdrs.update(headers or {})
        req = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                status, text, ctype = r.status, r.read().decode(), r.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            status, text, ctype = e.code, e.read().decode(), e.headers.get("Content-Type", "")
        return status, (json.loads(text) if ctype.startswith("application/json") else text)

    def stop(self):
        """Stop it; its exit status and standard error."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise
        return self.proc.returncode, self.proc.stderr.read()


@pytest.fixture
def server_of():
    """server_of(*args): a weft -serve 0 on args (options first), stopped
    after the test."""
    started = []

    def start(*args):
        s = Server("0", *args)
        started.append(s)
        return s
    yield start
    for s in started:
        if s.proc.poll() is None:
            rc, err = s.stop()
            assert rc == 0, err
