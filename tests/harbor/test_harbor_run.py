"""The real `harbor run` on our fixture tasks, offline: Harbor's oracle and
our BashAgent on LocalEnvironment."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import TASKS, run_harbor
from fake_openai import FakeOpenAI, final, last_tool_result, tool_call

SECRET = "sk-shellbox-test-secret-7c1e"
SOLVABLE = ["count-errors", "sort-names", "render-config", "sum-column", "bash-session"]


def leftovers(job_marker: str) -> list[str]:
    """Live processes started by the harbor run marked job_marker (every
    process Harbor starts, sandboxes included, inherits the marker)."""
    needle = f"SHELLBOX_TEST_JOB={job_marker}".encode()
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "environ").read_bytes() and " Z " not in (entry / "stat").read_text():
                    out.append(f"{entry.name} {(entry / 'cmdline').read_bytes()[:200]!r}")
            except OSError:
                pass
    return out


def test_oracle_solves_fixture_tasks_on_local(harbor_ready: Path, tmp_path: Path) -> None:
    job = run_harbor(harbor_ready, tmp_path, tasks=SOLVABLE, n_concurrent=3)
    assert set(job.trials) == set(SOLVABLE), job.describe()
    for task in SOLVABLE:
        assert job.trials[task]["exception_info"] is None, job.describe()
        assert job.reward(task) == 1.0, job.describe()
    assert job.result["stats"]["n_errored_trials"] == 0, job.describe()
    # The oracle's output came back from the machine, and no sandbox outlived its trial.
    assert (Path(job.trials["count-errors"]["_dir"]) / "agent" / "oracle.txt").exists()
    assert not leftovers(job.marker), leftovers(job.marker)


def test_failing_oracle_gets_reward_zero(harbor_ready: Path, tmp_path: Path) -> None:
    job = run_harbor(harbor_ready, tmp_path, tasks=["oracle-fails"])
    trial = job.trials["oracle-fails"]
    assert trial["exception_info"] is None, job.describe()
    assert job.reward("oracle-fails") == 0.0, job.describe()
    assert (Path(trial["_dir"]) / "verifier" / "reward.txt").read_text().strip() == "0"


def test_cpu_burning_oracle_is_stopped_by_the_agent_timeout(harbor_ready: Path, tmp_path: Path) -> None:
    job = run_harbor(harbor_ready, tmp_path, tasks=["cpu-burn"])
    trial = job.trials["cpu-burn"]
    assert (trial["exception_info"] or {}).get("exception_type") == "AgentTimeoutError", job.describe()
    assert job.reward("cpu-burn") == 0.0, job.describe()
    assert not leftovers(job.marker), leftovers(job.marker)


def bash_session_script(seen: list[dict[str, Any]]) -> list[Any]:
    def after(answer: dict[str, Any]) -> Any:
        def step(request: dict[str, Any]) -> dict[str, Any]:
            seen.append(last_tool_result(request))
            return answer

        return step

    return [
        tool_call({"command": "export GREETING=hello"}),
        after(tool_call({"command": "mkdir -p /workspace/out && cd /workspace/out"})),
        after(tool_call({"command": 'echo begin; sleep 1; echo "$GREETING" > result.txt; echo wrote', "wait_ms": 100})),
        after(tool_call({"wait_ms": 10000})),
        after(tool_call({"command": "sleep 30", "wait_ms": 200})),
        after(tool_call({"signal": "interrupt", "wait_ms": 10000})),
        after(tool_call({"command": "x", "input": "y"})),
        after(
            tool_call(
                {
                    "command": 'pwd; echo "$GREETING"; K1=sk-shellbox-test; K2=-secret-7c1e; '
                    'env | grep -cF "$K1$K2"; grep -rlF "$K1$K2" /workspace /logs /tmp 2>/dev/null | wc -l'
                }
            )
        ),
        after(final("Done: /workspace/out/result.txt holds hello.")),
    ]


def test_bash_agent_solves_a_task_through_one_shell(harbor_ready: Path, tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    with FakeOpenAI(bash_session_script(seen)) as server:
        job = run_harbor(
            harbor_ready,
            tmp_path,
            tasks=["bash-session"],
            agent={
                "import_path": "shellbox.agent:BashAgent",
                "model_name": "openai/fake-model",
                "kwargs": {"base_url": server.base_url, "api_key": SECRET, "max_turns": 20},
            },
        )
    assert not server.errors, server.errors
    trial = job.trials["bash-session"]
    assert trial["exception_info"] is None, job.describe()
    assert job.reward("bash-session") == 1.0, job.describe()

    # What the model saw, call by call.
    assert [r.get("status") for r in seen[:2]] == ["completed", "completed"]
    assert seen[2]["status"] == "running" and seen[2]["output"] == "begin\n" and seen[2]["exit_code"] is None
    assert seen[3] == {"output": "wrote\n", "status": "completed", "exit_code": 0, "truncated": False}
    assert seen[4]["status"] == "running"
    assert seen[5]["status"] == "completed" and seen[5]["exit_code"] == 130
    assert "at most one" in seen[6]["error"]
    assert seen[7]["output"] == "/workspace/out\nhello\n0\n0\n", seen[7]

    # What the endpoint saw: our model name without the provider prefix, the
    # one Bash tool, and the key only as the bearer token.
    assert all(r["model"] == "fake-model" for r in server.requests)
    assert all([t["function"]["name"] for t in r["tools"]] == ["Bash"] for r in server.requests)
    tool = server.requests[0]["tools"][0]["function"]["parameters"]["properties"]
    assert set(tool) == {"command", "input", "signal", "wait_ms"}
    assert all(h.get("Authorization") == f"Bearer {SECRET}" for h in server.headers)
    assert not any(SECRET in json.dumps(r) for r in server.requests)
    # Harbor copies the trial's agent/ and verifier/ directories into the
    # machine: the key must not be in them either.
    for sub in ("agent", "verifier"):
        for path in (Path(trial["_dir"]) / sub).rglob("*"):
            if path.is_file():
                assert SECRET not in path.read_text(errors="replace"), path

    # What Harbor recorded.
    agent = trial["agent_result"]
    assert agent["n_input_tokens"] == 900 and agent["n_output_tokens"] == 90
    assert agent["metadata"]["tool_calls"] == 8
    assert agent["metadata"]["final_message"].startswith("Done:")
    assert trial["agent_info"]["name"] == "shellbox-bash"
    # The agent's shell ran on a pseudo-terminal inside the machine.
    assert agent["metadata"]["shell_mode"] in ("terminal", "script")
    assert not leftovers(job.marker), leftovers(job.marker)


def test_bash_agent_turn_cap_is_a_trial_error(harbor_ready: Path, tmp_path: Path) -> None:
    with FakeOpenAI([tool_call({"command": "echo again"})], repeat_last=True) as server:
        job = run_harbor(
            harbor_ready,
            tmp_path,
            tasks=["count-errors"],
            agent={
                "import_path": "shellbox.agent:BashAgent",
                "model_name": "fake-model",
                "kwargs": {"base_url": server.base_url, "max_turns": 3},
            },
        )
    trial = job.trials["count-errors"]
    assert (trial["exception_info"] or {}).get("exception_type") == "TurnCapExhaustedError", job.describe()
    assert len(server.requests) == 3
    assert trial["agent_result"]["metadata"]["tool_calls"] == 3
    assert all(h.get("Authorization") == "Bearer unused" for h in server.headers)


def test_fixture_tasks_are_valid_harbor_tasks() -> None:
    for task in TASKS.iterdir():
        for part in ("instruction.md", "task.toml", "environment/Dockerfile", "tests/test.sh", "solution/solve.sh"):
            assert (task / part).is_file(), f"{task.name}: {part}"
        assert (task / "tests" / "test.sh").read_text().startswith("#!/bin/sh\n")


def test_bash_agent_on_a_one_shot_shell_offers_only_command(harbor_ready: Path, tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []

    def after(answer: dict[str, Any]) -> Any:
        def step(request: dict[str, Any]) -> dict[str, Any]:
            seen.append(last_tool_result(request))
            return answer

        return step

    script = [
        tool_call({"signal": "interrupt"}),
        after(tool_call({"command": "cd /workspace && grep -c ERROR app.log > answer.txt; cat answer.txt"})),
        after(final("3 lines")),
    ]
    with FakeOpenAI(script) as server:
        job = run_harbor(
            harbor_ready,
            tmp_path,
            tasks=["count-errors"],
            environment={
                "import_path": "shellbox.backends.local.environment:LocalEnvironment",
                "kwargs": {"shell_mode": "oneshot"},
            },
            agent={
                "import_path": "shellbox.agent:BashAgent",
                "model_name": "hosted_vllm/fake",
                "kwargs": {"base_url": server.base_url},
            },
        )
    assert job.reward("count-errors") == 1.0, job.describe()
    assert set(server.requests[0]["tools"][0]["function"]["parameters"]["properties"]) == {"command"}
    assert "command is required" in seen[0]["error"]
    assert seen[1] == {"output": "3\n", "status": "completed", "exit_code": 0, "truncated": False}
    assert server.requests[0]["model"] == "fake"
    assert job.trials["count-errors"]["agent_result"]["metadata"]["shell_mode"] == "oneshot"
    assert not leftovers(job.marker)


def test_bash_agent_is_stopped_by_the_agent_timeout(harbor_ready: Path, tmp_path: Path) -> None:
    # cpu-burn gives the agent 3 seconds; the model starts a busy loop and waits 30.
    script = [tool_call({"command": "while :; do :; done", "wait_ms": 30000})]
    with FakeOpenAI(script, repeat_last=True) as server:
        job = run_harbor(
            harbor_ready,
            tmp_path,
            tasks=["cpu-burn"],
            agent={
                "import_path": "shellbox.agent:BashAgent",
                "model_name": "fake",
                "kwargs": {"base_url": server.base_url},
            },
        )
    trial = job.trials["cpu-burn"]
    assert (trial["exception_info"] or {}).get("exception_type") == "AgentTimeoutError", job.describe()
    # The verifier still ran on the same machine, and nothing outlived the job.
    assert job.reward("cpu-burn") == 0.0, job.describe()
    assert len(server.requests) == 1
    # The cancelled run's progress was recorded.
    assert trial["agent_result"]["n_input_tokens"] == 100, trial["agent_result"]
    assert trial["agent_result"]["metadata"]["turns"] == 1
    assert not leftovers(job.marker), leftovers(job.marker)
