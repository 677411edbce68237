"""A structural check of Chrome trace event JSON, standing in for loading it in Perfetto's trace
processor where that binary is not available. It checks what the importer relies on: the shape of
each event by phase (also given as a JSON schema, :data:`TRACE_EVENT_SCHEMA`), complete events
that nest properly on each track, flow starts and finishes that pair up and bind to a slice, and
counter values that are numbers."""

from __future__ import annotations

import bisect
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

__all__ = ["TRACE_EVENT_SCHEMA", "check_chrome_trace"]

_EPSILON_US = 1e-3
_METADATA_NAMES = {"process_name", "process_sort_index", "thread_name", "thread_sort_index", "process_labels"}

#: JSON schema (draft 2020-12) of the subset of the trace event format the exporter writes.
TRACE_EVENT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["traceEvents"],
    "properties": {
        "displayTimeUnit": {"enum": ["ms", "ns"]},
        "otherData": {"type": "object"},
        "traceEvents": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["ph", "pid"],
                "properties": {
                    "ph": {"enum": ["X", "B", "E", "i", "I", "C", "M", "s", "t", "f", "b", "e", "n"]},
                    "name": {"type": "string"},
                    "cat": {"type": "string"},
                    "pid": {"type": "integer", "minimum": 0},
                    "tid": {"type": "integer", "minimum": 0},
                    # torch_npu (--format ascend-pt) writes ts as a decimal string.
                    "ts": {"type": ["number", "string"], "pattern": "^-?[0-9]+([.][0-9]+)?$"},
                    "dur": {"type": "number", "minimum": 0},
                    "id": {"type": ["integer", "string"]},
                    "bp": {"enum": ["e"]},
                    "s": {"enum": ["g", "p", "t"]},
                    "args": {"type": "object"},
                },
                "allOf": [
                    {
                        "if": {"properties": {"ph": {"const": "X"}}},
                        "then": {"required": ["name", "tid", "ts", "dur"]},
                    },
                    {
                        "if": {"properties": {"ph": {"enum": ["s", "f", "t"]}}},
                        "then": {"required": ["name", "tid", "ts", "id"]},
                    },
                    {
                        "if": {"properties": {"ph": {"const": "C"}}},
                        "then": {
                            "required": ["name", "ts", "args"],
                            "properties": {"args": {"additionalProperties": {"type": "number"}}},
                        },
                    },
                    {
                        "if": {"properties": {"ph": {"enum": ["i", "I"]}}},
                        "then": {"required": ["name", "ts"]},
                    },
                    {
                        "if": {"properties": {"ph": {"const": "M"}}},
                        "then": {"required": ["name", "args"]},
                    },
                ],
            },
        },
    },
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class _Timestamps:
    """Reads ``ts``: a number, or a decimal string (torch_npu writes ``"1780295077844643.830"``:
    absolute microseconds, more digits than a double holds). Strings are read exactly and made
    relative to the whole microsecond of the first one, so that comparisons keep nanoseconds."""

    def __init__(self) -> None:
        self.base: int | None = None

    def __call__(self, value: object) -> float | None:
        if _is_number(value):
            return float(value)  # type: ignore[arg-type]
        if not isinstance(value, str):
            return None
        whole, _, fraction = value.partition(".")
        if not whole.lstrip("-").isdigit() or (fraction and not fraction.isdigit()):
            return None
        if self.base is None:
            self.base = int(whole)
        part = float("0." + fraction) if fraction else 0.0
        return float(int(whole) - self.base) + (-part if whole.startswith("-") else part)


def check_chrome_trace(source: Path | str | dict[str, Any] | list[Any]) -> list[str]:
    """Problems found in a trace (an empty list when it is well formed). Both forms of the format
    are read: an object with ``traceEvents``, or a bare array of events."""
    if isinstance(source, dict | list):
        document = source
    else:
        try:
            document = json.loads(Path(source).read_text(encoding="utf-8"))
        except ValueError as error:
            return [f"not valid JSON: {error}"]
    if isinstance(document, list):
        document = {"traceEvents": document}
    events = document.get("traceEvents") if isinstance(document, dict) else None
    if not isinstance(events, list):
        return ["no traceEvents array"]
    problems: list[str] = []
    timestamp = _Timestamps()
    slices: dict[tuple[int, int], list[tuple[float, float, str]]] = defaultdict(list)
    flow_points: list[tuple[str, Any, int, int, float]] = []
    flow_ids: dict[str, defaultdict[Any, int]] = {"s": defaultdict(int), "f": defaultdict(int)}
    for index, event in enumerate(events):
        where = f"event {index}"
        if not isinstance(event, dict):
            problems.append(f"{where}: not an object")
            continue
        phase = event.get("ph")
        if not _is_int(event.get("pid")):
            problems.append(f"{where}: pid is not an integer")
        if phase == "M":
            if event.get("name") not in _METADATA_NAMES or not isinstance(event.get("args"), dict):
                problems.append(f"{where}: metadata event {event.get('name')!r} without args")
            continue
        if not isinstance(event.get("name"), str):
            problems.append(f"{where}: name is not a string")
        found = timestamp(event.get("ts"))
        if found is None:
            problems.append(f"{where}: ts is not a number")
            continue
        ts = found
        if phase == "X":
            duration = event.get("dur")
            if not isinstance(duration, int | float) or isinstance(duration, bool) or duration < 0:
                problems.append(f"{where}: complete event with bad dur {duration!r}")
                continue
            if not _is_int(event.get("tid")):
                problems.append(f"{where}: complete event without integer tid")
                continue
            slices[(event["pid"], event["tid"])].append((ts, ts + float(duration), event["name"]))
        elif phase in ("s", "f"):
            if "id" not in event or not _is_int(event.get("tid")):
                problems.append(f"{where}: flow event without id or tid")
                continue
            if phase == "f" and event.get("bp") != "e":
                problems.append(f"{where}: flow finish without bp 'e' (it would bind to the next slice)")
            flow_ids[phase][event["id"]] += 1
            flow_points.append((phase, event["id"], event["pid"], event["tid"], ts))
        elif phase == "C":
            args = event.get("args")
            if not isinstance(args, dict) or not args or not all(_is_number(v) for v in args.values()):
                problems.append(f"{where}: counter without numeric args")
        elif phase in ("i", "I"):
            if event.get("s", "t") not in ("g", "p", "t"):
                problems.append(f"{where}: instant with bad scope {event.get('s')!r}")
        else:
            problems.append(f"{where}: phase {phase!r} is not one this exporter writes")
    problems.extend(_check_nesting(slices))
    problems.extend(_check_flows(flow_ids, flow_points, slices))
    return problems


def _check_nesting(slices: dict[tuple[int, int], list[tuple[float, float, str]]]) -> list[str]:
    problems = []
    for (pid, tid), spans in slices.items():
        spans.sort(key=lambda span: (span[0], -span[1]))
        stack: list[tuple[float, float, str]] = []
        for span in spans:
            while stack and stack[-1][1] <= span[0] + _EPSILON_US:
                stack.pop()
            if stack and span[1] > stack[-1][1] + _EPSILON_US:
                problems.append(
                    f"track pid={pid} tid={tid}: {span[2]!r} [{span[0]}, {span[1]}] overlaps "
                    f"{stack[-1][2]!r} [{stack[-1][0]}, {stack[-1][1]}] without nesting"
                )
                continue
            stack.append(span)
    return problems


def _check_flows(
    flow_ids: dict[str, defaultdict[Any, int]],
    points: list[tuple[str, Any, int, int, float]],
    slices: dict[tuple[int, int], list[tuple[float, float, str]]],
) -> list[str]:
    problems = []
    start_counts, finish_counts = flow_ids["s"], flow_ids["f"]
    for flow_id in set(start_counts) | set(finish_counts):
        if start_counts.get(flow_id, 0) != 1 or finish_counts.get(flow_id, 0) != 1:
            problems.append(
                f"flow {flow_id}: {start_counts.get(flow_id, 0)} start(s) and "
                f"{finish_counts.get(flow_id, 0)} finish(es)"
            )
    covered = {track: _merged(spans) for track, spans in slices.items()}
    for phase, flow_id, pid, tid, ts in points:
        starts, ends = covered.get((pid, tid), ([], []))
        position = bisect.bisect_right(starts, ts + _EPSILON_US) - 1
        if position < 0 or ts > ends[position] + _EPSILON_US:
            problems.append(f"flow {flow_id}: {phase} at ts={ts} on pid={pid} tid={tid} binds to no slice")
    return problems


def _merged(spans: list[tuple[float, float, str]]) -> tuple[list[float], list[float]]:
    """The union of a track's slices as sorted, disjoint [start, end] intervals."""
    starts: list[float] = []
    ends: list[float] = []
    for start, end, _ in sorted(spans):
        if ends and start <= ends[-1] + _EPSILON_US:
            ends[-1] = max(ends[-1], end)
        else:
            starts.append(start)
            ends.append(end)
    return starts, ends
