"""The README's main job: one Harbor trial of the bundled task on ShellSimEnvironment."""

from __future__ import annotations

import subprocess

from conftest import ROOT, harbor_env


def test_main_job_prints_reward_one(harbor_ready, tmp_path):
    done = subprocess.run(
        [str(harbor_ready / "bin" / "python"), "-m", "shellbox.trial", "--jobs-dir", str(tmp_path / "jobs")],
        capture_output=True,
        text=True,
        env=harbor_env(),
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "task=count-errors environment=ShellSimEnvironment reward=1.0"
    assert (tmp_path / "jobs" / "shellbox-trial" / "result.json").exists()


def test_main_job_reports_a_failing_task(harbor_ready, tmp_path):
    done = subprocess.run(
        [
            str(harbor_ready / "bin" / "python"),
            "-m",
            "shellbox.trial",
            "--task",
            str(ROOT / "tests" / "fixtures" / "tasks" / "oracle-fails"),
        ],
        capture_output=True,
        text=True,
        env=harbor_env(),
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "reward=0" in done.stdout
