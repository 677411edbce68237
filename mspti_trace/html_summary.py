"""A self-contained HTML summary of a capture: top kernels, time per node (when a breakdown is
given) and per-stream utilisation, with bar charts drawn as inline SVG (no scripts, no external
resources)."""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mspti_trace.kinds import INVALID_STREAM, ActivityKind
from mspti_trace.reader import Trace

__all__ = ["StreamUse", "kernel_totals", "stream_utilisation", "write_html_summary"]

_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.note { color: #666; }
svg text { font-size: 12px; font-family: sans-serif; }
"""
_TIMED = (ActivityKind.KERNEL, ActivityKind.MEMCPY, ActivityKind.MEMSET, ActivityKind.COMMUNICATION)


@dataclass(frozen=True)
class StreamUse:
    device: int
    stream: int
    busy_us: float
    span_us: float

    @property
    def utilisation(self) -> float:
        return self.busy_us / self.span_us if self.span_us > 0 else 0.0


def kernel_totals(trace: Trace) -> list[tuple[str, int, float]]:
    """(kernel name, launches, total µs) over every capture, largest total first."""
    totals: dict[str, tuple[int, float]] = {}
    for capture in trace.captures:
        kernels = capture.table(ActivityKind.KERNEL)
        if len(kernels) == 0:
            continue
        durations = (kernels["end"].astype(np.int64) - kernels["start"].astype(np.int64)).clip(min=0) / 1000.0
        ids, inverse = np.unique(kernels["name"], return_inverse=True)
        counts = np.bincount(inverse)
        sums = np.bincount(inverse, weights=durations)
        for name, count, total in zip(
            capture.text(ids).tolist(), counts.tolist(), sums.tolist(), strict=True
        ):
            before = totals.get(name, (0, 0.0))
            totals[name] = (before[0] + count, before[1] + total)
    return sorted(((n, c, t) for n, (c, t) in totals.items()), key=lambda row: -row[2])


def _union_ns(starts: np.ndarray, ends: np.ndarray) -> int:
    order = np.argsort(starts, kind="stable")
    starts, ends = starts[order], ends[order]
    reach = np.maximum.accumulate(ends)
    # A new busy interval begins where a start lies beyond everything that came before it.
    gaps = np.maximum(starts[1:] - reach[:-1], 0)
    return int(reach[-1] - starts[0] - gaps.sum())


def stream_utilisation(trace: Trace) -> list[StreamUse]:
    """Busy time (union of device operations) over the span from first start to last end, per stream."""
    lanes: dict[tuple[int, int], list[tuple[np.ndarray, np.ndarray]]] = {}
    for capture in trace.captures:
        for kind in _TIMED:
            records = capture.table(kind)
            records = records[records["stream_id"] != INVALID_STREAM]
            if len(records) == 0:
                continue
            keys = np.stack(
                [records["device_id"].astype(np.int64), records["stream_id"].astype(np.int64)], axis=1
            )
            for device, stream in np.unique(keys, axis=0).tolist():
                mask = (keys[:, 0] == device) & (keys[:, 1] == stream)
                lanes.setdefault((device, stream), []).append(
                    (records["start"][mask].astype(np.int64), records["end"][mask].astype(np.int64))
                )
    result = []
    for (device, stream), parts in sorted(lanes.items()):
        starts = np.concatenate([p[0] for p in parts])
        ends = np.maximum(np.concatenate([p[1] for p in parts]), starts)
        span = int(ends.max() - starts.min())
        result.append(StreamUse(device, stream, _union_ns(starts, ends) / 1000.0, span / 1000.0))
    return result


def _bars(rows: list[tuple[str, float, str]], width: int = 720) -> str:
    """A horizontal bar chart: (label, value, value text) per bar."""
    if not rows:
        return ""
    bar_height, label_width, gap = 18, 280, 4
    largest = max(value for _, value, _ in rows) or 1.0
    height = len(rows) * (bar_height + gap) + gap
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">']
    for position, (label, value, text) in enumerate(rows):
        y = gap + position * (bar_height + gap)
        length = max((width - label_width - 110) * value / largest, 1.0)
        short = label if len(label) <= 40 else label[:37] + "..."
        parts.append(
            f'<text x="{label_width - 6}" y="{y + 13}" text-anchor="end">{html.escape(short)}</text>'
            f'<rect x="{label_width}" y="{y}" width="{length:.1f}" height="{bar_height}" fill="#4a78b5">'
            f"<title>{html.escape(label)}: {html.escape(text)}</title></rect>"
            f'<text x="{label_width + length + 6:.1f}" y="{y + 13}">{html.escape(text)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _table(headers: list[str], rows: list[list[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def write_html_summary(
    trace: Trace,
    out: Path | str,
    perf: dict[str, Any] | None = None,
    *,
    top: int = 15,
    title: str | None = None,
) -> Path:
    """Writes the summary page; ``perf`` is a breakdown's perf data document (time per node)."""
    kernels = kernel_totals(trace)
    kernel_time = sum(total for _, _, total in kernels) or 1.0
    top_rows = kernels[:top]
    sections = []
    sections.append(
        '<section id="top-kernels"><h2>Top kernels</h2>'
        + _bars([(name, total, f"{total:.1f} µs") for name, _, total in top_rows])
        + _table(
            ["kernel", "launches", "total µs", "mean µs", "% of kernel time"],
            [
                [name, str(count), f"{total:.3f}", f"{total / count:.3f}", f"{100 * total / kernel_time:.1f}"]
                for name, count, total in top_rows
            ],
        )
        + "</section>"
    )
    if perf is not None:
        records = [r for r in perf.get("modules", []) if r.get("time_us") is not None]
        records.sort(key=lambda r: -r["time_us"])
        account = perf.get("accounting", {}).get("account", "")
        sections.append(
            '<section id="time-per-node"><h2>Time per node</h2>'
            f'<p class="note">Kernel accounting: {html.escape(account)}</p>'
            + _bars([(r["node_id"], r["time_us"], f"{r['time_us']:.1f} µs") for r in records[:top]])
            + _table(
                ["node", "scope", "time µs", "% of step", "kernels", "instances"],
                [
                    [
                        r["node_id"],
                        r["metric_scope"],
                        f"{r['time_us']:.3f}",
                        "" if r["time_pct"] is None else f"{r['time_pct']:.1f}",
                        "" if r["nops"] is None else str(r["nops"]),
                        ",".join(str(i) for i in r["instance_indices"]),
                    ]
                    for r in records
                ],
            )
            + "</section>"
        )
    else:
        sections.append(
            '<section id="time-per-node"><h2>Time per node</h2>'
            '<p class="note">No breakdown was given (see <code>npu-sim trace breakdown</code>).</p></section>'
        )
    streams = stream_utilisation(trace)
    sections.append(
        '<section id="stream-utilisation"><h2>Per-stream utilisation</h2>'
        + _bars(
            [
                (f"NPU {s.device} stream {s.stream}", s.utilisation, f"{100 * s.utilisation:.1f} %")
                for s in streams
            ]
        )
        + _table(
            ["stream", "busy µs", "span µs", "utilisation %"],
            [
                [
                    f"NPU {s.device} stream {s.stream}",
                    f"{s.busy_us:.3f}",
                    f"{s.span_us:.3f}",
                    f"{100 * s.utilisation:.1f}",
                ]
                for s in streams
            ],
        )
        + "</section>"
    )
    heading = title or f"Trace summary: {trace.directory.name}"
    processes = ", ".join(f"pid {c.pid} ({c.total_records} records)" for c in trace.captures)
    page = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(heading)}</title><style>{_STYLE}</style></head><body>"
        f'<h1>{html.escape(heading)}</h1><p class="note">{html.escape(processes)}</p>'
        + "".join(sections)
        + "</body></html>\n"
    )
    path = Path(out)
    path.write_text(page, encoding="utf-8")
    return path
