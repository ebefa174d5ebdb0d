"""weft against herd7 on the shared corpus: every result block must be
byte-identical to herd7's (the expected files leave out the Time line).

For each model folder of the corpus (power, tso, sc) and each architecture,
the tests that have an expected file are run with weft's own model of that
name from cat/ (`-model power|tso|sc`), many files per weft invocation, two
invocations at a time, once with the default engine (rsmc) and once with the
enumerator.  With rsmc, -stats also shows that each allowed execution is
explored exactly once (complete == herd's Positive + Negative) and counts
the blocked runs (none under power, at most 10% of a test's complete runs).  By default a deterministic sample is run (every k-th
test in name order, WEFT_CORPUS_SAMPLE per model and architecture, default
1000); WEFT_FULL_CORPUS=1 runs everything (`make check-corpus`: 13,550
blocks per set of models, about 25 s on two cores in an optimised build,
4.5 min under address and undefined-behaviour sanitizers).

The same comparison runs with herd7's own cat files from the corpus
(`-I corpus/herd-cat -model ppc.cat`, ...) on a smaller sample
(WEFT_CORPUS_HERD_SAMPLE, default 150; all with WEFT_FULL_CORPUS=1): they
are the compatibility fixtures that show weft reads herd's models unchanged.

A summary line per model and architecture says how many blocks agree, how
many Hash= lines agree, and, for each kind of difference, how many tests
and a few names.  Any difference fails the test of that model/architecture.
"""
import concurrent.futures
import math
import os
import pathlib
import subprocess

import pytest

from conftest import WEFT

MODEL_ARCHS = [
    ("power", "PPC"),
    ("sc", "PPC"),
    ("tso", "X86"),
    ("sc", "X86"),
    ("tso", "X86_64"),
    ("sc", "X86_64"),
]

FULL = os.environ.get("WEFT_FULL_CORPUS") == "1"
SAMPLE = int(os.environ.get("WEFT_CORPUS_SAMPLE", "1000"))
HERD_SAMPLE = int(os.environ.get("WEFT_CORPUS_HERD_SAMPLE", "150"))
BATCH = 40                 # files per weft invocation
WORKERS = 2
TEST_TIMEOUT = 120         # seconds per test, passed to weft -timeout
# Each comparison runs with weft's default engine (rsmc) and with the
# reference enumerator; WEFT_CORPUS_ENGINE=NAME runs that engine only.
ENGINES = ([os.environ["WEFT_CORPUS_ENGINE"]] if os.environ.get("WEFT_CORPUS_ENGINE")
           else ["default", "enumerate"])


def corpus_cases(corpus, model, arch, sample):
    """(litmus path, expected path) pairs, sampled unless FULL; and the
    number of pairs before sampling."""
    exp_dir = corpus / "expected" / model / arch
    if not exp_dir.is_dir():
        return [], 0
    cases = []
    for exp in sorted(exp_dir.glob("*.litmus.expected")):
        src = corpus / "tests" / arch / exp.name[: -len(".expected")]
        if src.is_file():
            cases.append((src, exp))
    available = len(cases)
    if not FULL and len(cases) > sample:
        step = len(cases) / sample
        cases = [cases[math.floor(i * step)] for i in range(sample)]
    return cases, available


def split_blocks(text, stats=None):
    """Map test name -> block (lines up to and including the blank line that
    follows Hash=), with any Time line removed.  A one-line block ("Test X
    Timeout 60", the runner's failure notice) ends at its blank line too.
    -stats lines are left out of the block and, if `stats` is a dict, kept
    there: name -> {"complete": N, "blocked": B, ...}."""
    blocks = {}
    cur = []
    for line in text.splitlines(keepends=True):
        if line.startswith("Time "):
            continue
        if line.startswith("Stats "):
            words = line.split()
            if stats is not None:
                stats[words[1]] = {words[i]: int(words[i + 1]) if words[i + 1].isdigit() else words[i + 1]
                                   for i in range(2, len(words) - 1, 2)}
            continue
        if line == "\n" and (not cur or len(cur) == 1 or cur[-1].startswith("Hash=")):
            if cur and cur[0].startswith("Test "):
                cur.append(line)
                blocks[cur[0].split()[1]] = "".join(cur)
            cur = []
            continue
        cur.append(line)
    return blocks


def run_batch(engine, model_args, files):
    engine_args = [] if engine == "default" else ["-engine", engine]
    cmd = [str(WEFT), "-q", "-j", "1", "-stats", *engine_args, *model_args,
           "-timeout", str(TEST_TIMEOUT), *map(str, files)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=TEST_TIMEOUT * len(files) + 60)
        return p.stdout, p.stderr, p.returncode
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return out, "batch timed out", -1


def first_difference(got, want):
    """Which part of the block differs first: a short class name."""
    g, w = got.splitlines(), want.splitlines()
    for i in range(max(len(g), len(w))):
        gl = g[i] if i < len(g) else "<end>"
        wl = w[i] if i < len(w) else "<end>"
        if gl != wl:
            key = wl.split(" ")[0].split(":")[0].split("=")[0]
            if key in ("Test", "States", "Witnesses", "Positive", "Condition",
                       "Observation", "Hash", "Flag"):
                return key
            if wl in ("Ok", "No", "Loop Ok", "Loop No"):
                return "Ok/No"
            return "state lines"
    return "same"


def expected_name(exp_text):
    return exp_text.split("\n", 1)[0].split()[1]


def executions(block):
    """herd's Positive + Negative of a result block (None if absent)."""
    for line in block.splitlines():
        if line.startswith("Positive: "):
            w = line.split()
            return int(w[1]) + int(w[3])
    return None


def compare(corpus, engine, model, arch, model_args, sample, label, capsys, proven=True, known=None):
    """Run the cases of model/arch with `model_args`; print the summary and
    fail on any difference.  For an engine that prints Stats (rsmc), also
    its complete executions against herd's Positive + Negative (each allowed
    execution explored exactly once) and its blocked runs: none under power
    (cbPOWER), at most 10% of the complete runs on any test otherwise.
    With `proven` (a model whose commit order weft proves, on tests rsmc
    models fully), rsmc must answer every test itself with few blocked runs;
    otherwise it may hand a test to the enumerator (blocked runs or not).
    `known` (file name -> reason) lists tests weft is known to answer
    otherwise than herd: they must still differ (one that agrees must leave
    the list), are left out of the agreement check and are printed with
    their reason, never skipped silently."""
    if not WEFT.exists():
        pytest.fail(f"weft binary not found at {WEFT} (build first, or set WEFT)")
    cases, available = corpus_cases(corpus, model, arch, sample)
    if not cases:
        pytest.skip(f"no expected results for {model}/{arch}")
    batches = [cases[i:i + BATCH] for i in range(0, len(cases), BATCH)]
    results = {}
    stats = {}
    errors = {}
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        futs = {pool.submit(run_batch, engine, model_args, [s for s, _ in b]): b for b in batches}
        for fut in concurrent.futures.as_completed(futs):
            out, err, _ = fut.result()
            results.update(split_blocks(out, stats))
            for src, _ in futs[fut]:
                errors[src] = err
    agree = 0
    known_seen = []
    hash_agree = 0
    classes = {}
    n_stats = blocked = 0
    for src, exp in cases:
        want = exp.read_text()
        name = expected_name(want)
        got = results.get(name)
        if got is None:
            # weft's messages about this file, if any (file:line:col: ...)
            mine = [l.replace(str(src.parent) + "/", "")
                    for l in (errors.get(src) or "").splitlines() if src.name in l]
            why = f" ({mine[0][:100]})" if mine else ""
            if known and src.name in known:
                known_seen.append(f"{src.name} (no block{why}: {known[src.name]})")
                continue
            classes.setdefault("no block", []).append(f"{src.name}{why}")
            continue
        want_hash = [l for l in want.splitlines() if l.startswith("Hash=")]
        got_hash = [l for l in got.splitlines() if l.startswith("Hash=")]
        if want_hash == got_hash:
            hash_agree += 1
        if known and src.name in known:
            if got == want:
                classes.setdefault("listed as known mismatch but agrees", []).append(src.name)
            else:
                known_seen.append(f"{src.name} ({first_difference(got, want)}: {known[src.name]})")
            continue
        if got == want:
            agree += 1
        else:
            classes.setdefault(first_difference(got, want), []).append(src.name)
        st = stats.get(name)
        if st is not None:
            n_stats += 1
            blocked += st["blocked"]
            herd = executions(want)
            if herd is not None and st["complete"] != herd:
                classes.setdefault("complete != herd's Positive+Negative", []).append(
                    f"{src.name} ({st['complete']} vs {herd})")
            # weft's and herd's models are proven (cb.c): rsmc answers
            # every test itself, in the order proved for the model
            if engine == "default" and proven and (st.get("fallback") or "(proven)" not in str(st.get("order"))):
                classes.setdefault("default engine not rsmc in a proven order", []).append(
                    f"{src.name} (order {st.get('order')}, fallback {st.get('fallback')})")
            if model == "power" and st["blocked"] > 0:
                classes.setdefault("blocked runs under power", []).append(
                    f"{src.name} ({st['blocked']})")
            elif proven and st["blocked"] * 10 > st["complete"]:
                classes.setdefault("blocked runs > 10% of complete", []).append(
                    f"{src.name} ({st['blocked']}/{st['complete']})")
    total = len(cases)
    compared = total - len(known_seen)
    parts = [f"corpus {label} [{engine}]: {agree}/{compared} blocks agree"
             + (f" ({len(known_seen)} known mismatches)" if known_seen else "") + ", "
             f"{hash_agree}/{total} hashes agree"
             + (f", {blocked} blocked runs over {n_stats} tests" if n_stats else "")
             + ("" if total == available else
                f" (sample of {total} of {available}; WEFT_FULL_CORPUS=1 for all)")]
    for cls, names in sorted(classes.items()):
        parts.append(f"  {cls}: {len(names)} e.g. {', '.join(names[:5])}")
    if known_seen:
        parts.append(f"  known mismatches, not counted above: {len(known_seen)}")
        parts.extend(f"    {k}" for k in known_seen)
    summary = "\n".join(parts)
    with capsys.disabled():
        print("\n" + summary)
    assert agree == compared and not classes, summary
    if engine == "default":
        assert n_stats == compared, f"the default engine printed {n_stats} Stats lines for {compared} tests"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("model,arch", MODEL_ARCHS, ids=[f"{m}-{a}" for m, a in MODEL_ARCHS])
def test_corpus_agrees_with_herd(corpus, engine, model, arch, capsys):
    """weft's own models (cat/)."""
    compare(corpus, engine, model, arch, ["-model", model], SAMPLE, f"{model}/{arch}", capsys)


# herd7's own files for the same models, read unchanged from the corpus
HERD_CAT = {
    ("power", "PPC"): "ppc.cat",
    ("sc", "PPC"): "sc.cat",
    ("tso", "X86"): "x86tso.cat",
    ("sc", "X86"): "sc.cat",
    ("tso", "X86_64"): "x86tso-mixed.cat",
    ("sc", "X86_64"): "sc.cat",
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("model,arch", MODEL_ARCHS, ids=[f"herdcat-{m}-{a}" for m, a in MODEL_ARCHS])
def test_corpus_with_herd_models(corpus, engine, model, arch, capsys):
    """herd7's cat files (compatibility fixtures), a smaller sample."""
    cat = HERD_CAT[(model, arch)]
    compare(corpus, engine, model, arch, ["-I", str(corpus / "herd-cat"), "-model", cat],
            HERD_SAMPLE, f"{model}/{arch} with herd's {cat}", capsys)
