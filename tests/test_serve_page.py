"""weft -serve's page in headless chromium (Debian's chromium; skipped
without it): a scenario in the page's address clicks its own controls on
MP+lwsync+addr: commit the events that reach the forbidden state (the last
commit is refused: the page shows the check and its cycle, in words and in
magenta on the graph), undo, reach an allowed state.  The page copies what
it shows after each `snap` into #scenario; chromium's --dump-dom gives the
DOM, and its structure (texts, classes, nodes and edges of the graph, not
pixels) is compared with tests/serve/MP+lwsync+addr.page.json.  Set
WEFT_UPDATE_PAGE=1 to write that file again (then read the difference)."""
import html.parser
import json
import os
import shutil
import subprocess
import urllib.parse

import pytest

from conftest import SRCDIR
from serve_helper import server_of  # noqa: F401 (a fixture)

MP = SRCDIR / "litmus" / "PPC" / "MP+lwsync+addr.litmus"
EXPECTED = SRCDIR / "tests" / "serve" / "MP+lwsync+addr.page.json"
SCENARIO = ("reset; commit a i(x); commit c i(y); commit d c; snap; commit e i(x); snap; "
            "undo; snap; commit d i(y); commit e i(x); snap")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    pytest.skip("chromium is not installed (Debian: apt-get install chromium; scripts/install-deps "
                "--optional installs it)")


class Node:
    def __init__(self, tag, attrs):
        self.tag, self.attrs, self.kids, self.text = tag, dict(attrs), [], ""

    def all_text(self):
        return self.text + "".join(k.all_text() for k in self.kids)

    def find_all(self, pred):
        for k in self.kids:
            if pred(k):
                yield k
            yield from k.find_all(pred)

    def classes(self):
        return (self.attrs.get("class") or "").split()


class Tree(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.root = Node("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        n = Node(tag, attrs)
        self.stack[-1].kids.append(n)
        if tag not in VOID:
            self.stack.append(n)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        node = self.stack[-1]
        if node.kids:   # text after a child: kept in order as a text node
            node.kids.append(Node("#text", {}))
            node.kids[-1].text = data
        else:
            node.text += data


def squeeze(s):
    return " ".join(s.split())


def summary(dom):
    """What each snapshot shows, as plain data."""
    tree = Tree()
    tree.feed(dom)
    body = next(tree.root.find_all(lambda n: n.tag == "body"))
    shots = []
    for li in tree.root.find_all(lambda n: "snapshot" in n.classes()):
        part = {k.attrs.get("data-of"): k for k in li.kids}
        refusal = part["refusal"]
        shots.append({
            "after": li.attrs["data-after"],
            "test": part["test-name"].all_text(),
            "message": squeeze(part["message"].all_text()),
            "message_bad": "bad" in part["message"].classes(),
            "refusal": None if "hidden" in refusal.attrs else squeeze(refusal.all_text()),
            "choices": [(c.attrs["data-param"], c.attrs["class"])
                        for c in part["choices"].find_all(lambda n: n.tag == "li")],
            "status": squeeze(part["status"].all_text()),
            "title": part["graph-title"].all_text(),
            "nodes": [(n.attrs["data-name"], n.attrs["class"], squeeze(n.all_text()))
                      for n in part["graph"].find_all(lambda n: "node" in n.classes())],
            "edges": sorted((e.attrs["data-from"], e.attrs["data-to"], e.classes()[1], e.attrs["data-label"])
                            for e in part["graph"].find_all(lambda n: "edge" in n.classes())),
        })
    return body.attrs.get("data-scenario"), shots


def play(server, scenario, tmp_path):
    """Chromium's DOM of the page after the scenario, summarised."""
    url = server.url + "?scenario=" + urllib.parse.quote(scenario)
    r = subprocess.run([chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        f"--user-data-dir={tmp_path}", "--virtual-time-budget=60000", "--dump-dom", url],
                       capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]
    return summary(r.stdout)


def test_serve_page_in_chromium(server_of, tmp_path):
    chromium()
    s = server_of(MP)
    done, shots = play(s, SCENARIO, tmp_path)
    assert done == "done", (done, [x["message"] for x in shots])
    assert [x["after"] for x in shots] == ["commit d c", "commit e i(x)", "undo", "commit e i(x)"]
    before, refused, undone, allowed = shots
    # the forbidden choice is offered, with its verdict, before it is taken
    assert before["refusal"] is None and ("e", "node pending enabled", "e: R x") in before["nodes"]
    # refused: the check and its cycle, in words and as the witness edges
    assert refused["message_bad"] and "forbidden by observation" in refused["message"]
    assert "forbidden by observation" in refused["refusal"] and "-fre->" in refused["refusal"]
    witness = [(f, t) for f, t, look, _ in refused["edges"] if look == "look-witness"]
    assert sorted(witness) == [("a", "c"), ("c", "d"), ("d", "e"), ("e", "a")]
    assert all("on-cycle" in cls for name, cls, _ in refused["nodes"] if name in "acde")
    assert refused["choices"] == [("i(x)", "forbidden"), ("a", "allowed")]
    # undo takes 'commit d c' back: the refusal is gone
    assert undone["refusal"] is None and undone["message"] == "undone"
    assert not any(look == "look-witness" for _, _, look, _ in undone["edges"])
    # an allowed complete state
    assert allowed["status"] == "Complete: 1:r1=0; 1:r3=0;"
    assert "complete execution, allowed" in allowed["title"]
    got = {"scenario": SCENARIO, "snapshots": shots}
    if os.environ.get("WEFT_UPDATE_PAGE"):
        EXPECTED.write_text(json.dumps(got, indent=1) + "\n")
    assert json.loads(json.dumps(got)) == json.loads(EXPECTED.read_text())


def test_serve_page_picks_a_test(server_of, tmp_path):
    """A folder's tests are listed on the page; picking one opens it."""
    chromium()
    s = server_of(SRCDIR / "litmus" / "X86")
    done, shots = play(s, "snap; open SB.litmus; auto; snap", tmp_path)
    assert done == "done", [x["message"] for x in shots]
    first, picked = shots
    assert first["test"] != "SB" and picked["test"] == "SB"
    assert picked["status"].startswith("Complete: ") and "complete execution, allowed" in picked["title"]
    assert [n[0] for n in picked["nodes"] if not n[0].startswith("i(")] == ["a", "b", "c", "d"]
