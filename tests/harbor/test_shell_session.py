"""GoShellSession from Python, on a real local machine: the ShellSession
protocol over the C ABI (run in the Harbor venv, where harbor_support imports)."""

from __future__ import annotations

import subprocess
import textwrap
from pathlib import Path

from conftest import harbor_env

SCRIPT = textwrap.dedent("""
    import asyncio
    from shellbox.backends.local.machine import LocalMachineFactory
    from shellbox.harbor_support import GoShellSession, open_shell
    from shellbox.machine import HostImage, MachineClosed, MachineSpec, ShellStatus

    async def main():
        factory = LocalMachineFactory()
        machine = await factory.create(MachineSpec(HostImage()))
        try:
            shell = await open_shell(machine, env={"GREETING": "hi"})
            assert isinstance(shell, GoShellSession) and shell.interactive, shell.mode
            u = await shell.execute("mkdir -p d && cd d && X=1; echo $GREETING", wait=10)
            assert (u.output, u.status, u.exit_code) == (b"hi\\n", ShellStatus.COMPLETED, 0), u
            u = await shell.execute("pwd; echo x=$X", wait=10)
            assert u.output == b"/workspace/d\\nx=1\\n", u
            u = await shell.execute("read -r line; echo got $line", wait=0.2)
            assert u.status == ShellStatus.RUNNING, u
            await shell.write(b"typed\\n")
            u = await shell.read(wait=10)
            assert (u.output, u.exit_code) == (b"got typed\\n", 0), u
            u = await shell.execute("sleep 30", wait=0.2)
            assert u.status == ShellStatus.RUNNING, u
            await shell.interrupt()
            u = await shell.read(wait=10)
            assert (u.status, u.exit_code) == (ShellStatus.COMPLETED, 130), u
            u = await shell.execute("head -c 5000 /dev/zero | tr '\\\\0' a", wait=10, output_limit_bytes=10)
            assert (u.output, u.truncated) == (b"a" * 10, True), u
            u = await shell.execute("exit", wait=10)
            assert u.status == ShellStatus.RESET, u
            u = await shell.execute("pwd; ls d", wait=10)
            assert u.output == b"/workspace\\n", u
            try:
                await shell.read(wait=0)
            except RuntimeError as error:
                assert "no command" in str(error), error
            else:
                raise AssertionError("read with nothing running")
            one = await open_shell(machine, mode="oneshot")
            assert not one.interactive
            u = await one.execute("cd /; echo $PWD", wait=10)
            assert (u.output, u.exit_code) == (b"/\\n", 0), u
            await one.close()
            await shell.close()
            await shell.close()
            try:
                await shell.execute("true")
            except MachineClosed:
                pass
            else:
                raise AssertionError("a closed session still runs commands")
        finally:
            await machine.close()
        print("ok", shell.mode)

    asyncio.run(main())
    """)


def test_go_shell_session_protocol(harbor_ready: Path) -> None:
    done = subprocess.run(
        [str(harbor_ready / "bin" / "python"), "-c", SCRIPT],
        env=harbor_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.strip() in ("ok terminal", "ok script"), done.stdout
