"""The machine contract: what to create (MachineSpec), what to run (Command),
what came back (Result), and the errors every backend raises."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path, PurePosixPath
from typing import Protocol, runtime_checkable

from shellbox._wire import CommandSemantics, ExitReason, NetworkPolicy, ShellStatus
from shellbox.image import DockerfileSource, PreparedImage, RegistryImage

__all__ = [
    "Backend",
    "BashSessionProvider",
    "Command",
    "CommandSemantics",
    "DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES",
    "DockerImage",
    "DownloadLimitExceeded",
    "ExecutionRequirements",
    "ExitReason",
    "HARBOR_EXEC_OUTPUT_LIMIT_BYTES",
    "HostImage",
    "ImageSource",
    "Machine",
    "MachineClosed",
    "MachineFactory",
    "MachineInfrastructureError",
    "MachineSpec",
    "MachineStartupError",
    "MachineTerminated",
    "NetworkPolicy",
    "PackageSpec",
    "ProcessMachine",
    "ProcessSession",
    "QemuBundle",
    "Requirements",
    "Result",
    "SandboxUnavailable",
    "ShellSession",
    "ShellSimBuiltins",
    "ShellStatus",
    "ShellUpdate",
    "UnsupportedMachineSpec",
]

HARBOR_EXEC_OUTPUT_LIMIT_BYTES = 128 * 1024 * 1024
DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES = 1_048_576
SHELL_SIMULATOR_CAPABILITIES = frozenset({"shell", "filesystem", "python"})
LINUX_PROCESS_CAPABILITIES = SHELL_SIMULATOR_CAPABILITIES | {"process", "network", "git_repository"}


class Backend(StrEnum):
    LOCAL = "local"
    DOCKER = "docker"
    GVISOR = "gvisor"
    QEMU = "qemu"
    SHELLSIM = "shellsim"
    DAYTONA = "daytona"
    IRIS = "iris"


@dataclass(frozen=True)
class ShellUpdate:
    output: bytes
    status: ShellStatus
    exit_code: int | None = None
    truncated: bool = False


# ---- image sources that are not OCI images ---------------------------------


@dataclass(frozen=True)
class QemuBundle:
    """A staged microVM runtime directory and its registry origin, when known."""

    path: Path
    image_reference: str | None = None


@dataclass(frozen=True)
class DockerImage:
    """An image that already exists in the local Docker daemon."""

    reference: str


@dataclass(frozen=True)
class ShellSimBuiltins:
    """ShellSim's built-in commands and nothing else."""


@dataclass(frozen=True)
class PackageSpec:
    """Python packages and tools the backend should provide (None: no Python)."""

    pypi_packages: tuple[str, ...] | None = None
    tools: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.pypi_packages is not None:
            object.__setattr__(self, "pypi_packages", tuple(self.pypi_packages))
        object.__setattr__(self, "tools", tuple(self.tools))


@dataclass(frozen=True)
class Mount:
    """A host file or directory that commands see read-only at ``guest``."""

    host: Path
    guest: PurePosixPath

    def __post_init__(self) -> None:
        object.__setattr__(self, "host", Path(self.host))
        object.__setattr__(self, "guest", PurePosixPath(self.guest))


@dataclass(frozen=True)
class HostImage:
    """The host's programs, read-only, plus extra read-only directories (at
    their own paths), each Mount at its guest path, and program directories
    put first on PATH."""

    read_only: tuple[Path, ...] = ()
    bin_dirs: tuple[Path, ...] = ()
    mounts: tuple[Mount, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "read_only", tuple(Path(p) for p in self.read_only))
        object.__setattr__(self, "bin_dirs", tuple(Path(p) for p in self.bin_dirs))
        object.__setattr__(self, "mounts", tuple(self.mounts))


ImageSource = (
    QemuBundle
    | DockerImage
    | PreparedImage
    | RegistryImage
    | DockerfileSource
    | ShellSimBuiltins
    | PackageSpec
    | HostImage
)


@dataclass(frozen=True)
class MachineSpec:
    """What a factory creates. startup_timeout bounds a provider's start where
    the backend supports it; callers otherwise enforce their own deadline."""

    source: ImageSource
    workdir: str = "/workspace"
    env: dict[str, str] = field(default_factory=dict)
    network: NetworkPolicy = NetworkPolicy.DENY
    memory_mb: int | None = None
    cpus: int | None = None
    storage_mb: int | None = None
    gpus: int = 0
    startup_timeout: float | None = None
    allowed_hosts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.allowed_hosts, str):
            raise _invalid("allowed_hosts", "allowed_hosts is a sequence of hosts, not one string")
        object.__setattr__(self, "allowed_hosts", tuple(self.allowed_hosts))
        if self.allowed_hosts or self.network == NetworkPolicy.ALLOWLIST:
            from shellbox.egress import validate_allowed_hosts

            validate_allowed_hosts(self.network, self.allowed_hosts)
        # marin-shellbox checks these two at construction; Go checks every
        # field (with the same messages) when a factory sees the spec.
        if self.cpus is not None and self.cpus <= 0:
            raise _invalid("cpus", "cpus must be positive")
        if self.storage_mb is not None and self.storage_mb <= 0:
            raise _invalid("storage_mb", "storage_mb must be positive")


@dataclass(frozen=True)
class Command:
    """One program to run. Go checks every field when the command is run
    (ValueError naming the field, the same on every backend): argv is not
    empty and, with env, holds no NUL bytes, only UTF-8 and at most 1 MiB
    (each string counting its bytes plus 9, as Linux counts them; one string
    at most 128 KiB); env names hold no '='; cwd is an absolute path without
    '..'; timeout is a positive finite number of seconds (a tiny one expires
    at once; None: no timeout); output_limit_bytes is not negative."""

    argv: tuple[str, ...]
    cwd: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    stdin: bytes = b""
    timeout: float | None = None
    output_limit_bytes: int = DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES
    user: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.argv, (str, bytes)):
            object.__setattr__(self, "argv", tuple(self.argv))


def _invalid(field_name: str, reason: str) -> ValueError:
    """A ValueError as Go reports it: ``field`` names the offending field."""
    error = ValueError(f"invalid {field_name}: {reason}")
    error.field = field_name
    return error


@dataclass(frozen=True)
class ResourceUsage:
    """What the machine used while a command ran (commands running at once share it)."""

    cpu_seconds: float
    peak_memory_bytes: int


@dataclass(frozen=True)
class Result:
    exit_code: int | None
    stdout: bytes
    stderr: bytes
    stdout_truncated: bool
    stderr_truncated: bool
    reason: ExitReason
    usage: ResourceUsage | None = None  # after marin-shellbox's fields: where the backend measures it


# ---- errors -----------------------------------------------------------------


class UnsupportedMachineSpec(ValueError):
    """The selected backend cannot create or run what was asked; ``field`` names the spec field."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class MachineStartupError(RuntimeError):
    """The machine could not be started."""


class MachineTerminated(RuntimeError):
    """The machine ended before close: killed, expired, or lost with its host.
    ``stop_reason`` names the exhausted budget of a ShellSim machine (else None)."""

    def __init__(self, message: str = "", stop_reason: str | None = None):
        super().__init__(message)
        self.stop_reason = stop_reason


class MachineClosed(RuntimeError):
    """An operation on a machine (or process) after close."""


class MachineInfrastructureError(RuntimeError):
    """A stop or cleanup could not be confirmed; the machine has been closed."""


class DownloadLimitExceeded(RuntimeError):
    """A bounded download is larger than its bound; the target is untouched."""


class PathNotFound(FileNotFoundError, RuntimeError):
    """A transfer's source does not exist (a RuntimeError too, as marin-shellbox raises)."""


class PathRefused(PermissionError, RuntimeError):
    """A transfer would follow a symlink or write where it may not (a RuntimeError too, as
    marin-shellbox raises)."""


class SandboxUnavailable(RuntimeError):
    """No candidate sandbox works on this host. ``candidates`` maps each
    candidate (a binary, a runtime) to its error."""

    def __init__(self, message: str, candidates: dict[str, str] | None = None):
        super().__init__(message)
        self.candidates = dict(candidates or {})


# ---- protocols --------------------------------------------------------------


class ExecutionRequirements(Protocol):
    """The task contract factories inspect without importing a task schema."""

    @property
    def command_semantics(self) -> CommandSemantics | None: ...

    @property
    def capabilities(self) -> tuple[str, ...]: ...

    @property
    def docker_image(self) -> str | None: ...


@dataclass(frozen=True)
class Requirements:
    """A plain ExecutionRequirements."""

    command_semantics: CommandSemantics | None = None
    capabilities: tuple[str, ...] = ()
    docker_image: str | None = None


class Machine(Protocol):
    """One writable task environment. Files persist until close."""

    async def run(self, command: Command) -> Result: ...

    async def upload(self, source: Path, target: str) -> None: ...

    async def download(self, source: str, target: Path, *, max_bytes: int | None = None) -> None: ...

    async def close(self) -> None: ...


class ProcessSession(Protocol):
    """A running command with incremental binary I/O."""

    async def write(self, data: bytes) -> None: ...

    async def close_stdin(self) -> None: ...

    async def read(self, max_bytes: int = 65536) -> bytes:
        """The next chunk of stdout; b"" at end of output."""
        ...

    async def wait(self) -> int: ...

    @property
    def stderr(self) -> bytes: ...

    @property
    def stderr_truncated(self) -> bool: ...

    async def close(self) -> None: ...


@runtime_checkable
class ProcessMachine(Machine, Protocol):
    async def open_process(self, command: Command) -> ProcessSession: ...


class ShellSession(Protocol):
    """One persistent shell owned by an agent trial."""

    @property
    def interactive(self) -> bool: ...

    async def execute(
        self, command: str, *, wait: float = 120, output_limit_bytes: int = DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES
    ) -> ShellUpdate: ...

    async def read(
        self, *, wait: float = 0, output_limit_bytes: int = DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES
    ) -> ShellUpdate: ...

    async def write(self, data: bytes) -> None: ...

    async def interrupt(self) -> None: ...

    async def close(self) -> None: ...


@runtime_checkable
class BashSessionProvider(Protocol):
    """An environment that can open an agent-owned persistent Bash session."""

    async def open_bash_session(self) -> ShellSession: ...


class MachineFactory(Protocol):
    """Checks what a backend can do and creates fresh machines."""

    @property
    def backend(self) -> Backend: ...

    def check_environment(self, requirements: ExecutionRequirements, spec: MachineSpec) -> None: ...

    async def create(self, spec: MachineSpec) -> Machine: ...


from shellbox._requirements import check_execution_requirements  # noqa: E402  (it uses the names above)
