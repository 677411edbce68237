"""Invariants of the architecture graph: backend ids, edges and their contract (the stage-3 validator's
rules on edge types and tensor fields), ``sourceRefs`` and the runtime items kept out of the dataflow."""

from __future__ import annotations

from typing import Any

from mspti_trace.breakdown.handoff import graph_items
from mspti_trace.breakdown.schema import (
    GRAPH_SCHEMA,
    SEMANTIC_EDGE_TYPES,
    SOURCE_ROOT,
    TENSOR_ROLE_EDGE_TYPES,
    TRACE_EXTENSION_ORIGIN,
)
from mspti_trace.breakdown.validation_report import ValidationReport


def walk(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every node of the trees under ``nodes``, depth first in document order."""
    found: list[dict[str, Any]] = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        found.append(node)
        stack.extend(reversed(node.get("children") or []))
    return found


def graph_items_of(graph: dict) -> dict[str, dict]:
    """The graph's items by id; none when its roots are not a list (the schema check names that)."""
    return graph_items(graph) if isinstance(graph.get("roots"), list) else {}


def graph_ids(report: ValidationReport, graph: dict, by_id: dict[str, dict]) -> None:
    for item_id, item in graph_items_of(graph).items():
        backend = item.get("backendNodeId")
        if item.get("dataState") == "source_only" and backend:
            report.fail("graph_backend_ids", item_id, "a source-only graph item carries a backendNodeId")
        elif backend is not None and backend not in by_id:
            report.fail("graph_backend_ids", item_id, f"backendNodeId {backend!r} does not resolve")
        elif (
            backend is None
            and item.get("kind") != "section"
            and item.get("dataState") in ("mapped", "runtime")
        ):
            report.fail("graph_backend_ids", item_id, "a mapped graph item without a backendNodeId")
    for flat in [*(graph.get("nodes") or []), *(graph.get("clusters") or [])]:
        backend = flat.get("backendNodeId")
        if backend is not None and backend not in by_id:
            report.fail("graph_backend_ids", flat.get("id"), f"backendNodeId {backend!r} does not resolve")


def graph_edges(report: ValidationReport, graph: dict) -> None:
    if graph.get("schema_version") != GRAPH_SCHEMA:
        report.fail(
            "graph_edges",
            "architecture graph",
            f"schema_version {graph.get('schema_version')!r}, expected {GRAPH_SCHEMA}",
        )
    roots = graph.get("roots") or []
    if not roots:
        report.fail("graph_edges", "architecture graph", "no roots")
    root_ids = {root.get("id") if isinstance(root, dict) else root for root in roots}
    for required in ("section/source_architecture", "section/runtime_auxiliary"):
        if required not in root_ids:
            report.fail("graph_edges", required, "the graph does not declare this root")
    edges = graph.get("edges") or []
    if not edges:
        report.fail("graph_edges", "architecture graph", "no explicit edges")
    ids = set(graph_items_of(graph))
    for edge in edges:
        edge_id = edge.get("id")
        if not isinstance(edge.get("tensor"), dict) or not edge.get("tensor"):
            report.fail("graph_edges", edge_id, "edge without tensor metadata")
        provenance = edge.get("provenance")
        if not isinstance(provenance, list) or not provenance:
            report.fail("graph_edges", edge_id, "edge without provenance")
        for side in ("source", "target"):
            if edge.get(side) not in ids:
                report.fail("graph_edges", edge_id, f"{side} {edge.get(side)!r} is not a graph item")
        _edge_contract(report, edge)


def _edge_contract(report: ValidationReport, edge: dict) -> None:
    """The stage-3 rules of one edge (validate-architecture-graph.mjs): a semantic edge type; tensor
    name, shape and dtype as text (stage 3 only warns when they are absent: here an absent one may be
    null, one of another type fails); a tensor role that fixes the type is not on an activation edge;
    residual edges dashed; a cross-invocation edge names its step."""
    edge_id = edge.get("id")
    edge_type = edge.get("semanticEdgeType")
    if edge_type not in SEMANTIC_EDGE_TYPES:
        report.fail(
            "graph_edges",
            edge_id,
            f"semanticEdgeType {edge_type!r} is not one of {', '.join(SEMANTIC_EDGE_TYPES)}",
        )
    tensor = edge.get("tensor") if isinstance(edge.get("tensor"), dict) else {}
    for key in ("name", "shape", "dtype"):
        value = tensor.get(key)
        if value is not None and not (isinstance(value, str) and value.strip()):
            report.fail("graph_edges", edge_id, f"tensor.{key} {value!r} is not text")
    fixed = TENSOR_ROLE_EDGE_TYPES.get(tensor.get("role"))
    if fixed and edge_type == "activation":
        report.fail(
            "graph_edges", edge_id, f"tensor.role {tensor.get('role')!r} on an activation edge ({fixed})"
        )
    if edge_type == "residual" and edge.get("dashed") is not True:
        report.fail("graph_edges", edge_id, "a residual edge that is not dashed")
    if edge.get("crossInvocation") is True and not (
        isinstance(edge.get("crossStep"), int) or isinstance(edge.get("crossSteps"), list)
    ):
        report.fail("graph_edges", edge_id, "crossInvocation without crossStep or crossSteps")


def graph_source_refs(report: ValidationReport, graph: dict) -> None:
    source = next(
        (r for r in graph.get("roots") or [] if isinstance(r, dict) and r.get("id") == SOURCE_ROOT), None
    )
    for item in walk([source] if source else []):
        if item.get("synthetic") is True or item.get("origin") == TRACE_EXTENSION_ORIGIN:
            continue
        refs = item.get("sourceRefs")
        if not isinstance(refs, list) or not refs or not all(isinstance(r, str) and r.strip() for r in refs):
            report.fail(
                "graph_source_refs",
                item.get("id"),
                f"a {item.get('origin')} item without sourceRefs (declare its code_ref)",
            )


def runtime_separation(report: ValidationReport, graph: dict) -> None:
    runtime: set[str] = set()
    for root in graph.get("roots") or []:
        if not isinstance(root, dict):
            continue
        under_runtime = root.get("id") == "section/runtime_auxiliary"
        stack = list(root.get("children") or [])
        while stack:
            item = stack.pop()
            stack.extend(item.get("children") or [])
            is_runtime = item.get("dataState") == "runtime"
            if is_runtime:
                runtime.add(str(item.get("id")))
            if is_runtime != under_runtime:
                where = "outside" if is_runtime else "inside"
                report.fail(
                    "runtime_separation",
                    item.get("id"),
                    f"a {'runtime' if is_runtime else 'model'} item {where} section/runtime_auxiliary",
                )
    for edge in graph.get("edges") or []:
        touched = {edge.get("source"), edge.get("target")} & runtime
        if touched:
            report.fail(
                "runtime_separation",
                edge.get("id"),
                f"edge joins runtime item(s) {sorted(touched)} to the dataflow",
            )
