"""Wall time of `harbor run` with Harbor's oracle agent over 20 fixture
trials at --n-concurrent 4, and each trial's environment start and stop, on
ShellSimEnvironment and LocalEnvironment in one run.

    SHELLBOX_HARBOR_PYTHON=/path/to/python3.12+ python bench/harbor.py [--env shellsim,local] [--trials 20]

Harbor runs from the venv the Harbor tests use (.venv-harbor, or
SHELLBOX_HARBOR_VENV), with shellbox from python/ (build it with `make native`).
Targets: start + stop <= 20 ms per trial on ShellSim, <= 50 ms on local."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TASKS = ROOT / "tests" / "fixtures" / "tasks"
SOLVABLE = ["count-errors", "sort-names", "render-config", "sum-column", "bash-session"]
ENVIRONMENTS = {
    "shellsim": "shellbox.backends.shellsim.environment:ShellSimEnvironment",
    "local": "shellbox.backends.local.environment:LocalEnvironment",
}
TARGET_MS = {"shellsim": 20, "local": 50}


def harbor_venv() -> Path:
    venv = Path(os.environ.get("SHELLBOX_HARBOR_VENV") or ROOT / ".venv-harbor")
    if (venv / "bin" / "harbor").exists():
        return venv
    base = os.environ.get("SHELLBOX_HARBOR_PYTHON")
    if not base:
        sys.exit("set SHELLBOX_HARBOR_PYTHON to a Python >= 3.12 (Harbor is installed into .venv-harbor from it)")
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "harbor==0.26.0"], check=True)
    return venv


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="shellsim,local", help="comma-separated: shellsim, local, or import paths")
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--n-concurrent", type=int, default=4)
    args = parser.parse_args()
    venv = harbor_venv()
    for name in args.env.split(","):
        bench(venv, name, ENVIRONMENTS.get(name, name), args.trials, args.n_concurrent, TARGET_MS.get(name))


def bench(venv: Path, name: str, env_path: str, trials: int, n_concurrent: int, target_ms: int | None) -> None:
    with tempfile.TemporaryDirectory(prefix="shellbox-bench-harbor-") as tmp:
        work = Path(tmp)
        tasks = [SOLVABLE[i % len(SOLVABLE)] for i in range(trials)]
        config = {
            "job_name": "bench",
            "jobs_dir": str(work / "jobs"),
            "n_concurrent_trials": n_concurrent,
            "environment": {"import_path": env_path},
            "agents": [{"name": "oracle"}],
            "tasks": [{"path": str(TASKS / t)} for t in tasks],
        }
        (work / "job.json").write_text(json.dumps(config))
        timings = work / "timings.jsonl"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(
            HARBOR_TELEMETRY="0",
            LITELLM_LOCAL_MODEL_COST_MAP="True",
            PYTHONPATH=str(ROOT / "python"),
            SHELLBOX_HARBOR_TIMINGS=str(timings),
        )
        began = time.perf_counter()
        done = subprocess.run(
            [str(venv / "bin" / "harbor"), "run", "-c", str(work / "job.json"), "-y", "-q"],
            cwd=work,
            env=env,
            capture_output=True,
            text=True,
        )
        wall = time.perf_counter() - began
        if done.returncode != 0 or not (work / "jobs" / "bench" / "result.json").exists():
            sys.exit(f"harbor run failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        rewards, setups, errors = [], [], 0
        for trial in (work / "jobs" / "bench").iterdir():
            result_path = trial / "result.json"
            if not trial.is_dir() or not result_path.exists():
                continue
            result = json.loads(result_path.read_text())
            errors += result.get("exception_info") is not None
            rewards.append(((result.get("verifier_result") or {}).get("rewards") or {}).get("reward"))
            setup = result.get("environment_setup") or {}
            if setup.get("started_at") and setup.get("finished_at"):
                from datetime import datetime

                setups.append(
                    (
                        datetime.fromisoformat(setup["finished_at"]) - datetime.fromisoformat(setup["started_at"])
                    ).total_seconds()
                )
        phases: dict[str, dict[str, float]] = {}
        for line in timings.read_text().splitlines() if timings.exists() else []:
            record = json.loads(line)
            phases.setdefault(record["session"], {})[record["phase"]] = record["seconds"]
        both = [p["start"] + p["stop"] for p in phases.values() if "start" in p and "stop" in p]
        starts = [p["start"] for p in phases.values() if "start" in p]
        stops = [p["stop"] for p in phases.values() if "stop" in p]

    def ms(values: list[float]) -> str:
        if not values:
            return "n/a"
        return f"median {statistics.median(values) * 1000:.1f} ms, p90 {percentile(values, 0.9) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"

    print(f"== {name}: {env_path}")
    print(f"harbor run, oracle, {len(rewards)} trials at --n-concurrent {n_concurrent}: wall {wall:.2f} s")
    print(f"rewards: {sum(1 for r in rewards if r == 1.0)}/{len(rewards)} solved, {errors} trial errors")
    print(f"environment start:        {ms(starts)}")
    print(f"environment stop:         {ms(stops)}")
    target = f"   (target <= {target_ms} ms)" if target_ms else ""
    print(f"environment start + stop: {ms(both)}{target}")
    print(f"Harbor environment_setup: {ms(setups)}")


if __name__ == "__main__":
    main()
