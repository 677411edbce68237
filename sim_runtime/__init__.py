"""The simulated CANN runtime: configuration, toolkit layout and in-process control.

The native libraries (``lib64/``) and headers (``include/``) are installed beside this
package; ``npu-sim`` (``sim_runtime.cli``) lays them out as an ``ASCEND_HOME_PATH``.
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
