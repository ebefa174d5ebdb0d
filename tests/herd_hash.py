"""herd7's test hash, written out independently of weft's C code from the
description in src/report/test_hash.c (herd's lib/testHash.ml):

    Hash = hex(MD5(D(init) ++ D(code) ++ D(observed)))

where D(s) is the raw MD5 of s; `init` is the init block's entries as
written, sorted (registers by thread then name, then memory locations),
"type loc=value" when declared ("int64_t 0:r1=0" for a bare declaration),
joined by "; "; `code` is the program as a table of herd's own spelling of
each instruction, each line " %-Ws " cells joined by "|" then ";\\n" (W the
widest line of the column); `observed` the locations of the condition and
of `locations [...]`, registers first, joined by "; ".

The herd spellings given to it by the tests are written by hand from
herd's printer (PPCBase.ml's pp_instruction and the quirks its regression
tests show, e.g. "rlwinm r1,r2,4, 24,27" and "extsw r1, r2")."""
import hashlib


def _raw(s):
    return hashlib.md5(s.encode()).digest()


def herd_hash(init, columns, observed):
    rows = max(len(c) for c in columns)
    widths = [max((len(l) for l in c), default=0) for c in columns]
    code = ""
    for i in range(rows):
        cells = [" %-*s " % (w, c[i] if i < len(c) else "") for c, w in zip(columns, widths)]
        code += "|".join(cells) + ";\n"
    return hashlib.md5(_raw("; ".join(init)) + _raw(code) + _raw("; ".join(observed))).hexdigest()
