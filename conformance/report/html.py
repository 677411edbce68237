"""A self-contained HTML report: summary, one row per clause with its evidence, scenario logs inline."""

from __future__ import annotations

import html
import json
from pathlib import Path

from conformance.execute import RunResult
from conformance.repeat import Repetition
from conformance.report.json_report import report_dict
from conformance.runner import SuiteReport

__all__ = ["render_html", "write_html"]

_LOG_LIMIT = 120_000  # characters of each run's log embedded in the page

_STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #ddd; vertical-align: top; }
.verdict { font-weight: 600; border-radius: 3px; padding: 1px 6px; white-space: nowrap; }
.pass { background: #d8f5d8; } .fail { background: #ffd6d6; } .skip { background: #fff2c6; }
.not-automated { background: #dcecff; }
.counts span { margin-right: 1.2em; }
pre { background: #f6f6f6; padding: 8px; overflow: auto; max-height: 30em; font-size: 12px; }
details { margin: 2px 0; } summary { cursor: pointer; }
.filters button { margin-right: .5em; }
.meta td:first-child { font-weight: 600; width: 12em; }
"""

_SCRIPT = """
function show(verdict) {
  for (const row of document.querySelectorAll('tr.clause')) {
    row.style.display = (verdict === 'all' || row.dataset.verdict === verdict) ? '' : 'none';
  }
}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _run_block(run: RunResult) -> str:
    try:
        text = run.log_path.read_text(encoding="utf-8", errors="replace") if run.log_path.exists() else ""
    except OSError:
        text = ""
    if len(text) > _LOG_LIMIT:
        text = text[:_LOG_LIMIT] + f"\n... ({len(text) - _LOG_LIMIT} more characters in {run.log_path})"
    parts = [
        f"<details><summary>run <b>{_e(run.invocation.name)}</b> ({_e(run.invocation.program)}): "
        f"exit {_e(run.exit_code)}{' (timed out)' if run.timed_out else ''}, {run.duration:.2f}s"
        f"{' - ' + _e(run.failure()) if run.failed else ''}</summary>"
    ]
    if run.build_error:
        parts.append(f"<pre>{_e(run.build_error)}</pre>")
    if run.invocation.script:
        parts.append(f"<p>script</p><pre>{_e(run.invocation.script)}</pre>")
    if run.stderr.strip():
        parts.append(f"<p>stderr</p><pre>{_e(run.stderr[-8000:])}</pre>")
    parts.append(f"<p>log ({_e(run.log_path)})</p><pre>{_e(text)}</pre></details>")
    return "".join(parts)


def _failed_runs(repetition: Repetition) -> str:
    """Each failing grading of a repeated clause: its round, reason, failed checks and evidence."""
    parts = [f"<p>{_e(repetition.label())} of {repetition.rounds} gradings</p>"]
    for run in repetition.failed_runs:
        checks = "".join(f"<li>{_e(f)}</li>" for f in run.failures)
        seen = "".join(f"<li><pre>{_e(x)}</pre></li>" for x in run.evidence)
        parts.append(
            f"<details><summary>round {run.round} failed: {_e(run.reason)}</summary>"
            + (f"<p>failed checks</p><ul>{checks}</ul>" if checks else "")
            + (f"<p>evidence</p><ul>{seen}</ul>" if seen else "")
            + "</details>"
        )
    return "".join(parts)


def render_html(report: SuiteReport) -> str:
    data = report_dict(report)
    summary = data["summary"]
    rows = []
    for clause, result in report.ordered():
        repetition = report.repetitions.get(clause.id)
        details = "".join(f"<li>{_e(f)}</li>" for f in result.failures)
        evidence = "".join(
            f"<li><pre>{_e(x)}</pre></li>" if "\n" in x else f"<li>{_e(x)}</li>" for x in result.evidence
        )
        scenario = (
            f'<a href="#scenario-{_e(clause.scenario)}">{_e(clause.scenario)}</a>' if clause.scenario else "-"
        )
        body = (
            f"<details><summary>{_e(clause.statement)}</summary>"
            f"<p>source: {_e(clause.source)}; level {_e(clause.level)}"
            f"{' (ambiguity item ' + str(clause.amb) + ')' if clause.amb else ''}; "
            f"environment {_e('+'.join(clause.environment))}</p>"
            + (f"<p>{_e(clause.note)}</p>" if clause.note else "")
            + (f"<p>failed checks</p><ul>{details}</ul>" if details else "")
            + (f"<p>evidence</p><ul>{evidence}</ul>" if evidence else "")
            + (_failed_runs(repetition) if repetition is not None else "")
            + "</details>"
        )
        shown, label = result.verdict, result.verdict
        if repetition is not None:
            label = repetition.label()
            shown = "flaky" if repetition.stability == "flaky" else result.verdict
        rows.append(
            f'<tr class="clause" id="clause-{_e(clause.id)}" data-verdict="{_e(shown)}">'
            f"<td>{_e(clause.id)}</td>"
            f"<td><span class='verdict {_e(shown)}'>{_e(label)}</span></td>"
            f"<td>{scenario}</td><td>{_e(result.reason)}{body}</td></tr>"
        )
    scenarios = []
    for scenario in report.scenarios:
        clauses = ", ".join(f'<a href="#clause-{_e(c)}">{_e(c)}</a>' for c in scenario.clauses)
        error = f"<pre>{_e(scenario.error)}</pre>" if scenario.error else ""
        runs = "".join(_run_block(run) for run in scenario.runs)
        scenarios.append(
            f'<h3 id="scenario-{_e(scenario.name)}">{_e(scenario.name)}</h3>'
            f"<p>{_e(scenario.summary)} ({scenario.duration:.1f}s) - clauses: {clauses}</p>{error}{runs}"
        )
    target = "".join(f"<tr><td>{_e(k)}</td><td>{_e(v)}</td></tr>" for k, v in report.target.items())
    environment = "".join(f"<tr><td>{_e(k)}</td><td>{_e(v)}</td></tr>" for k, v in report.environment.items())
    counts = "".join(
        f"<span class='verdict {k}'>{_e(k)}: {summary[k]}</span>"
        for k in ("pass", "fail", "skip", "not-automated")
    )
    result = ("PASSED" if report.graded else "NOTHING GRADED") if report.passed else "FAILED"
    unresponsive = f"<p><b>Not graded:</b> {_e(report.unresponsive)}</p>" if report.unresponsive else ""
    repeated, flaky_section, flaky_button = "", "", ""
    if report.repeat > 1:
        flaky = report.flaky()
        repeated = (
            "<style>.flaky { background: #ffb46b; }</style>\n"
            f"<p>Each clause that needs a run was graded {report.repeat} times: "
            f"{summary['stable_fail']} stable failure(s), {summary['flaky']} flaky; failures first.</p>\n"
        )
        items = "".join(
            f'<li><a href="#clause-{_e(c.id)}">{_e(c.id)}</a> '
            f"{_e(report.repetitions[c.id].label())}: {_e(r.reason)}</li>"
            for c, r in flaky
        )
        flaky_section = (
            f"<h2>Flaky clauses</h2><ul>{items}</ul>\n" if flaky else "<h2>Flaky clauses</h2><p>none</p>\n"
        )
        flaky_button = "<button onclick=\"show('flaky')\">flaky</button>"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>msPTI conformance report ({_e(report.profile)})</title>
<style>{_STYLE}</style><script>{_SCRIPT}</script></head>
<body>
<h1>msPTI conformance report: {result}</h1>
<p class="counts">{counts}</p>
<p>{summary["catalogued"]} clauses catalogued, {summary["selected"]} selected,
{summary["automated"]} automated;
profile <b>{_e(report.profile)}</b>; started {_e(report.started)}, {report.duration:.1f}s.
Exit status {summary["exit_status"]}: every applicable automated clause must pass.</p>{unresponsive}
{repeated}<table class="meta">{target}{environment}</table>
{flaky_section}<h2>Clauses</h2>
<p class="filters"><button onclick="show('all')">all</button><button onclick="show('fail')">fail</button>
{flaky_button}<button onclick="show('pass')">pass</button><button onclick="show('skip')">skip</button>
<button onclick="show('not-automated')">not automated</button></p>
<table><thead><tr><th>clause</th><th>verdict</th><th>scenario</th><th>detail</th></tr></thead>
<tbody>{"".join(rows)}</tbody></table>
<h2>Scenarios</h2>
{"".join(scenarios)}
<script type="application/json" id="report-data">{_e(json.dumps(summary))}</script>
</body></html>
"""


def write_html(report: SuiteReport, path: Path) -> None:
    path.write_text(render_html(report), encoding="utf-8")
