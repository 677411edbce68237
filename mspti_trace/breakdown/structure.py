"""Model structure from declared nesting: the ranges of the representative step become nodes.

Inside the step, a top-level range
  * of the runtime domain declares a runtime auxiliary node (``runtime_auxiliary/<name>``; the
    whole range, nested ranges included, is that one node);
  * of another non-default domain D is an instance of the repeated structure group D (``D``);
  * of the default domain whose name occurs more than once in the step is an instance of the group
    named after it; otherwise it is a stage (``stages/<name>``).
Instances are numbered in time order from 0. Ranges nested in an instance or a stage become nodes
by their path of names; the same path in several instances is one node that lists the instances
it was observed in. Ranges of the sampler domain that overlap the step declare sampled windows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mspti_trace.breakdown.forest import RangeForest
from mspti_trace.breakdown.options import DEFAULT_DOMAIN, BreakdownError, BreakdownOptions, slug

__all__ = ["SECTION_GROUP", "SECTION_RUNTIME", "SECTION_STAGE", "Node", "Structure", "build_structure"]

SECTION_STAGE = "stages"
SECTION_GROUP = "layer_structure"
SECTION_RUNTIME = "runtime_auxiliary"


@dataclass
class Node:
    index: int
    node_id: str
    name: str
    path: tuple[str, ...]
    section: str
    parent: int | None
    group: str | None = None
    children: list[int] = field(default_factory=list)
    instance_indices: set[int] = field(default_factory=set)
    occurrences: int = 0
    sampled_window: bool = False
    window_span_ns: int = 0
    #: (start, end) of each sampled window of the node, in time order.
    windows: list[tuple[int, int]] = field(default_factory=list)

    @property
    def is_module(self) -> bool:
        return bool(self.children)

    @property
    def node_kind(self) -> str:
        if self.section == SECTION_RUNTIME:
            return "runtime_auxiliary"
        return "module" if self.children else "op"

    @property
    def metric_scope(self) -> str:
        if self.sampled_window:
            return "sampled_window_context"
        if self.children:
            return "aggregate"
        return "all_observed_instances" if self.group is not None else "single_instance"


@dataclass
class Structure:
    """Nodes in declaration order, the top-level ones per section, and for each range of the
    forest the node it declares (-1: none) and its group instance (-1: none)."""

    nodes: list[Node]
    roots: list[int]
    range_node: np.ndarray
    range_instance: np.ndarray
    step_ranges: list[int]
    representative_step: int
    step_window: tuple[int, int] | None
    step_thread: int | None

    def by_id(self) -> dict[str, Node]:
        return {node.node_id: node for node in self.nodes}

    def leaves(self) -> list[Node]:
        return [node for node in self.nodes if not node.children and not node.sampled_window]


class _Builder:
    def __init__(self, forest: RangeForest, options: BreakdownOptions) -> None:
        self.forest = forest
        self.options = options
        self.nodes: list[Node] = []
        self.by_path: dict[tuple[str, ...], int] = {}
        self.ids: dict[str, tuple[str, ...]] = {}
        self.roots: list[int] = []
        self.range_node = np.full(len(forest.ranges), -1, dtype=np.int64)
        self.range_instance = np.full(len(forest.ranges), -1, dtype=np.int64)

    def node(
        self, path: tuple[str, ...], name: str, section: str, parent: int | None, group: str | None
    ) -> Node:
        found = self.by_path.get(path)
        if found is not None:
            return self.nodes[found]
        node_id = "/".join([self.options.namespace, *(slug(part) for part in path)])
        clash = self.ids.get(node_id)
        if clash is not None:
            raise BreakdownError(
                f"structure nodes {'/'.join(clash)!r} and {'/'.join(path)!r} both map to node id {node_id!r}"
            )
        self.ids[node_id] = path
        node = Node(
            index=len(self.nodes),
            node_id=node_id,
            name=name,
            path=path,
            section=section,
            parent=parent,
            group=group,
        )
        self.nodes.append(node)
        self.by_path[path] = node.index
        if parent is None:
            self.roots.append(node.index)
        else:
            self.nodes[parent].children.append(node.index)
        return node

    def attach(self, index: int, node: Node, instance: int | None, whole_subtree: bool) -> None:
        """Maps range ``index`` to ``node``; nested ranges map to child nodes by name (or to
        ``node`` itself for a runtime auxiliary range)."""
        node.occurrences += 1
        if instance is not None:
            node.instance_indices.add(instance)
        self.range_node[index] = node.index
        self.range_instance[index] = -1 if instance is None else instance
        for child in self.forest.children[index]:
            if whole_subtree:
                self.attach(child, node, instance, whole_subtree=True)
                node.occurrences -= 1
                continue
            name = self.forest.names[child]
            child_node = self.node((*node.path, name), name, node.section, node.index, node.group)
            self.attach(child, child_node, instance, whole_subtree=False)

    def top_level(self, members: list[int]) -> None:
        forest, options = self.forest, self.options
        names, domains = forest.names, forest.domains
        default_counts: dict[str, int] = {}
        for index in members:
            if domains[index] == DEFAULT_DOMAIN:
                default_counts[names[index]] = default_counts.get(names[index], 0) + 1
        instances: dict[str, int] = {}
        for index in members:
            name, domain = names[index], domains[index]
            if domain == options.runtime_domain:
                node = self.node((SECTION_RUNTIME, name), name, SECTION_RUNTIME, None, None)
                self.attach(index, node, None, whole_subtree=True)
                continue
            group = domain if domain != DEFAULT_DOMAIN else (name if default_counts[name] > 1 else None)
            if group is None:
                node = self.node((SECTION_STAGE, name), name, SECTION_STAGE, None, None)
                self.attach(index, node, None, whole_subtree=False)
                continue
            instance = instances.get(group, 0)
            instances[group] = instance + 1
            node = self.node((group,), group, SECTION_GROUP, None, group)
            self.attach(index, node, instance, whole_subtree=False)


def build_structure(
    forest: RangeForest, sampled: np.ndarray, sampled_names: list[str], options: BreakdownOptions
) -> Structure:
    """The structure declared by the ranges (and sampled windows ``sampled``) of one process."""
    roots = [i for i in range(len(forest.ranges)) if forest.parent[i] < 0]
    steps = [
        i for i in roots if forest.names[i] == options.step_range and forest.domains[i] == DEFAULT_DOMAIN
    ]
    builder = _Builder(forest, options)
    if steps:
        chosen = options.representative_step
        if chosen is None:
            chosen = 1 if len(steps) >= 2 else 0
        if not 0 <= chosen < len(steps):
            raise BreakdownError(
                f"representative step {chosen} does not exist: the capture has {len(steps)} "
                f"{options.step_range!r} range(s)"
            )
        step = steps[chosen]
        builder.top_level(forest.children[step])
        window: tuple[int, int] | None = (int(forest.ranges["start"][step]), int(forest.ranges["end"][step]))
        thread: int | None = int(forest.ranges["object_b"][step])
    else:
        chosen = 0
        builder.top_level(roots)
        window, thread = None, None
    if not builder.nodes:
        where = f"step {chosen} of {len(steps)}" if steps else "the capture"
        raise BreakdownError(f"{where} declares no structure: no mstx range inside it")
    _add_sampled_windows(builder, sampled, sampled_names, window)
    return Structure(
        nodes=builder.nodes,
        roots=builder.roots,
        range_node=builder.range_node,
        range_instance=builder.range_instance,
        step_ranges=steps,
        representative_step=chosen,
        step_window=window,
        step_thread=thread,
    )


def _add_sampled_windows(
    builder: _Builder, sampled: np.ndarray, names: list[str], window: tuple[int, int] | None
) -> None:
    starts = sampled["start"].astype(np.int64).tolist()
    ends = sampled["end"].astype(np.int64).tolist()
    for name, start, end in zip(names, starts, ends, strict=True):
        if window is not None and not (start < window[1] and end > window[0]):
            continue
        node = builder.node((SECTION_RUNTIME, name), name, SECTION_RUNTIME, None, None)
        node.sampled_window = True
        node.occurrences += 1
        node.window_span_ns += end - start
        node.windows.append((start, end))
