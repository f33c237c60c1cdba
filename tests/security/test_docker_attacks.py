"""Hostile input against the Docker and gVisor backends, through the public Python API.

Every reproducer runs in a child Python process, so that a crash of the embedding process
(a Go panic, a failed thread creation) fails the test instead of killing pytest. The parent
checks what the child left: its containers (found by the owner label, which holds the child's
pid) and the host state."""

from __future__ import annotations

import fcntl
import http.client
import io
import json
import os
import signal
import socket
import subprocess
import sys
import tarfile
import textwrap
import time
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOCKET = "/var/run/docker.sock"
IMAGE = "shellbox-security/busybox:1"
BUSYBOX = "/bin/busybox"
LOCK = "/tmp/shellbox-docker-tests.lock"  # tests/docker/dockertest: held exclusively while dockerd restarts
OWNER_LABEL = "dev.shellbox.owner"


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self) -> None:
        super().__init__("localhost", timeout=120)

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(120)
        self.sock.connect(SOCKET)


def engine(method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    conn = _UnixConnection()
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def rootfs() -> bytes:
    """The host's static busybox with a link per applet, and root in /etc/passwd."""
    applets = subprocess.run([BUSYBOX, "--list"], capture_output=True, text=True, check=True).stdout.split()
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tar:

        def add(name: str, kind: bytes, mode: int, data: bytes = b"", link: str = "") -> None:
            info = tarfile.TarInfo(name)
            info.type, info.mode, info.mtime, info.linkname, info.size = kind, mode, 1700000000, link, len(data)
            tar.addfile(info, io.BytesIO(data) if data else None)

        for name in ("bin", "sbin", "usr", "usr/bin", "etc", "var", "proc", "sys", "dev"):
            add(name, tarfile.DIRTYPE, 0o755)
        add("root", tarfile.DIRTYPE, 0o700)
        add("tmp", tarfile.DIRTYPE, 0o1777)
        add("bin/busybox", tarfile.REGTYPE, 0o755, Path(BUSYBOX).read_bytes())
        for applet in applets:
            if applet != "busybox" and "/" not in applet:
                add(f"bin/{applet}", tarfile.SYMTYPE, 0o777, link="busybox")
        add("etc/passwd", tarfile.REGTYPE, 0o644, b"root:x:0:0:root:/root:/bin/sh\n")
        add("etc/group", tarfile.REGTYPE, 0o644, b"root:x:0:\n")
    return out.getvalue()


@pytest.fixture(scope="module")
def image() -> str:
    try:
        status, _ = engine("GET", "/_ping")
    except OSError as error:
        pytest.fail(f"no Docker daemon answers at {SOCKET} ({error}): run .ci/docker.sh", pytrace=False)
    assert status == 200
    if engine("GET", f"/images/{IMAGE}/json")[0] != 200:
        repo, tag = IMAGE.rsplit(":", 1)
        query = urllib.parse.urlencode([("fromSrc", "-"), ("repo", repo), ("tag", tag), ("changes", "ENV PATH=/usr/sbin:/usr/bin:/sbin:/bin")])
        status, body = engine("POST", f"/images/create?{query}", rootfs(), {"Content-Type": "application/x-tar"})
        assert status == 200 and b'"error"' not in body, body[-2000:]
    return IMAGE


@pytest.fixture(autouse=True)
def daemon_lock():
    """The shared side of the lock the Go docker tests take exclusively to restart dockerd."""
    with open(LOCK, "a") as f:
        fcntl.flock(f, fcntl.LOCK_SH)
        yield


def owned_containers(pid: int, running_only: bool = False) -> list[dict]:
    """The containers whose owner label names process pid."""
    query = urllib.parse.urlencode({"all": "0" if running_only else "1", "filters": json.dumps({"label": [OWNER_LABEL]})})
    status, body = engine("GET", f"/containers/json?{query}")
    assert status == 200, body
    return [c for c in json.loads(body) if c["Labels"][OWNER_LABEL].split("/")[1] == str(pid)]


PRELUDE = textwrap.dedent(
    """
    import asyncio, os, sys, time
    from pathlib import Path
    from shellbox.machine import Command, DockerImage, ExitReason, MachineSpec, MachineTerminated, UnsupportedMachineSpec
    from shellbox.backends.docker.machine import DockerMachineFactory
    from shellbox.backends.gvisor.machine import GvisorMachineFactory

    def factory(backend, **kw):
        return DockerMachineFactory(**kw) if backend == "docker" else GvisorMachineFactory(**kw)

    def spec():
        return MachineSpec(DockerImage(IMAGE), workdir="/workspace")
    """
)


def child(script: str, **values: object) -> subprocess.Popen:
    head = "".join(f"{k} = {v!r}\n" for k, v in values.items())
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    return subprocess.Popen(
        [sys.executable, "-c", head + PRELUDE + textwrap.dedent(script)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def run_child(script: str, timeout: float, **values: object) -> str:
    """Runs script in a child Python; fails unless it exits 0 within timeout (a crash, e.g. a Go
    panic or abort, fails here, not in pytest)."""
    proc = child(script, **values)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"the child hung for {timeout} s\nstdout:\n{out}\nstderr:\n{err[-4000:]}")
    assert proc.returncode == 0, f"the child exited with {proc.returncode}\nstdout:\n{out}\nstderr:\n{err[-4000:]}"
    assert not owned_containers(proc.pid), "the child's containers outlived it"
    return out


@pytest.mark.parametrize("backend", ["docker", "gvisor"])
def test_nul_and_relative_guest_paths_are_refused(backend, image, host_state, tmp_path):
    """Issue 10, 2.1: an upload to "/tmp/a\\0b" panicked net/http (aborting Python, the container
    left running) on Docker and hung on gVisor. Every bad guest path is a ValueError naming the
    field, before any I/O, and the machine stays usable."""
    (tmp_path / "src").write_text("x")
    out = run_child(
        """
        async def main():
            f = factory(BACKEND)
            m = await f.create(spec())
            try:
                for bad in ["/tmp/a\\0b", "/tmp/\\0", "relative", "/workspace/../etc/x", ""]:
                    for op, field in (("upload", "target"), ("download", "source")):
                        try:
                            if op == "upload":
                                await asyncio.wait_for(m.upload(Path(SRC), bad), 60)
                            else:
                                await asyncio.wait_for(m.download(bad, Path(SRC + ".back")), 60)
                        except ValueError as e:
                            assert field in str(e) or getattr(e, "field", None) == field, (op, bad, e)
                        else:
                            raise AssertionError(f"{op} {bad!r} was accepted")
                r = await m.run(Command(["sh", "-c", "ls -A /tmp /workspace; echo ok"], timeout=30))
                assert r.exit_code == 0 and r.stdout == b"/tmp:\\n\\n/workspace:\\nok\\n", r
                print("refused")
            finally:
                await m.close()
        asyncio.run(main())
        """,
        180,
        BACKEND=backend,
        IMAGE=image,
        SRC=str(tmp_path / "src"),
    )
    assert "refused" in out
    assert not (tmp_path / "src.back").exists()
    host_state.assert_unchanged()


@pytest.mark.parametrize("backend", ["docker", "gvisor"])
def test_fork_bomb_is_held_by_the_task_limit(backend, image, host_state):
    """Issue 10, 2.4: `f(){ f|f& };f` with timeout 5 took every PID of the host and Python
    aborted in pthread_create. The container's task limit holds it: a bomb in the foreground
    ends at its timeout (on gVisor, whose sandbox counts its own host threads, the sandbox
    may end first: MachineTerminated), one left in the background lets the command return,
    and closing removes everything."""
    out = run_child(
        """
        async def main():
            f = factory(BACKEND)
            m = await f.create(spec())
            try:
                start = time.monotonic()
                try:
                    r = await m.run(Command(["sh", "-c", "f(){ f|f& };f; sleep 100"], timeout=5, output_limit_bytes=1024))
                    took = time.monotonic() - start
                    assert r.reason == ExitReason.TIMED_OUT and took < 15, (r, took)
                    r = await m.run(Command(["echo", "usable"], timeout=30))
                    assert r.stdout == b"usable\\n", r
                except MachineTerminated:
                    # A saturated sandbox may not answer the stop: the run gives up on the
                    # group after its 60 s stop deadline and ends the machine.
                    took = time.monotonic() - start
                    assert BACKEND == "gvisor" and took < 90, took
                print("foreground", round(took, 1))
            finally:
                await m.close()
            m = await f.create(spec())
            try:
                start = time.monotonic()
                bound = 15
                try:
                    await m.run(Command(["sh", "-c", "f(){ f|f& };f"], timeout=5, output_limit_bytes=1024))
                except MachineTerminated:
                    assert BACKEND == "gvisor"
                    bound = 90
                took = time.monotonic() - start
                assert took < bound, took
                time.sleep(2)  # the bomb runs on, held by the limit
                print("background", round(took, 1))
            finally:
                await m.close()
        asyncio.run(main())
        """,
        # runsc's teardown of a sandbox held at its task limit can take minutes on a loaded
        # host; close waits for it (gvisorRemoveTimeout) instead of leaving the container.
        900 if backend == "gvisor" else 240,
        BACKEND=backend,
        IMAGE=image,
    )
    assert "foreground" in out and "background" in out, out
    host_state.assert_unchanged()


def test_pids_limit_option(image):
    """pids_limit is a documented factory option: a smaller limit holds the container's tasks
    under it; 0 means none; a negative value is refused."""
    out = run_child(
        """
        async def main():
            m = await factory("docker", pids_limit=64).create(spec())
            try:
                # The count is a glob (no fork): the limit is reached.
                r = await m.run(Command(["sh", "-c", BURST], timeout=60))
                n = int(r.stdout.split()[-1])
                assert 0 < n <= 64, r
            finally:
                await m.close()
            try:
                factory("docker", pids_limit=-1)
            except ValueError as e:
                assert "pids_limit" in str(e), e
            else:
                raise AssertionError("a negative pids_limit was accepted")
            m = await factory("docker", pids_limit=0).create(spec())
            try:
                r = await m.run(Command(["sh", "-c", BURST], timeout=60))
                assert int(r.stdout.split()[-1]) > 100, r
            finally:
                await m.close()
            print("ok")
        asyncio.run(main())
        """,
        180,
        IMAGE=image,
        BURST="sh -c 'for i in $(seq 100); do sleep 30 & done' 2>/dev/null; set -- /proc/[0-9]*; echo $#",
    )
    assert "ok" in out


@pytest.mark.parametrize("how", ["SIGKILL", "os._exit"])
def test_containers_die_with_their_owner(how, image, host_state):
    """Issue 10, 3: SIGKILL or os._exit of the Python process left its Docker containers
    running. Their lifeline (the main process's stdin, the owner's attach connection) stops
    them within seconds, and the next factory on the host removes them."""
    proc = child(
        """
        async def main():
            machines = [await factory(b).create(spec()) for b in ("docker", "gvisor")]
            for m in machines:
                await m.run(Command(["sh", "-c", "sleep 1000 & echo started"], timeout=30))
                asyncio.ensure_future(m.run(Command(["sleep", "1000"])))
            await asyncio.sleep(1)
            print("ready", flush=True)
            if HOW == "os._exit":
                os._exit(0)
            await asyncio.sleep(1000)
        asyncio.run(main())
        """,
        HOW=how,
        IMAGE=image,
    )
    try:
        line = proc.stdout.readline()
        assert line.strip() == "ready", (line, proc.stderr.read()[-4000:] if proc.poll() is not None else "")
        assert len(owned_containers(proc.pid, running_only=True)) == 2
        if how == "SIGKILL":
            proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    died = time.monotonic()
    while owned_containers(proc.pid, running_only=True):
        assert time.monotonic() - died < 10, f"containers still running {time.monotonic() - died:.1f} s after their owner died"
        time.sleep(0.2)
    left = owned_containers(proc.pid)
    assert left, "the containers were removed without a factory start (the test checks the sweep)"
    # The next factory start on the host sweeps them.
    run_child("factory('docker')\nprint('started')", 60, IMAGE=image)
    swept = time.monotonic()
    while owned_containers(proc.pid):
        assert time.monotonic() - swept < 30, "the containers of a dead owner outlived the next factory start"
        time.sleep(0.2)
    host_state.assert_unchanged()


def test_large_output_is_held_once(image):
    """Issue 10, 2.5: output_limit_bytes=2 GiB with 1.5 GB printed took 6.7 GB of RSS on Docker,
    kept afterwards. 512 MiB of output now grows the process by little more than the output,
    and the memory goes back when the result is dropped."""
    out = run_child(
        """
        import gc
        def rss(field):
            for line in open("/proc/self/status"):
                if line.startswith(field):
                    return int(line.split()[1]) << 10
        async def main():
            m = await factory("docker").create(spec())
            try:
                await m.run(Command(["true"]))
                gc.collect()
                open("/proc/self/clear_refs", "w").write("5")  # resets VmHWM to the current RSS
                base = rss("VmRSS:")
                r = await m.run(Command(["sh", "-c", f"head -c {SIZE} /dev/zero | tr '\\\\000' x"], timeout=300, output_limit_bytes=2 << 30))
                peak = rss("VmHWM:") - base
                assert len(r.stdout) == SIZE and not r.stdout_truncated, (len(r.stdout), r.stdout_truncated)
                del r
                gc.collect()
                after = rss("VmRSS:") - base
                print("peak", peak >> 20, "after", after >> 20)
            finally:
                await m.close()
        asyncio.run(main())
        """,
        300,
        IMAGE=image,
        SIZE=512 << 20,
    )
    words = out.split()
    peak, after = int(words[words.index("peak") + 1]), int(words[words.index("after") + 1])
    assert peak < 512 * 13 // 10 + 64, f"RSS grew {peak} MiB for 512 MiB of output"
    assert after < 64, f"RSS stayed {after} MiB over the start after the result was dropped"
