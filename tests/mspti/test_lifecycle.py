"""Subscription and switch lifecycle (GEN-LIFE, ACT-ENABLE) on the simulated runtime."""

from mspti_harness import KIND


def by_phase(run):
    phases, current = {}, []
    for line in run.stdout.splitlines():
        if line.startswith("P phase="):
            phases[int(line.split("=")[1])] = current
            current = []
        elif line.startswith("R "):
            import json

            current.append(json.loads(line[2:]))
    return phases


def test_lifecycle(mspti_programs):
    run = mspti_programs.run("lifecycle.c", libs=("mspti", "ascendcl"), preload=True).check()
    phases = by_phase(run)
    kinds = {n: [r["kind"] for r in recs] for n, recs in phases.items()}
    names = {n: [r.get("name") for r in recs if r["kind"] == KIND["MARKER"]] for n, recs in phases.items()}
    # 0: without a subscriber MEMORY records (interposition), markers do not (mstx is not routed to msPTI).
    assert kinds[0].count(KIND["MEMORY"]) == 2 and names[0] == []
    # 1: first cycle.
    assert kinds[1].count(KIND["KERNEL"]) == 2 and names[1] == ["cycle-1"]
    # 2: the launch made while KERNEL was off has no record; marks after Disable(MARKER) none.
    assert kinds[2].count(KIND["KERNEL"]) == 0 and names[2] == []
    # 3: work before unsubscribe is all delivered by the flush after it.
    assert kinds[3].count(KIND["KERNEL"]) == 3 and names[3] == ["before-unsubscribe"]
    # 4: unsubscribed.
    assert KIND["KERNEL"] not in kinds[4] and names[4] == []
    # 5: re-subscribing collects again with the switches left on.
    assert kinds[5].count(KIND["KERNEL"]) == 2 and names[5] == ["cycle-2"]
