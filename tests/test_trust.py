"""Runs that check nothing, or compare nothing, must not pass, and every
column and label must say which model it is (issue 12)."""
import pathlib
import shutil

import pytest

from conftest import SRCDIR

PPC = SRCDIR / "litmus" / "PPC"
SB = PPC / "SB.litmus"


# ---- 1. an empty selection is an error --------------------------------------

def test_empty_folder_is_an_error(weft, tmp_path):
    r = weft(tmp_path)
    assert r.returncode == 1
    assert "no tests" in r.stderr


@pytest.mark.parametrize("args", [["-select", "NOMATCH"], ["-names", "/dev/null"]])
def test_selection_that_keeps_nothing_is_an_error(weft, args):
    r = weft(*args, PPC)
    assert r.returncode == 1
    assert "no tests selected" in r.stderr
    assert r.stdout == ""


def test_empty_names_file_is_an_error(weft, tmp_path):
    names = tmp_path / "none.names"
    names.write_text("# nothing here\n")
    r = weft("-names", names, PPC)
    assert r.returncode == 1 and "no tests selected" in r.stderr


@pytest.mark.parametrize("arg", ["nosuch/slow.names", "slow.names", "skip.txt"])
def test_excl_path_that_does_not_exist_is_an_error(weft, tmp_path, arg):
    r = weft("-excl", arg, SB, cwd=tmp_path)
    assert r.returncode != 0
    assert "cannot open" in r.stderr
    assert "Test SB" not in r.stdout


def test_excl_regex_still_works(weft):
    r = weft("-excl", "^SB$", "-select", "^(SB|MP)$", PPC)
    assert r.returncode == 0, r.stderr
    assert "Test MP " in r.stdout and "Test SB " not in r.stdout


def test_empty_shard_of_a_selection_is_not_an_error(weft):
    r = weft("-shard", "2/2", SB)
    assert r.returncode == 0, r.stderr
