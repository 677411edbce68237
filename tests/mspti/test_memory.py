"""MEMORY / MEMCPY / MEMSET records and external correlation through the interposed runtime (LD_PRELOAD)."""

import pytest

INVALID = 0xFFFFFFFF


@pytest.fixture(scope="module")
def memory_run(mspti_programs):
    return mspti_programs.run("memory_e2e.c", libs=("mspti", "ascendcl"), preload=True).check()


def enters(run, name):
    return [c for c in run.callbacks if c["name"] == name and c["site"] == 0]


def test_memory_records(memory_run):
    run = memory_run
    pid, t0, t1 = int(run.facts["pid"]), int(run.facts["t0"]), int(run.facts["t1"])
    # Buffers of different threads come back in the order they were closed: order by call instead.
    mem = sorted(run.of("MEMORY"), key=lambda r: r["correlationId"])
    allocs = [m for m in mem if m["memoryOperationType"] == 0]
    frees = [m for m in mem if m["memoryOperationType"] == 1]
    assert len(allocs) == 4 and len(frees) == 4  # 3 on the main thread, 1 on the other
    addresses = [int(run.facts[f"d{i}"]) for i in range(3)]
    assert [a["address"] for a in allocs[:3]] == addresses
    assert [f["address"] for f in frees[:3]] == addresses
    for record in mem:
        assert record["memoryKind"] == 1 and record["processId"] == pid
        assert record["deviceId"] == 0 and record["streamId"] == INVALID
        assert record["start"] <= record["end"]
    assert all(a["bytes"] == 256 for a in allocs[:3]) and all(f["bytes"] == 256 for f in frees[:3])
    assert allocs[3]["bytes"] == frees[3]["bytes"] == 64
    assert all(t0 <= m["start"] <= m["end"] <= t1 for m in allocs[:3] + frees[:3])
    # Each record carries the id its call's callbacks saw.
    assert [a["correlationId"] for a in allocs] == sorted(c["corr"] for c in enters(run, "aclrtMalloc"))
    assert [f["correlationId"] for f in frees] == sorted(c["corr"] for c in enters(run, "aclrtFree"))


def test_memcpy_and_memset_records(memory_run):
    run = memory_run
    stream = int(run.facts["stream"])
    # Asynchronous records come with their device half, after later synchronous ones: order by call.
    copies = sorted(run.of("MEMCPY"), key=lambda r: r["correlationId"])
    assert [(c["copyKind"], c["bytes"], c["isAsync"]) for c in copies] == [
        (2, 256, 0),
        (2, 256, 0),
        (2, 256, 0),  # H2D
        (3, 256, 1),  # D2H async
        (4, 128, 0),  # 2-D D2D: width x height
        (1, 64, 0),  # H2H
    ]
    assert [c["streamId"] for c in copies] == [INVALID, INVALID, INVALID, stream, INVALID, INVALID]
    assert all(c["deviceId"] == 0 and c["start"] <= c["end"] for c in copies)
    fills = sorted(run.of("MEMSET"), key=lambda r: r["correlationId"])
    assert [(f["value"], f["bytes"], f["isAsync"], f["streamId"]) for f in fills] == [
        (7, 128, 0, INVALID),
        (9, 64, 1, stream),
    ]
    copy_ids = [
        c["corr"] for n in ("aclrtMemcpy", "aclrtMemcpyAsync", "aclrtMemcpy2d") for c in enters(run, n)
    ]
    assert {c["correlationId"] for c in copies} < set(copy_ids)  # the failing copy made no record
    # The failing copy: callbacks with its error code, no record.
    exits = [c for c in run.callbacks if c["name"] == "aclrtMemcpy" and c["site"] == 1]
    assert any(c["ret"] != 0 for c in exits)
    assert len(copies) == len([c for c in exits if c["ret"] == 0]) + 1 + 1  # + async + 2d


def test_correlation_ids_unique_and_nonzero(memory_run):
    ids = [r["correlationId"] for r in memory_run.records if "correlationId" in r and r["kind"] != 8]
    assert all(i > 0 for i in ids)
    assert len(ids) == len(set(ids))
    calls = [c["corr"] for c in memory_run.callbacks if c["site"] == 0]
    assert calls == sorted(calls) and len(calls) == len(set(calls))


def test_external_correlation_is_per_thread(memory_run):
    run = memory_run
    ext = run.of("EXTERNAL_CORRELATION")
    main_calls = {c["corr"] for c in run.callbacks if c["site"] == 0 and c["tid"] == int(run.facts["tid"])}
    custom0 = [e for e in ext if e["externalKind"] == 2]
    custom1 = [e for e in ext if e["externalKind"] == 3]
    assert {e["externalId"] for e in custom0} == {42}
    assert {e["externalId"] for e in custom1} == {7}
    # Every call made between push and pop on the main thread got one record; the other thread's calls
    # are linked to its own stack only.
    assert {e["correlationId"] for e in custom0} <= main_calls
    other_calls = {
        c["corr"] for c in run.callbacks if c["site"] == 0 and c["tid"] == int(run.facts["thread_tid"])
    }
    assert {e["correlationId"] for e in custom1} == {
        c for c in other_calls if c > min(e["correlationId"] for e in custom1) - 1
    }
    in_region = [
        c["corr"]
        for c in run.callbacks
        if c["site"] == 0
        and c["tid"] == int(run.facts["tid"])
        and c["name"]
        in (
            "aclrtMalloc",
            "aclrtMemcpy",
            "aclrtMemset",
            "aclrtMemsetAsync",
            "aclrtMemcpyAsync",
            "aclrtMemcpy2d",
            "aclrtSynchronizeStream",
        )
    ]
    assert sorted(e["correlationId"] for e in custom0) == sorted(in_region[: len(custom0)])
    # The link precedes the activity record it names, in buffer order.
    position = {id(r): i for i, r in enumerate(run.records)}
    for e in custom0:
        activity = [r for r in run.records if r.get("correlationId") == e["correlationId"] and r["kind"] != 8]
        assert all(position[id(e)] < position[id(a)] for a in activity)


def test_callbacks_pair_and_carry_data(memory_run):
    run = memory_run
    assert all(c["userdata"] == 1 and c["params"] == 1 and c["shared"] == 1 for c in run.callbacks)
    opened = {}
    for c in run.callbacks:
        key = (c["tid"], c["corr"])
        if c["site"] == 0:
            assert key not in opened
            opened[key] = c
        else:
            enter = opened.pop(key)
            assert (enter["cbid"], enter["name"]) == (c["cbid"], c["name"])
    assert not opened
    cbids = {c["name"]: c["cbid"] for c in run.callbacks}
    assert cbids["aclrtMalloc"] == 15 and cbids["aclrtFree"] == 16 and cbids["aclrtMallocHost"] == 17
    assert cbids["aclrtMemcpy2d"] == 25 and cbids["aclrtMemsetAsync"] == 28 and cbids["aclrtGetMemInfo"] == 29
