"""The real `harbor run` on ShellSimEnvironment: Harbor's oracle on the
fixture tasks, in simulated machines (nothing runs on the host)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from conftest import TASKS, run_harbor

SHELLSIM = "shellbox.backends.shellsim.environment:ShellSimEnvironment"
SOLVABLE = ["count-errors", "sort-names", "render-config", "sum-column", "bash-session"]


def shellsim(**kwargs: object) -> dict[str, object]:
    return {"import_path": SHELLSIM, "kwargs": kwargs}


def test_oracle_solves_fixture_tasks_on_shellsim(harbor_ready: Path, tmp_path: Path) -> None:
    job = run_harbor(harbor_ready, tmp_path, tasks=SOLVABLE, n_concurrent=3, environment=shellsim())
    assert set(job.trials) == set(SOLVABLE), job.describe()
    for task in SOLVABLE:
        assert job.trials[task]["exception_info"] is None, job.describe()
        assert job.reward(task) == 1.0, job.describe()
    assert job.result["stats"]["n_errored_trials"] == 0, job.describe()
    assert (Path(job.trials["count-errors"]["_dir"]) / "agent" / "oracle.txt").exists()


def test_failing_oracle_gets_reward_zero_on_shellsim(harbor_ready: Path, tmp_path: Path) -> None:
    job = run_harbor(harbor_ready, tmp_path, tasks=["oracle-fails"], environment=shellsim())
    trial = job.trials["oracle-fails"]
    assert trial["exception_info"] is None, job.describe()
    assert job.reward("oracle-fails") == 0.0, job.describe()


def test_cpu_burning_oracle_ends_with_cpu_exhausted(harbor_ready: Path, tmp_path: Path) -> None:
    # A budget small enough to run out well within the task's 3 s agent timeout.
    job = run_harbor(harbor_ready, tmp_path, tasks=["cpu-burn"], environment=shellsim(cpu_limit=3_000_000))
    trial = job.trials["cpu-burn"]
    exc = trial["exception_info"] or {}
    assert "cpu_exhausted" in (exc.get("exception_message") or ""), job.describe()
    assert not job.reward("cpu-burn"), job.describe()
    log = Path(trial["_dir"]) / "trial.log"
    assert log.exists() and "cpu_exhausted" in log.read_text(), job.describe()


def _online_task(tmp_path: Path) -> Path:
    task = tmp_path / "tasks" / "count-errors-online"
    shutil.copytree(TASKS / "count-errors", task)
    toml = task / "task.toml"
    toml.write_text(toml.read_text().replace('network_mode = "no-network"', 'network_mode = "public"'))
    return task


def test_task_asking_for_internet_is_rejected_unless_deny(harbor_ready: Path, tmp_path: Path) -> None:
    task = _online_task(tmp_path)
    job = run_harbor(harbor_ready, tmp_path, tasks=[str(task)], environment=shellsim(), job_name="online")
    # Harbor refuses the trial as it builds the environment, before anything runs.
    assert not job.trials, job.describe()
    assert job.process.returncode != 0
    said = " ".join((job.process.stdout + job.process.stderr).replace("│", " ").split())
    assert "ShellSim has no network; set the environment kwarg task_network_policy=deny" in said, said[-3000:]
    job = run_harbor(
        harbor_ready, tmp_path, tasks=[str(task)], environment=shellsim(task_network_policy="deny"), job_name="offline"
    )
    trial = next(iter(job.trials.values()))
    assert trial["exception_info"] is None, job.describe()
    assert job.reward(trial["task_name"]) == 1.0, job.describe()


def test_bash_agent_keeps_shell_state_on_shellsim(harbor_ready: Path, tmp_path: Path) -> None:
    from fake_openai import FakeOpenAI, final, last_tool_result, tool_call

    seen: list[dict[str, Any]] = []

    def after(answer: dict[str, Any]) -> Any:
        def step(request: dict[str, Any]) -> dict[str, Any]:
            seen.append(last_tool_result(request))
            return answer

        return step

    script = [
        tool_call({"command": "export GREETING=hello"}),
        after(tool_call({"command": "mkdir -p /workspace/out && cd /workspace/out"})),
        after(tool_call({"command": 'echo "$GREETING" > result.txt; pwd'})),
        after(final("done")),
    ]
    with FakeOpenAI(script) as server:
        job = run_harbor(
            harbor_ready,
            tmp_path,
            tasks=["bash-session"],
            environment=shellsim(),
            agent={
                "import_path": "shellbox.agent:BashAgent",
                "model_name": "hosted_vllm/fake",
                "kwargs": {"base_url": server.base_url},
            },
        )
    assert job.reward("bash-session") == 1.0, job.describe()
    assert set(server.requests[0]["tools"][0]["function"]["parameters"]["properties"]) == {"command"}
    assert seen[2] == {"output": "/workspace/out\n", "status": "completed", "exit_code": 0, "truncated": False}


def test_task_without_environment_directory_runs_on_shellsim(harbor_ready: Path, tmp_path: Path) -> None:
    # marin-shellbox's ShellSimEnvironment needs no environment/ (issue 14): ShellSim has no image to build.
    task = tmp_path / "tasks" / "no-environment"
    shutil.copytree(TASKS / "oracle-fails", task)
    shutil.rmtree(task / "environment")
    (task / "solution" / "solve.sh").write_text("#!/bin/sh\necho right > /workspace/answer.txt\n")
    job = run_harbor(harbor_ready, tmp_path, tasks=[str(task)], environment=shellsim(), job_name="no-environment")
    trial = next(iter(job.trials.values()), None)
    assert trial is not None and trial["exception_info"] is None, job.describe()
    assert job.reward(trial["task_name"]) == 1.0, job.describe()
