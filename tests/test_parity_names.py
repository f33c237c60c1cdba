"""Code written against marin-shellbox imports and calls ours: every public class, function, enum and
constant of its modules for the backends we have exists here, in the same module, with a compatible
signature (tests/parity_names.json, generated from marin-shellbox by tests/parity_names.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from parity_names import ALLOWED, HARBOR_MODULES, MODULES, TABLE, check

ROOT = Path(__file__).resolve().parents[1]



def test_table_covers_the_issue_minimum():
    table = json.loads(TABLE.read_text())
    assert table["_source"].startswith("marin-shellbox 0.2.")
    for module, names in {
        "shellbox.machine": {"Mount", "HostImage", "check_execution_requirements", "LINUX_PROCESS_CAPABILITIES", "PackageSpec"},
        "shellbox.image": {"ImageCache", "prepare_image", "image_source_key", "prepared_image_workdir", "process_image_cache"},
        "shellbox.transfer": {"download_files"},
        "shellbox.backends.docker.machine": {"DockerCommandResult", "docker"},
        "shellbox.backends.local.machine": {"SystemDirectories", "read_only_system_mounts", "check_local_environment"},
        "shellbox.backends.local.python_environment": {"PythonEnvironment", "build_python_environment", "resolve_python_environment", "UvError"},
    }.items():
        assert names <= set(table[module]), (module, names - set(table[module]))


def test_every_name_without_harbor():
    problems = check(tuple(m for m in MODULES if m not in HARBOR_MODULES), ALLOWED)
    assert not problems, "\n".join(problems)


def test_every_name_of_the_harbor_modules():
    # Harbor needs Python >= 3.12: the same check in the Harbor venv the Harbor tests use.
    venv = Path(os.environ.get("SHELLBOX_HARBOR_VENV") or ROOT / ".venv-harbor")
    python = venv / "bin" / "python"
    if not python.exists():
        pytest.fail(f"no Harbor venv at {venv}: run tests/harbor once or set SHELLBOX_HARBOR_VENV", pytrace=False)
    script = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import parity_names as p; "
        "print(json.dumps(p.check(p.HARBOR_MODULES, p.ALLOWED)))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    done = subprocess.run([str(python), "-c", script, str(ROOT / "tests")], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    problems = json.loads(done.stdout.strip().splitlines()[-1])
    assert not problems, "\n".join(problems)


def test_shellbox_reexports_package_spec():
    import shellbox
    from shellbox.machine import PackageSpec

    assert shellbox.PackageSpec is PackageSpec


def test_runtime_error_compatible_errors(tmp_path):
    # Where marin-shellbox raises RuntimeError, ours raises a subclass of our precise error and RuntimeError.
    from shellbox.machine import DownloadLimitExceeded, MachineTerminated

    assert issubclass(DownloadLimitExceeded, RuntimeError) and issubclass(MachineTerminated, RuntimeError)
    assert sys.version_info >= (3, 11)
