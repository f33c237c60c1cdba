"""pytest for ShellSim: collection of test_*.py files, test functions and
Test* classes, fixtures (function/class/module/session scope, yield
teardown, autouse, params, conftest.py, tmp_path, tmpdir, capsys, capfd,
monkeypatch, request), marks (parametrize, skip, skipif, xfail), raises,
approx, -q/-v/-x/-k/-m/--maxfail/-rA/--tb, and pytest's exit codes
0/1/2/4/5 and report layout. Plugins are not supported; an unknown option
is a usage error (exit 4), never a silent pass."""
import sys
import os
import _pytest_support as _ps
from _pytest_runner import (main, fixture, mark, param, raises, warns, approx, fail, skip, xfail, importorskip,
                            Skipped, Failed, XFailed, MonkeyPatch, FixtureRequest, deprecated_call, UsageError,
                            ExitCode)

__version__ = "8.3.4"
version_tuple = (8, 3, 4)
__all__ = ["main", "fixture", "mark", "param", "raises", "warns", "approx", "fail", "skip", "xfail", "importorskip",
           "MonkeyPatch", "FixtureRequest", "ExitCode", "UsageError"]

yield_fixture = fixture
