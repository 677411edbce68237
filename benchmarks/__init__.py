"""In-tree benchmarks (they compile programs of the test suite); the shipped ones are `npu-sim bench`."""
