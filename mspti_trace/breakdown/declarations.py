"""Declarations a capture cannot carry, read from a JSON file the program's author writes:

    {
      "model_name": "...", "model_id": "...",
      "architecture": {...},                         passed through untouched
      "nodes": {"<relative node path>": {"semantic": "...", "code_ref": "file:line",
                                         "tensor": {"name": "...", "shape": [...] or "...", "dtype": "..."},
                                         "optional": true}},
      "branches": {"<group>": [{"name": "...", "inputs": ["block_input", "<child>"...],
                                "output": "<child>", "source_ref": "...", "tensor": {...}}]},
      "dataflow": [{"name": "...", "kind": "activation", "source": {"structure": "<path>", "port": "..."},
                    "target": {"structure": "<path>"}, "tensor": {...}, "source_ref": "...",
                    "invocation_offset": 1}],
      "source_only": [{"path": "<path>", "name": "...", "code_ref": "...", "reason": "..."}]
    }

Relative node paths are node ids without the ``model/<id>/`` namespace, e.g. ``stages/embedding``
or ``decoder_layers/attention/q_proj``; ``block_input`` in a branch names the group's input. A node's
``tensor`` is its output (the tensor of the edges from it in the observed order); ``optional`` lets
the capture lack the node. A dataflow ``kind`` is activation (the default), residual, parameter,
cache, index or runtime_carry (with ``invocation_offset``), typed as oam-tools' stage-3 graph types.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mspti_trace.breakdown.options import BreakdownError

__all__ = ["BLOCK_INPUT", "load_declarations"]

BLOCK_INPUT = "block_input"
_KNOWN = {
    "model_name",
    "model_id",
    "architecture",
    "nodes",
    "branches",
    "dataflow",
    "source_only",
    "trace_scope",
}


def load_declarations(path: Path | str) -> dict[str, Any]:
    source = Path(path)
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BreakdownError(f"{source}: cannot read the declarations ({error})") from None
    if not isinstance(data, dict):
        raise BreakdownError(f"{source}: the declarations must be a JSON object")
    unknown = sorted(set(data) - _KNOWN)
    if unknown:
        raise BreakdownError(
            f"{source}: unknown declaration key(s) {', '.join(unknown)}; known: {', '.join(sorted(_KNOWN))}"
        )
    for entry in data.get("source_only", []):
        if not isinstance(entry, dict) or not entry.get("path") or not entry.get("reason"):
            raise BreakdownError(f"{source}: every source_only entry needs a path and a concrete reason")
    return data
