"""The attack suite: every test here plays a hostile guest or caller and checks the host is unchanged."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/leaks.py

from hoststate import HostState  # noqa: E402


@pytest.fixture
def host_state(tmp_path_factory):
    """A snapshot of host state taken before the test; `host_state.assert_unchanged()` compares."""
    state = HostState(tmp_path_factory.mktemp("sentinel"))
    yield state
