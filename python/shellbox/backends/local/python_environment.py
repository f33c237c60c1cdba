"""Self-contained Python environments for local machines, built with uv from PyPI.

A root holds a uv-managed CPython under ``root/python`` and a venv made from it under ``root/venv``;
every file the interpreter needs is inside the root, so a local machine that mounts the root read-only
and puts ``bin_dir`` on PATH runs it with nothing else of the host's Python.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

DEFAULT_PYTHON_VERSION = "3.12.12"
PYTHON_DIRECTORY = "python"
VENV_DIRECTORY = "venv"
COMPLETE_MARKER = ".complete"


@dataclass(frozen=True)
class PythonEnvironment:
    """A venv at ``root/venv`` on the interpreter at ``root/python``; it must stay where it was built
    (the venv names its interpreter by absolute path)."""

    root: Path

    @property
    def bin_dir(self) -> Path:
        return self.root / VENV_DIRECTORY / "bin"

    @property
    def python(self) -> Path:
        return self.bin_dir / "python3"


class UvError(RuntimeError):
    """A uv command failed; the message has the command and uv's stderr."""


def _uv_binary() -> str:
    # The uv wheel from PyPI ships the binary; a uv on PATH does as well.
    try:
        from uv import find_uv_bin  # type: ignore[import-not-found]

        return find_uv_bin()
    except (ImportError, FileNotFoundError):
        found = shutil.which("uv")
        if found is None:
            raise UvError("uv is not installed: pip install uv") from None
        return found


def _uv(*args: str, env: dict[str, str] | None = None) -> None:
    command = [_uv_binary(), *args]
    done = subprocess.run(command, stderr=subprocess.PIPE, text=True, env={**os.environ, **(env or {})})
    if done.returncode != 0:
        raise UvError(f"{shlex.join(command)} exited with status {done.returncode}:\n{done.stderr}")


def _system_python(python_version: str) -> str | None:
    """The host's /usr/bin/pythonX.Y when it is exactly ``python_version``."""
    major_minor = ".".join(python_version.split(".")[:2])
    candidate = Path("/usr/bin") / f"python{major_minor}"
    if not candidate.exists():
        return None
    done = subprocess.run(
        [str(candidate), "-c", "import platform; print(platform.python_version())"], capture_output=True, text=True
    )
    return str(candidate) if done.returncode == 0 and done.stdout.strip() == python_version else None


def _marker(lock: Path, python_version: str) -> str:
    return f"python {python_version}\nlock sha256 {hashlib.sha256(lock.read_bytes()).hexdigest()}\n"


def build_python_environment(
    root: Path, lock: Path, python_version: str, *, only_binary: bool = False
) -> PythonEnvironment:
    """Build (once per host: a flock beside ``root`` and a completion marker) a venv under ``root`` with
    CPython ``python_version`` (a full version, downloaded by uv) and the hash-locked requirements
    ``lock``. ``only_binary`` refuses source distributions, so no build hook runs. A finished root made
    from other inputs raises ValueError; a failed uv command UvError; a failed build leaves no root."""
    root = root.absolute()
    environment = PythonEnvironment(root)
    expected = _marker(lock, python_version)
    root.parent.mkdir(parents=True, exist_ok=True)
    with open(root.parent / f"{root.name}.lock", "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        marker = root / COMPLETE_MARKER
        if marker.exists():
            if marker.read_text() != expected:
                raise ValueError(f"{root} was built from other inputs:\n{marker.read_text()}")
            return environment
        shutil.rmtree(root, ignore_errors=True)
        install = {"UV_PYTHON_INSTALL_DIR": str(root / PYTHON_DIRECTORY)}
        try:
            system = _system_python(python_version)
            if system is not None:
                # Every local machine sees the host's /usr: its interpreter of exactly this version
                # serves without a download (uv's CPython builds come from GitHub, which some hosts
                # cannot reach).
                _uv("venv", "--no-config", "--no-managed-python", "--python", system, str(root / VENV_DIRECTORY))
            else:
                _uv("python", "install", "--no-config", "--no-bin", python_version, env=install)
                _uv("venv", "--no-config", "--managed-python", "--no-python-downloads", "--python", python_version,
                    str(root / VENV_DIRECTORY), env=install)
            # Copies: a symlink into uv's cache would not be visible in the sandbox.
            _uv("pip", "sync", "--no-config", "--python", str(environment.python), "--require-hashes",
                "--link-mode", "copy", *(("--no-build",) if only_binary else ()), str(lock))
            marker.write_text(expected)
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
    return environment


def resolve_python_environment(cache: Path, requirements: tuple[str, ...], python_version: str) -> PythonEnvironment:
    """Resolve ``requirements`` (wheels only) to a hash lock once per (requirements, version) under
    ``cache`` and build its environment; later calls reuse the lock, so an unpinned requirement stays
    at what it first resolved to until the cache is cleared."""
    requirements = tuple(sorted(set(requirements)))
    for requirement in requirements:
        if not requirement or requirement.startswith("-") or "\n" in requirement or "\r" in requirement:
            raise ValueError(f"pypi_packages: {requirement!r} is not one requirement (no pip options)")
    key = hashlib.sha256(json.dumps([python_version, requirements]).encode()).hexdigest()
    directory = cache.absolute() / key
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / "resolve.lock", "w") as guard:
        fcntl.flock(guard, fcntl.LOCK_EX)
        lock = directory / "requirements.lock"
        if not lock.exists():
            source = directory / "requirements.in"
            source.write_text("".join(r + "\n" for r in requirements))
            pending = directory / "requirements.pending"
            try:
                _uv("pip", "compile", "--no-config", "--generate-hashes", "--no-build", "--python-version",
                    python_version, "--output-file", str(pending), str(source))
                pending.replace(lock)
            finally:
                pending.unlink(missing_ok=True)
    return build_python_environment(directory / "environment", lock, python_version, only_binary=True)
