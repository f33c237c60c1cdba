"""What our Harbor environments share: Go-backed shell sessions on a
machine, and a BaseEnvironment that runs a task on one shellbox machine per
trial. Importing this module imports Harbor (Python >= 3.12)."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shlex
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from harbor.environments.base import BaseEnvironment, ExecResult
from harbor.environments.capabilities import EnvironmentCapabilities

from shellbox import harbor_egress
from shellbox._go import GoShellSession, machine_handle, open_shell
from shellbox.machine import (
    HARBOR_EXEC_OUTPUT_LIMIT_BYTES,
    Command,
    ExitReason,
    MachineClosed,
    MachineSpec,
    NetworkPolicy,
)

__all__ = ["GoShellSession", "MachineEnvironment", "open_shell", "machine_handle"]

_LOG_DIRS = ("/logs/agent", "/logs/verifier", "/logs/artifacts")
_TIMING = logging.getLogger("shellbox.harbor.timing")


def _make_log_tree(tree: Path, names: list[str]) -> Path:
    """Fill ``tree`` with empty mode-777 directories ``names``."""
    for name in names:
        (tree / name).mkdir()
        (tree / name).chmod(0o777)
    tree.chmod(0o755)
    return tree


class MachineEnvironment(BaseEnvironment):
    """A Harbor environment on one shellbox machine per trial. Subclasses
    give ``type()``, ``_factory()`` and ``_machine_spec()``; the rest maps
    Harbor's operations to the machine's."""

    shell_mode: str = "auto"
    # The shell Harbor's exec strings and the agent's session run in; a
    # backend without Bash (ShellSim) sets "sh".
    bash: str = "bash"

    def __init__(self, *args: Any, shell_mode: str = "auto", **kwargs: Any):
        self.shell_mode = shell_mode
        self._machine: Any = None
        self._sessions: list[GoShellSession] = []
        self.timings: dict[str, float] = {}
        super().__init__(*args, **kwargs)

    # ---- what subclasses provide -------------------------------------------

    def _factory(self) -> Any:
        raise NotImplementedError

    def _machine_spec(self) -> MachineSpec:
        raise NotImplementedError

    # ---- Harbor's contract ---------------------------------------------------

    @property
    def capabilities(self) -> EnvironmentCapabilities:
        return EnvironmentCapabilities(disable_internet=True)

    #: Whether a task must have an environment/ directory (an image to build or files to copy).
    requires_environment_dir = True

    def _validate_definition(self) -> None:
        if self.requires_environment_dir and not self.environment_dir.is_dir():
            raise FileNotFoundError(f"task environment directory not found: {self.environment_dir}")
        for name in ("docker-compose.yaml", "docker-compose.yml", "compose.yaml", "compose.yml"):
            if (self.environment_dir / name).exists():
                raise ValueError(f"{type(self).__name__} runs a single machine; {name} is not supported")

    @property
    def workdir(self) -> str:
        return self.task_env_config.workdir or "/workspace"

    def _network(self) -> NetworkPolicy:
        return NetworkPolicy.DENY if getattr(self, "_network_disabled", False) else NetworkPolicy.ALLOW

    def _running(self) -> Any:
        if self._machine is None:
            raise RuntimeError(f"{type(self).__name__} is not running")
        return self._machine

    async def start(self, force_build: bool) -> None:
        began = time.perf_counter()
        self._machine = await self._create_machine(self._machine_spec())
        try:
            # The task's environment/ (regular files and directories) into the
            # workdir, and Harbor's log directories, at once.
            # A task without one (allowed where the backend needs no image) copies nothing.
            uploads = [self._machine.upload(self.environment_dir, self.workdir)] if self.environment_dir.is_dir() else []
            await asyncio.gather(*uploads, self._make_log_dirs())
        except BaseException:
            await self.stop(delete=True)
            raise
        self._record("start", time.perf_counter() - began)

    async def _create_machine(self, spec: MachineSpec) -> Any:
        """The trial's machine; behind the egress filter when the environment declares allowlists and
        some policy of the trial is not public (shellbox.harbor_egress)."""
        plan = harbor_egress.machine_network(self) if self.capabilities.network_allowlist else None
        if plan is None:
            return await self._factory().create(spec)
        network, hosts, public = plan
        log = harbor_egress.egress_dir(self) / "decisions.jsonl"
        log.parent.mkdir(parents=True, exist_ok=True)
        machine = await self._factory()._create(replace(spec, network=network, allowed_hosts=hosts), egress_log=log)
        if public:
            await machine.set_network_policy(NetworkPolicy.ALLOW, phase="baseline")
        return machine

    async def _apply_network_policy(self, network_policy: Any) -> None:
        policy, hosts = harbor_egress.network_for(network_policy)
        self._policy_switches = getattr(self, "_policy_switches", 0) + 1
        await self._running().set_network_policy(policy, hosts, phase=f"switch-{self._policy_switches}")

    async def _make_log_dirs(self) -> None:
        """Harbor's writable log directories, mode 777: one upload of an empty
        tree when they are the usual three under /logs, else one command."""
        targets = sorted(set(_LOG_DIRS) | set(self._mount_targets(writable_only=True)))
        if all(t.startswith("/logs/") and "/" not in t[len("/logs/") :] for t in targets):
            # A per-call directory: a shared one would outlive a Harbor
            # process that ends without running its exit handlers.
            with tempfile.TemporaryDirectory(prefix="shellbox-harbor-logs-") as tree:
                names = [t[len("/logs/") :] for t in targets]
                await self._machine.upload(_make_log_tree(Path(tree), names), "/logs")
            return
        quoted = " ".join(shlex.quote(t) for t in targets)
        result = await self._machine.run(
            Command(argv=("sh", "-c", f"mkdir -p {quoted} && chmod 777 {quoted}"), cwd="/", output_limit_bytes=4096)
        )
        if result.exit_code != 0:
            raise RuntimeError(f"creating the log directories failed: {result.stderr.decode(errors='replace')}")

    async def stop(self, delete: bool) -> None:
        began = time.perf_counter()
        machine, self._machine = self._machine, None
        sessions, self._sessions = self._sessions, []
        try:
            for session in sessions:
                try:
                    await session.close()
                except MachineClosed:
                    pass
        finally:
            if machine is not None:
                await machine.close()
                if self.capabilities.network_allowlist:
                    harbor_egress.write_summary(self)
        self._record("stop", time.perf_counter() - began)

    def _record(self, phase: str, seconds: float) -> None:
        """Log a phase's duration; with SHELLBOX_HARBOR_TIMINGS set, also
        append it as a JSON line to that file (bench/harbor.py reads it)."""
        self.timings[phase] = seconds
        _TIMING.info("%s %s %.1f ms", self.session_id, phase, seconds * 1000)
        path = os.environ.get("SHELLBOX_HARBOR_TIMINGS")
        if path:
            line = json.dumps(
                {"session": self.session_id, "env": type(self).__name__, "phase": phase, "seconds": seconds}
            )
            with open(path, "a") as out:
                out.write(line + "\n")

    async def exec(
        self,
        command: str,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        timeout_sec: int | None = None,
        user: str | int | None = None,
    ) -> ExecResult:
        machine = self._running()
        resolved = self._resolve_user(user)
        result = await machine.run(
            Command(
                argv=(self.bash, "-c", command),
                cwd=cwd or self.workdir,
                env=self._merge_env(env) or {},
                timeout=float(timeout_sec) if timeout_sec else None,
                output_limit_bytes=HARBOR_EXEC_OUTPUT_LIMIT_BYTES,
                user=None if resolved is None else str(resolved),
            )
        )
        if result.reason == ExitReason.TIMED_OUT:
            # Not TimeoutError: the trial reads that as its own phase timeout.
            raise RuntimeError(f"Command timed out after {timeout_sec} seconds")
        return ExecResult(
            stdout=result.stdout.decode(errors="replace"),
            stderr=result.stderr.decode(errors="replace"),
            return_code=result.exit_code if result.exit_code is not None else -1,
        )

    async def upload_file(self, source_path: Path | str, target_path: str) -> None:
        await self._running().upload(Path(source_path), target_path)

    async def upload_dir(self, source_dir: Path | str, target_dir: str) -> None:
        await self._running().upload(Path(source_dir), target_dir)

    async def download_file(self, source_path: str, target_path: Path | str) -> None:
        Path(target_path).parent.mkdir(parents=True, exist_ok=True)
        await self._running().download(source_path, Path(target_path))

    async def download_dir(self, source_dir: str, target_dir: Path | str) -> None:
        Path(target_dir).mkdir(parents=True, exist_ok=True)
        await self._running().download(source_dir, Path(target_dir))

    # ---- BashSessionProvider -------------------------------------------------

    async def open_bash_session(self) -> GoShellSession:
        """A persistent Bash for an agent, in the workdir with the task's env."""
        session = await open_shell(
            self._running(), mode=self.shell_mode, env=self._merge_env(None) or {}, cwd=self.workdir, bash=self.bash
        )
        self._sessions.append(session)
        return session
