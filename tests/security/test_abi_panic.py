"""A panic anywhere in the library must not take down the host process (issue 10, 2.1): the ABI
boundary recovers it and the call fails with MachineInfrastructureError naming the panic."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

PYTHON_DIR = Path(__file__).resolve().parents[2] / "python"

CHILD = textwrap.dedent(
    """
    import asyncio
    from shellbox import _go
    from shellbox.backends.shellsim.machine import ShellSimMachineFactory
    from shellbox.machine import Command, MachineInfrastructureError, MachineSpec, ShellSimBuiltins

    async def main():
        # sb_call_sync: the calling thread.
        try:
            _go.call_sync(0, "test_panic")
        except MachineInfrastructureError as error:
            assert "test_panic was called" in str(error), error
        else:
            raise AssertionError("no error from a panicking sync call")
        # sb_call: a goroutine, many at once.
        results = await asyncio.gather(*(_go.call(0, "test_panic") for _ in range(20)), return_exceptions=True)
        assert all(isinstance(r, MachineInfrastructureError) for r in results), results
        # The library still works.
        machine = await ShellSimMachineFactory().create(MachineSpec(ShellSimBuiltins()))
        result = await machine.run(Command(("echo", "alive")))
        await machine.close()
        assert result.stdout == b"alive\\n", result
        print("survived")

    asyncio.run(main())
    """
)


def test_panics_become_errors_and_the_process_survives():
    env = {**os.environ, "PYTHONPATH": str(PYTHON_DIR), "SHELLBOX_TEST_HOOKS": "1"}
    child = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr[-3000:]
    assert child.stdout == "survived\n"
    # The stack of each recovered panic is logged for the bug report.
    assert "shellbox: panic in test_panic: test_panic was called" in child.stderr
    assert "goroutine " in child.stderr and "lib/bridge" in child.stderr


def test_the_hook_is_off_by_default():
    env = {k: v for k, v in os.environ.items() if k != "SHELLBOX_TEST_HOOKS"}
    env["PYTHONPATH"] = str(PYTHON_DIR)
    code = "from shellbox import _go\ntry:\n    _go.call_sync(0, 'test_panic')\nexcept ValueError as e:\n    print(e.field)"
    child = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert (child.returncode, child.stdout) == (0, "method\n"), child.stderr
