"""-format json: the YAML documents as JSON Lines, valid against the shipped
schema, and read back by -results into the same tables."""
import json
import re

import jsonschema
import yaml

from conftest import SRCDIR

LITMUS = SRCDIR / "litmus"
SCHEMA = json.loads((SRCDIR / "man" / "weft-results.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def json_lines(text):
    lines = text.splitlines()
    assert all(l.startswith("{") and l.endswith("}") for l in lines), text[:200]
    return [json.loads(l) for l in lines]


def without_time(doc):
    return {k: v for k, v in doc.items() if k != "time"}


def test_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_json_documents_are_the_yaml_documents_and_follow_the_schema(weft):
    args = ("-q", "-model", "sc", "-model", "tso", LITMUS / "X86", LITMUS / "C")
    j = weft("-format", "json", *args)
    y = weft("-format", "yaml", *args)
    assert j.returncode == y.returncode
    docs = json_lines(j.stdout)
    ydocs = list(yaml.safe_load_all(y.stdout))
    assert len(docs) == len(ydocs) > 20
    for d, yd in zip(docs, ydocs):
        errors = sorted(VALIDATOR.iter_errors(d), key=str)
        assert not errors, (d["name"], [e.message for e in errors])
        # the same fields, in the same order, with the same values
        assert list(d) == list(yd), d["name"]
        assert without_time(d) == without_time(yd), d["name"]
        # the two runs' times differ; both are a number of seconds
        assert isinstance(d["time"], (int, float)) and d["time"] >= 0
    assert {d["model"] for d in docs} == {"sc", "tso"}
    assert any(d["states"] and isinstance(next(iter(d["states"][0]["bindings"].values())), int) for d in docs)


def test_failure_documents_follow_the_schema(weft, tmp_path):
    bad = tmp_path / "bad.litmus"
    bad.write_text("X86 bad\n{ x=0; }\n P0 ;\n FROB [x] ;\nexists (x=1)\n")
    r = weft("-format", "json", "-model", "sc", "-model", "tso", bad)
    assert r.returncode == 1
    docs = json_lines(r.stdout)
    assert [(d["name"], d["model"], d["verdict"]) for d in docs] == [("bad", "sc", "Error"), ("bad", "tso", "Error")]
    for d in docs:
        assert not list(VALIDATOR.iter_errors(d)), d
    # and a document that lacks what a result has is refused by the schema
    broken = dict(json_lines(weft("-format", "json", LITMUS / "X86" / "SB.litmus").stdout)[0])
    del broken["states"]
    assert list(VALIDATOR.iter_errors(broken))


def test_results_read_json_back_into_the_same_tables(weft, tmp_path):
    args = ("-model", "sc", "-model", "tso", LITMUS / "PPC")
    live = weft("-q", "-table", "csv", *args)
    assert live.returncode in (0, 1) and live.stdout.count("\n") > 10
    saved = tmp_path / "runs"
    saved.mkdir()
    # one run, written as two shards through -o, read back from a folder
    for k in (1, 2):
        r = weft("-q", "-format", "json", "-shard", f"{k}/2", "-o", saved / f"shard-{k}.jsonl", *args)
        assert r.returncode in (0, 1) and r.stdout == "", r.stderr
    back = weft("-q", "-results", saved, "-table", "csv")
    assert back.returncode == 0, back.stderr
    assert back.stdout == live.stdout
    # a JSON array of the documents, laid out over several lines, is read too
    docs = [json.loads(l) for f in sorted(saved.iterdir()) for l in f.read_text().splitlines()]
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(docs, indent=2))
    assert weft("-q", "-results", pretty, "-table", "csv").stdout == live.stdout
    # and the same table as the YAML of the same run gives
    y = tmp_path / "r.yaml"
    y.write_text(weft("-q", "-format", "yaml", *args).stdout)
    assert weft("-q", "-results", y, "-table", "csv").stdout == live.stdout


def test_broken_json_results_are_located(weft, tmp_path):
    good = weft("-format", "json", LITMUS / "X86" / "SB.litmus").stdout
    f = tmp_path / "r.json"
    f.write_text(good + '{"name": "x", "verdict": \n')
    r = weft("-results", f, "-table", "csv")
    assert r.returncode != 0
    assert re.search(r"r\.json:[23]:\d+: error: not JSON: ", r.stderr), r.stderr
    f.write_text(good + '{"name": "x", "file": "x.litmus", "verdict": "Ok"}\n')
    r = weft("-results", f, "-table", "csv")
    assert r.returncode != 0
    assert "r.json:2:1: error: not a saved result: a document of weft's -format yaml or json output has a name, " \
        "a model and a verdict" in r.stderr, r.stderr
    f.write_text('{"name": "x", "states": 3}\n')
    r = weft("-results", f, "-table", "csv")
    assert "r.json:1:1: error: 'states' wants a list of states" in r.stderr, r.stderr
