"""CANN's form of a default HCCL communicator name, <ip>%<ifname>_<port>_<device>_<microseconds>.

The pattern is the one the vendor's msPTI system test matches commName against
(Ascend/mspti a389160, test/mspti_cpp/st/script/test_mspti_samples.py).
"""

from __future__ import annotations

import re

CANN_COMM_NAME = re.compile(r"\d+\.\d+\.\d+\.\d+%\S+_\d+_\d+_\d{16}")
