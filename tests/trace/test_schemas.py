"""The JSON Schemas of the breakdown (mspti_trace/breakdown/schemas): valid schemas that cite the
oam-tools files they come from, accept the emitted documents and reject the earlier 2.1-ui shapes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from mspti_trace.breakdown.schema import facts_paths
from mspti_trace.breakdown.schemas import SCHEMA_FILES, load_schema, schema_errors

COMMIT = "5f42532680985cfcd26edd687aae0c8fabe51cfd"


@pytest.mark.parametrize("key", sorted(SCHEMA_FILES))
def test_each_schema_is_valid_and_cites_its_source(key: str) -> None:
    schema = load_schema(key)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert f"hicann/oam-tools@{COMMIT}" in schema["$comment"]
    assert "2-adapt-breakdown-to-ui-json/" in schema["$comment"]


@pytest.mark.parametrize("key", sorted(SCHEMA_FILES))
def test_each_emitted_document_follows_its_schema(facts_dir: Path, key: str) -> None:
    path = facts_dir / facts_paths("decoder_3l")[key]
    assert schema_errors(key, json.loads(path.read_text(encoding="utf-8"))) == []


def test_the_earlier_shapes_are_rejected(facts_dir: Path) -> None:
    names = facts_paths("decoder_3l")
    perf = json.loads((facts_dir / names["perf"]).read_text())
    perf["records"] = perf.pop("modules")
    assert any("'modules' is a required property" in e for e in schema_errors("perf", perf))
    perf = json.loads((facts_dir / names["perf"]).read_text())
    perf["modules"][0]["counter_coverage"] = {"kernels_with_counters": 0, "kernels": 3}
    assert any("'kernels_total' is a required property" in e for e in schema_errors("perf", perf))
    timeline = json.loads((facts_dir / names["timeline"]).read_text())
    timeline["schema_version"] = "2.1-ui"
    del timeline["events"][0]["start_time_us_raw"]
    errors = schema_errors("timeline", timeline)
    assert any(e.startswith("$.schema_version") for e in errors)
    assert any("'start_time_us_raw' is a required property" in e for e in errors)
    graph = json.loads((facts_dir / names["graph"]).read_text())
    graph["schema"] = graph.pop("schema_version")
    assert any("'schema_version' is a required property" in e for e in schema_errors("graph", graph))
