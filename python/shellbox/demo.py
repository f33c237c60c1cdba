"""The main job on the embedded default: a local machine runs a command and prints its result.

    python -m shellbox.demo [COMMAND...]
"""

from __future__ import annotations

import asyncio
import sys

from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.machine import Command, HostImage, MachineSpec


async def main(argv: list[str]) -> int:
    command = argv or ["sh", "-c", 'echo "hello from $(hostname) in $(pwd)"; uname -sr']
    factory = LocalMachineFactory()
    machine = await factory.create(MachineSpec(HostImage()))
    try:
        result = await machine.run(Command(command, timeout=60))
    finally:
        await machine.close()
    sys.stdout.buffer.write(result.stdout)
    sys.stderr.buffer.write(result.stderr)
    print(f"exit_code={result.exit_code} reason={result.reason}")
    return result.exit_code if result.exit_code is not None else 124


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
