"""Streaming a JSON array's elements to a file: the exports (Chrome, Kineto, ascend_pt's
trace_view.json) format their events as lines of JSON text and write them in large batches, one
write per batch, so that a capture of millions of records never becomes one string or one object
tree in memory."""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

__all__ = ["JsonArrayStream"]

#: Lines per write.
BATCH = 100_000


class JsonArrayStream:
    """The elements of one JSON array, written after its ``[`` (which the caller writes, with the
    closing ``]``): each on its own line after ``indent``, separated by commas."""

    def __init__(self, out: IO[str], indent: str = "") -> None:
        self.out = out
        self.indent = indent
        #: Elements written so far.
        self.count = 0

    def write(self, lines: Iterable[str]) -> int:
        """Writes ``lines`` (each one element's JSON text); returns how many."""
        written = 0
        batch: list[str] = []
        for line in lines:
            batch.append(line)
            if len(batch) >= BATCH:
                written += self._flush(batch)
                batch = []
        if batch:
            written += self._flush(batch)
        return written

    def _flush(self, batch: list[str]) -> int:
        separator = ",\n" + self.indent
        self.out.write(("," if self.count else "") + "\n" + self.indent + separator.join(batch))
        self.count += len(batch)
        return len(batch)
