"""Thread safety (THR) and re-entrancy of the buffer callbacks."""


def test_eight_threads_hammering(mspti_programs):
    run = mspti_programs.run("threads.c", timeout=180).check()
    produced = int(run.facts["produced"])
    assert int(run.facts["markers"]) == produced
    assert int(run.facts["dropped"]) == 0
    assert run.summary["violations"] == 0


def test_callbacks_calling_back_into_mspti(mspti_programs):
    run = mspti_programs.run("reentrancy.c").check()
    produced, delivered, dropped = (int(run.facts[k]) for k in ("produced", "delivered", "dropped"))
    assert produced == delivered + dropped
    assert dropped == int(run.facts["in_request"])  # marks made inside RequestFunc have no buffer
    assert int(run.facts["in_complete"]) == 5
    names = [r["name"] for r in run.of("MARKER")]
    assert names.count("in-complete") == 5 and names.count("main") == 200


def test_eight_threads_launching_while_switches_flip(mspti_programs):
    run = mspti_programs.run(
        "threads_launch.c", libs=("mspti", "ascendcl"), preload=True, timeout=180
    ).check()
    produced = int(run.facts["produced"])
    assert int(run.facts["kernels"]) + int(run.facts["dropped_kernel"]) == produced
    assert int(run.facts["memcpys"]) + int(run.facts["dropped_memcpy"]) == produced
    assert int(run.facts["dropped_kernel"]) == 0 and int(run.facts["dropped_memcpy"]) == 0
