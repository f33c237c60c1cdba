import json
import os
import subprocess
from pathlib import Path

OUT = Path("output")

def setup_module(module):
    OUT.mkdir(exist_ok=True)
    (OUT / "report.json").write_text(json.dumps({"score": 0.93, "n": 42}))
    (OUT / "log.txt").write_text("started\nfinished\n")

def test_report_exists():
    assert (OUT / "report.json").exists()

def test_score_threshold():
    data = json.loads((OUT / "report.json").read_text())
    assert data["score"] >= 0.9

def test_log_finished():
    lines = (OUT / "log.txt").read_text().splitlines()
    assert lines[-1] == "finished"

def test_shell_grep():
    r = subprocess.run(["grep", "-c", "ed", str(OUT / "log.txt")], capture_output=True, text=True)
    assert r.stdout.strip() == "2"

def test_expected_failure_message():
    data = json.loads((OUT / "report.json").read_text())
    assert data["n"] == 41, f"unexpected n: {data['n']}"
