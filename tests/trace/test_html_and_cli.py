"""The HTML summary page and the `npu-sim trace` subcommands on a synthetic capture."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mspti_trace import build_breakdown, load_trace, write_html_summary
from mspti_trace.html_summary import kernel_totals, stream_utilisation
from sim_runtime.cli import main as npu_sim


def test_the_summary_has_its_sections_and_inline_plots(decoder_dir: Path, tmp_path: Path) -> None:
    trace = load_trace(decoder_dir)
    page = write_html_summary(trace, tmp_path / "s.html", build_breakdown(trace).perf).read_text()
    for section in ("top-kernels", "time-per-node", "stream-utilisation"):
        assert f'<section id="{section}">' in page
    assert page.count("<svg") == 3
    assert "<script" not in page and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in page
    assert "MatMulV2_q_proj" in page and "model/model/decoder_layers/attention/q_proj" in page
    assert "+ 0 unattributed" in page


def test_the_summary_without_a_breakdown_says_so(decoder_dir: Path, tmp_path: Path) -> None:
    page = write_html_summary(load_trace(decoder_dir), tmp_path / "s.html").read_text()
    assert "No breakdown was given" in page


def test_top_kernels_and_utilisation_figures(fakes, tmp_path: Path) -> None:
    process = fakes.FakeProcess()
    for _ in range(3):
        process.launch("a", "Big", duration=3000)
    process.launch("a", "Small", duration=1000)
    process.write(tmp_path)
    trace = load_trace(tmp_path)
    assert kernel_totals(trace) == [("Big", 3, 9.0), ("Small", 1, 1.0)]
    (use,) = stream_utilisation(trace)
    assert use.busy_us == pytest.approx(10.0) and 0 < use.utilisation <= 1


def test_cli_export_breakdown_validate_report(decoder_dir: Path, tmp_path: Path, capsys) -> None:
    assert npu_sim(["trace", "export", str(decoder_dir), "-o", str(tmp_path / "t.json"), "--check"]) == 0
    assert "structure check: ok" in capsys.readouterr().out
    out = tmp_path / "facts"
    code = npu_sim(
        [
            "trace",
            "breakdown",
            str(decoder_dir),
            "-o",
            str(out),
            "--model-name",
            "decoder",
            "--html",
            str(tmp_path / "s.html"),
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert re.search(r"^\d+ total = \d+ attributed \+ \d+ excluded \+ 0 unattributed$", printed, re.M)
    assert (out / "decoder_analysis_config.json").exists() and (tmp_path / "s.html").exists()
    assert npu_sim(["trace", "validate", str(out)]) == 0
    assert capsys.readouterr().out.startswith("valid: ")
    timeline = out / "decoder_timeline.json"
    data = json.loads(timeline.read_text())
    data["events"][0]["owner_node_id"] = "model/decoder/nowhere"
    timeline.write_text(json.dumps(data))
    assert npu_sim(["trace", "validate", str(out)]) == 1
    assert "timeline_owners" in capsys.readouterr().out
    assert npu_sim(["trace", "report", str(decoder_dir), "--facts", str(tmp_path / "facts")]) == 0
    assert (decoder_dir / "summary.html").exists()


def test_cli_breakdown_refuses_incomplete_accounting(fakes, tmp_path: Path, capsys) -> None:
    process = fakes.FakeProcess()
    with process.range("step"):
        with process.range("norm"):
            process.launch("aclnnRmsNorm", "RmsNorm")
        process.launch("aclnnAdd", "Add")
    process.write(tmp_path / "cap")
    assert npu_sim(["trace", "breakdown", str(tmp_path / "cap"), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert "refusing to emit the breakdown: 2 total = 1 attributed + 0 excluded + 1 unattributed" in err
    assert not (tmp_path / "out").exists()


def test_cli_reports_user_errors(tmp_path: Path, capsys) -> None:
    assert npu_sim(["trace", "export", str(tmp_path / "missing")]) == 2
    assert "not a capture directory" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        npu_sim(["trace", "--kinds", "kernel"])  # no program
    assert npu_sim(["trace", "--kinds", "bogus", "--", "true"]) == 2
    assert "unknown activity kind 'bogus'" in capsys.readouterr().err
