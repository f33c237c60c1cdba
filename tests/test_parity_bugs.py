"""Regressions found by running marin-shellbox's own tests against shellbox (issue 14, section 3)."""

from __future__ import annotations

import pytest
from testimages import security_image

from shellbox.backends.docker.machine import DockerMachineFactory
from shellbox.backends.gvisor.machine import GvisorMachineFactory
from shellbox.machine import Command, DockerImage, ExitReason, MachineSpec


@pytest.mark.parametrize("backend", ["docker", "gvisor"])
async def test_explicit_cwd_works_after_workdir_is_deleted(backend):
    factory = DockerMachineFactory() if backend == "docker" else GvisorMachineFactory()
    machine = await factory.create(MachineSpec(DockerImage(security_image()), workdir="/workspace"))
    try:
        gone = await machine.run(Command(("rm", "-rf", "/workspace"), cwd="/"))
        assert gone.exit_code == 0, gone
        # Several times: the first command may run in a process started before the deletion.
        for _ in range(3):
            result = await machine.run(Command(("sh", "-c", "pwd"), cwd="/tmp"))
            assert (result.exit_code, result.stdout, result.reason) == (0, b"/tmp\n", ExitReason.EXITED), result
            result = await machine.run(Command(("sh", "-c", "pwd; echo hi >&2"), cwd="/tmp", stdin=b"x"))
            assert (result.exit_code, result.stdout, result.stderr) == (0, b"/tmp\n", b"hi\n"), result
            result = await machine.run(Command(("sh", "-c", "pwd"), cwd="/tmp", env={"A-B": "1"}))
            assert (result.exit_code, result.stdout) == (0, b"/tmp\n"), result
        # Without a cwd the command still fails as a missing directory does, not as an infrastructure error.
        missing = await machine.run(Command(("true",)))
        assert missing.exit_code not in (0, None), missing
    finally:
        await machine.close()
