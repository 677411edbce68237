"""The reference model (per profile) and the comparison of its prediction with a log."""

from __future__ import annotations

from typing import Any

from conformance.abi import RESULTS
from conformance.model.commands import (
    Flush,
    Free,
    Malloc,
    Mark,
    Pop,
    Push,
    RangeEnd,
    RangeStart,
    SetDomain,
    Subscribe,
    Switch,
    Unsubscribe,
    render,
)
from conformance.model.state import MsptiModel
from conformance.stateful.explore import compare

SUCCESS, INVALID, MULTIPLE, EMPTY = (
    RESULTS[n] for n in ("SUCCESS", "INVALID_PARAMETER", "MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED", "QUEUE_EMPTY")
)


def predict(commands: list[Any], profile: str, acl: bool = True) -> Any:
    _script, steps = render(commands, acl=acl)
    return MsptiModel(profile).feed(steps), steps


def test_results_of_subscription_calls_per_profile() -> None:
    commands = [Unsubscribe(), Subscribe(), Subscribe(), Unsubscribe(), Unsubscribe()]
    spec, _ = predict(commands, "spec")
    upstream, _ = predict(commands, "upstream")
    assert [spec.results[f"s{i}"] for i in range(5)] == [
        {INVALID},
        {SUCCESS},
        {MULTIPLE},
        {SUCCESS},
        {INVALID},
    ]
    assert [upstream.results[f"s{i}"] for i in range(5)] == [
        {SUCCESS},
        {SUCCESS},
        {MULTIPLE},
        {SUCCESS},
        {SUCCESS},
    ]


def test_external_correlation_stacks_are_lifo_per_kind() -> None:
    prediction, _ = predict(
        [
            Push("CUSTOM0", 1),
            Push("CUSTOM1", 7),
            Push("CUSTOM0", 2),
            Pop("CUSTOM0"),
            Pop("CUSTOM1"),
            Pop("CUSTOM1"),
            Pop("CUSTOM0"),
        ],
        "spec",
    )
    assert prediction.pops == {"s3": 2, "s4": 7, "s6": 1}
    assert prediction.results["s5"] == {EMPTY}


def test_markers_need_the_kind_a_subscriber_and_the_domain() -> None:
    commands = [
        Mark("default"),
        Subscribe(),
        Mark("default"),
        Switch("MARKER", True),
        Mark("default"),
        SetDomain("alpha", False),
        Mark("alpha"),
        Mark("bravo"),
        Unsubscribe(),
        Mark("default"),
    ]
    spec, _ = predict(commands, "spec")
    upstream, _ = predict(commands, "upstream")
    assert set(spec.required) == {("mark", "mark-s4"), ("mark", "mark-s7")}
    assert spec.optional == {("mark", "mark-s9")}  # no subscriber: the contract does not say
    assert set(upstream.required) == set(spec.required) and upstream.optional == set()


def test_range_ends_follow_their_start() -> None:
    commands = [
        Subscribe(),
        Switch("MARKER", True),
        RangeStart("alpha"),
        SetDomain("alpha", False),
        RangeEnd(0),
        RangeStart("default"),
        RangeEnd(0),
        Switch("MARKER", False),
        RangeStart("default"),
        Switch("MARKER", True),
        RangeEnd(0),
    ]
    spec, steps = predict(commands, "spec")
    upstream, _ = predict(commands, "upstream")
    assert [s.target for s in steps if isinstance(s.command, RangeEnd)] == ["s2", "s5", "s8"]
    assert ("end", "s5") in spec.required and ("end", "s5") in upstream.required
    assert ("end", "s2") in spec.optional and ("end", "s2") not in upstream.required
    assert ("end", "s8") not in spec.required and ("end", "s8") not in spec.optional  # started while disabled
    assert spec.range_recorded == {"s2": True, "s5": True, "s8": False}


def test_memory_and_external_records() -> None:
    commands = [
        Switch("MEMORY", True),
        Malloc(64),
        Switch("EXTERNAL_CORRELATION", True),
        Push("CUSTOM1", 9),
        Malloc(64),
        Free(0),
        Flush(),
    ]
    spec, _ = predict(commands, "spec")
    upstream, _ = predict(commands, "upstream")
    # no subscriber: the vendor still records MEMORY (LD_PRELOAD hooks); the contract leaves it open
    assert upstream.required == {
        ("alloc", "s1"): 1,
        ("alloc", "s4"): 1,
        ("release", "s1"): 1,
        ("ext", 3, 9): 2,
    }
    assert spec.required == {} and {("alloc", "s1"), ("ext", 3, 9)} <= spec.optional
    subscribed, _ = predict([Subscribe(), *commands], "spec")
    assert subscribed.required[("ext", 3, 9)] == 2


def test_compare_reports_wrong_results_and_missing_or_extra_records(log_builder: Any, marker: Any) -> None:
    commands = [
        Subscribe(),
        Switch("MARKER", True),
        Mark("default"),
        Pop("CUSTOM0"),
        RangeStart("default"),
        RangeEnd(0),
    ]
    prediction, steps = predict(commands, "upstream")
    log_builder.call("msptiSubscribe", "s0", ret=0)
    log_builder.call("msptiActivityEnable", "s1", ret=0)
    log_builder.call("mstxMarkA", "s2", ret=0)
    log_builder.call("msptiActivityPopExternalCorrelationId", "s3", ret=EMPTY)
    log_builder.call("mstxRangeStartA", "s4", ret=0, id=5)
    log_builder.call("mstxRangeEnd", "s5", ret=0, id=5)
    log_builder.complete(
        0x10,
        [
            ("MARKER", marker(1, "mark-s2")),
            ("MARKER", marker(5, "range-s4", flag=2)),
            ("MARKER", marker(5, "", flag=4)),
        ],
    )
    assert compare(prediction, steps, log_builder.build(), "upstream") == []


def test_compare_names_each_difference(log_builder: Any, marker: Any) -> None:
    commands = [Subscribe(), Switch("MARKER", True), Mark("default"), Pop("CUSTOM0"), RangeStart("default")]
    prediction, steps = predict(commands, "spec")
    log_builder.call("msptiSubscribe", "s0", ret=0)
    log_builder.call("msptiActivityEnable", "s1", ret=0)
    log_builder.call("mstxMarkA", "s2", ret=0)
    log_builder.call("msptiActivityPopExternalCorrelationId", "s3", ret=0, value=4)
    log_builder.call("mstxRangeStartA", "s4", ret=0, id=0)
    log_builder.complete(0x10, [("MARKER", marker(1, "stray"))])
    problems = compare(prediction, steps, log_builder.build(), "spec")
    assert "s3 (msptiActivityPopExternalCorrelationId) returned SUCCESS; model: QUEUE_EMPTY" in problems
    assert "s4: mstxRangeStartA returned 0 for a recorded range" in problems
    assert "missing record ('mark', 'mark-s2') (model: 1, delivered 0)" in problems
    assert "missing record ('start', 'range-s4') (model: 1, delivered 0)" in problems
    assert "unexpected record ('mark', 'stray') (delivered 1, model allows 0)" in problems
