"""ShellSim against hostile scripts and inputs: every reproducer runs in a child Python process, so a crash
of the embedding process shows as a failure here, and the child's host memory is measured against the
modeled limit (host RSS growth <= 2x the memory limit + 64 MiB, memory given back at close)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from shellbox.backends.shellsim.machine import ShellSimMachineFactory
from shellbox.machine import Command, MachineSpec, ShellSimBuiltins

MiB = 1 << 20
PYTHON_DIR = Path(__file__).resolve().parents[2] / "python"

CHILD = textwrap.dedent(
    """
    import asyncio, json, sys
    from shellbox.backends.shellsim.machine import ShellSimMachineFactory
    from shellbox.machine import Command, MachineSpec, ShellSimBuiltins

    def status(field):
        for line in open("/proc/self/status"):
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
        raise KeyError(field)

    async def main(script, memory_mb, storage_mb, timeout):
        factory = ShellSimMachineFactory()
        m = await factory.create(MachineSpec(source=ShellSimBuiltins(), memory_mb=memory_mb, storage_mb=storage_mb))
        base = status("VmRSS")
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # VmHWM from here on is the script's
        r = await m.run(Command(argv=("sh", "-c", script), timeout=timeout, output_limit_bytes=1 << 20))
        peak = status("VmHWM")
        await m.close()
        del m
        after = status("VmRSS")
        print(json.dumps({"exit_code": r.exit_code, "reason": str(r.reason), "base": base, "peak": peak,
                          "after": after, "stdout": r.stdout[-300:].decode(errors="replace"),
                          "stderr": clip(r.stderr)}))

    def clip(b):
        return (b if len(b) <= 600 else b[:300] + b"..." + b[-300:]).decode(errors="replace")

    asyncio.run(main(*json.loads(sys.argv[1])))
    """
)


def run_child(script: str, memory_mb: int | None = 256, storage_mb: int | None = None, timeout: float = 60) -> dict:
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR))
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps([script, memory_mb, storage_mb, timeout])],
        capture_output=True,
        env=env,
        timeout=timeout + 120,
    )
    assert proc.returncode == 0, f"the embedding process died ({proc.returncode}): {proc.stderr[-2000:]!r}"
    return json.loads(proc.stdout.splitlines()[-1])


def assert_bounded(out: dict, memory_mb: int) -> None:
    grown = out["peak"] - out["base"]
    assert grown <= 2 * memory_mb * MiB + 64 * MiB, f"host RSS grew by {grown // MiB} MiB for a {memory_mb} MiB limit: {out}"
    kept = out["after"] - out["base"]
    assert kept <= 64 * MiB, f"{kept // MiB} MiB kept after close: {out}"


def test_function_recursion_is_a_nesting_error_not_a_crash(host_state) -> None:
    # Issue 10, 2.2: a Go stack overflow after 1.1 GB used to abort the process (default 2 GiB machine).
    out = run_child("f(){ f; }; f; echo not reached", memory_mb=None)
    assert out["exit_code"] == 1
    assert out["stdout"] == ""
    assert out["stderr"] == "sh: line 1: f: maximum function nesting level exceeded (5000)\n"
    host_state.assert_unchanged()


def test_funcnest_is_honoured() -> None:
    out = run_child("FUNCNEST=3; f(){ echo $FUNCNAME; f; }; f", memory_mb=None)
    assert (out["exit_code"], out["stdout"]) == (1, "f\nf\nf\n")
    assert "maximum function nesting level exceeded (3)" in out["stderr"]


@pytest.mark.parametrize(
    "script",
    [
        "f(){ ( f ); }; f",  # 2.3: 18.9 GB of host RSS in 60 s, no stop reason
        "f(){ echo $(f); }; f",
        "x=a; while :; do x=$x$x; done",  # 2.3: 6.0 GB for a 2 GiB limit
        "yes | head -c 600000000 | sort > /dev/null",  # 2.3: 4.9 GB for a 2 GiB limit
        "a=(x); while :; do a=(\"${a[@]}\" \"${a[@]}\"); done",
        "x=a; while :; do x=$(echo $x$x); done",
        "printf '%2000000000d' 1 | wc -c",
    ],
)
def test_runaway_memory_stops_within_the_host_bound(script: str, host_state) -> None:
    out = run_child(script, memory_mb=256)
    assert out["exit_code"] == 137, out
    assert "shellsim: memory_exhausted: the machine is stopped" in out["stderr"], out
    assert "%!" not in out["stdout"]
    assert_bounded(out, 256)
    host_state.assert_unchanged()


def test_printf_huge_width_prints_what_bash_prints() -> None:
    # Issue 10, 4: Go's "%!(NOVERB)" used to be printed for widths over 1e6.
    out = run_child("printf '%1500000d' 7 | tail -c 3; printf '%01500000d' -5 | head -c 3; printf '%1500000s' | wc -c")
    assert (out["exit_code"], out["stdout"], out["stderr"]) == (0, "  7-001500000\n", "")


def test_full_disk_says_no_space_left_on_device() -> None:
    out = run_child(
        "touch f; head -c 2000000 /dev/zero > big; "
        "for i in $(seq 40); do head -c 1000 /dev/zero >> big 2>/dev/null; done; "
        "for i in $(seq 1000); do printf x >> big 2>/dev/null || break; done; "
        "echo x > f; seq 3 | cat > f; echo x > new",
        storage_mb=1,
    )
    assert out["stderr"] == (
        "head: write error: No space left on device\n"
        "sh: line 1: echo: write error: No space left on device\n"
        "cat: write error: No space left on device\n"
        "sh: line 1: new: No space left on device\n"
    ), out


@pytest.fixture
async def machine():
    m = await ShellSimMachineFactory().create(MachineSpec(source=ShellSimBuiltins()))
    yield m
    await m.close()


@pytest.mark.parametrize(
    ("command", "field"),
    [
        (Command(argv=("echo", "a\0b")), "argv"),
        (Command(argv=("true",), env={"A\0": "x"}), "env"),
        (Command(argv=("true",), env={"A": "x\0y"}), "env"),
        (Command(argv=("true",), cwd="/tmp/a\0b"), "cwd"),
    ],
)
async def test_nul_bytes_are_refused(machine, command: Command, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        await machine.run(command)
    r = await machine.run(Command(argv=("sh", "-c", "echo alive")))
    assert r.stdout == b"alive\n"


async def test_nul_bytes_in_transfer_paths_are_refused(machine, tmp_path: Path) -> None:
    src = tmp_path / "f"
    src.write_text("x")
    with pytest.raises(ValueError, match="target"):
        await machine.upload(src, "/tmp/a\0b")
    with pytest.raises(ValueError, match="source"):
        await machine.download("/tmp/a\0b", tmp_path / "d")
    r = await machine.run(Command(argv=("sh", "-c", "ls -A /tmp")))
    assert r.stdout == b""


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("x=$(head -c 300000 /dev/zero | tr '\\0' '('); eval \"$x\"", "syntax error: nesting deeper than 2000 levels"),
        ("x=$(head -c 300000 /dev/zero | tr '\\0' '(')1; echo $((x))", "expression recursion level exceeded"),
        ("x=$(head -c 300000 /dev/zero | tr '\\0' '('); awk \"BEGIN{print ${x}1}\"", "awk: cmd. line:1: fatal: nesting deeper than 2000 levels"),
        ("x=$(head -c 300000 /dev/zero | tr '\\0' '('); jq -n \"${x}1\"", "jq: error: nesting deeper than 2000 levels"),
    ],
)
def test_deeply_nested_source_is_an_error_not_a_crash(script: str, message: str) -> None:
    # A recursive-descent parser given 300,000 nested brackets overflowed the Go stack: a fatal error that
    # took the embedding process down.
    out = run_child(script, memory_mb=None)
    assert out["exit_code"] != 0
    assert message in out["stderr"], out
