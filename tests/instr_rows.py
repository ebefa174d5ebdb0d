"""Table-driven instruction tests (issue 14): each row is one small
single-thread test, a few instructions whose final registers or memory are
worked out by hand from herd7's semantics (the row's `why` says how), run
through weft; the block must say Ok with exactly the expected state, and
`-dump` must show every instruction of the row translated.

Used by test_instr_ppc.py and test_instr_x86.py."""
import re
from dataclasses import dataclass, field

from conftest import result_blocks, run_weft


@dataclass
class Row:
    name: str             # test name suffix: letters, digits, '-', '.'
    code: list            # instructions of P0, one a line
    expect: dict          # "0:r1" / "x" -> expected value as herd prints it
    why: str              # the derivation
    init: str = ""        # init block contents
    arch: str = "PPC"
    threads: list = field(default_factory=list)   # extra threads (lists of lines)
    more: list = field(default_factory=list)      # further expected final states
    loop: bool = False    # a path is cut by the unroll limit (a retry loop)


def litmus_text(row):
    cols = [row.code] + row.threads
    n = max(len(c) for c in cols)
    width = [max(len(l) for l in c) if c else 1 for c in cols]
    lines = [" " + " | ".join(f"P{i}".ljust(width[i]) for i in range(len(cols))) + " ;"]
    for k in range(n):
        cells = [(c[k] if k < len(c) else "").ljust(width[i]) for i, c in enumerate(cols)]
        lines.append(" " + " | ".join(cells) + " ;")
    conj = " \\/ ".join("(" + " /\\ ".join(f"{loc}={val}" for loc, val in st.items()) + ")"
                         for st in [row.expect] + row.more)
    return (f"{row.arch} I-{row.name}\n{{ {row.init} }}\n" + "\n".join(lines) +
            f"\nforall ({conj})\n")


def state_of(loc, val):
    if ":" in loc:
        return f"{loc}={val};"
    return f"[{loc}]={val};"


def check_rows(rows, tmp_path, extra_args=()):
    """Run every row in one weft process; return a list of problems."""
    names = [r.name for r in rows]
    assert len(set(names)) == len(names), "duplicate row names"
    paths = []
    for r in rows:
        p = tmp_path / f"I-{r.name}.litmus"
        p.write_text(litmus_text(r))
        paths.append(p)
    res = run_weft("-q", "-j", "1", *extra_args, *paths)
    blocks = result_blocks(res.stdout)
    problems = []
    if res.returncode != 0:
        problems.append(f"weft exit {res.returncode}: {res.stderr[:3000]}")
    for r in rows:
        b = blocks.get(f"I-{r.name}")
        if b is None:
            problems.append(f"{r.name}: no block ({r.why})")
            continue
        text = b[0]
        lines = text.splitlines()
        n = 1 + len(r.more)
        got = sorted(sorted(l.split()) for l in lines[2:2 + n])
        want = sorted(sorted(state_of(l, v) for l, v in st.items()) for st in [r.expect] + r.more)
        verdict = "Loop Ok" if r.loop else "Ok"
        if len(lines) < 3 + n or lines[1] != f"States {n}" or lines[2 + n] != verdict or got != want:
            problems.append(f"{r.name}: want {want}, {verdict} ({r.why}); got:\n{text}")
    # -dump covers each instruction: every instr line of the row is there,
    # and each that does something has ops
    dump = run_weft("-dump", *paths)
    if dump.returncode != 0:
        problems.append(f"-dump exit {dump.returncode}: {dump.stderr[:2000]}")
    for r, chunk in zip(rows, re.split(r"^arch ", dump.stdout, flags=re.M)[1:]):
        for ins in r.code:
            if not ins.strip() or ins.strip().endswith(":"):
                continue
            text = re.sub(r"^\w+:\s*", "", ins.strip())
            m = re.search(r'^  instr (\d+) "' + re.escape(text) + r'"\n((?:    op .*\n)*)', chunk, re.M)
            if not m:
                problems.append(f"{r.name}: -dump lacks instr '{text}'")
            elif not m.group(2) and text.split()[0].lower() not in NO_OPS:
                problems.append(f"{r.name}: -dump shows no op for '{text}'")
    return problems


# instructions that do nothing at all (no op), as in herd
NO_OPS = {"nop", "dcbf", "endbr64", "nopl", "nopw", "nopq"}
