"""The main job: one Harbor trial of a bundled task on ShellSimEnvironment
with Harbor's oracle agent, printing the reward.

    python -m shellbox.trial [--task DIR] [--environment IMPORT_PATH] [--jobs-dir DIR]

Needs Harbor (``pip install "shellbox[harbor]"``, Python >= 3.12). Exit status:
0 when the reward is 1, 1 when the trial ran and scored lower, 2 when it
could not run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

TASKS = Path(__file__).resolve().parent / "tasks"
DEFAULT_TASK = TASKS / "count-errors"
SHELLSIM = "shellbox.backends.shellsim.environment:ShellSimEnvironment"


def harbor_command() -> list[str]:
    script = Path(sys.executable).parent / "harbor"
    if script.exists():
        return [str(script)]
    found = shutil.which("harbor")
    if found is None:
        sys.exit('shellbox.trial: the harbor CLI is not installed; pip install "shellbox[harbor]" (Python >= 3.12)')
    return [found]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m shellbox.trial", description=__doc__.splitlines()[0])
    parser.add_argument("--task", type=Path, default=DEFAULT_TASK, help="a Harbor task directory")
    parser.add_argument("--environment", default=SHELLSIM, help="environment import path")
    parser.add_argument("--jobs-dir", type=Path, default=None, help="keep Harbor's job files here")
    args = parser.parse_args(argv)
    if not (args.task / "task.toml").exists():
        parser.error(f"{args.task} is not a Harbor task (no task.toml)")
    jobs_dir = args.jobs_dir or Path(tempfile.mkdtemp(prefix="shellbox-trial-"))
    config = {
        "job_name": "shellbox-trial",
        "jobs_dir": str(jobs_dir.resolve()),
        "n_concurrent_trials": 1,
        "environment": {"import_path": args.environment},
        "agents": [{"name": "oracle"}],
        "tasks": [{"path": str(args.task.resolve())}],
    }
    config_path = jobs_dir / "job.json"
    jobs_dir.mkdir(parents=True, exist_ok=True)
    config_path.write_text(json.dumps(config, indent=1))
    done = subprocess.run([*harbor_command(), "run", "-c", str(config_path), "-y", "-q"], capture_output=True, text=True)
    trials = [p / "result.json" for p in (jobs_dir / "shellbox-trial").glob("*") if (p / "result.json").exists()]
    if not trials:
        sys.stderr.write(done.stdout[-3000:] + done.stderr[-3000:])
        print(f"shellbox.trial: harbor produced no trial result (exit {done.returncode})", file=sys.stderr)
        return 2
    result = json.loads(trials[0].read_text())
    rewards = (result.get("verifier_result") or {}).get("rewards") or {}
    reward = rewards.get("reward")
    error = result.get("exception_info") or {}
    print(f"task={result.get('task_name')} environment={args.environment.rsplit(':', 1)[-1]} reward={reward}")
    if error:
        print(f"trial error: {error.get('exception_type')}: {error.get('exception_message')}", file=sys.stderr)
    if args.jobs_dir is None:
        shutil.rmtree(jobs_dir, ignore_errors=True)
    return 0 if reward == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
