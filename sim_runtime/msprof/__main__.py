import sys

from sim_runtime.msprof.cli import main

sys.exit(main())
