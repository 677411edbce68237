"""Records of runtime work: MEMORY, MEMCPY, MEMSET, KERNEL, correlation ids, kind switches and timing.

Importing this package registers its scenarios, one family per module. The modules are imported in
a fixed order, not sorted: their import order is the scenarios' registration order, which is the
order the suite lists and runs them in.
"""

from __future__ import annotations

# isort: off
from conformance.scenarios.device import memory  # noqa: F401
from conformance.scenarios.device import memcpy_memset  # noqa: F401
from conformance.scenarios.device import copy_timing  # noqa: F401
from conformance.scenarios.device import correlation  # noqa: F401
from conformance.scenarios.device import kernels  # noqa: F401
from conformance.scenarios.device import kind_switches  # noqa: F401
from conformance.scenarios.device import aclnn  # noqa: F401
# isort: on
