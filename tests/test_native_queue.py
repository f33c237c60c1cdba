"""Completions of calls made from an event loop come through the library's queue (sb_call_queued,
cgo/ABI.md): the loop watches the eventfd and drains on its own thread. These check what that path
must keep: every reply reaches its own caller, large segments arrive whole, a cancellation still
waits for Go's confirmation, a loop closed with calls in flight leaves the next loop working, and a
loop that cannot watch descriptors still gets its replies (through the callback)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from shellbox import _native
from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.machine import Command, HostImage, MachineSpec


def sh(script: str, **kwargs) -> Command:
    return Command(("sh", "-c", script), **kwargs)


@pytest.fixture(scope="module")
def factory() -> LocalMachineFactory:
    return LocalMachineFactory()


async def test_replies_reach_their_callers_through_the_queue(factory):
    machine = await factory.create(MachineSpec(HostImage()))
    try:
        lib = _native.library()
        results = await asyncio.gather(*(machine.run(sh(f"echo {i}; echo e{i} >&2; exit {i % 7}")) for i in range(100)))
        assert asyncio.get_running_loop() in lib.loops  # the loop watched the eventfd
        assert [r.stdout for r in results] == [f"{i}\n".encode() for i in range(100)]
        assert [r.stderr for r in results] == [f"e{i}\n".encode() for i in range(100)]
        assert [r.exit_code for r in results] == [i % 7 for i in range(100)]
        # Segments of 1 MiB and more are written by Go into buffers Python allocated.
        big = await machine.run(sh("head -c 3000000 /dev/zero | tr '\\0' x", output_limit_bytes=4 << 20))
        assert big.stdout == b"x" * 3_000_000
    finally:
        await machine.close()


async def test_cancelled_call_waits_for_go_and_the_next_call_works(factory):
    machine = await factory.create(MachineSpec(HostImage()))
    try:
        for _ in range(5):
            task = asyncio.create_task(machine.run(sh("echo $$ > /tmp/victim; exec sleep 3600")))
            await asyncio.sleep(0.2)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            # Go confirmed the stop before the cancellation propagated: the process is gone now.
            check = await machine.run(sh('kill -0 "$(cat /tmp/victim)" 2>/dev/null && echo alive || echo gone'))
            assert check.stdout == b"gone\n"
    finally:
        await machine.close()


def test_a_loop_closed_with_calls_in_flight_leaves_the_next_one_working(factory):
    """A call's loop that ends before Go answers drops that answer; later loops get theirs."""

    async def abandon():
        machine = await factory.create(MachineSpec(HostImage()))
        # Started and never awaited: the loop closes while Go still runs it.
        asyncio.ensure_future(machine.run(sh("sleep 0.3; echo late")))
        await asyncio.sleep(0.05)
        return machine

    loop = asyncio.new_event_loop()
    machine = loop.run_until_complete(abandon())
    loop.close()

    async def later():
        try:
            results = await asyncio.gather(*(machine.run(sh(f"sleep 0.4; echo {i}")) for i in range(10)))
            return [r.stdout for r in results]
        finally:
            await machine.close()

    assert asyncio.run(later()) == [f"{i}\n".encode() for i in range(10)]


def test_loops_in_threads_share_the_queue(factory):
    """Completions drained by one loop reach calls of loops in other threads."""
    outputs: dict[int, list[bytes]] = {}

    async def own(i: int) -> None:
        machine = await factory.create(MachineSpec(HostImage()))
        try:
            results = await asyncio.gather(*(machine.run(sh(f"echo {i}-{j}")) for j in range(20)))
            outputs[i] = [r.stdout for r in results]
        finally:
            await machine.close()

    threads = [threading.Thread(target=lambda i=i: asyncio.run(own(i))) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert outputs == {i: [f"{i}-{j}\n".encode() for j in range(20)] for i in range(6)}


def test_a_loop_without_add_reader_gets_callbacks(factory):
    class NoReaders(asyncio.SelectorEventLoop):
        def add_reader(self, *args):
            raise NotImplementedError

    async def use():
        machine = await factory.create(MachineSpec(HostImage()))
        try:
            assert asyncio.get_running_loop() not in _native.library().loops
            return (await machine.run(sh("echo callback"))).stdout
        finally:
            await machine.close()

    loop = NoReaders()
    try:
        assert loop.run_until_complete(use()) == b"callback\n"
    finally:
        loop.close()
