"""External correlation (ACT-EXT): nesting, several kinds, switched off, empty stacks."""

from mspti_harness import KIND


def test_external_correlation_rules(mspti_programs):
    run = mspti_programs.run("external_nesting.c", libs=("mspti", "ascendcl"), preload=True).check()
    memory = run.of("MEMORY")
    assert len(memory) == 10  # 5 x (alloc + free)
    ids = [m["correlationId"] for m in memory]
    ext = run.of("EXTERNAL_CORRELATION")
    links = [(e["correlationId"], e["externalKind"], e["externalId"]) for e in ext]
    expected = []
    for call in ids[2:4]:  # nested: inner id 2
        expected.append((call, 2, 2))
    for call in ids[4:6]:  # popped: outer id 1 again
        expected.append((call, 2, 1))
    for call in ids[6:8]:  # UNKNOWN(1)=10, CUSTOM0(2)=1, CUSTOM2(4)=30, in kind order
        expected += [(call, 1, 10), (call, 2, 1), (call, 4, 30)]
    assert links == expected  # none for the calls made while the kind was off, none once all stacks are empty
    # Each link comes before the record it names.
    order = [r["kind"] for r in run.records]
    first_memory_of = {
        m["correlationId"]: i
        for i, m in reversed(list(enumerate(run.records)))
        if m["kind"] == KIND["MEMORY"]
    }
    for i, r in enumerate(run.records):
        if r["kind"] == KIND["EXTERNAL_CORRELATION"]:
            assert i < first_memory_of[r["correlationId"]]
    assert order.count(KIND["EXTERNAL_CORRELATION"]) == len(expected)
