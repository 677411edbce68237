"""``python -m sim_runtime``: the ``npu-sim`` command."""

from sim_runtime.cli import main

raise SystemExit(main())
