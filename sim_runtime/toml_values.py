"""Words for TOML values in the messages of the simulator's data-file readers."""

from __future__ import annotations

__all__ = ["toml_type"]


def toml_type(value: object) -> str:
    """The TOML type of a value read by tomllib ("integer", "table", ...), for an error message."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "table"
    if isinstance(value, list):
        return "array"
    return type(value).__name__
