"""torch-tb-profiler-ascend (the TensorBoard plugin, PyPI 0.4.0.11), unmodified, on our
``--format ascend-pt`` export of the two-rank workload (workloads.py): its plugin app is started
in-process on a log directory holding the export as one run, and its HTTP routes are called as its
frontend calls them (``/runs``, ``/views``, ``/workers``, ``/spans``, then each view's data).

For an Ascend run (``device_target`` Ascend) 0.4.0.11 offers the views Operator, Kernel, Trace and
Distributed; its Overview tab is drawn from trace_view.json (``/workers`` answers Overview with the
Trace view's workers) and its ``/overview`` route serves GPU runs only: its RunGenerator fills the
overview for other device targets alone, so ``/overview`` raises for every Ascend run, torch_npu's
own included. The default run (``cov``, which installs the plugin) has the Kernel view as its smoke
(loading the run costs a few seconds of CPU), the other views are ``slow``; ``tox -e ascend-tools``
runs them all. Skipped where the plugin is not installed, failed instead under
``NPU_SIM_REQUIRE_ASCEND_TOOLS=1`` (both envs set it).
"""

from __future__ import annotations

import gzip
import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from support.optional_tool import missing_tool

pytestmark = pytest.mark.ascend_tools

try:
    from tensorboard.plugins import base_plugin
    from torch_tb_profiler.plugin import TorchProfilerPlugin
    from werkzeug.test import Client
    from werkzeug.wrappers import Response
except ImportError as error:
    missing_tool(error, "torch-tb-profiler-ascend", "NPU_SIM_REQUIRE_ASCEND_TOOLS")

_RUN = "workload"


class _Plugin:
    def __init__(self, logdir: Path) -> None:
        self.apps = TorchProfilerPlugin(base_plugin.TBContext(logdir=str(logdir))).get_plugin_apps()

    def get(self, route: str, **query: str) -> tuple[int, bytes]:
        response = Client(self.apps[route], Response).get(route, query_string=query)
        return response.status_code, response.get_data()

    def json(self, route: str, **query: str) -> Any:
        code, body = self.get(route, **query)
        assert code == 200, (route, query, body[:500])
        return json.loads(body)


@pytest.fixture(scope="module")
def plugin(ascend_pt_two_ranks: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Plugin]:
    logdir = tmp_path_factory.mktemp("tensorboard")
    for folder in ascend_pt_two_ranks:
        shutil.copytree(folder, logdir / _RUN / folder.name)
    served = _Plugin(logdir)
    deadline = time.monotonic() + 60
    while True:
        runs = served.json("/runs")
        if (runs["runs"] and not runs["loading"]) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    yield served


def _query(plugin: _Plugin, view: str) -> dict[str, str]:
    workers = plugin.json("/workers", run=_RUN, view=view)
    assert workers == [f"rank{r}_{5000 + r}" for r in range(2)]
    (span,) = plugin.json("/spans", run=_RUN, worker=workers[0])
    return {"run": _RUN, "worker": workers[0], "span": span, "view": view}


@pytest.mark.slow
def test_the_plugin_finds_the_run_and_its_views(plugin: _Plugin) -> None:
    assert plugin.json("/runs") == {"runs": [_RUN], "loading": False}
    views = plugin.json("/views", run=_RUN)
    assert views == {"device_target": "Ascend", "views": ["Operator", "Kernel", "Trace", "Distributed"]}
    # Overview is drawn from the Trace view's workers (plugin.py, workers_route).
    assert plugin.json("/workers", run=_RUN, view="Overview") == plugin.json(
        "/workers", run=_RUN, view="Trace"
    )
    print(f"torch-tb-profiler-ascend: run {_RUN!r}, views {views['views']}")


@pytest.mark.slow
def test_operator_view(plugin: _Plugin, workloads: ModuleType) -> None:
    query = _query(plugin, "Operator")
    pie = plugin.json("/operation", group_by="Operation", **query)
    self_time = dict(pie["device_self_time"]["rows"])
    assert {f"aclnnMatmul_{i}" for i in range(workloads.KERNELS)} <= self_time.keys()
    assert self_time["aclnnMatmul_0"] == workloads.STEPS * workloads.KERNEL_NS / 1000
    table = plugin.json("/operation/table", group_by="Operation", **query)
    rows = {row["name"]: row for row in table["data"]}
    assert rows["aclnnMatmul_0"]["calls"] == workloads.STEPS
    assert rows["aclnnMatmul_0"]["host_total_duration"] == workloads.STEPS * workloads.CALL_NS / 1000
    print(f"torch-tb-profiler-ascend Operator: device self time (us) {self_time}")


def test_kernel_view(plugin: _Plugin, workloads: ModuleType) -> None:
    query = _query(plugin, "Kernel")
    pie = plugin.json("/kernel", **query)
    totals = dict(pie["total"]["rows"])
    assert totals == {
        f"MatMulV2_{i}": workloads.STEPS * workloads.KERNEL_NS / 1000 for i in range(workloads.KERNELS)
    }
    table = plugin.json("/kernel/table", group_by="Kernel", **query)
    columns = [c["name"] for c in table["data"]["columns"]]
    assert {"Name", "Type", "Accelerator Core"} <= set(columns)
    assert len(table["data"]["rows"]) == workloads.STEPS * workloads.KERNELS
    print(f"torch-tb-profiler-ascend Kernel: total (us) {totals}")


@pytest.mark.slow
def test_trace_view(plugin: _Plugin, ascend_pt_two_ranks: list[Path]) -> None:
    query = _query(plugin, "Trace")
    code, body = plugin.get("/trace", **query)
    assert code == 200
    served = json.loads(gzip.decompress(body))
    written = json.loads((ascend_pt_two_ranks[0] / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").read_text())
    assert served == written
    print(f"torch-tb-profiler-ascend Trace: {len(served)} events served")
