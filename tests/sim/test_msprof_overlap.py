"""The interval arithmetic of msprof's Overlap Analysis rows (sim_runtime/msprof/overlap.py), each
operation read off the track that applies it."""

from __future__ import annotations

from sim_runtime.msprof.overlap import analysis


def merge(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return analysis(computing=intervals, communication=[])["Computing"]


def subtract(intervals: list[tuple[int, int]], removed: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return analysis(computing=removed, communication=intervals)["Communication(Not Overlapped)"]


def gaps(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return analysis(computing=intervals, communication=[])["Free"]


def test_merge_joins_overlapping_and_touching_intervals() -> None:
    assert merge([(5, 7), (0, 2), (1, 3), (3, 4), (9, 9)]) == [(0, 4), (5, 7)]


def test_subtract_cuts_the_removed_parts_out() -> None:
    assert subtract([(0, 10), (12, 15)], [(2, 3), (5, 13)]) == [(0, 2), (3, 5), (13, 15)]
    assert subtract([(0, 4)], []) == [(0, 4)]
    assert subtract([(2, 3)], [(0, 10)]) == []


def test_gaps_between_sorted_intervals() -> None:
    assert gaps([(0, 2), (2, 4), (6, 7)]) == [(4, 6)]


def test_analysis_of_compute_and_communication() -> None:
    rows = analysis(computing=[(0, 10), (20, 30)], communication=[(5, 25)])
    assert rows == {
        "Computing": [(0, 10), (20, 30)],
        "Communication": [(5, 25)],
        "Communication(Not Overlapped)": [(10, 20)],
        "Free": [],
    }
    assert analysis(computing=[(0, 1), (4, 6)], communication=[])["Free"] == [(1, 4)]
