"""weft -i and herd's reservations: a store-conditional with no
load-reserve of its address since its thread's last store-conditional
(none before it, one of another address, or an earlier store-conditional
that ended it) can only fail, in the session as in the enumerator.  On
our own tests of those three shapes for PPC and RISC-V (tests/stcond/):
the session marks it, refuses to commit it as a success and says why;
walking every commit the session offers reaches exactly the enumerator's
final states; goto reaches each of them with commits that replay, and a
state only a free store-conditional would give is unreachable."""
import re

import pytest

from conftest import SRCDIR, run_weft
from test_interactive import goto_answer, session, shows

STCOND = sorted((SRCDIR / "tests" / "stcond").glob("*.litmus"))
MARK = " (no reservation: it can only fail)"


def enumerator_states(path):
    """The final states the enumerator gives under sc, as the session
    writes them (a location without herd's brackets)."""
    r = run_weft("-model", "sc", "-engine", "enumerate", path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    return {re.sub(r"\[(\w+)\]", r"\1", s) for s in lines[2:2 + int(lines[1].split()[1])]}


def enabled_choices(show):
    """(event, param) of every allowed choice of a show paragraph."""
    out, event = [], None
    for line in show.splitlines()[show.splitlines().index("Enabled:") + 1:]:
        m = re.match(r"^  (\S+): ", line)
        if m:
            event = m.group(1)
        elif line.startswith("    ") and line.endswith(": allowed"):
            out.append((event, line[:-len(": allowed")].split()[-1]))
    return out


@pytest.mark.parametrize("path", STCOND, ids=lambda p: p.stem)
def test_an_unreserved_store_conditional_is_refused_as_a_success(weft, path):
    first = shows(session(str(path), ["show"], "sc").stdout)[0]
    marked = [line for line in first.splitlines() if line.endswith(MARK)]
    assert marked, first
    event, loc = re.match(r"^  (\S+): W\* (\S+)=", marked[0]).groups()
    choices = [p for e, p in enabled_choices(first) if e == event]
    assert choices == ["fail"], first
    out = session(str(path), [f"commit {event} i({loc})", f"why {event} i({loc})"], "sc").stdout
    assert f"refused: {event}: W* {loc}=" in out, out
    assert f"has no reservation for {loc}" in out and "its one choice: fail" in out, out
    assert f"committed {event}" not in out, out


@pytest.mark.parametrize("path", STCOND, ids=lambda p: p.stem)
def test_every_commit_reaches_exactly_the_enumerators_states(weft, path):
    want = enumerator_states(path)
    assert want
    reached, seen, todo = set(), set(), [[]]
    while todo:
        commits = todo.pop()
        show = shows(session(str(path), [f"commit {c}" for c in commits] + ["show"], "sc").stdout)[-1]
        key = re.sub(r"^Commits: .*$", "", show, flags=re.M)
        if key in seen:
            continue
        seen.add(key)
        assert len(seen) < 400, "the walk does not end"
        done = re.search(r"^Complete: (.*)$", show, re.M)
        if done:
            reached.add(done.group(1))
            continue
        todo.extend(commits + [f"{e} {p}"] for e, p in enabled_choices(show))
    assert reached == want, (reached, want)


@pytest.mark.parametrize("path", STCOND, ids=lambda p: p.stem)
def test_goto_reaches_the_enumerators_states_and_not_a_free_ones(weft, path):
    for st in enumerator_states(path):
        want = " /\\ ".join(a.strip() for a in st.split(";") if a.strip())
        out = session(str(path), ["goto " + want], "sc").stdout
        assert goto_answer(out) == "reached", out
        commits = [c.strip()[len("commit "):] for c in re.search(r"Commits: (.*)", out).group(1).split(";")]
        replay = session(str(path), ["commit " + c for c in commits] + ["show"], "sc").stdout
        assert "refused" not in replay and "not a choice" not in replay, replay
        assert shows(replay)[-1].endswith("Complete: " + st), (st, replay)
    # each test's condition is a state only a store-conditional succeeding
    # without a reservation would give
    out = session(str(path), ["goto", "auto"], "sc").stdout
    assert goto_answer(out) == "unreachable", out
    done = re.search(r"^  State: (.*)$", out.split("unreachable:")[1], re.M)
    assert done and done.group(1) in enumerator_states(path), out


def test_a_cas_says_its_variants_are_not_supported(weft):
    """herd explores an AArch64 CAS in five variants; the session does not
    offer them (it lacks herd's pick dependencies that tell two of them
    apart) and says so where the thread stops, once the read is committed."""
    path = SRCDIR / "tests" / "aarch64" / "CAS-ok-fail.litmus"
    out = session(str(path), ["commit a i(x)", "show"], "sc").stdout
    assert "P0 stops: an instruction with variants herd explores each (CAS) is not supported here" in shows(out)[-1], out
