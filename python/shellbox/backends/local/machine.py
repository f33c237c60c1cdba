"""Local machines: one persistent bubblewrap sandbox each, run by Go."""

from __future__ import annotations

import asyncio
import os
import re
from enum import StrEnum
from pathlib import Path, PurePosixPath

from shellbox import _wire
from shellbox._go import GoMachine, GoMachineFactory
from shellbox.backends.local.python_environment import DEFAULT_PYTHON_VERSION, resolve_python_environment
from shellbox.image import PreparedImage
from shellbox.machine import (
    LINUX_PROCESS_CAPABILITIES,
    Backend,
    Command,
    CommandSemantics,
    ExecutionRequirements,
    HostImage,
    MachineSpec,
    PackageSpec,
    SandboxUnavailable,
    UnsupportedMachineSpec,
    check_execution_requirements,
)

__all__ = [
    "LocalMachine",
    "LocalMachineFactory",
    "SandboxUnavailable",
    "SystemDirectories",
    "check_local_environment",
    "read_only_system_mounts",
]

SYSTEM_DIRECTORIES = ("/bin", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/sbin", "/sys", "/usr")
"""Host directories a machine's commands see but cannot change, and where no Mount may go."""
OVERLAID_DIRECTORIES = ("/bin", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/sbin", "/usr")
"""What SystemDirectories.COPY_ON_WRITE makes writable per machine (/sys stays read-only)."""


class SystemDirectories(StrEnum):
    """How a local machine's commands see the host's system directories."""

    READ_ONLY = "read_only"
    """Bound read-only: writes fail."""
    COPY_ON_WRITE = "copy_on_write"
    """Writable per machine: each command sees the machine's earlier writes, close discards them, and
    the host's files never change. Mounts the host has inside these directories stay read-only. Without
    root the overlays are served by fuse-overlayfs (which must be installed, with /dev/fuse usable)."""


def _overlaid() -> tuple[str, ...]:
    # /etc is the machine's private copy anyway; on merged-/usr hosts /bin and /lib are links into /usr.
    return tuple(d for d in OVERLAID_DIRECTORIES if d != "/etc" and os.path.isdir(d) and not os.path.islink(d))


def read_only_system_mounts() -> tuple[str, ...]:
    """The host's mount points inside the overlaid system directories (parents first), which stay
    read-only in copy-on-write machines."""
    roots = _overlaid()
    points: list[str] = []
    with open("/proc/self/mountinfo") as mountinfo:
        for line in mountinfo:
            # mountinfo escapes space, tab, newline and backslash in paths as \\ooo.
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m[1], 8)), line.split()[4])
            if any(point != root and PurePosixPath(point).is_relative_to(root) for root in roots):
                points.append(point)
    return tuple(sorted(dict.fromkeys(points), key=lambda p: (p.count("/"), p)))


def _check_source(spec: MachineSpec) -> None:
    if not isinstance(spec.source, (HostImage, PackageSpec, PreparedImage)):
        raise UnsupportedMachineSpec(
            f"the local backend runs HostImage, PackageSpec or PreparedImage sources, not {type(spec.source).__name__}",
            "source",
        )


def check_local_environment(requirements: ExecutionRequirements, spec: MachineSpec) -> None:
    """What a local factory's check_environment checks that needs no factory: the source kind, no
    storage or GPUs, and the task's declared semantics and capabilities. (cpus and memory_mb need a
    factory with a cgroup_parent; its check_environment checks them.)"""
    _check_source(spec)
    if spec.storage_mb is not None:
        raise UnsupportedMachineSpec("local machines cannot limit storage", "storage_mb")
    if spec.gpus:
        raise UnsupportedMachineSpec("local machines cannot provide GPUs", "gpus")
    check_execution_requirements(
        requirements, spec, semantics=CommandSemantics.LINUX_PROCESS, capabilities=LINUX_PROCESS_CAPABILITIES
    )


class LocalMachine(GoMachine):
    """A persistent bubblewrap sandbox: files and background processes live until close."""


class LocalMachineFactory(GoMachineFactory):
    """Creates local machines from HostImage, PackageSpec or PreparedImage sources.

    Checks once, here, that bubblewrap can build a sandbox (``bwrap`` if given, then ``bwrap`` on
    PATH) and raises SandboxUnavailable with each candidate's error otherwise.

    ``hash_seed`` becomes PYTHONHASHSEED in every command. A PackageSpec with ``pypi_packages`` gets a
    Python environment built with uv (``python_version``, cached under ``package_cache``), mounted
    read-only with its ``bin`` first on PATH; its ``tools`` must be executable in the sandbox.
    ``system_directories`` says whether /usr, /bin, /sbin, /lib* and /etc are read-only or writable
    per machine (copy-on-write). ``ttl`` (seconds) closes a machine that lives that long even if
    the caller forgets. ``cgroup_parent`` is a cgroup directory this process may create children
    in (cgroup v2, or a v1 hierarchy such as /sys/fs/cgroup/memory/x): each machine gets a child,
    and ``MachineSpec.cpus``/``memory_mb`` are enforced there (swap off when memory is limited);
    without it they raise UnsupportedMachineSpec. ``pids_limit`` bounds each machine's tasks,
    threads included (default 1024), where the host lets a pids cgroup be made."""

    backend = Backend.LOCAL
    machine_class = LocalMachine

    def __init__(
        self,
        *,
        read_only: tuple[Path, ...] = (),
        bin_dirs: tuple[Path, ...] = (),
        bwrap: Path | None = None,
        hash_seed: str | None = None,
        package_cache: Path | None = None,
        python_version: str = DEFAULT_PYTHON_VERSION,
        system_directories: SystemDirectories = SystemDirectories.READ_ONLY,
        ttl: float | None = None,
        cgroup_parent: Path | None = None,
        cache_dir: Path | None = None,
        pids_limit: int | None = None,
        egress_log: Path | None = None,
    ):
        # read_only and ttl are checked once, in Go (ValueError naming the field).
        self.hash_seed = hash_seed
        self.package_cache = Path(package_cache) if package_cache is not None else Path.home() / ".cache/shellbox/python"
        self.python_version = python_version
        self.system_directories = SystemDirectories(system_directories)
        self.ttl = ttl
        self.egress_log = egress_log
        super().__init__(
            _wire.LocalOptions(
                read_only=read_only,
                bin_dirs=bin_dirs,
                bwrap=bwrap,
                cache_dir=cache_dir,
                pids_limit=pids_limit or 0,
                hash_seed=hash_seed,
                system_directories=self.system_directories.value,
                ttl=ttl,
                cgroup_parent=cgroup_parent,
            )
        )

    def check_environment(self, requirements: ExecutionRequirements, spec: MachineSpec) -> None:
        # Go checks every field, with this factory's cgroup and mounts in mind; a task that declares
        # no semantics passes here, as on every shellbox factory (check_local_environment refuses it).
        if not isinstance(spec, MachineSpec):  # a shellbox.task.TaskSpec: each member is checked
            return super().check_environment(requirements, spec)
        _check_source(spec)
        super().check_environment(requirements, self._go_spec(spec, None))

    def _go_spec(self, spec: MachineSpec, environment) -> MachineSpec:
        """A PackageSpec as the HostImage that provides it (the environment once built)."""
        if not isinstance(spec.source, PackageSpec):
            return spec
        host = HostImage()
        if environment is not None:
            host = HostImage(read_only=(environment.root,), bin_dirs=(environment.bin_dir,))
        return MachineSpec(
            host, spec.workdir, spec.env, spec.network, spec.memory_mb, spec.cpus, spec.storage_mb, spec.gpus,
            spec.startup_timeout,
        )

    async def create(self, spec: MachineSpec) -> LocalMachine:
        if not isinstance(spec, MachineSpec):
            raise TypeError(f"create takes a MachineSpec, got {type(spec).__name__}")
        _check_source(spec)
        environment = None
        if isinstance(spec.source, PackageSpec) and spec.source.pypi_packages is not None:
            environment = await asyncio.to_thread(
                resolve_python_environment, self.package_cache, spec.source.pypi_packages, self.python_version
            )
        machine = await super().create(self._go_spec(spec, environment))
        machine.spec = spec
        tools = spec.source.tools if isinstance(spec.source, PackageSpec) else ()
        if tools:
            try:
                found = await machine.run(
                    Command(("/bin/sh", "-c", 'for t do p=$(command -v "$t") && [ -x "$p" ] || exit; done', "sh", *tools))
                )
                if found.exit_code != 0:
                    raise UnsupportedMachineSpec("requested tools must be executable on the sandbox's PATH", "source")
            except BaseException:
                await machine.close()
                raise
        return machine
