"""Every PPC mnemonic and form weft accepts (issue 14 item 1), one small
test each, with the final state worked out by hand from herd7's PPC
semantics (herd/PPCSem.ml) and, for what herd does not implement, the Power
ISA; see instr_rows.py for how a row runs.

Conventions the derivations use:
- registers and memory hold 64-bit values; a final value is shown in its
  declared type, herd's default being `int` (32-bit signed): an undeclared
  register holding 0x1_0000_0005 shows 5;
- cr0 is read with `mfcr rD` as herd's bits: LT 8, GT 4, EQ 2, none 0;
- ROTL32(x, n) is herd's rot32: the low word of x in both halves, rotated
  left by n as 64 bits; masks number bits 0 (most significant) to 63, the
  word forms adding 32 to MB and ME, and wrap around when MB > ME."""
import re

import pytest

from instr_rows import Row, check_rows

M64 = (1 << 64) - 1


def s64(v):
    """v as a signed 64-bit number."""
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def s32(v):
    """v's low word as herd shows an `int`."""
    v &= 0xffffffff
    return v - (1 << 32) if v >> 31 else v


def rotl32(x, n):
    w = x & 0xffffffff
    d = (w << 32) | w
    n %= 64
    return ((d << n) | (d >> (64 - n))) & M64 if n else d


def rotl64(x, n):
    x &= M64
    n %= 64
    return ((x << n) | (x >> (64 - n))) & M64 if n else x


def mask(k1, k2):
    if k1 <= k2:
        return sum(1 << (63 - k) for k in range(k1, k2 + 1))
    return M64 & ~sum(1 << (63 - k) for k in range(k2 + 1, k1))


R = Row

ALU = [
    R("nop", ["nop", "li r1,1"], {"0:r1": 1}, "nop does nothing; li sets r1"),
    R("li", ["li r1,-5"], {"0:r1": -5}, "li loads the immediate"),
    R("li-hex", ["li r1,0x10"], {"0:r1": 16}, "hexadecimal immediate"),
    R("lis", ["lis r1,2"], {"0:r1": 2 << 16}, "lis shifts the immediate left by 16"),
    R("mr", ["mr r2,r1"], {"0:r2": 7}, "mr copies", init="0:r1=7"),
    R("mr.", ["mr. r2,r1", "mfcr r3"], {"0:r2": -7, "0:r3": 8}, "mr. copies and compares with 0: LT",
      init="0:r1=-7"),
    R("not", ["not r2,r1"], {"0:r2": ~5}, "not is nor rS,rS", init="0:r1=5"),
    R("addi", ["addi r2,r1,-3"], {"0:r2": 7}, "10 - 3", init="0:r1=10"),
    R("addi-r0", ["addi r2,r0,5"], {"0:r2": 5}, "rA = r0 reads as 0 (ISA; herd's Paddi)", init="0:r0=9"),
    R("addis", ["addis r2,r1,1"], {"0:r2": 65537}, "1 + (1 << 16)", init="0:r1=1"),
    R("addis-r0", ["addis r2,r0,1"], {"0:r2": 65536}, "rA = r0 reads as 0", init="0:r0=9"),
    R("subi", ["subi r2,r1,3"], {"0:r2": 7}, "10 - 3", init="0:r1=10"),
    R("subis", ["subis r2,r1,1"], {"0:r2": 4}, "65540 - 65536", init="0:r1=65540"),
    R("ori", ["ori r2,r1,0xf0"], {"0:r2": 255}, "0x0f | 0xf0", init="0:r1=0x0f"),
    R("oris", ["oris r2,r1,1"], {"0:r2": 65537}, "1 | 0x10000", init="0:r1=1"),
    R("xori", ["xori r2,r1,3"], {"0:r2": 6}, "5 ^ 3", init="0:r1=5"),
    R("xoris", ["xoris r2,r1,1"], {"0:r2": 0}, "0x10000 ^ 0x10000", init="0:r1=65536"),
    R("andi.", ["andi. r2,r1,6", "mfcr r3"], {"0:r2": 4, "0:r3": 4}, "5 & 6 = 4 > 0: cr0 GT",
      init="0:r1=5"),
    R("andi.-zero", ["andi. r2,r1,2", "mfcr r3"], {"0:r2": 0, "0:r3": 2}, "5 & 2 = 0: cr0 EQ",
      init="0:r1=5"),
    R("andis.", ["andis. r2,r1,1"], {"0:r2": 65536}, "0x30000 & 0x10000", init="0:r1=0x30000"),
    R("mulli", ["mulli r2,r1,-3"], {"0:r2": -12}, "4 * -3", init="0:r1=4"),
    R("add", ["add r3,r1,r2"], {"0:r3": 7}, "3 + 4", init="0:r1=3; 0:r2=4"),
    R("add.", ["add. r3,r1,r2", "mfcr r4"], {"0:r3": -1, "0:r4": 8}, "3 + -4 = -1 < 0: LT",
      init="0:r1=3; 0:r2=-4"),
    R("sub", ["sub r3,r1,r2"], {"0:r3": 6}, "rA - rB (herd's Psub)", init="0:r1=10; 0:r2=4"),
    R("sub.", ["sub. r3,r1,r2", "mfcr r4"], {"0:r3": 0, "0:r4": 2}, "4 - 4 = 0: EQ",
      init="0:r1=4; 0:r2=4"),
    R("subf", ["subf r3,r1,r2"], {"0:r3": -6}, "subtract from: rB - rA", init="0:r1=10; 0:r2=4"),
    R("subf.", ["subf. r3,r1,r2", "mfcr r4"], {"0:r3": 6, "0:r4": 4}, "10 - 4 > 0: GT",
      init="0:r1=4; 0:r2=10"),
    R("xor", ["xor r3,r1,r2"], {"0:r3": 5}, "6 ^ 3", init="0:r1=6; 0:r2=3"),
    R("xor.", ["xor. r3,r1,r1", "mfcr r4"], {"0:r3": 0, "0:r4": 2}, "x ^ x = 0: EQ", init="0:r1=6"),
    R("or", ["or r3,r1,r2"], {"0:r3": 7}, "6 | 3", init="0:r1=6; 0:r2=3"),
    R("or.", ["or. r3,r1,r2", "mfcr r4"], {"0:r3": 7, "0:r4": 4}, "7 > 0: GT", init="0:r1=6; 0:r2=3"),
    R("and", ["and r3,r1,r2"], {"0:r3": 2}, "6 & 3", init="0:r1=6; 0:r2=3"),
    R("and.", ["and. r3,r1,r2", "mfcr r4"], {"0:r3": 2, "0:r4": 4}, "2 > 0: GT", init="0:r1=6; 0:r2=3"),
    R("nor", ["nor r3,r1,r2"], {"0:r3": ~(6 | 3)}, "~(6 | 3)", init="0:r1=6; 0:r2=3"),
    R("nor.", ["nor. r3,r1,r2", "mfcr r4"], {"0:r3": -8, "0:r4": 8}, "~7 = -8 < 0: LT",
      init="0:r1=6; 0:r2=3"),
    R("nand", ["nand r3,r1,r2"], {"0:r3": ~(6 & 3)}, "~(6 & 3)", init="0:r1=6; 0:r2=3"),
    R("eqv", ["eqv r3,r1,r2"], {"0:r3": ~(6 ^ 3)}, "~(6 ^ 3)", init="0:r1=6; 0:r2=3"),
    R("andc", ["andc r3,r1,r2"], {"0:r3": 6 & ~3}, "6 & ~3", init="0:r1=6; 0:r2=3"),
    R("orc", ["orc r3,r1,r2"], {"0:r3": s64(6 | (~3 & M64))}, "6 | ~3", init="0:r1=6; 0:r2=3"),
    R("mullw", ["mullw r3,r1,r2"], {"0:r3": -18}, "6 * -3", init="0:r1=6; 0:r2=-3"),
    R("mullw.", ["mullw. r3,r1,r2", "mfcr r4"], {"0:r3": -18, "0:r4": 8}, "-18 < 0: LT",
      init="0:r1=6; 0:r2=-3"),
    R("mulld", ["mulld r3,r1,r2"], {"0:r3": 1 << 33}, "2^32 * 2, kept in 64 bits",
      init="int64_t 0:r1=4294967296; 0:r2=2; int64_t 0:r3"),
    R("divw", ["divw r3,r1,r2"], {"0:r3": 3}, "7 / 2, truncated", init="0:r1=7; 0:r2=2"),
    R("divw-neg", ["divw r3,r1,r2"], {"0:r3": -3}, "-7 / 2 rounds toward 0", init="0:r1=-7; 0:r2=2"),
    R("divw.", ["divw. r3,r1,r2", "mfcr r4"], {"0:r3": 0, "0:r4": 2}, "1 / 2 = 0: EQ",
      init="0:r1=1; 0:r2=2"),
    R("divd", ["divd r3,r1,r2"], {"0:r3": 14}, "100 / 7", init="0:r1=100; 0:r2=7"),
    R("neg", ["neg r2,r1"], {"0:r2": -5}, "0 - 5", init="0:r1=5"),
    R("neg.", ["neg. r2,r1", "mfcr r3"], {"0:r2": 5, "0:r3": 4}, "-(-5) > 0: GT", init="0:r1=-5"),
    R("extsb", ["extsb r2,r1"], {"0:r2": -1}, "byte 0xff sign-extended", init="0:r1=0xff"),
    R("extsb.", ["extsb. r2,r1", "mfcr r3"], {"0:r2": 0x7f, "0:r3": 4}, "0x17f: byte 0x7f, GT",
      init="0:r1=0x17f"),
    R("extsh", ["extsh r2,r1"], {"0:r2": -32768}, "halfword 0x8000 sign-extended", init="0:r1=0x8000"),
    R("extsw", ["extsw r2,r1"], {"0:r2": -(1 << 31)}, "word 0x80000000 sign-extended (herd's Sxt Word)",
      init="int64_t 0:r1=0x80000000; int64_t 0:r2"),
    R("extsw.", ["extsw. r2,r1", "mfcr r3"], {"0:r2": 5, "0:r3": 4}, "0x1_00000005: word 5, GT",
      init="int64_t 0:r1=0x100000005; int64_t 0:r2"),
]

SHIFTS = [
    R("slw", ["slw r3,r1,r2"], {"0:r3": 16}, "1 << 4", init="0:r1=1; 0:r2=4"),
    R("slw-32", ["slw r3,r1,r2"], {"0:r3": 0}, "an amount of 32..63 gives 0", init="0:r1=1; 0:r2=32"),
    R("slw-high", ["slw r3,r1,r2"], {"0:r3": 2}, "the result is the low word: 0x2_00000002 -> 2",
      init="int64_t 0:r1=0x100000001; 0:r2=1; int64_t 0:r3"),
    R("slw.", ["slw. r3,r1,r2", "mfcr r4"], {"0:r3": 0, "0:r4": 2}, "1 << 40 (low 6 bits: 40) = 0: EQ",
      init="0:r1=1; 0:r2=40"),
    R("srw", ["srw r3,r1,r2"], {"0:r3": 0x0fffffff}, "low word 0xffffffff >> 4, zeros in",
      init="0:r1=-1; 0:r2=4"),
    R("srw.", ["srw. r3,r1,r2", "mfcr r4"], {"0:r3": 1, "0:r4": 4}, "2 >> 1 = 1: GT",
      init="0:r1=2; 0:r2=1"),
    R("sraw", ["sraw r3,r1,r2"], {"0:r3": -4}, "-16 >> 2, sign in", init="0:r1=-16; 0:r2=2"),
    R("sraw-40", ["sraw r3,r1,r2"], {"0:r3": -1}, "32..63 give the sign of the low word",
      init="0:r1=-16; 0:r2=40"),
    R("sraw.", ["sraw. r3,r1,r2", "mfcr r4"], {"0:r3": -1, "0:r4": 8}, "-1 < 0: LT",
      init="0:r1=-2; 0:r2=1"),
    R("sld", ["sld r3,r1,r2"], {"0:r3": 1 << 40}, "1 << 40 in 64 bits",
      init="0:r1=1; 0:r2=40; int64_t 0:r3"),
    R("sld-64", ["sld r3,r1,r2"], {"0:r3": 0}, "an amount of 64..127 gives 0", init="0:r1=1; 0:r2=64"),
    R("sld.", ["sld. r3,r1,r2", "mfcr r4"], {"0:r3": 4, "0:r4": 4}, "1 << 2 = 4: GT",
      init="0:r1=1; 0:r2=2"),
    R("srd", ["srd r3,r1,r2"], {"0:r3": 15}, "0xffff_ffff_ffff_ffff >> 60", init="0:r1=-1; 0:r2=60"),
    R("srd.", ["srd. r3,r1,r2", "mfcr r4"], {"0:r3": 0, "0:r4": 2}, "1 >> 1 = 0: EQ",
      init="0:r1=1; 0:r2=1"),
    R("srad", ["srad r3,r1,r2"], {"0:r3": -16}, "-256 >> 4, sign in", init="0:r1=-256; 0:r2=4"),
    R("srad.", ["srad. r3,r1,r2", "mfcr r4"], {"0:r3": -1, "0:r4": 8}, "-1 >> 7 = -1: LT",
      init="0:r1=-1; 0:r2=7"),
    R("srawi", ["srawi r2,r1,2"], {"0:r2": -3}, "-9 >> 2 = floor(-2.25)", init="0:r1=-9"),
    R("srawi.", ["srawi. r2,r1,1", "mfcr r3"], {"0:r2": 3, "0:r3": 4}, "7 >> 1 = 3: GT", init="0:r1=7"),
    R("sradi", ["sradi r2,r1,3"], {"0:r2": -8}, "-64 >> 3", init="int64_t 0:r1=-64"),
    R("sradi.", ["sradi. r2,r1,3", "mfcr r3"], {"0:r2": 0, "0:r3": 2}, "7 >> 3 = 0: EQ", init="0:r1=7"),
]

X = 0x12345678
ROTATES = [
    R("rlwinm", ["rlwinm r2,r1,8,24,31"], {"0:r2": rotl32(X, 8) & mask(56, 63)},
      "ROTL32(0x12345678, 8) & MASK(56,63): the low byte of 0x34567812, 0x12", init="0:r1=0x12345678"),
    R("rlwinm-high", ["rlwinm r2,r1,0,0,15"], {"0:r2": rotl32(X, 0) & mask(32, 47)},
      "MASK(32,47): the high half of the low word", init="0:r1=0x12345678"),
    R("rlwinm-wrap", ["rlwinm r2,r1,0,28,3"], {"0:r2": s64(rotl32(X, 0) & mask(60, 35))},
      "MB > ME wraps: MASK(60,35) keeps the high word (ROTL32's copy) too",
      init="0:r1=0x12345678; int64_t 0:r2"),
    R("rlwinm.", ["rlwinm. r2,r1,0,31,31", "mfcr r3"], {"0:r2": 0, "0:r3": 2}, "bit 63 of an even number: EQ",
      init="0:r1=6"),
    R("rlwimi", ["rlwimi r2,r1,8,16,23"],
      {"0:r2": s32((rotl32(0xab, 8) & mask(48, 55)) | (0x11111111 & ~mask(48, 55)))},
      "0xab rotated to 0xab00 replaces byte 0xff00 of 0x11111111", init="0:r1=0xab; 0:r2=0x11111111"),
    R("rlwimi.", ["rlwimi. r2,r1,0,31,31", "mfcr r3"], {"0:r2": 1, "0:r3": 4}, "inserts bit 63: 1, GT",
      init="0:r1=1; 0:r2=0"),
    R("rldicl", ["rldicl r2,r1,8,56"], {"0:r2": rotl64(0x1122334455667788, 8) & mask(56, 63)},
      "ROTL64 by 8 then the low byte: 0x11", init="int64_t 0:r1=0x1122334455667788"),
    R("rldicl.", ["rldicl. r2,r1,0,63", "mfcr r3"], {"0:r2": 1, "0:r3": 4}, "bit 63 of 3: 1, GT",
      init="0:r1=3"),
    R("rldicr", ["rldicr r2,r1,8,7"], {"0:r2": s64(rotl64(0x1122334455667788, 8) & mask(0, 7))},
      "ROTL64 by 8 then the high byte: 0x22 << 56", init="int64_t 0:r1=0x1122334455667788; int64_t 0:r2"),
    R("rldic", ["rldic r2,r1,4,56"], {"0:r2": rotl64(0xff, 4) & mask(56, 59)},
      "ROTL64(0xff,4) & MASK(56, 63-4): 0xf0", init="0:r1=0xff"),
    R("rldimi", ["rldimi r2,r1,8,48"], {"0:r2": s64((rotl64(0xab, 8) & mask(48, 55)) | (M64 & ~mask(48, 55)))},
      "0xab << 8 inserted under MASK(48, 55) into -1", init="0:r1=0xab; int64_t 0:r2=-1"),
    R("slwi", ["slwi r2,r1,4"], {"0:r2": 48}, "rlwinm 4,0,27: 3 << 4", init="0:r1=3"),
    R("slwi.", ["slwi. r2,r1,31", "mfcr r3"], {"0:r2": 0, "0:r3": 2},
      "2 << 31 leaves the low word empty: 0, EQ", init="0:r1=2"),
    R("srwi", ["srwi r2,r1,4"], {"0:r2": 15}, "rlwinm 28,4,31: 0xf0 >> 4", init="0:r1=0xf0"),
    R("clrlwi", ["clrlwi r2,r1,24"], {"0:r2": 0x34}, "rlwinm 0,24,31: the low byte", init="0:r1=0x1234"),
    R("clrrwi", ["clrrwi r2,r1,4"], {"0:r2": 0x1230}, "rlwinm 0,0,27: the low 4 bits cleared",
      init="0:r1=0x1234"),
    R("rotlwi", ["rotlwi r2,r1,4"], {"0:r2": 0x11}, "0x10000001 rotated left 4 in 32 bits",
      init="0:r1=0x10000001"),
    R("rotrwi", ["rotrwi r2,r1,4"], {"0:r2": 0x10000001}, "0x11 rotated right 4 in 32 bits",
      init="0:r1=0x11"),
    R("sldi", ["sldi r2,r1,32"], {"0:r2": 1 << 32}, "rldicr 32,31: 1 << 32", init="0:r1=1; int64_t 0:r2"),
    R("srdi", ["srdi r2,r1,32"], {"0:r2": 5}, "rldicl 32,32: 0x5_00000000 >> 32",
      init="int64_t 0:r1=0x500000000"),
    R("clrldi", ["clrldi r2,r1,32"], {"0:r2": 0xffffffff}, "rldicl 0,32 (herd's Pclrldi): the low word of -1",
      init="0:r1=-1; int64_t 0:r2"),
    R("clrrdi", ["clrrdi r2,r1,8"], {"0:r2": 0x1200}, "rldicr 0,55: the low byte cleared",
      init="0:r1=0x1234"),
    R("rotldi", ["rotldi r2,r1,4"], {"0:r2": 0x11}, "0x1000000000000001 rotated left 4",
      init="int64_t 0:r1=0x1000000000000001"),
    R("rotrdi", ["rotrdi r2,r1,4"], {"0:r2": 0x1000000000000001}, "0x11 rotated right 4 in 64 bits",
      init="0:r1=0x11; int64_t 0:r2"),
]

COMPARES = [
    R("mfcr-cleared", ["mfcr r3"], {"0:r3": 0}, "cr0 starts with no bit set (herd)"),
    R("cmpw-lt", ["cmpw r1,r2", "mfcr r3"], {"0:r3": 8}, "1 < 2: LT", init="0:r1=1; 0:r2=2"),
    R("cmpw-eq", ["cmpw r1,r2", "mfcr r3"], {"0:r3": 2}, "2 = 2: EQ", init="0:r1=2; 0:r2=2"),
    R("cmpw-gt", ["cmpw r1,r2", "mfcr r3"], {"0:r3": 4}, "3 > 2: GT", init="0:r1=3; 0:r2=2"),
    R("cmpwi", ["cmpwi r1,-1", "mfcr r3"], {"0:r3": 4}, "0 > -1: GT", init="0:r1=0"),
    R("cmpw-cr1", ["cmpw cr1,r1,r2", "mfcr r3", "blt cr1,L", "li r4,1", "L:"], {"0:r3": 0, "0:r4": 0},
      "cr1 gets LT, cr0 (which mfcr reads) stays cleared; blt cr1 skips the li",
      init="0:r1=1; 0:r2=2"),
    R("cmpd", ["cmpd r1,r2", "mfcr r3"], {"0:r3": 4}, "2^32 > 1 as 64-bit values",
      init="int64_t 0:r1=4294967296; 0:r2=1"),
    R("cmpdi", ["cmpdi r1,5", "mfcr r3"], {"0:r3": 2}, "5 = 5", init="0:r1=5"),
    R("cmplw", ["cmplw r1,r2", "mfcr r3"], {"0:r3": 4}, "unsigned: 0xffffffff > 1 (cmpw would say LT)",
      init="0:r1=-1; 0:r2=1"),
    R("cmplw-word", ["cmplw r1,r2", "mfcr r3"], {"0:r3": 2}, "only the low words compare: 5 = 5",
      init="int64_t 0:r1=0x100000005; 0:r2=5"),
    R("cmplwi", ["cmplwi r1,1", "mfcr r3"], {"0:r3": 4}, "herd's Pcmplwi: low word 0xffffffff > 1",
      init="0:r1=-1"),
    R("cmplwi-eq", ["cmplwi r1,2", "mfcr r3"], {"0:r3": 2}, "2 = 2", init="0:r1=2"),
    R("cmpld", ["cmpld r1,r2", "mfcr r3"], {"0:r3": 4}, "unsigned 64: 2^64-1 > 1", init="0:r1=-1; 0:r2=1"),
    R("cmpldi", ["cmpldi r1,0", "mfcr r3"], {"0:r3": 2}, "0 = 0", init="0:r1=0"),
]


def branch_row(mn, a, b, taken):
    return R(f"{mn}-{a}-{b}", ["cmpw r1,r2", f"{mn} L", "li r3,1", "L:"], {"0:r3": 0 if taken else 1},
             f"{a} vs {b}: {mn} {'taken, the li skipped' if taken else 'not taken'}",
             init=f"0:r1={a}; 0:r2={b}")


BRANCHES = [
    R("b", ["b L", "li r3,1", "L: li r4,2"], {"0:r3": 0, "0:r4": 2}, "b skips the first li"),
    branch_row("beq", 1, 1, True), branch_row("beq", 1, 2, False),
    branch_row("bne", 1, 2, True), branch_row("bne", 1, 1, False),
    branch_row("blt", 1, 2, True), branch_row("blt", 2, 1, False),
    branch_row("bge", 2, 2, True), branch_row("bge", 1, 2, False),
    branch_row("bnl", 3, 2, True), branch_row("bnl", 1, 2, False),
    branch_row("bgt", 3, 2, True), branch_row("bgt", 2, 2, False),
    branch_row("ble", 2, 2, True), branch_row("ble", 3, 2, False),
    branch_row("bng", 1, 2, True), branch_row("bng", 3, 2, False),
    R("bge-cleared", ["bge L", "li r3,1", "L:"], {"0:r3": 0}, "cleared cr0: not LT, so bge is taken"),
    R("blr", ["li r3,1", "blr", "li r3,2"], {"0:r3": 1}, "blr ends the thread (herd's telechat exit)"),
]

MEMORY = [
    R("lbz", ["lbz r1,0(r2)"], {"0:r1": 255}, "a byte of -1, zero-extended", init="0:r2=x; x=-1"),
    R("lhz", ["lhz r1,0(r2)"], {"0:r1": 65535}, "a halfword of -1, zero-extended", init="0:r2=x; x=-1"),
    R("lwz", ["lwz r1,0(r2)"], {"0:r1": 0xffffffff}, "herd's lwz of x = -1: 4294967295",
      init="0:r2=x; x=-1; int64_t 0:r1"),
    R("lwz-r0", ["lwz r1,0(r0)"], {"0:r1": 3}, "the displacement form reads r0 (herd)", init="0:r0=x; x=3"),
    R("lwz-comma", ["lwz r1,0,r2"], {"0:r1": 3}, "herd's `d,rA` spelling", init="0:r2=x; x=3"),
    R("ld", ["ld r1,0(r2)"], {"0:r1": -1}, "a doubleword: as stored", init="0:r2=x; int64_t x=-1; int64_t 0:r1"),
    R("lha", ["lha r1,0(r2)"], {"0:r1": -32768}, "algebraic: halfword 0x8000 sign-extended",
      init="0:r2=x; x=0x8000"),
    R("lwa", ["lwa r1,0(r2)"], {"0:r1": -1}, "herd's Plwa: Sxt Word of -1",
      init="0:r2=x; x=-1; int64_t 0:r1"),
    R("lbzu", ["lbzu r1,0(r2)"], {"0:r1": 7, "0:r2": "x"}, "loads, then rA = EA = x", init="0:r2=x; x=7"),
    R("lhzu", ["lhzu r1,0(r2)"], {"0:r1": 7, "0:r2": "x"}, "as lbzu", init="0:r2=x; x=7"),
    R("lwzu", ["lwzu r1,0(r2)"], {"0:r1": 7, "0:r2": "x"}, "herd's Plwzu", init="0:r2=x; x=7"),
    R("ldu", ["ldu r1,0(r2)"], {"0:r1": 7, "0:r2": "x"}, "as lwzu, 8 bytes", init="0:r2=x; x=7"),
    R("lhau", ["lhau r1,0(r2)"], {"0:r1": -1, "0:r2": "x"}, "algebraic update", init="0:r2=x; x=0xffff"),
    R("lbzx", ["lbzx r1,r2,r3"], {"0:r1": 0xff}, "x + 0, zero-extended byte", init="0:r2=x; 0:r3=0; x=-1"),
    R("lhzx", ["lhzx r1,r0,r3"], {"0:r1": 0xffff}, "rA = r0 reads as 0: address r3 = x",
      init="0:r0=9; 0:r3=x; x=-1"),
    R("lwzx", ["lwzx r1,r2,r3"], {"0:r1": 5}, "address r2 + r3 = x", init="0:r2=x; 0:r3=0; x=5"),
    R("ldx", ["ldx r1,r2,r3"], {"0:r1": 5}, "as lwzx, 8 bytes", init="0:r2=0; 0:r3=x; x=5"),
    R("lhax", ["lhax r1,r2,r3"], {"0:r1": -2}, "halfword 0xfffe sign-extended", init="0:r2=x; 0:r3=0; x=0xfffe"),
    R("lwax", ["lwax r1,r0,r3"], {"0:r1": -1}, "herd's Plwax: word 0xffffffff sign-extended",
      init="0:r3=x; uint32_t x=0xffffffff; int64_t 0:r1"),
    R("lbzux", ["lbzux r1,r2,r3"], {"0:r1": 4, "0:r2": "x"}, "rA = rA + rB = x", init="0:r2=x; 0:r3=0; x=4"),
    R("lhzux", ["lhzux r1,r2,r3"], {"0:r1": 4, "0:r2": "x"}, "as lbzux", init="0:r2=0; 0:r3=x; x=4"),
    R("lwzux", ["lwzux r1,r2,r3"], {"0:r1": 4, "0:r2": "x"}, "as lbzux", init="0:r2=x; 0:r3=0; x=4"),
    R("ldux", ["ldux r1,r2,r3"], {"0:r1": 4, "0:r2": "x"}, "as lbzux", init="0:r2=x; 0:r3=0; x=4"),
    R("lhaux", ["lhaux r1,r2,r3"], {"0:r1": -1, "0:r2": "x"}, "sign-extended, updated",
      init="0:r2=x; 0:r3=0; x=0xffff"),
    R("lwaux", ["lwaux r1,r2,r3"], {"0:r1": -1, "0:r2": "x"}, "sign-extended, updated",
      init="0:r2=x; 0:r3=0; x=-1; int64_t 0:r1"),
    R("lwzux-rb", ["lwzux r3,r2,r3"], {"0:r3": 4, "0:r2": "x"},
      "the address uses rB before the load overwrites it", init="0:r2=x; 0:r3=0; x=4"),
    R("stb", ["stb r1,0(r2)"], {"x": 9}, "stores the register", init="0:r1=9; 0:r2=x"),
    R("sth", ["sth r1,0(r2)"], {"x": 9}, "as stb", init="0:r1=9; 0:r2=x"),
    R("stw", ["stw r1,0(r2)"], {"x": 9}, "as stb", init="0:r1=9; 0:r2=x"),
    R("std", ["std r1,0(r2)"], {"x": 9}, "as stb", init="0:r1=9; 0:r2=x"),
    R("stw-comma", ["stw r1,0,r2"], {"x": 9}, "herd's `d,rA` spelling", init="0:r1=9; 0:r2=x"),
    R("stbu", ["stbu r1,0(r2)"], {"x": 9, "0:r2": "x"}, "stores, then rA = EA", init="0:r1=9; 0:r2=x"),
    R("sthu", ["sthu r1,0(r2)"], {"x": 9, "0:r2": "x"}, "as stbu", init="0:r1=9; 0:r2=x"),
    R("stwu", ["stwu r1,0(r2)"], {"x": 9, "0:r2": "x"}, "herd's Pstwu", init="0:r1=9; 0:r2=x"),
    R("stdu", ["stdu r1,0(r2)"], {"x": 9, "0:r2": "x"}, "as stwu", init="0:r1=9; 0:r2=x"),
    R("stbx", ["stbx r1,r2,r3"], {"x": 9}, "address r2 + r3", init="0:r1=9; 0:r2=x; 0:r3=0"),
    R("sthx", ["sthx r1,r0,r3"], {"x": 9}, "rA = r0 reads as 0", init="0:r0=7; 0:r1=9; 0:r3=x"),
    R("stwx", ["stwx r1,r2,r3"], {"x": 9}, "herd's Pstorex", init="0:r1=9; 0:r2=0; 0:r3=x"),
    R("stdx", ["stdx r1,r2,r3"], {"x": 9}, "as stwx", init="0:r1=9; 0:r2=x; 0:r3=0"),
    R("stbux", ["stbux r1,r2,r3"], {"x": 9, "0:r2": "x"}, "rA = rA + rB", init="0:r1=9; 0:r2=x; 0:r3=0"),
    R("sthux", ["sthux r1,r2,r3"], {"x": 9, "0:r2": "x"}, "as stbux", init="0:r1=9; 0:r2=0; 0:r3=x"),
    R("stwux", ["stwux r1,r2,r3"], {"x": 9, "0:r2": "x"}, "as stbux", init="0:r1=9; 0:r2=x; 0:r3=0"),
    R("stdux", ["stdux r1,r2,r3"], {"x": 9, "0:r2": "x"}, "as stbux", init="0:r1=9; 0:r2=x; 0:r3=0"),
    R("lwarx-stwcx.", ["L: lwarx r1,r0,r2", "addi r1,r1,1", "stwcx. r1,r0,r2", "bne L"], {"x": 6},
      "an atomic increment alone: herd lets stwcx. fail too, so the loop retries; the path failing "
      "every time is cut by the unroll limit (Loop), the others end with x = 6", init="0:r2=x; x=5",
      loop=True),
    R("ldarx-stdcx.", ["L: ldarx r1,r0,r2", "addi r1,r1,1", "stdcx. r1,r0,r2", "bne L"], {"x": 6},
      "the doubleword pair, as lwarx-stwcx.", init="0:r2=x; x=5", loop=True),
    R("stwcx.-beq", ["lwarx r1,r0,r2", "stwcx. r3,r0,r2", "beq L", "li r4,1", "L:"], {"x": 7, "0:r4": 0},
      "success stores and sets cr0 EQ (beq taken); failure stores nothing and leaves EQ clear",
      init="0:r2=x; 0:r3=7; x=5", more=[{"x": 5, "0:r4": 1}]),
    # herd's flags_res: a successful stwcx. leaves cr0 = EQ alone (mfcr 2), a
    # failed one clears every bit (mfcr 0), so after a failure blt and bgt
    # fall through while bge (not LT) and ble (not GT) jump.
    R("stwcx.-cr0", ["lwarx r1,r0,r2", "stwcx. r3,r0,r2", "mfcr r5", "blt L1", "li r6,1", "L1:",
                     "bge L2", "li r7,1", "L2:", "bgt L3", "li r8,1", "L3:", "ble L4", "li r9,1", "L4:"],
      {"x": 7, "0:r5": 2, "0:r6": 1, "0:r7": 0, "0:r8": 1, "0:r9": 0},
      "stored: cr0 EQ, so blt, bgt fall through and bge, ble jump; failed: cr0 has no bit, "
      "mfcr reads 0, and the branches go the same way (neither LT nor GT is set)",
      init="0:r2=x; 0:r3=7; x=5", more=[{"x": 5, "0:r5": 0, "0:r6": 1, "0:r7": 0, "0:r8": 1, "0:r9": 0}]),
    R("stdcx.-cr0", ["ldarx r1,r0,r2", "stdcx. r3,r0,r2", "mfcr r5", "bne L1", "li r6,1", "L1:"],
      {"x": 7, "0:r5": 2, "0:r6": 1}, "as stwcx.: stored, EQ (bne falls through); failed, no bit "
      "(bne jumps, mfcr 0)", init="0:r2=x; 0:r3=7; x=5", more=[{"x": 5, "0:r5": 0, "0:r6": 0}]),
    # herd's reservation: lwarx sets RES and RESADDR; stwcx. stores only when
    # RES is set and RESADDR is its address, and clears RES either way
    R("stwcx.-no-lwarx", ["stwcx. r3,r0,r2", "mfcr r5"], {"x": 5, "0:r5": 0},
      "no reservation (RES starts 0): it can only fail", init="0:r2=x; 0:r3=7; x=5"),
    R("stwcx.-other-address", ["lwarx r1,r0,r2", "stwcx. r3,r0,r4", "mfcr r5"], {"x": 5, "y": 0, "0:r5": 0},
      "RESADDR is x, the store is to y: it fails", init="0:r2=x; 0:r4=y; 0:r3=7; x=5"),
    R("stwcx.-same-address", ["lwarx r1,r0,r2", "stwcx. r3,r0,r4", "mfcr r5"], {"x": 7, "0:r5": 2},
      "two registers holding x: the reservation matches (a check at run time)",
      init="0:r2=x; 0:r4=x; 0:r3=7; x=5", more=[{"x": 5, "0:r5": 0}]),
    R("stwcx.-twice", ["lwarx r1,r0,r2", "stwcx. r3,r0,r2", "stwcx. r6,r0,r2", "mfcr r5"],
      {"x": 7, "0:r5": 0}, "the first stwcx. ends the reservation, so the second fails whatever the "
      "first did", init="0:r2=x; 0:r3=7; 0:r6=9; x=5", more=[{"x": 5, "0:r5": 0}]),
    R("dcbf", ["dcbf r0,r2", "lwz r1,0(r2)"], {"0:r1": 5}, "a cache flush: nothing happens",
      init="0:r2=x; x=5"),
]

FENCES = [R(f, [f, "li r1,1"], {"0:r1": 1}, f"{f} is a fence event: no register changes")
          for f in ("sync", "hwsync", "lwsync", "isync", "eieio")]

# The remaining record forms: the result as without the dot, and cr0 from
# comparing it with 0, read by mfcr (LT 8, GT 4, EQ 2).
RECORDS = [
    R("not.", ["not. r2,r1", "mfcr r3"], {"0:r2": -1, "0:r3": 8}, "~0 = -1: LT", init="0:r1=0"),
    R("nand.", ["nand. r3,r1,r2", "mfcr r4"], {"0:r3": ~2, "0:r4": 8}, "~(6 & 3) = -3: LT",
      init="0:r1=6; 0:r2=3"),
    R("eqv.", ["eqv. r3,r1,r2", "mfcr r4"], {"0:r3": -1, "0:r4": 8}, "~(x ^ x) = -1: LT",
      init="0:r1=6; 0:r2=6"),
    R("andc.", ["andc. r3,r1,r2", "mfcr r4"], {"0:r3": 0, "0:r4": 2}, "6 & ~7 = 0: EQ",
      init="0:r1=6; 0:r2=7"),
    R("orc.", ["orc. r3,r1,r2", "mfcr r4"], {"0:r3": -1, "0:r4": 8}, "6 | ~0 = -1: LT",
      init="0:r1=6; 0:r2=0"),
    R("mulld.", ["mulld. r3,r1,r2", "mfcr r4"], {"0:r3": 0, "0:r4": 2}, "5 * 0 = 0: EQ",
      init="0:r1=5; 0:r2=0"),
    R("divd.", ["divd. r3,r1,r2", "mfcr r4"], {"0:r3": -2, "0:r4": 8}, "-9 / 4 = -2 (toward 0): LT",
      init="0:r1=-9; 0:r2=4"),
    R("extsh.", ["extsh. r2,r1", "mfcr r3"], {"0:r2": -1, "0:r3": 8}, "halfword 0xffff: -1, LT",
      init="0:r1=0xffff"),
    R("srwi.", ["srwi. r2,r1,4", "mfcr r3"], {"0:r2": 0, "0:r3": 2}, "0xf >> 4 = 0: EQ", init="0:r1=0xf"),
    R("clrlwi.", ["clrlwi. r2,r1,24", "mfcr r3"], {"0:r2": 0, "0:r3": 2}, "low byte of 0x100: 0, EQ",
      init="0:r1=0x100"),
    R("clrrwi.", ["clrrwi. r2,r1,4", "mfcr r3"], {"0:r2": 16, "0:r3": 4}, "0x1f with the low 4 bits "
      "cleared: 16, GT", init="0:r1=0x1f"),
    R("sldi.", ["sldi. r2,r1,63", "mfcr r3"], {"0:r2": -(1 << 63), "0:r3": 8}, "1 << 63: the sign bit, LT",
      init="0:r1=1; int64_t 0:r2"),
    R("srdi.", ["srdi. r2,r1,1", "mfcr r3"], {"0:r2": 0, "0:r3": 2}, "1 >> 1 = 0: EQ", init="0:r1=1"),
    R("clrldi.", ["clrldi. r2,r1,32", "mfcr r3"], {"0:r2": 0, "0:r3": 2}, "low word of 0x1_00000000: 0, EQ",
      init="int64_t 0:r1=0x100000000"),
    R("clrrdi.", ["clrrdi. r2,r1,8", "mfcr r3"], {"0:r2": 0x100, "0:r3": 4}, "0x1ff, low byte cleared: GT",
      init="0:r1=0x1ff"),
    R("rldicr.", ["rldicr. r2,r1,0,62", "mfcr r3"], {"0:r2": 0, "0:r3": 2}, "1 & MASK(0,62) = 0: EQ",
      init="0:r1=1"),
    R("rldic.", ["rldic. r2,r1,1,0", "mfcr r3"], {"0:r2": 2, "0:r3": 4}, "ROTL64(1,1) & MASK(0,62) = 2: GT",
      init="0:r1=1"),
    R("rldimi.", ["rldimi. r2,r1,0,63", "mfcr r3"], {"0:r2": 1, "0:r3": 4}, "inserts bit 63 of 1 into 0: 1, GT",
      init="0:r1=1; 0:r2=0"),
]

TABLES = {"records": RECORDS, "alu": ALU, "shifts": SHIFTS, "rotates": ROTATES, "compares": COMPARES,
          "branches": BRANCHES, "memory": MEMORY, "fences": FENCES}


@pytest.mark.parametrize("family", sorted(TABLES))
def test_ppc_family(weft, tmp_path, family):
    problems = check_rows(TABLES[family], tmp_path)
    assert not problems, "\n".join(problems)


def test_every_ppc_mnemonic_has_a_row(srcdir):
    """Every mnemonic of the three family tables of src/arch/ppc/ appears in
    some row (so the table test runs every supported form)."""
    import re
    mnemonics = set()
    for f in ("ppc_alu.c", "ppc_mem.c", "ppc_flow.c"):
        text = (srcdir / "src" / "arch" / "ppc" / f).read_text()
        mnemonics |= set(re.findall(r'^\t\{ "([a-z.]+)", [A-Z]_', text, re.M))
    used = set()
    for rows in TABLES.values():
        for r in rows:
            for line in r.code:
                line = re.sub(r"^\w+:\s*", "", line.strip())
                if line:
                    used.add(line.split()[0])
    missing = sorted(mnemonics - used)
    assert len(mnemonics) > 150
    assert not missing, missing


def test_fences_make_their_events(weft, tmp_path):
    # SB with each fence on both threads: sync and hwsync forbid the relaxed
    # outcome under power (the fence orders the store before the load),
    # lwsync does not (W->R is the one order it leaves out), nor do isync
    # and eieio (eieio orders stores only)
    verdicts = {"sync": "Never", "hwsync": "Never", "lwsync": "Sometimes", "isync": "Sometimes",
                "eieio": "Sometimes"}
    for fence, want in verdicts.items():
        f = tmp_path / f"SB+{fence}s.litmus"
        f.write_text(f"PPC SB+{fence}s\n{{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }}\n"
                     " P0           | P1           ;\n li r1,1      | li r1,1      ;\n"
                     " stw r1,0(r2) | stw r1,0(r2) ;\n"
                     f" {fence:12} | {fence:12} ;\n"
                     " lwz r3,0(r4) | lwz r3,0(r4) ;\nexists (0:r3=0 /\\ 1:r3=0)\n")
        r = weft(f)
        assert r.returncode == 0, r.stderr
        assert f"Observation SB+{fence}s {want} " in r.stdout, (fence, r.stdout)


UNSUPPORTED = [
    ("mbar", "unsupported PPC instruction 'mbar'"),
    ("bl L", "unsupported PPC instruction 'bl L'"),
    ("mtlr r1", "unsupported PPC instruction 'mtlr r1'"),
    ("lmw r28,0(r2)", "unsupported PPC instruction 'lmw r28,0(r2)'"),
    ("rlwinm r1,r2,32,0,31", "malformed PPC instruction 'rlwinm r1,r2,32,0,31': 32 is out of range (0 to 31)"),
    ("slwi r1,r2,32", "malformed PPC instruction 'slwi r1,r2,32': 32 is out of range (0 to 31)"),
    ("sldi r1,r2,64", "malformed PPC instruction 'sldi r1,r2,64': 64 is out of range (0 to 63)"),
    ("srawi r1,r2,x", "malformed PPC instruction 'srawi r1,r2,x': expected a number from 0 to 31"),
    ("oris r1,r2,-1", "malformed PPC instruction 'oris r1,r2,-1': immediate out of range for a shifted form"),
]


@pytest.mark.parametrize("text,msg", UNSUPPORTED)
def test_what_weft_cannot_run_is_named(weft, tmp_path, text, msg):
    f = tmp_path / "u.litmus"
    f.write_text(f"PPC u\n{{ 0:r2=x; }}\n P0 ;\n L: ;\n {text} ;\nexists (0:r1=0)\n")
    r = weft(f)
    assert r.returncode == 1
    # located at the instruction (unsupported) or at the bad operand
    assert re.search(re.escape(f"{f}:5:") + r"\d+" + re.escape(f": error: {msg}"), r.stderr), r.stderr
