"""``python -m conformance``: the mspti-conformance command."""

from __future__ import annotations

import sys

from conformance.cli import main

if __name__ == "__main__":
    sys.exit(main())
