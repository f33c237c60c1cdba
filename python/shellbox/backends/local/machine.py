"""Local machines: one persistent bubblewrap sandbox each, run by Go."""

from __future__ import annotations

from pathlib import Path

from shellbox import _wire
from shellbox._go import GoMachine, GoMachineFactory
from shellbox.machine import Backend, SandboxUnavailable

__all__ = ["LocalMachine", "LocalMachineFactory", "SandboxUnavailable"]


class LocalMachine(GoMachine):
    """A persistent bubblewrap sandbox: files and background processes live until close."""


class LocalMachineFactory(GoMachineFactory):
    """Creates local machines from HostImage or PreparedImage sources.

    Go checks the options (``read_only`` and ``bin_dirs`` are directories) and
    once, here, that bubblewrap can build a sandbox (``bwrap`` if given,
    then ``bwrap`` on PATH) and raises SandboxUnavailable with each candidate's
    error otherwise. ``pids_limit`` bounds each machine's tasks, threads included
    (default 1024), where the host lets a pids cgroup be made;
    ``check_environment`` with the capability ``process_limit`` says when it cannot."""

    backend = Backend.LOCAL
    machine_class = LocalMachine

    def __init__(
        self,
        *,
        read_only: tuple[Path, ...] = (),
        bin_dirs: tuple[Path, ...] = (),
        bwrap: Path | None = None,
        cache_dir: Path | None = None,
        pids_limit: int | None = None,
    ):
        super().__init__(
            _wire.LocalOptions(
                read_only=read_only, bin_dirs=bin_dirs, bwrap=bwrap, cache_dir=cache_dir, pids_limit=pids_limit or 0
            )
        )
