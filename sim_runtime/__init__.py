"""The simulated CANN runtime: configuration, toolkit layout and in-process control.

The native libraries (``lib64/``) and headers (``include/``) are installed beside this
package; ``npu-sim`` (``sim_runtime.cli``) lays them out as an ``ASCEND_HOME_PATH``.
"""

from __future__ import annotations

from mspti_base.checkout import prefer_installed

# In a source checkout's root the checkout shadows the installed package: use the installed files.
__path__ = prefer_installed(__name__, __path__, "lib64/libascendcl.so")

__all__ = ["__version__"]

__version__ = "0.1.0"
