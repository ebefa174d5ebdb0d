"""The litmus front-end through `weft -dump`.

- Every file of tests/malformed/ is refused with the located error that
  tests/malformed/EXPECT gives (FILE, LINE:COL, text), without a crash or a
  sanitizer report.
- Corpus tests parse, and what the parser understood agrees with herd7 where
  herd7's output shows it: the re-printed `Condition` line (quantifier and
  proposition, memory locations written `[x]`) and the `Hash=` line of tests
  that carry one.  A deterministic sample by default (every k-th test,
  WEFT_PARSE_SAMPLE per architecture, default 600); WEFT_FULL_CORPUS=1 runs
  all 11,269 files.
- The dump is deterministic and lists one `thread` per column of the table.
"""
import os
import pathlib
import re
import subprocess

import pytest

from conftest import SRCDIR, WEFT

MALFORMED = SRCDIR / "tests" / "malformed"
FULL = os.environ.get("WEFT_FULL_CORPUS") == "1"
SAMPLE = int(os.environ.get("WEFT_PARSE_SAMPLE", "600"))
ARCHS = ["PPC", "X86", "X86_64"]
BATCH = 200
SANITIZER_MARKS = ("AddressSanitizer", "runtime error:", "LeakSanitizer")


def run_dump(paths, timeout=600):
    return subprocess.run([str(WEFT), "-dump", *map(str, paths)], capture_output=True,
                          text=True, errors="replace", timeout=timeout)


def expectations():
    rows = []
    for line in (MALFORMED / "EXPECT").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, linecol, msg = line.split("\t")
        rows.append((name, linecol, msg))
    return rows


def test_every_malformed_file_has_an_expectation():
    listed = {name for name, _, _ in expectations()}
    present = {p.name for p in MALFORMED.glob("*.litmus")}
    assert present == listed
    assert len(present) >= 35


@pytest.mark.parametrize("name,linecol,msg", expectations(), ids=lambda v: str(v)[:40])
def test_malformed_is_refused_with_a_located_error(weft, name, linecol, msg):
    path = MALFORMED / name
    r = run_dump([path], timeout=60)
    assert r.returncode == 1, r.stderr
    assert r.stdout == ""
    assert not any(m in r.stderr for m in SANITIZER_MARKS), r.stderr
    where = f"{path}:{linecol}: error: "
    lines = [l for l in r.stderr.splitlines() if l.startswith(where)]
    assert lines, f"want {where}{msg}\ngot:\n{r.stderr[:2000]}"
    assert msg in lines[0]


def sample(files):
    if FULL or len(files) <= SAMPLE:
        return files
    step = len(files) / SAMPLE
    return [files[int(i * step)] for i in range(SAMPLE)]


def split_dumps(text):
    """One list of lines per test (each dump starts with its `arch` line)."""
    blocks = []
    for line in text.splitlines():
        if line.startswith("arch "):
            blocks.append([])
        if blocks:
            blocks[-1].append(line)
    return blocks


def herd_form(cond):
    """weft's printed condition in herd7's spelling: `not (...)` and `[x]`."""
    s = cond.replace("~(", "not (")
    s = re.sub(r"~([^\s()]+)", r"not (\1)", s)
    return re.sub(r"(^|[\s(])([A-Za-z_.$][\w./$-]*)(=|<>)", r"\1[\2]\3", s)


def header_threads(path):
    """Number of P<n> columns in the table header, read independently."""
    text = path.read_text(errors="replace")
    text = re.sub(r"\(\*.*?\*\)", " ", text, flags=re.S)
    body = text[text.index("}") + 1:]
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().rstrip(";").split("|")]
        if cells and all(re.fullmatch(r"P\d+", c) for c in cells):
            return len(cells)
    return None


@pytest.mark.parametrize("arch", ARCHS)
def test_corpus_dumps_agree_with_herd(weft, corpus, arch):
    files = sample(sorted((corpus / "tests" / arch).glob("*.litmus")))
    dumps = []
    for i in range(0, len(files), BATCH):
        chunk = files[i:i + BATCH]
        r = run_dump(chunk)
        assert r.returncode == 0, r.stderr[:3000]
        assert not any(m in r.stderr for m in SANITIZER_MARKS), r.stderr[:3000]
        blocks = split_dumps(r.stdout)
        assert len(blocks) == len(chunk)
        dumps.extend(zip(chunk, blocks))
    conditions = hashes = 0
    problems = []
    for path, block in dumps:
        fields = {}
        for line in block:
            key, _, rest = line.partition(" ")
            fields.setdefault(key, rest)
        first = path.read_text(errors="replace").split("\n", 1)[0].split()
        want_name = first[1][:-len(".litmus")] if first[1].endswith(".litmus") else first[1]
        if fields.get("arch") != arch or fields.get("name") != want_name:
            problems.append(f"{path.name}: header {fields.get('arch')} {fields.get('name')}")
        n_threads = sum(1 for l in block if l.startswith("thread P"))
        if n_threads != header_threads(path):
            problems.append(f"{path.name}: {n_threads} threads")
        expected = corpus / "expected" / ("power" if arch == "PPC" else "tso") / arch / (
            path.name + ".expected")
        if not expected.is_file():
            continue
        exp = expected.read_text()
        quant, _, cond = fields["condition"].partition(" ")
        herd_cond = re.search(r"^Condition (.*)$", exp, re.M).group(1)
        if f"{quant} ({herd_form(cond)})" != herd_cond:
            problems.append(f"{path.name}: condition {quant} {cond!r} vs herd {herd_cond!r}")
        conditions += 1
        if "hash" in fields:
            herd_hash = re.search(r"^Hash=(\S+)", exp, re.M).group(1)
            if fields["hash"] != herd_hash:
                problems.append(f"{path.name}: hash {fields['hash']} vs herd {herd_hash}")
            hashes += 1
    print(f"{arch}: {len(dumps)} dumps, {conditions} conditions and {hashes} hashes "
          f"compared with herd7")
    assert not problems, "\n".join(problems[:30])
    assert conditions > 0


def test_dump_is_deterministic(weft, corpus):
    files = sorted((corpus / "tests" / "PPC").glob("*.litmus"))[:50]
    a, b = run_dump(files), run_dump(files)
    assert a.returncode == 0 and a.stdout == b.stdout and a.stdout
