"""The facts' architecture graph (model_architecture_graph.json): the declared structure as nested
nodes and clusters laid out top to bottom, with its dataflow edges and their tensors."""

from __future__ import annotations

import copy
import itertools
from typing import Any

from mspti_trace.breakdown.declarations import BLOCK_INPUT
from mspti_trace.breakdown.facts_fields import declared_of
from mspti_trace.breakdown.options import BreakdownError, BreakdownOptions
from mspti_trace.breakdown.schema import (
    DATAFLOW_KINDS,
    GRAPH_SCHEMA,
    SOURCE_ROOT,
    TRACE_EXTENSION_ORIGIN,
)
from mspti_trace.breakdown.structure import (
    SECTION_GROUP,
    SECTION_RUNTIME,
    Node,
    Structure,
)


def _tensor(declared: Any, role: str, source: str | None, target: str | None, where: str) -> dict[str, Any]:
    """An edge's tensor as stage 3 reads it: ``role``, ``from`` / ``to`` (the ports or endpoint names)
    and the declared ``name``, ``shape`` and ``dtype`` as strings. A shape declared as a list of
    dimensions is written as text, ``["tokens", "hidden"]`` -> ``"[tokens, hidden]"``."""
    tensor = declared if isinstance(declared, dict) else {}
    shape = tensor.get("shape")
    if isinstance(shape, list) and all(isinstance(d, str | int) and not isinstance(d, bool) for d in shape):
        shape = "[" + ", ".join(str(d) for d in shape) + "]"
    for key, value in (("name", tensor.get("name")), ("shape", shape), ("dtype", tensor.get("dtype"))):
        if value is not None and not isinstance(value, str):
            raise BreakdownError(
                f"{where}: tensor {key} {value!r} must be a string"
                + (" or a list of dimension names and sizes" if key == "shape" else "")
            )
    return {
        "role": role,
        "from": source,
        "to": target,
        "name": tensor.get("name"),
        "shape": shape,
        "dtype": tensor.get("dtype"),
    }


#: Layout of the graph's flat node and cluster lists: children stack top to bottom in declaration
#: order inside their container (boxes in px; the UI checks edge ports against positions).
_BOX_W, _BOX_H, _GAP, _PAD_X, _PAD_Y, _MARGIN = 320, 56, 32, 24, 56, 40


def _place(item: dict[str, Any], x: int, y: int) -> tuple[int, int]:
    if not item["children"]:
        item["_box"] = (x, y, _BOX_W, _BOX_H)
        return _BOX_W, _BOX_H
    cursor, widest = y + _PAD_Y, 0
    for child in item["children"]:
        width, height = _place(child, x + _PAD_X, cursor)
        widest = max(widest, width)
        cursor += height + _GAP
    size = (widest + 2 * _PAD_X, cursor - _GAP - y + _PAD_X)
    item["_box"] = (x, y, *size)
    return size


def _flatten(roots: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    nodes: list[dict[str, Any]] = []
    clusters: list[dict[str, Any]] = []
    stack: list[tuple[dict[str, Any], str]] = [(root, "") for root in reversed(roots)]
    while stack:
        item, parent = stack.pop()
        x, y, width, height = item.pop("_box")
        flat = {
            "id": item["id"],
            "label": item["label"],
            "kind": item["kind"],
            "x": x,
            "y": y,
            "width": width,
            "height": height,
            "dataState": item["dataState"],
            "origin": item["origin"],
            "selectable": item["selectable"],
            "parent": parent,
        }
        if item.get("backendNodeId"):
            flat["backendNodeId"] = item["backendNodeId"]
        if item["children"]:
            flat.update(
                children=[c["id"] for c in item["children"]],
                repeat=bool(item.get("repeatCount")),
                collapsible=True,
                structuralRoot=parent == "",
            )
            clusters.append(flat)
        else:
            nodes.append(flat)
        stack.extend((child, item["id"]) for child in reversed(item["children"]))
    return nodes, clusters


def build_graph(structure: Structure, options: BreakdownOptions) -> dict[str, Any]:
    """model_architecture_graph.v1: a tree of items under two section roots (item id = node id, so
    that the overlay maps each perf node to the item of the same id), edges from the observed order
    of ranges and from declarations, typed with the stage-3 semantic edge types. An item with a
    declared ``code_ref`` is ``hybrid`` (source and trace) and cites it in ``sourceRefs``; one without
    is known from the trace only (``backend_trace_extension``), which stage 3 does not ask to cite."""
    model_root, runtime_root = SOURCE_ROOT, "section/runtime_auxiliary"
    by_relative = {n.node_id[len(options.namespace) + 1 :]: n for n in structure.nodes}

    def item(node: Node) -> dict[str, Any]:
        code_ref = declared_of(options, node).get("code_ref")
        semantic = declared_of(options, node).get("semantic")
        entry: dict[str, Any] = {
            "id": node.node_id,
            "label": node.name,
            "kind": "module" if node.children else "op",
            "type": node.node_kind,
            "origin": "hybrid" if code_ref else TRACE_EXTENSION_ORIGIN,
            "dataState": "runtime" if node.section == SECTION_RUNTIME else "mapped",
            "selectable": True,
            "sourceRefs": [code_ref] if code_ref else [],
            "attributes": {
                k: v
                for k, v in (
                    ("semantic", semantic),
                    ("metricScope", node.metric_scope),
                    ("semanticKey", node.name),
                )
                if v
            },
            "backendNodeId": node.node_id,
            "mappingKind": "aggregate" if node.children else "exact",
            "children": [item(structure.nodes[c]) for c in node.children],
        }
        if node.group is not None:
            indices = sorted(node.instance_indices)
            entry["instanceIndices"] = indices
            if len(indices) > 1:
                entry["repeatCount"] = len(indices)
        if node.section == SECTION_GROUP and node.parent is None:
            entry["structureKey"] = node.name
        return entry

    tops = [structure.nodes[i] for i in structure.roots]
    source_children = [item(n) for n in tops if n.section != SECTION_RUNTIME]
    runtime_children = [item(n) for n in tops if n.section == SECTION_RUNTIME]
    for entry in options.declarations.get("source_only", []):
        source_children.append(
            {
                "id": f"{options.namespace}/{entry['path']}",
                "label": entry.get("name") or entry["path"].rsplit("/", 1)[-1],
                "kind": "op",
                "type": "op",
                "origin": "source",
                "dataState": "source_only",
                "selectable": True,
                "sourceRefs": [entry["code_ref"]] if entry.get("code_ref") else [],
                "attributes": {"reason": entry["reason"]},
                "children": [],
            }
        )
    roots = [
        {
            "id": model_root,
            "label": "Source architecture",
            "kind": "section",
            "type": "section",
            "origin": "synthetic",
            "synthetic": True,
            "dataState": "source_only",
            "selectable": False,
            "sourceRefs": [],
            "attributes": {"model": options.model_name},
            "children": source_children,
        },
        {
            "id": runtime_root,
            "label": "Runtime auxiliary",
            "kind": "section",
            "type": "section",
            "origin": "synthetic",
            "synthetic": True,
            "dataState": "runtime",
            "selectable": False,
            "sourceRefs": [],
            "attributes": {},
            "children": runtime_children,
        },
    ]
    edges: list[dict[str, Any]] = []
    declared = _dataflow_edges(options, by_relative)
    joined = {(edge["source"], edge["target"]) for edge in declared}

    def activation(parent_label: str, code_ref: str | None, members: list[Node]) -> None:
        """Edges in the observed order of the members; each carries the declared output tensor of
        its source. A pair that a declared dataflow edge joins gets that edge instead."""
        for first, second in itertools.pairwise(members):
            if (first.node_id, second.node_id) in joined:
                continue
            edges.append(
                {
                    "id": f"activation::{first.node_id}->{second.node_id}",
                    "source": first.node_id,
                    "target": second.node_id,
                    "semanticEdgeType": "activation",
                    "tensor": _tensor(
                        declared_of(options, first).get("tensor"),
                        "activation",
                        first.name,
                        second.name,
                        f"node {first.node_id}",
                    ),
                    "provenance": [f"declared children order in {parent_label}", code_ref or "mstx ranges"],
                }
            )

    top_model = [n for n in tops if n.section != SECTION_RUNTIME]
    activation(f"step {structure.representative_step}", None, top_model)
    for node in structure.nodes:
        if node.children and node.section != SECTION_RUNTIME:
            activation(
                node.node_id,
                declared_of(options, node).get("code_ref"),
                [structure.nodes[c] for c in node.children],
            )
    for group, branches in options.declarations.get("branches", {}).items():
        group_node = by_relative.get(group)
        if group_node is None:
            raise BreakdownError(f"branches declared for {group!r}, which the capture does not contain")
        for branch in branches:
            output = by_relative.get(f"{group}/{branch['output']}")
            if output is None:
                raise BreakdownError(
                    f"branch {branch['name']!r} of {group!r} outputs to undefined {branch['output']!r}"
                )
            for position, name in enumerate(branch["inputs"]):
                source = group_node if name == BLOCK_INPUT else by_relative.get(f"{group}/{name}")
                if source is None:
                    raise BreakdownError(
                        f"branch {branch['name']!r} of {group!r} references undefined input {name!r}"
                    )
                edges.append(
                    {
                        "id": f"residual::{group}::{branch['name']}::{position}:{name}->{branch['output']}",
                        "source": source.node_id,
                        "target": output.node_id,
                        "semanticEdgeType": "residual",
                        "dashed": True,
                        "tag": "residual",
                        "tensor": _tensor(
                            branch.get("tensor"),
                            "residual",
                            name,
                            branch["output"],
                            f"branch {branch['name']!r} of {group!r}",
                        ),
                        "provenance": [
                            f"declared branch {branch['name']} of {group}",
                            branch.get("source_ref") or "declarations branches",
                        ],
                    }
                )
    edges.extend(declared)
    cursor = _MARGIN
    for root in roots:
        _, height = _place(root, _MARGIN, cursor)
        cursor += height + 2 * _GAP
    flat_nodes, clusters = _flatten(copy.deepcopy(roots))
    for root in roots:
        _strip_boxes(root)
    extent = flat_nodes + clusters
    return {
        "schema_version": GRAPH_SCHEMA,
        "metadata": {
            "modelId": options.resolved_model_id,
            "reportId": options.report_id,
            "representativeStep": structure.representative_step,
            "extractionScope": "hybrid",
            "sourceScope": "declared_structure",
            "backendScope": structure.representative_step,
            "sourceNodeCount": len(structure.nodes) + len(options.declarations.get("source_only", [])),
            "backendNodeCount": len(structure.nodes),
        },
        "roots": roots,
        "edges": edges,
        "width": max((n["x"] + n["width"] for n in extent), default=0) + _MARGIN,
        "height": max((n["y"] + n["height"] for n in extent), default=0) + _MARGIN,
        "nodes": flat_nodes,
        "clusters": clusters,
    }


def _dataflow_edges(options: BreakdownOptions, by_relative: dict[str, Node]) -> list[dict[str, Any]]:
    """The declared dataflow edges, typed as oam-tools' builder types ``dataflow.edges[].kind``
    (DATAFLOW_KINDS; ``activation`` when no kind is declared): a ``residual`` is dashed, a
    ``runtime_carry`` (state carried to a later invocation) needs a positive ``invocation_offset``
    and crosses invocations. Declared ports become the tensor's ``from`` / ``to``."""
    edges = []
    for position, flow in enumerate(options.declarations.get("dataflow", [])):
        label = f"dataflow {flow.get('name', position)!r}"
        ends = []
        for side in ("source", "target"):
            path = flow[side]["structure"]
            found = by_relative.get(path)
            if found is None:
                raise BreakdownError(f"{label}: {side} {path!r} is not in the capture")
            ends.append(found)
        kind = flow.get("kind", "activation")
        if kind not in DATAFLOW_KINDS:
            raise BreakdownError(f"{label}: kind {kind!r} is not one of {', '.join(DATAFLOW_KINDS)}")
        edge_type = DATAFLOW_KINDS[kind]
        edge: dict[str, Any] = {
            "id": f"dataflow::{position}::{ends[0].node_id}->{ends[1].node_id}",
            "source": ends[0].node_id,
            "target": ends[1].node_id,
            "semanticEdgeType": edge_type,
            "tensor": _tensor(
                flow.get("tensor"),
                edge_type,
                flow["source"].get("port") or ends[0].name,
                flow["target"].get("port") or ends[1].name,
                label,
            ),
            "provenance": [
                f"declared dataflow {flow.get('name', position)}",
                flow.get("source_ref") or "declarations dataflow",
            ],
        }
        if edge_type == "residual":
            edge.update(dashed=True, tag="residual")
        if kind == "runtime_carry":
            offset = flow.get("invocation_offset")
            if not isinstance(offset, int) or isinstance(offset, bool) or offset <= 0:
                raise BreakdownError(
                    f"{label}: a runtime_carry edge needs a positive integer invocation_offset"
                )
            edge.update(crossInvocation=True, crossStep=offset)
        edges.append(edge)
    return edges


def _strip_boxes(item: dict[str, Any]) -> None:
    item.pop("_box", None)
    for child in item["children"]:
        _strip_boxes(child)
