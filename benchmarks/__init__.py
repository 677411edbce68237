"""Benchmarks: each module prints figures measured in one run (ratios, not timed assertions)."""
