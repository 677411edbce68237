"""The interposers' gate: an interposed call is observed exactly while a kind or a callback is on."""

import json

from mspti_harness import KIND


def by_phase(stdout: str) -> dict[int, tuple[list[dict], list[dict]]]:
    """(callbacks, records) printed before each "P phase=N" line."""
    phases: dict[int, tuple[list[dict], list[dict]]] = {}
    callbacks: list[dict] = []
    records: list[dict] = []
    for line in stdout.splitlines():
        if line.startswith("P phase="):
            phases[int(line.split("=")[1])] = (callbacks, records)
            callbacks, records = [], []
        elif line.startswith("C "):
            callbacks.append(json.loads(line[2:]))
        elif line.startswith("R "):
            records.append(json.loads(line[2:]))
    return phases


def test_gate_follows_kinds_and_callbacks(mspti_programs):
    run = mspti_programs.run("call_gate.c", libs=("mspti", "ascendcl"), preload=True).check()
    phases = by_phase(run.stdout)
    assert sorted(phases) == [0, 1, 2, 3, 4, 5]
    # 0: subscribed, nothing enabled: no callback, no record.
    assert phases[0] == ([], [])
    # 1: the launch callback: ENTER and EXIT of the launch, one correlation id.
    callbacks, records = phases[1]
    assert [(c["name"], c["site"]) for c in callbacks] == [("aclrtLaunchKernel", 0), ("aclrtLaunchKernel", 1)]
    assert callbacks[0]["corr"] == callbacks[1]["corr"] != 0 and all(c["shared"] for c in callbacks)
    assert records == []
    # 2: RUNTIME_API alone opens the gate: the runtime's launch record takes the id of a call after
    # those of phase 1 (the interposer opened a scope for it).
    callbacks, records = phases[2]
    assert callbacks == []
    launches = [r for r in records if r["kind"] == KIND["RUNTIME_API"] and r["name"] == "KernelLaunch"]
    assert len(launches) == 1 and launches[0]["correlationId"] > phases[1][0][0]["corr"]
    # 3: everything off again.
    assert phases[3] == ([], [])
    # 4: a whole domain: every interposed runtime call of the phase (the launch, the synchronisation).
    names = [c["name"] for c in phases[4][0]]
    assert names.count("aclrtLaunchKernel") == 2 and names.count("aclrtSynchronizeStream") == 2
    # 5: unsubscribed: the domain's callbacks ended with the subscription.
    assert phases[5] == ([], [])
