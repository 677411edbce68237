"""Buffer lifecycle (ACT-BUF, ACT-FLUSH, ACT-PERIOD): requests, completion, drops, flushes."""

import pytest

RECORD = 56  # a marker record


def marks_in_order(run, prefix):
    return [r["name"] for r in run.of("MARKER") if r["name"].startswith(prefix)]


def test_full_buffers_are_delivered_without_flush(mspti_programs):
    n = 1000
    run = mspti_programs.run("buffers.c", args=["full", str(n)]).check()
    assert int(run.facts["completes_before_flush"]) >= 1
    assert int(run.facts["delivered"]) == n and int(run.facts["dropped"]) == 0
    assert marks_in_order(run, "full") == [f"full-{i}" for i in range(n)]
    # A record that does not fit goes to the next buffer: every buffer but the last is filled up.
    per_buffer = 1024 // RECORD
    assert run.summary["requests"] == (n + per_buffer - 1) // per_buffer
    assert run.summary["completes"] == run.summary["requests"]


def test_declined_requests_drop_and_count(mspti_programs):
    n = 50
    run = mspti_programs.run("buffers.c", args=["decline", str(n)]).check()
    assert int(run.facts["dropped"]) == 3
    assert int(run.facts["delivered"]) == n - 3
    assert marks_in_order(run, "decline") == [f"decline-{i}" for i in range(3, n)]


def test_null_buffers_drop_everything_and_count(mspti_programs):
    n = 40
    run = mspti_programs.run("buffers.c", args=["null", str(n)]).check()
    assert int(run.facts["delivered"]) == 0 and int(run.facts["dropped"]) == n
    assert run.summary["completes"] == 0  # a declined request is never "completed"


def test_too_small_buffers_come_back_empty(mspti_programs):
    n = 10
    run = mspti_programs.run("buffers.c", args=["tiny", str(n)]).check()
    assert int(run.facts["delivered"]) == 0 and int(run.facts["dropped"]) == n
    assert run.summary["completes"] == run.summary["requests"] == n


def test_max_num_records_is_honoured(mspti_programs):
    n = 23
    run = mspti_programs.run("buffers.c", args=["cap", str(n)]).check()
    assert int(run.facts["delivered"]) == n
    assert run.summary["completes"] == 5  # 5+5+5+5+3


def test_flush_all_delivers_partial_buffer(mspti_programs):
    run = mspti_programs.run("buffers.c", args=["partial", "3"]).check()
    assert int(run.facts["delivered"]) == 3
    assert run.summary["completes"] == 1 and run.summary["requests"] == 1


def test_flush_period_delivers_partial_buffers(mspti_programs):
    run = mspti_programs.run("buffers.c", args=["period", "3"]).check()
    assert int(run.facts["completes_before_flush"]) >= 1
    assert int(run.facts["delivered"]) == 3


def test_exit_flush(mspti_programs):
    n = 7
    run = mspti_programs.run("buffers.c", args=["exit", str(n)]).check()
    assert run.facts["exiting"] == "1"
    assert marks_in_order(run, "main") == [f"main-{i}" for i in range(n)]
    assert marks_in_order(run, "thread") == [f"thread-{i}" for i in range(n)]
    assert not run.errors


def test_exit_flush_delivers_records_made_in_atexit_handlers(mspti_programs):
    # exit() destroys the exiting thread's thread-locals before it runs the atexit handlers: records
    # made on that thread afterwards (an atexit handler, msPTI's own exit drain) must still arrive.
    n = 7
    run = mspti_programs.run("buffers.c", args=["atexit", str(n)]).check()
    assert run.facts["exiting"] == "1"
    assert marks_in_order(run, "main") == [f"main-{i}" for i in range(n)]
    assert marks_in_order(run, "atexit") == [f"atexit-{i}" for i in range(n)]
    assert not run.errors


@pytest.mark.parametrize("n", [5])
def test_records_before_registration_are_counted(mspti_programs, n):
    run = mspti_programs.run("buffers.c", args=["noreg", str(n)]).check()
    assert int(run.facts["dropped_before"]) == n
    assert int(run.facts["delivered"]) == n  # the marks after registration
    assert int(run.facts["dropped"]) == n


def test_exit_flush_drains_device_records(mspti_programs):
    run = mspti_programs.run("exit_device.c", libs=("mspti", "ascendcl"), preload=True).check()
    assert len(run.of("KERNEL")) == 5
    assert sorted(m["sourceKind"] for m in run.of("MARKER")) == [0, 1]


def test_exit_flush_drains_device_records_after_flush_all(mspti_programs):
    run = mspti_programs.run(
        "exit_device.c", libs=("mspti", "ascendcl"), preload=True, args=["flushed"]
    ).check()
    assert len(run.of("KERNEL")) == 205
    assert sorted(m["sourceKind"] for m in run.of("MARKER")) == [0, 1]
