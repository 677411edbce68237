"""Fixtures of the conformance-suite tests: hand-made logs (records built in memory) and targets."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conformance.abi import ACTIVITY_KINDS, record_size
from conformance.log import RunLog
from support.run_folder import shared_folder


class LogBuilder:
    """Builds a scenario log event by event, numbering them like the collector does."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self._cid = 0
        self._request = 0

    def add(self, ev: str, **fields: Any) -> dict[str, Any]:
        event = {"ev": ev, **fields, "seq": len(self.events) + 1}
        self.events.append(event)
        return event

    def call(
        self,
        fn: str,
        label: str = "",
        ret: int | None = 0,
        tid: int = 100,
        t0: int = 1_000,
        t1: int = 2_000,
        **data: Any,
    ) -> dict[str, Any]:
        fields: dict[str, Any] = {"fn": fn, "ret": ret, "tid": tid, "t0": t0, "t1": t1, **data}
        if label:
            fields["label"] = label
        return self.add("call", **fields)

    def note(self, text: str) -> dict[str, Any]:
        return self.add("note", text=text)

    def request(
        self, buf: int, size: int = 1024, *, declined: bool = False, inflight: int = 1, args_ok: bool = True
    ) -> dict[str, Any]:
        self._request += 1
        return self.add(
            "request",
            n=self._request,
            pair="A",
            buf=0 if declined else buf,
            size=0 if declined else size,
            max=0,
            declined=declined,
            args_ok=args_ok,
            tid=100,
            inflight=inflight,
        )

    def complete(
        self,
        buf: int,
        records: list[tuple[str | int, dict[str, Any]]],
        *,
        size: int = 1024,
        valid: int | None = None,
        status: int = 3,
        offsets: list[int] | None = None,
        end: int | None = None,
        tid: int = 100,
    ) -> int:
        """A completion carrying ``records`` ((kind, fields) pairs) laid out back to back."""
        self._cid += 1
        cid = self._cid
        kinds = [ACTIVITY_KINDS[k] if isinstance(k, str) else k for k, _fields in records]
        layout = []
        offset = 0
        for kind in kinds:
            layout.append(offset)
            offset += record_size(kind) or 56
        used = offset
        self.add(
            "complete",
            cid=cid,
            pair="A",
            buf=buf,
            size=size,
            valid=used if valid is None else valid,
            tid=tid,
            inflight=1,
            known=True,
        )
        for index, ((_kind, fields), kind) in enumerate(zip(records, kinds, strict=True)):
            where = offsets[index] if offsets is not None else layout[index]
            self.add("record", cid=cid, off=where, kind=kind, **fields)
        self.add("complete_end", cid=cid, status=status, count=len(records), end=used if end is None else end)
        return cid

    def callback(self, site: int, fn: str, tid: int = 100, domain: int = 1, cbid: int = 15) -> None:
        self.add("cb", site=site, fn=fn, tid=tid, domain=domain, cbid=cbid, ud_ok=True, depth=1, t=1_500)

    def build(self) -> RunLog:
        return RunLog(self.events)


@pytest.fixture
def log_builder() -> LogBuilder:
    return LogBuilder()


def _marker(
    id_: int, name: str = "m", flag: int = 1, source: int = 0, timestamp: int = 1_500, **extra: Any
) -> dict[str, Any]:
    return {
        "flag": flag,
        "source": source,
        "timestamp": timestamp,
        "id": id_,
        "obj0": 1,
        "obj1": 100,
        "name": name,
        "domain": "default",
        **extra,
    }


@pytest.fixture
def marker() -> Any:
    """Fields of a MARKER record: marker(id, name=..., flag=..., source=..., timestamp=...)."""
    return _marker


@pytest.fixture(scope="session", autouse=True)
def conformance_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Built workloads and library aliases of the tests go to a private cache, one per run that every
    xdist worker shares (support.run_folder): each workload is built once per run."""
    cache = shared_folder(tmp_path_factory, "conformance-cache")
    previous = os.environ.get("MSPTI_CONFORMANCE_CACHE")
    os.environ["MSPTI_CONFORMANCE_CACHE"] = str(cache)
    yield cache
    if previous is None:
        os.environ.pop("MSPTI_CONFORMANCE_CACHE", None)
    else:
        os.environ["MSPTI_CONFORMANCE_CACHE"] = previous
