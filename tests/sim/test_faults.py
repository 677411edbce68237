"""The NPU_SIM_FAULTS grammar: parsing, canonical formatting, matching and error messages."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim_runtime.faults import (
    ERROR_CODE_MAX,
    ERROR_CODE_MIN,
    MAX_CALL,
    FaultAction,
    FaultPlanError,
    FaultRule,
    format_fault_plan,
    parse_fault_plan,
)


def test_empty_plan_has_no_rules() -> None:
    assert parse_fault_plan("") == ()
    assert parse_fault_plan("  ;  ; ") == ()


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        ("aclrtMalloc:error=207001", FaultRule("aclrtMalloc", FaultAction.ERROR, 207001)),
        ("aclrtMalloc:error=-1", FaultRule("aclrtMalloc", FaultAction.ERROR, -1)),
        ("aclrtMalloc:error=0x7", FaultRule("aclrtMalloc", FaultAction.ERROR, 7)),
        ("aclrtMalloc:error=-0X10", FaultRule("aclrtMalloc", FaultAction.ERROR, -16)),
        ("aclrtMalloc:error=0xFFFFFFFF", FaultRule("aclrtMalloc", FaultAction.ERROR, 0xFFFFFFFF)),
        ("aclrtMalloc:error=007", FaultRule("aclrtMalloc", FaultAction.ERROR, 7)),
        ("halGetDeviceInfo:delay=250ns", FaultRule("halGetDeviceInfo", FaultAction.DELAY, 250)),
        ("halGetDeviceInfo:delay=3us", FaultRule("halGetDeviceInfo", FaultAction.DELAY, 3_000)),
        ("halGetDeviceInfo:delay=5ms", FaultRule("halGetDeviceInfo", FaultAction.DELAY, 5_000_000)),
        ("halGetDeviceInfo:delay=2s", FaultRule("halGetDeviceInfo", FaultAction.DELAY, 2_000_000_000)),
        ("prof_channel_read:short=17", FaultRule("prof_channel_read", FaultAction.SHORT, 17)),
        ("prof_channel_read:short=0", FaultRule("prof_channel_read", FaultAction.SHORT, 0)),
        ("prof_channel_read:garble", FaultRule("prof_channel_read", FaultAction.GARBLE)),
        ("prof_channel_poll:stall", FaultRule("prof_channel_poll", FaultAction.STALL)),
        ("_x1:stall@3", FaultRule("_x1", FaultAction.STALL, None, 3, 3)),
        ("f:stall@3+", FaultRule("f", FaultAction.STALL, None, 3, None)),
        ("f:stall@2-5", FaultRule("f", FaultAction.STALL, None, 2, 5)),
        ("f:stall@every=4", FaultRule("f", FaultAction.STALL, None, 1, None, 4)),
    ],
)
def test_parses_each_form(text: str, rule: FaultRule) -> None:
    assert parse_fault_plan(text) == (rule,)


def test_whitespace_around_tokens_is_ignored() -> None:
    spaced = "  aclrtMalloc : error = 5 @ 2 - 4 ;\tf : delay = 1ms @ every = 3 ; g : garble @ 7 + ; "
    assert parse_fault_plan(spaced) == parse_fault_plan(
        "aclrtMalloc:error=5@2-4;f:delay=1ms@every=3;g:garble@7+"
    )
    assert len(parse_fault_plan(spaced)) == 3


def test_format_is_canonical() -> None:
    rules = parse_fault_plan(" a:delay=1000000ns@1-1 ; b:error=0x10@1+ ; c:short=8@2-3 ; d:delay=1500us ")
    assert format_fault_plan(rules) == "a:delay=1ms@1;b:error=16;c:short=8@2-3;d:delay=1500us"
    assert format_fault_plan(()) == ""


def test_zero_delay_formats_in_nanoseconds() -> None:
    assert format_fault_plan(parse_fault_plan("f:delay=0s")) == "f:delay=0ns"


def test_rule_order_is_kept() -> None:
    rules = parse_fault_plan("b:stall;a:garble;b:error=1")
    assert [(rule.function, rule.action) for rule in rules] == [
        ("b", FaultAction.STALL),
        ("a", FaultAction.GARBLE),
        ("b", FaultAction.ERROR),
    ]


@pytest.mark.parametrize(
    ("when", "calls"),
    [
        ("", [1, 2, 3, 4, 5, 6, 7, 8]),
        ("@3", [3]),
        ("@3+", [3, 4, 5, 6, 7, 8]),
        ("@2-4", [2, 3, 4]),
        ("@every=3", [3, 6]),
        ("@every=1", [1, 2, 3, 4, 5, 6, 7, 8]),
    ],
)
def test_applies_to_selected_calls(when: str, calls: list[int]) -> None:
    (rule,) = parse_fault_plan(f"aclrtMalloc:error=1{when}")
    assert [call for call in range(1, 9) if rule.applies_to(call)] == calls


def test_applies_to_rejects_call_zero() -> None:
    (rule,) = parse_fault_plan("f:stall")
    with pytest.raises(ValueError, match="call numbers start at 1"):
        rule.applies_to(0)


@pytest.mark.parametrize(
    ("plan", "problem"),
    [
        ("aclrtMalloc", "missing ':' between FUNCTION and ACTION"),
        ("1abc:stall", "function '1abc' is not a C identifier"),
        ("acl-rt:stall", "function 'acl-rt' is not a C identifier"),
        (":stall", "function '' is not a C identifier"),
        ("f:explode", "unknown action 'explode'"),
        ("f:", "unknown action ''"),
        ("f:error", "action 'error' needs a value"),
        ("f:error=", "action 'error' needs a value"),
        ("f:error=abc", "error code 'abc' is not a decimal or 0x hex integer"),
        ("f:error=1.5", "error code '1.5' is not a decimal or 0x hex integer"),
        ("f:error=0x", "error code '0x' is not a decimal or 0x hex integer"),
        ("f:error=4294967296", "error code 4294967296 does not fit a 32-bit int"),
        ("f:error=-2147483649", "error code -2147483649 does not fit a 32-bit int"),
        ("f:delay=10", "delay '10' is not an integer followed by ns, us, ms or s"),
        ("f:delay=10 ms", "delay '10 ms' is not an integer followed by ns, us, ms or s"),
        ("f:delay=-1ms", "delay '-1ms' is not an integer followed by ns, us, ms or s"),
        ("f:delay=1min", "delay '1min' is not an integer followed by ns, us, ms or s"),
        ("f:delay=99999999999999999999s", "delay 99999999999999999999000000000 ns is outside"),
        ("f:short=-1", "short byte count '-1' is not a non-negative decimal integer"),
        ("f:short=0x10", "short byte count '0x10' is not a non-negative decimal integer"),
        ("f:garble=1", "action 'garble' takes no value"),
        ("f:stall=", "action 'stall' takes no value"),
        ("f:stall@", "nothing after '@'"),
        ("f:stall@0", "call number 0 in N must be in 1.."),
        ("f:stall@0+", "call number 0 in N+ must be in 1.."),
        ("f:stall@0-3", "call number 0 in N-M must be in 1.."),
        ("f:stall@5-2", "call range 5-2 ends before it starts"),
        ("f:stall@every=0", "call number 0 in every=K must be in 1.."),
        ("f:stall@every", "call selector 'every' is not N, N+, N-M or every=K"),
        ("f:stall@first", "call selector 'first' is not N, N+, N-M or every=K"),
        ("f:stall@-3", "call selector '-3' is not N, N+, N-M or every=K"),
        (f"f:stall@{MAX_CALL + 1}", "must be in 1.."),
    ],
)
def test_bad_rule_names_rule_problem_and_form(plan: str, problem: str) -> None:
    with pytest.raises(FaultPlanError) as caught:
        parse_fault_plan(plan)
    message = str(caught.value)
    assert message.startswith(f"fault rule 1 {plan.strip()!r}: ")
    assert problem in message
    assert "expected FUNCTION:ACTION[@WHEN]" in message
    assert "error=INT | delay=N(ns|us|ms|s) | short=N | garble | stall" in message
    assert "N | N+ | N-M | every=K" in message
    assert caught.value.index == 1
    assert caught.value.rule == plan.strip()


def test_error_names_the_position_of_the_bad_rule() -> None:
    with pytest.raises(FaultPlanError, match=r"^fault rule 3 'c:boom': unknown action 'boom'") as caught:
        parse_fault_plan("a:stall; b:garble ;  c:boom  ; d:stall")
    assert caught.value.index == 3


def test_fault_plan_error_is_a_value_error() -> None:
    assert issubclass(FaultPlanError, ValueError)


def test_parse_rejects_non_string() -> None:
    with pytest.raises(TypeError, match="a fault plan is a string, got bytes"):
        parse_fault_plan(b"f:stall")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"function": "a b", "action": FaultAction.STALL}, "function 'a b' is not a C identifier"),
        ({"function": "f", "action": "boom"}, "unknown action 'boom'"),
        ({"function": "f", "action": FaultAction.GARBLE, "value": 3}, "takes no value"),
        ({"function": "f", "action": FaultAction.ERROR}, "needs an integer value, got None"),
        ({"function": "f", "action": FaultAction.SHORT, "value": True}, "needs an integer value"),
        ({"function": "f", "action": FaultAction.STALL, "first_call": 0}, "first_call must be an integer"),
        ({"function": "f", "action": FaultAction.STALL, "every": 2, "first_call": 3}, "every=K cannot be"),
        ({"function": "f", "action": FaultAction.STALL, "first_call": 4, "last_call": 2}, "ends before"),
    ],
)
def test_rule_constructor_validates(kwargs: dict[str, object], problem: str) -> None:
    with pytest.raises(FaultPlanError, match="expected FUNCTION:ACTION") as caught:
        FaultRule(**kwargs)  # type: ignore[arg-type]
    assert problem in str(caught.value)


def test_rule_constructor_accepts_action_name() -> None:
    assert FaultRule("f", "garble").action is FaultAction.GARBLE  # type: ignore[arg-type]


def test_format_rejects_non_rules() -> None:
    with pytest.raises(TypeError, match="expected FaultRule, got str"):
        format_fault_plan(["f:stall"])  # type: ignore[list-item]


# --- round trip -----------------------------------------------------------------------------------

_identifiers = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,30}", fullmatch=True)
_calls = st.integers(min_value=1, max_value=MAX_CALL)
_units = st.sampled_from([1, 1_000, 1_000_000, 1_000_000_000])


@st.composite
def _windows(draw: st.DrawFn) -> dict[str, int | None]:
    kind = draw(st.sampled_from(["always", "only", "from", "range", "every"]))
    if kind == "always":
        return {}
    if kind == "every":
        return {"every": draw(_calls)}
    first = draw(_calls)
    if kind == "only":
        return {"first_call": first, "last_call": first}
    if kind == "from":
        return {"first_call": first}
    return {"first_call": first, "last_call": draw(st.integers(min_value=first, max_value=MAX_CALL))}


@st.composite
def _rules(draw: st.DrawFn) -> FaultRule:
    action = draw(st.sampled_from(list(FaultAction)))
    value: int | None = None
    if action is FaultAction.ERROR:
        value = draw(st.integers(min_value=ERROR_CODE_MIN, max_value=ERROR_CODE_MAX))
    elif action is FaultAction.DELAY:
        value = draw(st.integers(min_value=0, max_value=10**9)) * draw(_units)
    elif action is FaultAction.SHORT:
        value = draw(st.integers(min_value=0, max_value=2**64 - 1))
    return FaultRule(draw(_identifiers), action, value, **draw(_windows()))


@given(st.lists(_rules(), max_size=6))
def test_format_then_parse_round_trips(rules: list[FaultRule]) -> None:
    text = format_fault_plan(rules)
    assert parse_fault_plan(text) == tuple(rules)
    assert format_fault_plan(parse_fault_plan(text)) == text


@given(st.lists(_rules(), min_size=1, max_size=4), st.sampled_from([" ", "\t", "  "]))
def test_round_trip_survives_padding(rules: list[FaultRule], pad: str) -> None:
    padded = f"{pad};{pad}".join(f"{pad}{rule}{pad}" for rule in rules) + ";"
    assert parse_fault_plan(padded) == tuple(rules)
