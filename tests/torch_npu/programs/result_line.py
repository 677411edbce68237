"""The result line of a torch_npu test program: one JSON line on stdout, the last the program writes
(torch_npu_harness.run_on_simulator reads it).

The line goes out in one write: print() writes the text and its newline separately, so when the ranks
of a torchrun job share its stdout another rank's line could land between them."""

from __future__ import annotations

import json
import sys


def write_result(result: object, prefix: str = "") -> None:
    """Writes `prefix` and `result` as JSON, with the newline, in one write, and flushes."""
    sys.stdout.write(prefix + json.dumps(result) + "\n")
    sys.stdout.flush()
