"""-stats: one line of weft's own after each herd block, in the issue's format."""
import re


def test_stats_line_follows_each_block(weft, srcdir):
    r = weft("-stats", "-j", "1", srcdir / "litmus" / "PPC")
    assert r.returncode == 0, r.stderr
    blocks = [b for b in r.stdout.split("\n\n") if b.strip()]
    assert len(blocks) >= 30
    for b in blocks:
        lines = b.splitlines()
        name = lines[0].split()[1]
        assert lines[-2].startswith("Hash="), b
        m = re.fullmatch(r"Stats (\S+) complete (\d+) blocked (\d+) commits (\d+)"
                         r" candidates (\d+) forbidden (\d+) order (power|tso|sc)\(proven\)", lines[-1])
        assert m and m.group(1) == name, b
        # every candidate judged is complete, forbidden, or dropped by the filter or unroll limit
        assert int(m.group(5)) >= int(m.group(2)) + int(m.group(6)), b
        pos, neg = map(int, re.search(r"^Positive: (\d+) Negative: (\d+)$", b, re.M).groups())
        # every allowed execution counted once: complete = Positive + Negative
        assert int(m.group(2)) == pos + neg, b


def test_no_stats_line_by_default(weft, srcdir):
    r = weft(srcdir / "litmus" / "PPC" / "SB.litmus")
    assert r.returncode == 0 and "Stats" not in r.stdout
