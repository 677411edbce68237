"""Messages in the format of CANN's msPTI package: printed to stdout as
``<UTC time> [LEVEL] [MSPTI] [<pid>]: <message>``."""

from __future__ import annotations

import datetime
import os

__all__ = ["print_error_msg", "print_info_msg", "print_warn_msg"]


def _print(level: str, message: str) -> None:
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    print(f"{now} [{level}] [MSPTI] [{os.getpid()}]: {message}", flush=True)


def print_info_msg(message: str) -> None:
    _print("INFO", message)


def print_warn_msg(message: str) -> None:
    _print("WARNING", message)


def print_error_msg(message: str) -> None:
    _print("ERROR", message)
