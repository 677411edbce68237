"""The scenario log: JSON lines written by the collector and the workload, parsed into typed events.

Every line carries ``ev`` (the event type) and ``seq`` (a process-wide sequence number; the file is
in ``seq`` order). Event types: ``start``, ``features``, ``call`` (a workload call and its result),
``quiet`` (totals of unlogged calls), ``request`` / ``complete`` / ``complete_end`` (the buffer
protocol), ``record`` (one activity record, tied to its completion by ``cid``), ``cb`` (a Callback
API invocation), ``note``, ``stream``, ``thread_start``, ``canary``, ``strings``, ``finish``, ``exit``;
``reenter`` (a call the THR-07 probe made from inside a buffer callback). Python scenario drivers
(conformance/pydriver) add ``py_import``, ``py_names``, ``py_enums`` and ``pydata`` (an object a
Python monitor handed to a callback), and log their package calls as ``call`` events.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Call", "Callback", "Completion", "LogError", "Record", "Request", "RunLog"]


class LogError(LookupError):
    """A checker asked the log for something it does not contain."""


@dataclass(frozen=True)
class Record:
    """One activity record iterated from a completed buffer."""

    seq: int
    cid: int
    offset: int
    kind: int
    data: Mapping[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


@dataclass(frozen=True)
class Call:
    """A call the workload made (msPTI or runtime), with its result and time window."""

    seq: int
    fn: str
    label: str
    ret: int | None
    tid: int
    t0: int
    t1: int
    data: Mapping[str, Any]

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    @property
    def missing(self) -> bool:
        """The target does not export the function."""
        return bool(self.data.get("missing"))


@dataclass(frozen=True)
class Request:
    seq: int
    number: int
    pair: str
    buf: int
    size: int
    max_records: int
    declined: bool
    args_ok: bool
    tid: int
    inflight: int


@dataclass
class Completion:
    """A complete callback: its arguments, the records iterated from it and how iteration ended."""

    seq: int
    cid: int
    pair: str
    buf: int
    size: int
    valid: int
    known: bool
    tid: int
    inflight: int
    status: int | None = None
    count: int = 0
    end_offset: int = 0
    end_seq: int | None = None
    records: list[Record] = field(default_factory=list)


@dataclass(frozen=True)
class Callback:
    seq: int
    domain: int
    cbid: int
    site: int | None
    fn: str | None
    tid: int
    depth: int
    userdata_ok: bool
    data: Mapping[str, Any]


class RunLog:
    """All events of one process, in order, with indexes for the checkers."""

    def __init__(self, events: Iterable[Mapping[str, Any]], *, truncated: bool = False) -> None:
        self.events: list[Mapping[str, Any]] = sorted(events, key=lambda e: int(e.get("seq", 0)))
        self.truncated = truncated
        self.calls: list[Call] = []
        self.requests: list[Request] = []
        self.completions: list[Completion] = []
        self.callbacks: list[Callback] = []
        self.records: list[Record] = []
        self._by_cid: dict[int, Completion] = {}
        for event in self.events:
            self._index(event)

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_lines(cls, lines: Iterable[str]) -> RunLog:
        events = []
        truncated = False
        for line in lines:
            line = line.strip()
            if not line:
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError:
                truncated = True  # a process killed mid-write leaves a partial last line
                continue
            if isinstance(value, dict):
                events.append(value)
        return cls(events, truncated=truncated)

    @classmethod
    def from_file(cls, path: Path) -> RunLog:
        if not path.exists():
            return cls([])
        with path.open(encoding="utf-8", errors="replace") as stream:
            return cls.from_lines(stream)

    @classmethod
    def from_events(cls, events: Iterable[Mapping[str, Any]]) -> RunLog:
        """Builds a log from event dicts; missing ``seq`` numbers are assigned in order (tests)."""
        numbered = []
        for index, event in enumerate(events, start=1):
            numbered.append({"seq": index, **event} if "seq" not in event else dict(event))
        return cls(numbered)

    def _index(self, event: Mapping[str, Any]) -> None:
        kind = event.get("ev")
        seq = int(event.get("seq", 0))
        if kind == "call":
            self.calls.append(
                Call(
                    seq,
                    str(event.get("fn", "")),
                    str(event.get("label", "")),
                    event.get("ret"),
                    int(event.get("tid", 0)),
                    int(event.get("t0", 0)),
                    int(event.get("t1", 0)),
                    event,
                )
            )
        elif kind == "request":
            self.requests.append(
                Request(
                    seq,
                    int(event.get("n", 0)),
                    str(event.get("pair", "A")),
                    int(event.get("buf", 0)),
                    int(event.get("size", 0)),
                    int(event.get("max", 0)),
                    bool(event.get("declined", False)),
                    bool(event.get("args_ok", True)),
                    int(event.get("tid", 0)),
                    int(event.get("inflight", 1)),
                )
            )
        elif kind == "complete":
            completion = Completion(
                seq,
                int(event["cid"]),
                str(event.get("pair", "A")),
                int(event.get("buf", 0)),
                int(event.get("size", 0)),
                int(event.get("valid", 0)),
                bool(event.get("known", True)),
                int(event.get("tid", 0)),
                int(event.get("inflight", 1)),
            )
            self.completions.append(completion)
            self._by_cid[completion.cid] = completion
        elif kind == "complete_end":
            completion = self._by_cid.get(int(event.get("cid", -1)))
            if completion is not None:
                completion.status = event.get("status")
                completion.count = int(event.get("count", 0))
                completion.end_offset = int(event.get("end", 0))
                completion.end_seq = seq
        elif kind == "record":
            record = Record(
                seq, int(event.get("cid", 0)), int(event.get("off", 0)), int(event.get("kind", 0)), event
            )
            self.records.append(record)
            owner = self._by_cid.get(record.cid)
            if owner is not None:
                owner.records.append(record)
        elif kind == "cb":
            site = event.get("site")
            self.callbacks.append(
                Callback(
                    seq,
                    int(event.get("domain", 0)),
                    int(event.get("cbid", 0)),
                    None if site is None else int(site),
                    event.get("fn"),
                    int(event.get("tid", 0)),
                    int(event.get("depth", 0)),
                    bool(event.get("ud_ok", True)),
                    event,
                )
            )

    # ------------------------------------------------------------------ queries

    def of_type(self, ev: str) -> list[Mapping[str, Any]]:
        return [event for event in self.events if event.get("ev") == ev]

    def first(self, ev: str) -> Mapping[str, Any] | None:
        for event in self.events:
            if event.get("ev") == ev:
                return event
        return None

    def calls_to(self, fn: str) -> list[Call]:
        return [call for call in self.calls if call.fn == fn]

    def labelled(self, prefix: str) -> list[Call]:
        return [call for call in self.calls if call.label.startswith(prefix)]

    def call(self, label: str) -> Call:
        """The call labelled ``label``; LogError when it is absent (the workload stopped earlier)."""
        found = [call for call in self.calls if call.label == label]
        if not found:
            raise LogError(f"the log has no call labelled {label!r} (did the workload stop early?)")
        if len(found) > 1:
            raise LogError(f"the log has {len(found)} calls labelled {label!r}; expected one")
        return found[0]

    def has_call(self, label: str) -> bool:
        return any(call.label == label for call in self.calls)

    def note_seq(self, text: str) -> int:
        for event in self.events:
            if event.get("ev") == "note" and event.get("text") == text:
                return int(event["seq"])
        raise LogError(f"the log has no note {text!r} (did the workload stop early?)")

    def records_of(self, *kinds: int) -> list[Record]:
        wanted = set(kinds)
        return [record for record in self.records if record.kind in wanted]

    def records_between(self, first_seq: int, last_seq: int, *kinds: int) -> list[Record]:
        """Records delivered (logged) after event ``first_seq`` and before event ``last_seq``."""
        wanted = set(kinds)
        return [r for r in self.records if first_seq < r.seq < last_seq and (not wanted or r.kind in wanted)]

    def quiet_total(self, fn: str) -> tuple[int, int]:
        """(calls, failed calls) of ``fn`` made inside quiet blocks."""
        count = fails = 0
        for event in self.of_type("quiet"):
            if event.get("fn") == fn:
                count += int(event.get("count", 0))
                fails += int(event.get("fails", 0))
        return count, fails

    def completion(self, cid: int) -> Completion | None:
        return self._by_cid.get(cid)

    def stream_ids(self) -> dict[str, int]:
        return {str(e["var"]): int(e["stream_id"]) for e in self.of_type("stream")}

    def unsupported(self) -> str | None:
        event = self.first("unsupported")
        return None if event is None else str(event.get("command"))

    def driver_error(self) -> str | None:
        event = self.first("driver_error")
        return None if event is None else str(event.get("message"))

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)
