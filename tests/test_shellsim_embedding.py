"""shellbox.shellsim: the embedded ShellSim API, through the real library."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from shellbox import shellsim
from shellbox.shellsim import Environment, HttpResponse, Limits, SimulationError


def test_run_persists_state_and_reports() -> None:
    env = Environment()
    r = env.run("cd /tmp; X=5; f() { echo f$X; }; echo hi | tr a-z A-Z")
    assert (r.returncode, r.stdout, r.stderr, r.stop_reason) == (0, b"HI\n", b"", None)
    assert r.limits == Limits()
    assert r.usage.cpu_used > 0 and r.cost_model_version >= 1
    assert "tr" in r.commands and any(i.argv == ("tr", "a-z", "A-Z") for i in r.invocations)
    assert any(u.command == "tr" for u in r.command_usage)
    r = env.run("pwd; f; cat", stdin=b"in")
    assert r.stdout == b"/tmp\nf5\nin"
    r.check_returncode()
    r = env.run("echo oops >&2; exit 3")
    assert r.returncode == 3 and r.stderr_text == "oops\n"
    with pytest.raises(SimulationError, match="status 3"):
        r.check_returncode()
    assert env.terminated
    env.close()
    env.close()


def test_limits_and_exhaustion() -> None:
    with pytest.raises(ValueError):
        Environment(Limits(), cpu=5)
    with pytest.raises(TypeError):
        Limits(cpu=True)
    env = Environment(cpu=100_000)
    assert env.limits.cpu == 100_000
    r = env.run("while :; do :; done")
    assert (r.returncode, r.stop_reason) == (137, "cpu_exhausted")
    assert env.terminated and env.stop_reason == "cpu_exhausted"
    r = shellsim.run("yes | head -c 100000", output=1000)
    assert r.stop_reason == "output_limit_exceeded" and len(r.stdout) <= 1000


def test_files(tmp_path: Path) -> None:
    env = Environment()
    env.write_file("a/b.txt", "text", mode=0o600)
    assert env.read_file("/work/a/b.txt") == b"text"
    assert env.run("stat -c %a a/b.txt").stdout == b"600\n"
    env.mkdir("x/y", parents=True)
    env.mkdir("z")
    with pytest.raises(FileNotFoundError):
        env.mkdir("p/q")
    with pytest.raises(FileNotFoundError):
        env.read_file("nope")
    (tmp_path / "proj" / "src").mkdir(parents=True)
    (tmp_path / "proj" / "src" / "main.sh").write_text("echo main\n")
    (tmp_path / "proj" / "node_modules").mkdir()
    (tmp_path / "proj" / "node_modules" / "big").write_text("x")
    m = env.mount(tmp_path / "proj", "/work/proj")
    assert (m.files, m.skipped_directories) == (1, ("node_modules",))
    assert env.run("sh proj/src/main.sh; ls proj").stdout == b"main\nsrc\n"
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "ok").write_text("ok")
    (tmp_path / "bad" / "link").symlink_to("/etc/passwd")
    with pytest.raises(PermissionError, match="symbolic"):
        env.mount(tmp_path / "bad", "/work/bad")
    assert env.run("test -e /work/bad || echo none").stdout == b"none\n"
    small = Environment(disk=300_000)
    (tmp_path / "huge").mkdir()
    (tmp_path / "huge" / "a").write_bytes(b"a" * 100_000)
    (tmp_path / "huge" / "b").write_bytes(b"b" * 400_000)
    with pytest.raises(SimulationError):
        small.mount(tmp_path / "huge")
    assert small.run("ls /work | wc -l").stdout == b"0\n"


def test_fork_is_independent() -> None:
    env = Environment()
    env.run("X=1; echo base > f; cd /tmp")
    child = env.fork()
    assert child.run("echo $X; pwd; cat /work/f; echo child > /work/f").stdout == b"1\n/tmp\nbase\n"
    assert env.run("cat /work/f; Y=2").stdout == b"base\n"
    assert child.run("echo y${Y}y").stdout == b"yy\n"


def test_fork_copies_running_background_jobs() -> None:
    env = Environment()
    env.run("(for i in 1 2 3; do sleep 10; echo tick$i >> /work/log; done) & echo started")
    env.run("sleep 15")
    # Changes made from outside while the job runs are part of the copy too.
    env.mkdir("made")
    env.write_file("made/note", b"from the host\n")
    child = env.fork()
    assert child.read_file("made/note") == b"from the host\n"
    # The job, its timer and the clock were copied: each copy runs it on.
    assert child.run("cat /work/log; wait; cat /work/log; date +%s").stdout == b"tick1\ntick1\ntick2\ntick3\n1735689630\n"
    assert env.run("cat /work/log").stdout == b"tick1\n"
    assert env.run("kill %1; wait; cat /work/log").stdout == b"tick1\n"


def test_routes_reach_commands_and_fork() -> None:
    env = Environment(http={"http://api.test/v1/*": HttpResponse(200, {"X-A": "1"}, '{"ok":true}')})
    env.route_http("http://api.test/post", HttpResponse(201, body=b"made"), method="POST")
    with pytest.raises(ValueError):
        HttpResponse(status=70000)
    r = env.run("curl -s http://api.test/v1/thing")
    if "curl" in r.unsupported_commands or r.returncode == 127:
        pytest.skip("curl is not registered in this build (lib/shellsim/commands/net)")
    assert r.stdout == b'{"ok":true}'
    assert r.network_requests[0].url == "http://api.test/v1/thing" and r.network_requests[0].matched
    assert env.fork().run("curl -s -X POST http://api.test/post").stdout == b"made"


def test_run_releases_the_gil() -> None:
    env = Environment(cpu=10**12)
    ticks = 0
    stop = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    began = time.perf_counter()
    env.run("i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done")
    elapsed = time.perf_counter() - began
    stop.set()
    t.join()
    assert elapsed > 0.05 and ticks >= elapsed / 0.01, (elapsed, ticks)
