"""JSON Schemas (draft 2020-12) of the breakdown's facts files and stage-3 inputs, kept as package
data beside this module; each names in ``$comment`` the oam-tools files its rules come from."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

__all__ = ["SCHEMA_FILES", "load_schema", "schema_errors"]

_HERE = Path(__file__).resolve().parent

#: Document key (as in ``facts_paths``) -> schema file.
SCHEMA_FILES: dict[str, str] = {
    "analysis": "analysis_config.schema.json",
    "perf": "perf_data.schema.json",
    "timeline": "timeline.schema.json",
    "graph": "model_architecture_graph.schema.json",
    "overlay": "architecture_overlay_map.schema.json",
    "bindings": "trace_bindings.schema.json",
    "handoff": "ui_report_handoff.schema.json",
    "attribution": "kernel_attribution.schema.json",
}


@cache
def load_schema(key: str) -> dict[str, Any]:
    """The schema of document ``key`` (checked against the draft's metaschema)."""
    schema = json.loads((_HERE / SCHEMA_FILES[key]).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def schema_errors(key: str, document: Any, limit: int = 20) -> list[str]:
    """Where ``document`` breaks the schema of ``key``: ``<json path>: <message>``, at most ``limit``."""
    validator = jsonschema.Draft202012Validator(load_schema(key))
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    return [f"{e.json_path}: {e.message}" for e in errors[:limit]]
