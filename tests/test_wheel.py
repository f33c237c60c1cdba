"""The wheel: `pip wheel .` builds the Go parts into the package, the wheel
is tagged for any CPython 3 on this platform, and it works when installed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(ROOT)],
        check=True,
    )
    (built,) = out.glob("shellbox-*.whl")
    return built


def test_wheel_carries_library_and_helpers(wheel):
    assert wheel.name.endswith("-py3-none-linux_x86_64.whl"), wheel.name
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "shellbox/_lib/libshellbox.so" in names
    assert "shellbox/_bin/shellbox-sandboxd" in names
    assert "shellbox/_bin/shellbox" in names
    assert "shellbox/machine.py" in names
    assert "shellbox/tasks/count-errors/task.toml" in names


def interpreters() -> list[str]:
    found = [sys.executable]
    harbor_python = os.environ.get("SHELLBOX_HARBOR_PYTHON")
    if harbor_python:
        found.append(harbor_python)
    return found


@pytest.mark.parametrize("python", interpreters())
def test_installed_wheel_runs_a_local_machine(wheel, python, tmp_path):
    # The installed wheel alone: not the source tree the test suite runs from.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SHELLBOX_LIBRARY", "SHELLBOX_BIN_DIR")}
    venv = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True, env=env)
    subprocess.run([venv / "bin/pip", "install", "-q", "--no-deps", str(wheel)], check=True, env=env)
    done = subprocess.run(
        [venv / "bin/python", "-m", "shellbox.demo", "sh", "-c", "echo wheel-ok; exit 3"],
        capture_output=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )
    assert done.returncode == 3, done.stderr
    assert done.stdout.startswith(b"wheel-ok\n"), done.stdout
    assert b"exit_code=3 reason=exited" in done.stdout
    # The `shellbox` console script the wheel installs runs the Go command.
    done = subprocess.run(
        [venv / "bin/shellbox", "run", "--", "sh", "-c", "echo cli-ok; exit 5"], capture_output=True, env=env, timeout=120
    )
    assert (done.returncode, done.stdout) == (5, b"cli-ok\n"), done.stderr


def test_missing_go_gives_one_clear_line(tmp_path):
    python_dir = Path(sys.executable).parent
    env = {"PATH": f"{python_dir}:/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONWARNINGS": "ignore"}
    assert shutil.which("go", path=env["PATH"]) is None
    done = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_go"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode != 0
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines == [
        "error: building shellbox needs the Go toolchain (go 1.26 or newer) on PATH; install Go and retry"
    ], done.stderr
