"""A test herd7 rejects, weft rejects (issue 19): an access through an address
that is not a location ("Non-symbolic memory access" in herd) is an error
located at the instruction, with no result block, under both engines."""
import pytest

from conftest import run_weft

CASES = {
    # an integer used as an address
    "int": ("PPC nonsym-int\n{ 0:r2=x; 0:r3=1; }\n P0           ;\n lwz r1,0(r3) ;\n"
            "exists (0:r1=0)\n", 4),
    # a location's address moved off it
    "offset": ("PPC nonsym-offset\n{ 0:r2=x; }\n P0           ;\n li r1,1      ;\n stw r1,4(r2) ;\n"
               "exists ([x]=0)\n", 5),
    # an address read from memory that holds an integer
    "loaded": ("X86 nonsym-loaded\n{ p=1; x=0; }\n P0          ;\n MOV EAX,[p] ;\n MOV EBX,[EAX] ;\n"
               "exists (0:EBX=0)\n", 5),
}


@pytest.mark.parametrize("engine", ["rsmc", "enumerate"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_non_symbolic_access_is_a_located_error(weft, tmp_path, case, engine):
    text, line = CASES[case]
    f = tmp_path / f"{case}.litmus"
    f.write_text(text)
    r = run_weft("-q", "-engine", engine, f)
    assert r.returncode == 1
    assert "Test " not in r.stdout
    assert f"{f}:{line}:" in r.stderr and "error: memory access through an address that is not a location" \
        in r.stderr, r.stderr
