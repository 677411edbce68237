"""The synthetic capture the export speed is measured on (mspti_trace/synthetic.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mspti_trace import load_trace
from mspti_trace.calls import host_calls
from mspti_trace.cli import main
from mspti_trace.kinds import INVALID_STREAM, ActivityKind
from mspti_trace.synthetic import measure_export, write_synthetic_capture


def test_the_capture_has_the_records_it_says(tmp_path: Path) -> None:
    written = write_synthetic_capture(tmp_path / "cap", 20_000)
    trace = load_trace(tmp_path / "cap")
    assert trace.total_records == written and abs(written - 20_000) < 1_000
    capture = trace.capture()
    clocks = host_calls(capture).copies
    streams = capture.table(ActivityKind.MEMCPY)["stream_id"]
    # the synchronous copies are timed on the host, the asynchronous ones on the device
    assert (clocks.host_timed == (streams == INVALID_STREAM)).all() and clocks.undecided == 0


def test_a_seed_reproduces_the_capture(tmp_path: Path) -> None:
    write_synthetic_capture(tmp_path / "a", 5_000, seed=3)
    write_synthetic_capture(tmp_path / "b", 5_000, seed=3)
    write_synthetic_capture(tmp_path / "c", 5_000, seed=4)
    records = {name: next((tmp_path / name).glob("*.records")).read_bytes() for name in "abc"}
    assert records["a"] == records["b"] != records["c"]


@pytest.mark.parametrize("form", ["chrome", "kineto", "ascend-pt"])
def test_every_format_of_it_passes_the_check(tmp_path: Path, form: str, capsys) -> None:
    write_synthetic_capture(tmp_path / "cap", 10_000)
    assert (
        main(["export", str(tmp_path / "cap"), "--format", form, "-o", str(tmp_path / "out"), "--check"]) == 0
    )
    assert "structure check: ok" in capsys.readouterr().out


def test_measure_export_times_each_phase(tmp_path: Path) -> None:
    timing = measure_export(5_000, ("kineto", "ascend-pt"), work_dir=tmp_path)
    assert set(timing.wall) == set(timing.cpu) == {"load", "kineto", "ascend-pt"}
    assert all(seconds >= 0 for seconds in timing.wall.values())
    assert timing.events["kineto"] > timing.records // 2 and timing.bytes_written["ascend-pt"] > 0
    with pytest.raises(ValueError, match="unknown export format"):
        measure_export(100, ("perfetto",))
