"""AArch64's data-processing instructions (issue 29) against herd7 7.58:
tests/aarch64-alu/ holds our own one-thread tests, each NAME.litmus with
NAME.litmus.expected beside it, the block herd7 prints for it under its
default aarch64.cat (made by running herd7, `Time` line removed).  Their
registers are int64_t and listed in `locations`, so that each value is
herd's whole 64 bits:

  ALU-adds-flags   ADDS on X and W: NZCV (read by MRS) on signed and
                   unsigned overflow, zero, negative; #k,LSL #12
  ALU-subs-flags   SUBS, CMP, NEGS: borrow, overflow, W forms, CMP XZR
  ALU-conds        every condition after one CMP (CSET, CSETM)
  ALU-branch-conds B.HI B.LT B.CS B.MI B.VS B.LS taken or not, TBZ/TBNZ
  ALU-logic-flags  ANDS, TST, BICS flags; BIC, ORN, MVN, NEG; herd's EON
                   (its lexer reads EOR)
  ALU-operands     ROR, ASR and LSR of W and X operands, SXTB #2, UXTH,
                   SXTW #1, #1,LSL #12, lsl #0, LSR/ASR/ROR/LSLV
                   instructions (herd's ASR of a W register shifts zeros in)
  ALU-move-wide    MOVZ, MOVN (all 64 bits), MOVK of W and X
  ALU-bitfield     UBFM, SBFM (sign over 64 bits) both ways of r and s
  ALU-multiply     MUL (a W result not cut), MNEG, MADD, MSUB, the long
                   signed and unsigned forms
  ALU-reverse      REV, REV16, REV32, REV64, RBIT, ABS, EXTR
  ALU-csel         CSEL, CSINC, CSINV, CSNEG, CINC, CSET, CSETM: herd's
                   inverse of GE is GT (CSET W9,GE is 1 on 3 < 10)
  ALU-regs         SP as a register, XZR in a condition and in the state
Both engines, and the Hash= under any model (without the corpus)."""
import pytest

from conftest import SRCDIR, result_blocks

ALU = SRCDIR / "tests" / "aarch64-alu"
TESTS = sorted(ALU.glob("*.litmus"))


def expected(t):
    return (t.parent / (t.name + ".expected")).read_text()


def hash_line(block):
    return next(l for l in block.splitlines() if l.startswith("Hash="))


def test_every_test_has_herds_block():
    assert len(TESTS) >= 12
    for t in TESTS:
        assert expected(t).startswith(f"Test {t.name[:-len('.litmus')]} "), t


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
def test_blocks_are_herds(weft, corpus, engine):
    r = weft("-I", corpus / "herd-cat" / "7.58", "-model", "aarch64.cat", "-engine", engine, *TESTS)
    assert r.returncode == 0, r.stderr
    got = result_blocks(r.stdout)
    for t in TESTS:
        (body, _), = [got[t.name[:-len(".litmus")]]]
        assert body + "\n\n" == expected(t), t.name


def test_hash_is_herds_under_any_model(weft):
    r = weft("-model", "sc", *TESTS)
    assert r.returncode == 0, r.stderr
    got = result_blocks(r.stdout)
    for t in TESTS:
        assert hash_line(got[t.name[:-len(".litmus")]][0]) == hash_line(expected(t)), t.name


@pytest.mark.parametrize("code,words", [
    # herd7 fails on these (an assertion, a fatal error, no such token)
    ("MOV X0,W1", "MOV takes two registers of one width"),
    ("MOVZ W0,#65535", "a 16-bit immediate from 0 to 65534"),
    ("MOVZ W0,#1,LSL #32", "LSL #0 or LSL #16"),
    ("MOVK X0,#1,LSL #8", "LSL #0 or LSL #16, #32 or #48"),
    ("ADD X0,X1,X2,MSL #2", "'MSL' is not a shift"),
    ("ADD X0,X1,X2,LSL #64", "a shift amount from 0 to 63"),
    ("CSEL X0,X1,X2,NV", "expected a condition"),
    ("SMULL W0,W1,W2", "SMULL writes an X register"),
    ("REV32 W0,W1", "REV32 takes X registers"),
    # herd runs these (a register of its own; bit numbers past the
    # register, computed by OCaml's shifts out of range): weft does not
    ("MRS X0,ELR_EL1", "MRS and MSR of NZCV only"),
    ("UBFM W0,W1,#64,#1", "a bit number from 0 to 63"),
    ("UBFM W0,W1,#33,#1", "herd would shift by a negative amount"),
    ("TBZ W0,#64,L0", "a bit number from 0 to 63"),
    ("UBFX X0,X1,#1,#2", "unsupported AArch64 instruction 'UBFX X0,X1,#1,#2'"),
    ("CMN X0,#1", "unsupported AArch64 instruction 'CMN X0,#1'"),
])
def test_what_herd_refuses_is_refused(weft, tmp_path, code, words):
    t = tmp_path / "U.litmus"
    t.write_text("AArch64 U\n{\n0:X1=1;\n}\n P0 ;\n " + code + " ;\n L0: NOP ;\nexists (0:X0=0)\n")
    r = weft("-model", "sc", t)
    assert r.returncode != 0
    assert f"{t}:6:" in r.stderr and "error:" in r.stderr and words in r.stderr, r.stderr
