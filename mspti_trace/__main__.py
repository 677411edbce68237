"""``python -m mspti_trace``: the ``mspti-trace`` command."""

import sys

from mspti_trace.cli import main

sys.exit(main())
