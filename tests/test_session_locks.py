"""C spinlocks under the kernel's model: the order in which the threads take
a lock is a choice of the user's in `weft -i` (each spin_lock's lock write,
herd's LKW, is committed after the lock write that took the lock before
it), goto reaches every state through it, the graphs draw it, and the
`with co from` set over W | LKW is built for each execution's own co
without changing a block (tests/c-locks, with herd7's blocks).  Needs the
kernel's model files of the corpus (../shared); skipped without them."""
import itertools
import re

import pytest

from conftest import CORPUS, SRCDIR, assert_blocks_are_stored, run_weft, stored_block

LOCKS = SRCDIR / "tests" / "c-locks"
HERD_CAT = CORPUS / "herd-cat" / "7.58"


def kernel_args():
    if not (HERD_CAT / "lkmm" / "linux-kernel.cfg").is_file():
        pytest.skip(f"the kernel's model files are not in {HERD_CAT} (../shared absent)")
    return ["-I", str(HERD_CAT), "-I", str(HERD_CAT / "lkmm"), "-conf", str(HERD_CAT / "lkmm" / "linux-kernel.cfg")]


def session(name, commands):
    r = run_weft("-i", *kernel_args(), LOCKS / f"{name}.litmus",
                 input="".join(c + "\n" for c in commands) + "quit\n", timeout=300)
    assert r.returncode == 0, r.stderr
    assert "internal error" not in r.stdout and "error:" not in r.stderr, (r.stdout, r.stderr)
    return r.stdout


def lock_writes(out):
    """Per thread, the name of its spin_lock's lock write, as `show` lists
    the enabled events."""
    return {int(m.group(2)): m.group(1) for m in re.finditer(r"^  (\w+): F lkw s \(P(\d)\)$", out, re.M)}


def herd_states(name):
    lines = stored_block(LOCKS, name).splitlines()
    return set(lines[2:2 + int(lines[1].split()[1])])


def test_blocks_are_herds(weft):
    """The lock tests print herd7's blocks (the spinlock increments build
    their `with co from` set per execution: more orders than weft keeps)."""
    assert_blocks_are_stored(weft, LOCKS, *kernel_args(), at_least=3)


def test_the_program_is_shown_once_per_statement():
    out = session("C-lock-order-3", ["show"])
    assert "  P0: spin_lock(s); r0 = READ_ONCE(*x); WRITE_ONCE(*x, 1); spin_unlock(s);\n" in out, out


def test_the_lock_order_is_chosen_and_each_order_reaches_its_state():
    """Each of the six orders in which three threads take the lock,
    committed by hand, completes (auto) in the state it implies: each
    thread reads what the one before it in the lock order wrote; the six
    states are herd's."""
    first = session("C-lock-order-3", ["show"])
    lw = lock_writes(first)
    assert sorted(lw) == [0, 1, 2], first
    # before any lock is taken, every thread may take it first; the lock
    # reads and unlocks join the execution with their lock write
    for t in range(3):
        assert f"  {lw[t]}: F lkw s (P{t})\n    locks after i(s): allowed\n" in first, first
    assert "F lkr" not in first.split("Enabled:")[0] and "F ul" not in first.split("Enabled:")[0], first
    reached = set()
    for order in itertools.permutations(range(3)):
        prev, cmds = "i(s)", []
        for t in order:
            cmds.append(f"commit {lw[t]} {prev}")
            prev = lw[t]
        out = session("C-lock-order-3", cmds + ["auto", "show"])
        assert out.count("committed ") == 3 and "refused" not in out, out
        m = re.search(r"^Complete: (.*)$", out, re.M)
        assert m, out
        state = m.group(1)
        reads = {t: 0 for t in range(3)}
        for before, t in zip(order, order[1:]):
            reads[t] = before + 1
        want = " ".join(f"{t}:r0={reads[t]};" for t in range(3))
        assert state == want, (order, out)
        reached.add(state)
    assert reached == herd_states("C-lock-order-3")


def test_goto_reaches_each_state_with_its_lock_order():
    """goto of each of herd's states: reached, its commits choosing the lock
    order, and the commits replay to the same state; the test's condition
    (every thread reads 0) is forbidden, explained by happens-before on a
    candidate with its lock order."""
    for state in sorted(herd_states("C-lock-order-3")):
        cond = " /\\ ".join(state.rstrip(";").split("; "))
        out = session("C-lock-order-3", [f"goto {cond}"])
        assert "reached: an allowed execution ends in that state" in out, (state, out)
        commits = re.search(r"^  Commits: (.*)$", out, re.M).group(1).split("; ")
        assert sum(c.split()[1] in lock_writes(session("C-lock-order-3", ["show"])).values() for c in commits) == 3
        replay = session("C-lock-order-3", commits + ["show"])
        assert "refused" not in replay, replay
        assert re.search(r"^Complete: (.*)$", replay, re.M).group(1) == state
    out = session("C-lock-order-3", ["goto"])
    assert out.startswith("weft -i") and "forbidden: no allowed execution reaches that state" in out, out
    assert "forbidden by happens-before" in out and "  lock order: i(s) -> " in out, out


def test_graphs_and_explanations_name_the_lock_order(tmp_path, weft):
    dot = tmp_path / "s.dot"
    session("C-lock-order-3", ["commit b i(s)", "commit g b", f"dot {dot}"])
    text = dot.read_text()
    assert '"i(s)" -> "b" [label="lock"' in text and '"b" -> "g" [label="lock"' in text, text
    r = weft("-explain", *kernel_args(), LOCKS / "C-lock-order-3.litmus")
    assert r.returncode == 0, r.stderr
    cycle = next(l for l in r.stdout.splitlines() if l.startswith("  Cycle:"))
    assert "-?" not in cycle and "F ul (P" in cycle, cycle

