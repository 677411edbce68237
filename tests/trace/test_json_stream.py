"""The one streaming writer of a JSON array's elements that the Chrome, Kineto and ascend_pt
exports share (mspti_trace/json_stream.py)."""

from __future__ import annotations

import io
import json

import pytest

from mspti_trace import json_stream
from mspti_trace.json_stream import JsonArrayStream


@pytest.mark.parametrize("indent", ["", "  "])
def test_elements_across_batches_and_calls_make_one_array(
    monkeypatch: pytest.MonkeyPatch, indent: str
) -> None:
    monkeypatch.setattr(json_stream, "BATCH", 3)
    out = io.StringIO()
    out.write("[")
    stream = JsonArrayStream(out, indent=indent)
    assert stream.write(json.dumps({"n": n}) for n in range(7)) == 7
    assert stream.write([]) == 0
    assert stream.write(["8"]) == 1
    out.write("\n]")
    assert json.loads(out.getvalue()) == [{"n": n} for n in range(7)] + [8]
    assert stream.count == 8
    assert out.getvalue().splitlines()[1] == indent + '{"n": 0},'
