"""msptiActivityGetNextRecord (ACT-ITER): record-driven cursor, bounds, unknown kinds, threads."""


def test_iteration_rules(mspti_programs):
    assert mspti_programs.run("iterator.c").check().facts["done"] == "1"


def test_iteration_on_two_threads(mspti_programs):
    assert mspti_programs.run("iterator_threads.c").check().facts["done"] == "1"
