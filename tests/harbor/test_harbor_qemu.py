"""The real `harbor run` over QemuEnvironment: task images built by the local
dockerd from the fixture tasks' Dockerfiles (``FROM busybox:1.36``, imported
from the host's static busybox), exported and booted as microVMs under TCG."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import run_harbor
from test_harbor_docker import import_image

ENVIRONMENT = "shellbox.backends.qemu.environment:QemuEnvironment"


@pytest.fixture(scope="module")
def image_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("qemu-image-cache")


def qemu_environment(image_cache: Path, **kwargs: Any) -> dict[str, Any]:
    return {
        "import_path": ENVIRONMENT,
        "kwargs": {"image_cache": str(image_cache), "acceleration": "tcg", "guest_memory_mb": 256, **kwargs},
    }


def qemu_processes(image_cache: Path) -> list[str]:
    """QEMU processes booting from this test's cache (other tests may run
    machines of their own meanwhile)."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            if str(image_cache).encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            pass
    return found


def test_oracle_gets_reward_one_and_a_failing_oracle_zero_on_qemu(harbor_ready: Path, image_cache: Path, tmp_path: Path) -> None:
    import_image("busybox:1.36")
    job = run_harbor(
        harbor_ready,
        tmp_path,
        tasks=["count-errors", "oracle-fails"],
        n_concurrent=2,
        environment=qemu_environment(image_cache),
        timeout=1200,
    )
    assert set(job.trials) == {"count-errors", "oracle-fails"}, job.describe()
    for task in job.trials:
        assert job.trials[task]["exception_info"] is None, job.describe()
    assert job.reward("count-errors") == 1.0, job.describe()
    assert job.reward("oracle-fails") == 0.0, job.describe()
    assert (Path(job.trials["count-errors"]["_dir"]) / "agent" / "oracle.txt").exists()
    assert qemu_processes(image_cache) == [], "QEMU processes outlived the trials"


def test_online_task_is_refused_by_the_default_policy(harbor_ready: Path, image_cache: Path, tmp_path: Path) -> None:
    import_image("busybox:1.36")
    online = Path(__file__).resolve().parents[1] / "fixtures" / "docker" / "prebuilt-online"
    job = run_harbor(harbor_ready, tmp_path, tasks=[str(online)], environment=qemu_environment(image_cache), timeout=600)
    # The environment refuses the task before any machine exists: the
    # trial errs with our message and no reward.
    report = job.describe() + json.dumps(job.result)
    assert "allows internet access" in report, report
    assert not any(job.reward(task) for task in job.trials), report
    assert qemu_processes(image_cache) == []
