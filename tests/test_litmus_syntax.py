"""Litmus syntax herd7 accepts (issue 14 item 3): conditions comparing two
locations (`0:r1=1:r2`), typed declarations whose final values wrap around
to their type (and unsigned 64-bit values printed unsigned), a test with no
condition (herd's `forall true`).  Each expectation is worked out by hand
from herd's meaning, as the comments say."""
from conftest import result_blocks
from herd_hash import herd_hash


def block(weft, tmp_path, name, text):
    f = tmp_path / f"{name}.litmus"
    f.write_text(text)
    r = weft(f)
    assert r.returncode == 0, r.stderr
    return result_blocks(r.stdout)[name][0]


def test_two_registers_of_one_thread(weft, tmp_path):
    # r1 = r2 = 5, r3 = 6: the condition holds in the one execution; both
    # sides of each comparison are listed in the state
    b = block(weft, tmp_path, "cmp2", "PPC cmp2\n{ 0:r1=5; 0:r2=5; 0:r3=6; }\n P0 ;\n nop ;\n"
              "forall (0:r1=0:r2 /\\ 0:r1<>0:r3)\n")
    assert "0:r1=5; 0:r2=5; 0:r3=6;\nOk\n" in b
    assert "Condition forall (0:r1=0:r2 /\\ not (0:r1=0:r3))" in b


def test_registers_of_two_threads(weft, tmp_path):
    # P1 reads x, written 1 by P0 or still 0; 1:r3 holds 1: the
    # condition 1:r1=1:r3 holds when P1 read P0's store, one execution of two
    b = block(weft, tmp_path, "cmpx", "PPC cmpx\n{ 0:r2=x; 1:r2=x; 1:r3=1; }\n"
              " P0           | P1           ;\n li r1,1      | lwz r1,0(r2) ;\n"
              " stw r1,0(r2) |              ;\nexists (1:r1=1:r3)\n")
    assert "States 2\n1:r1=0; 1:r3=1;\n1:r1=1; 1:r3=1;\nOk\n" in b
    assert "Positive: 1 Negative: 1" in b
    assert "Condition exists (1:r1=1:r3)" in b


def test_memory_against_a_register(weft, tmp_path):
    b = block(weft, tmp_path, "cmpm", "PPC cmpm\n{ 0:r2=x; 0:r1=7; }\n P0 ;\n stw r1,0(r2) ;\n"
              "forall (x=0:r1)\n")
    assert "0:r1=7; [x]=7;\nOk\n" in b
    assert "Condition forall ([x]=0:r1)" in b


def test_typed_registers_wrap_around(weft, tmp_path):
    # each li writes a 64-bit value; the final state shows it in the
    # register's type: 200 as int8_t is -56, -1 as uint8_t 255, 70000 as
    # uint16_t 70000 - 65536 = 4464, 40000 as int16_t 40000 - 65536 =
    # -25536, -1 as uint64_t 2^64 - 1, 2^32 + 5 as an undeclared int 5
    b = block(weft, tmp_path, "typed",
              "PPC typed\n{ int8_t 0:r1; uint8_t 0:r2; uint16_t 0:r3; int16_t 0:r5; uint64_t 0:r4;"
              " int64_t 0:r7=0x100000005; }\n"
              " P0 ;\n li r1,200 ;\n li r2,-1 ;\n lis r3,1 ;\n ori r3,r3,4464 ;\n"
              " li r5,40000 ;\n li r4,-1 ;\n mr r6,r7 ;\n"
              "locations [0:r4; 0:r6;]\n"
              "forall (0:r1=-56 /\\ 0:r2=255 /\\ 0:r3=4464 /\\ 0:r5=-25536 /\\ 0:r6=5)\n")
    assert "0:r1=-56; 0:r2=255; 0:r3=4464; 0:r4=18446744073709551615; 0:r5=-25536; 0:r6=5;\nOk\n" in b


def test_typed_memory_wraps_around(weft, tmp_path):
    # herd's own X86_64 test A014 shape: a byte location stores -1 and 2
    b = block(weft, tmp_path, "bytes", "X86_64 bytes\n{ uint8_t x=0; int16_t y=0; }\n P0 ;\n"
              " movq $-1,(x) ;\n movq $65535,(y) ;\nforall ([x]=255 /\\ [y]=-1)\n")
    assert "[x]=255; [y]=-1;\nOk\n" in b


def test_filter_and_condition_read_typed_values(weft, tmp_path):
    # herd judges a final state once, in the locations' types, for the
    # filter as for the condition, and masks the atom's constant to the
    # type too (Constraints.build_bdd: mask_type on both sides): an int8_t
    # register holding 200 is -56, and `0:r1=200` reads as `0:r1=-56`.  The
    # filter read the raw 200 before, and the condition compared -56 with
    # an unmasked 200.
    for engine in ("rsmc", "enumerate", "bmc"):
        for name, filt, want in (("keep", "-56", "States 1\n0:r1=-56;\nOk\n"),
                                 ("keep200", "200", "States 1\n0:r1=-56;\nOk\n"),
                                 ("drop", "201", "States 0\nNo\n")):
            f = tmp_path / f"{name}.litmus"
            f.write_text(f"PPC {name}\n{{ int8_t 0:r1=0; }}\n P0 ;\n li r1,200 ;\n"
                         f"filter (0:r1={filt})\nexists (0:r1=200)\n")
            r = weft("-engine", engine, f)
            assert r.returncode == 0, r.stderr
            b = result_blocks(r.stdout)[name][0]
            assert b.startswith(f"Test {name} Allowed\n{want}"), (engine, b)
            # the condition is printed as written
            assert "Condition exists (0:r1=200)" in b


def test_observed_is_exists_of_its_groups(weft, tmp_path):
    # herd's StateParser: `observed A1; A2; and B1; ...` is ExistsState (Or
    # [And [A1; A2]; And [B1; ...]]), each atom ending with ';', printed by
    # herd's pp_prop without parentheses (/\ binds tighter than \/).  P1
    # reads x before or after P0's store, so under sc the group 1:r1=0
    # holds once, the group 1:r1=1 /\ [x]=0 never ([x] ends 1).
    text = ("PPC obs\n{ 0:r2=x; 1:r2=x; }\n P0           | P1           ;\n"
            " li r1,1      | lwz r1,0(r2) ;\n stw r1,0(r2) |              ;\n"
            "observed 1:r1=0; and 1:r1=1; [x]=0;\n")
    h = herd_hash(["0:r2=x", "1:r2=x"], [["li r1,1", "stw r1,0(r2)"], ["lwz r1,0(r2)"]], ["1:r1", "x"])
    want = ("Test obs Allowed\nStates 2\n1:r1=0; [x]=1;\n1:r1=1; [x]=1;\nOk\nWitnesses\n"
            "Positive: 1 Negative: 1\nCondition exists (1:r1=0 \\/ 1:r1=1 /\\ [x]=0)\n"
            f"Observation obs Sometimes 1 1\nHash={h}")
    f = tmp_path / "obs.litmus"
    f.write_text(text)
    r = weft("-model", "sc", f)
    assert r.returncode == 0, r.stderr
    assert result_blocks(r.stdout)["obs"][0] == want
    # an atom without its ';' is named
    f.write_text(text.replace("[x]=0;", "[x]=0"))
    r = weft("-model", "sc", f)
    assert r.returncode == 1 and "';' after each atom of an 'observed' condition" in r.stderr


def test_no_condition_is_forall_true(weft, tmp_path):
    # herd reads a test without a final condition as `forall true`: every
    # execution counts as positive and the states list `locations`
    b = block(weft, tmp_path, "nocond", "PPC nocond\n{ 0:r2=x; }\n P0 ;\n li r1,3 ;\n stw r1,0(r2) ;\n"
              "locations [x;]\n")
    assert b.startswith("Test nocond Required\nStates 1\n[x]=3;\nOk\n")
    assert "Condition forall (true)" in b


def test_unknown_location_in_a_comparison_is_named(weft, tmp_path):
    f = tmp_path / "bad.litmus"
    f.write_text("PPC bad\n{ }\n P0 ;\n nop ;\nexists (0:r1=5:r2)\n")
    r = weft(f)
    assert r.returncode == 1
    assert f"{f}:5:14: error:" in r.stderr and "thread" in r.stderr, r.stderr


def test_cells_herd_refuses_are_named(weft, tmp_path):
    """A cell v[i] of no array, or past the array's end: herd7's user
    errors (checked with herd7 7.58), located at the index."""
    cases = [
        ("nocell", "PPC nocell\n{ }\n P0 ;\n nop ;\nexists (t[1]=0)\n",
         "5:11: error: location t is no array: it has no cell 1 (herd7: 'Location t of type TyDef is used "
         "as an array')"),
        ("intcell", "PPC intcell\n{ int t=1; }\n P0 ;\n nop ;\nlocations [t[0];]\n",
         "5:14: error: location t is no array: it has no cell 0 (herd7: 'Location t of type Ty<int> is "
         "used as an array')"),
        ("outcell", "PPC outcell\n{ int t[2]; }\n P0 ;\n nop ;\nexists (t[2]=0)\n",
         "5:11: error: array t has 2 cells: no cell 2 (herd7: 'Out of bounds access on array t')"),
    ]
    assert_refused_at(weft, tmp_path, cases)


def assert_refused_at(weft, tmp_path, cases):
    """Each (name, text, message) case, written to NAME.litmus, is refused
    (exit 1) with that message at FILE:LINE:COL; the stderr of each."""
    errs = []
    for name, text, msg in cases:
        f = tmp_path / f"{name}.litmus"
        f.write_text(text)
        r = weft(f)
        assert r.returncode == 1, name
        assert f"{f}:{msg}" in r.stderr, (name, r.stderr)
        errs.append(r.stderr)
    return errs


def test_constructs_weft_cannot_run_are_named(weft, tmp_path):
    """Each construct weft does not run yet is refused by name, located."""
    cases = [
        ("arr", "PPC arr\n{ int *t[2]={1,2}; }\n P0 ;\n nop ;\nexists (0:r1=1)\n",
         "2:8: error: arrays of 'int*' are not supported (only arrays of integers)"),
        ("ins", "PPC ins\n{ ins_t x=NOP; }\n P0 ;\n nop ;\nexists (0:r1=1)\n",
         "2:3: error: instruction values ('ins_t') need herd's ifetch variant"),
        ("instr", "PPC instr\n{ 0:r1=instr:\"add r1,r1,r1\"; }\n P0 ;\n nop ;\nexists (0:r1=1)\n",
         "2:8: error: instruction values ('NOP', 'instr:\"...\"') need herd's ifetch variant"),
        ("nopv", "PPC nopv\n{ x=NOP; }\n P0 ;\n nop ;\nexists (x=0)\n",
         "2:5: error: instruction values ('NOP', 'instr:\"...\"') need herd's ifetch variant"),
        ("instrc", "PPC instrc\n{ }\n P0 ;\n nop ;\nexists (0:r1=instr:\"nop\")\n",
         "5:14: error: instruction values ('NOP', 'instr:\"...\"') need herd's ifetch variant"),
        ("cases", "PPC cases\n{ }\n P0 ;\n nop ;\ncases 0:r1=0\n",
         "5:1: error: 'cases' conditions are not supported"),
    ]
    for err in assert_refused_at(weft, tmp_path, cases):
        assert "malformed" not in err
