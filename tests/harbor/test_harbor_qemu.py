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
from fake_openai import FakeOpenAI, final, tool_call
from test_harbor_docker import BASH_IMAGE, DOCKER_TASKS, import_image, recorder

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


def test_bash_agent_drives_a_terminal_shell_in_the_guest(harbor_ready: Path, image_cache: Path, tmp_path: Path) -> None:
    import_image(BASH_IMAGE, ("/bin/bash", "/usr/bin/script"))
    seen: list[dict[str, Any]] = []
    after = recorder(seen)
    script = [
        tool_call({"command": "export GREETING=hello"}),
        after(tool_call({"command": "mkdir -p /workspace/out && cd /workspace/out"})),
        after(tool_call({"command": 'echo begin; sleep 1; echo "$GREETING" > result.txt; echo wrote', "wait_ms": 100})),
        after(tool_call({"wait_ms": 20000})),
        after(tool_call({"command": "sleep 30", "wait_ms": 200})),
        after(tool_call({"signal": "interrupt", "wait_ms": 20000})),
        after(tool_call({"command": 'pwd; echo "$GREETING"; echo "$BASH_VERSION" | cut -c1'})),
        after(final("Done.")),
    ]
    with FakeOpenAI(script) as server:
        job = run_harbor(
            harbor_ready,
            tmp_path,
            tasks=[str(DOCKER_TASKS / "bash-session")],
            environment=qemu_environment(image_cache),
            agent={
                "import_path": "shellbox.agent:BashAgent",
                "model_name": "openai/fake-model",
                "kwargs": {"base_url": server.base_url, "max_turns": 20},
            },
            timeout=1200,
        )
    assert not server.errors, server.errors
    trial = job.trials["bash-session"]
    assert trial["exception_info"] is None, job.describe()
    assert job.reward("bash-session") == 1.0, job.describe()
    # One Bash in the guest kept its variables and directory across actions,
    # ran a command past the model's wait and took a Ctrl-C.
    assert [r.get("status") for r in seen[:2]] == ["completed", "completed"], seen
    assert seen[2]["status"] == "running" and seen[2]["output"] == "begin\n", seen[2]
    assert seen[3] == {"output": "wrote\n", "status": "completed", "exit_code": 0, "truncated": False}
    assert seen[4]["status"] == "running"
    assert seen[5]["status"] == "completed" and seen[5]["exit_code"] == 130, seen[5]
    assert seen[6]["output"] == "/workspace/out\nhello\n5\n", seen[6]
    # On a terminal the guest agent allocated.
    assert trial["agent_result"]["metadata"]["shell_mode"] == "terminal"
    assert qemu_processes(image_cache) == []
