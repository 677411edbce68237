"""The device RNG of the operator library (csrc/sim/opapi/device_rng.h) is Philox4x32-10: the
known-answer vectors published with Random123 (Salmon et al., SC 2011), computed by the library's
own source compiled into a small program."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROGRAM = Path(__file__).resolve().parent / "programs" / "philox_kat.cpp"

KAT = [
    ("00000000 00000000 00000000 00000000 00000000 00000000", "6627e8d5 e169c58d bc57ac4c 9b00dbd8"),
    ("ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff", "408f276d 41c83b0e a20bc7c6 6d5451fd"),
    ("243f6a88 85a308d3 13198a2e 03707344 a4093822 299f31d0", "d16cfe09 94fdcceb 5001e420 24126ea1"),
]


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
def test_philox4x32_10_matches_the_known_answers(tmp_path: Path) -> None:
    exe = tmp_path / "philox_kat"
    sources = [PROGRAM, REPO / "csrc" / "sim" / "opapi" / "device_rng.cpp"]
    subprocess.run(
        ["g++", "-std=c++17", "-O1", f"-I{REPO / 'csrc' / 'sim'}", *map(str, sources), "-o", str(exe)],
        check=True,
    )
    for words, expected in KAT:
        out = subprocess.run([str(exe), *words.split()], capture_output=True, text=True, check=True).stdout
        assert out.strip() == expected
