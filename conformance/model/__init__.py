"""The reference model: what a conforming implementation must deliver, and invariants over logs."""

from __future__ import annotations

from conformance.model.invariants import Violation
from conformance.model.state import MsptiModel, Prediction

__all__ = ["MsptiModel", "Prediction", "Violation"]
