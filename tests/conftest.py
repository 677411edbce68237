"""Shared fixtures: the native build and a compiler for test programs."""

from __future__ import annotations

from pathlib import Path

import pytest

from support.native import NativeTree, ProgramBuilder, find_native_tree


@pytest.fixture(scope="session")
def native() -> NativeTree:
    return find_native_tree()


@pytest.fixture(scope="session")
def programs(native: NativeTree, tmp_path_factory: pytest.TempPathFactory) -> ProgramBuilder:
    return ProgramBuilder(native, tmp_path_factory.mktemp("programs"))


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return Path(__file__).resolve().parents[1]
