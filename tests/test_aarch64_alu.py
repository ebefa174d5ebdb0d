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
Both engines, and the Hash= under any model (without the corpus).  What
herd refuses of these instructions, weft refuses by name (test_aarch64.py's
test_aarch64_refuses_by_name)."""
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
