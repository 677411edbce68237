"""Host markers (mstx through libprofapi) and marker domains."""

from mspti_harness import KIND


def test_host_markers_and_domains(mspti_programs):
    run = mspti_programs.run("markers_basic.c").check()
    markers = run.of("MARKER")
    names = [m["name"] for m in markers]
    pid = int(run.facts["pid"])
    assert all(m["sourceKind"] == 0 and m["a"] == pid and m["b"] > 0 for m in markers)
    # Default-domain mark and range.
    mark = markers[0]
    assert (mark["name"], mark["domain"], mark["flag"]) == ("mark-1", "default", 1)
    start, end = markers[1], markers[2]
    assert (start["flag"], start["name"], start["domain"]) == (2, "range-1", "default")
    assert (end["flag"], end["name"], end["domain"], end["id"]) == (4, "", "", start["id"])
    assert end["timestamp"] >= start["timestamp"]
    # Domains by exact name, disabled before creation, re-enabled.
    assert ("in-alpha", "alpha") in [(m["name"], m["domain"]) for m in markers]
    assert ("in-alphabet", "alphabet") in [(m["name"], m["domain"]) for m in markers]
    assert "in-late" not in names and "in-late-2" in names
    assert "alpha-off" not in names and "alpha-range-off" not in names and "alphabet-on" in names
    assert "alpha-range" in names
    assert "default-off" not in names
    # Message length limit and msPTI-owned names.
    assert "x" * 254 in names and "x" * 255 not in names
    assert "volatile" in names and "changed!" not in names
    assert "after-destroy" not in names
    assert "marker-off" not in names and "range-off" not in names
    assert names[-1] == "last"
    # Ids unique and increasing in production order (ranges share them).
    ids = [m["id"] for m in markers if m["flag"] in (1, 2)]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert run.summary["records"] == len(run.records)
    assert all(r["kind"] == KIND["MARKER"] for r in run.records)


import pytest  # noqa: E402


@pytest.mark.parametrize(
    ("drain", "soc"), [("flush", None), ("disable", None), ("flush", "Ascend950PR_9599")]
)
def test_device_markers(mspti_programs, drain, soc):
    env = {"NPU_SIM_SOC": soc} if soc else {}
    run = mspti_programs.run(
        "device_markers.c", libs=("mspti", "ascendcl"), args=["1" if drain == "disable" else "0"], **env
    ).check()
    stream = int(run.facts["stream"])
    host = [m for m in run.of("MARKER") if m["sourceKind"] == 0]
    device = [m for m in run.of("MARKER") if m["sourceKind"] == 1]
    assert [(m["flag"], m["name"]) for m in host] == [
        (8, "device-mark"),
        (16, "device-range"),
        (1, "host-only"),
        (32, ""),
        (16, "domain-range"),
        (32, ""),
    ]
    assert host[4]["domain"] == "dom" and host[0]["domain"] == "default"
    with_device = [m for m in host if m["flag"] in (8, 16, 32)]
    assert sorted((m["id"], m["flag"]) for m in device) == sorted((m["id"], m["flag"]) for m in with_device)
    assert all((m["a"], m["b"]) == (0, stream) and m["name"] == "" and m["domain"] == "" for m in device)
    by_key = {(m["id"], m["flag"]): m for m in host}
    for m in device:
        # The device executes the marker task after the host enqueued it.
        assert m["timestamp"] + 1_000_000 >= by_key[(m["id"], m["flag"])]["timestamp"]
