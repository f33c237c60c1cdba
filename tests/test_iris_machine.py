"""The Iris backend through the Python API, against shellbox-iris-controller on loopback (Docker
tasks), since no Iris cluster is reachable from CI."""

from __future__ import annotations

import fcntl
import os
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from shellbox.backends.iris.machine import IrisMachineFactory, resolve_secret_spec
from shellbox.image import RegistryImage
from shellbox.machine import (
    Command,
    DockerImage,
    ExitReason,
    MachineClosed,
    MachineSpec,
    MachineStartupError,
    MachineTerminated,
    NetworkPolicy,
    UnsupportedMachineSpec,
)

from testimages import busybox_image

TOKEN = "python-iris-token"
IMAGE = "shellbox-iris/busybox:1"
CONTROLLER = Path(__file__).resolve().parents[1] / "python" / "shellbox" / "_bin" / "shellbox-iris-controller"


@pytest.fixture(scope="module")
def controller():
    busybox_image(IMAGE)
    env = {**os.environ, "SHELLBOX_IRIS_CONTROLLER_TOKEN": TOKEN}
    proc = subprocess.Popen([str(CONTROLLER), "-listen", "127.0.0.1:0"], env=env, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert "http://" in line, line
        yield line.split()[-1]
    finally:
        proc.terminate()
        assert proc.wait(timeout=60) == 0


@pytest.fixture
def factory(controller) -> IrisMachineFactory:
    return IrisMachineFactory(controller_url=controller, token=TOKEN)


def spec(**kw) -> MachineSpec:
    return MachineSpec(RegistryImage(IMAGE), **kw)


async def test_run_and_transfer(factory, tmp_path):
    m = await factory.create(spec(env={"SPEC": "s"}))
    try:
        r = await m.run(Command(("sh", "-c", "cat; printf '\\000\\377' >&2"), stdin=b"abc\x00\xff", output_limit_bytes=4))
        assert (r.exit_code, r.stdout, r.stdout_truncated, r.stderr, r.stderr_truncated) == (0, b"abc\x00", True, b"\x00\xff", False)
        r = await m.run(Command(("sh", "-c", 'echo "$SPEC $X"; pwd'), env={"X": "x"}))
        assert r.stdout == b"s x\n/workspace\n"
        # 512 KiB: many 64 KiB chunks, each under the 128 KiB argument limit in base64.
        data = os.urandom(512 * 1024)
        (tmp_path / "big").write_bytes(data)
        await m.upload(tmp_path / "big", "/workspace/big")
        await m.download("/workspace/big", tmp_path / "back")
        assert (tmp_path / "back").read_bytes() == data
        r = await m.run(Command(("sleep", "100"), timeout=0.5))
        assert (r.exit_code, r.reason) == (None, ExitReason.TIMED_OUT)
        with pytest.raises(UnsupportedMachineSpec):
            await m.run(Command(("true",), user="nobody"))
        with pytest.raises(UnsupportedMachineSpec):
            await m.open_process(Command(("cat",)))
    finally:
        await m.close()
    with pytest.raises(MachineClosed):
        await m.run(Command(("true",)))


async def test_network_policy(factory):
    for network, interfaces in ((NetworkPolicy.DENY, 1), (NetworkPolicy.ALLOW, 2)):
        m = await factory.create(spec(network=network))
        try:
            r = await m.run(Command(("sh", "-c", "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")))
            assert len(r.stdout.split()) >= interfaces and (network is NetworkPolicy.ALLOW or r.stdout.split() == [b"lo"])
        finally:
            await m.close()


async def test_secret_env_reaches_the_job_only(controller, monkeypatch):
    monkeypatch.setenv("JUDGE_SOURCE", "s3cret")
    f = IrisMachineFactory(controller_url=controller, token=TOKEN, secret_env={"JUDGE_KEY": ("env:MISSING", "env:JUDGE_SOURCE")})
    s = spec()
    m = await f.create(s)
    try:
        assert (await m.run(Command(("sh", "-c", 'echo "$JUDGE_KEY"')))).stdout == b"s3cret\n"
        assert "JUDGE_KEY" not in s.env
    finally:
        await m.close()
    plain = await IrisMachineFactory(controller_url=controller, token=TOKEN).create(spec())
    try:
        assert (await plain.run(Command(("sh", "-c", 'echo "${JUDGE_KEY-unset}"')))).stdout == b"unset\n"
    finally:
        await plain.close()
    with pytest.raises(ValueError, match="no value"):
        resolve_secret_spec("env:SHELLBOX_SURELY_UNSET")


async def test_a_task_that_ended_is_terminated(factory):
    m = await factory.create(spec())
    try:
        # The entrypoint waits for its sleep (wait without operands exits 0): killing the sleep (a moment
        # later, after this command returned) ends the task, SUCCEEDED.
        await m.run(Command(("sh", "-c", "(sleep 0.5; kill $(pidof sleep)) >/dev/null 2>&1 &")))
        with pytest.raises(MachineTerminated, match="is TASK_STATE_SUCCEEDED"):
            for _ in range(50):
                await m.run(Command(("true",)))
    finally:
        await m.close()


def docker_container_exists(name: str) -> bool:
    return subprocess.run(["docker", "inspect", name], capture_output=True).returncode == 0


def docker_container_removed(name: str, timeout: float = 60) -> bool:
    """Whether the container is gone within timeout: the controller, as the real one, records a
    TerminateJob at once and removes the task's container in the background."""
    deadline = time.monotonic() + timeout
    while docker_container_exists(name):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


async def test_cluster_by_name(controller, tmp_path, monkeypatch):
    """cluster= as marin-shellbox documents it: a cluster name, whose config (here in the Marin checkout
    around the working directory, lib/iris/config/<name>.yaml) names the loopback controller."""
    (tmp_path / "pyproject.toml").write_text("[tool.uv.workspace]\nmembers = []\n")
    (tmp_path / "lib" / "iris" / "config").mkdir(parents=True)
    host, port = controller.removeprefix("http://").split(":")
    (tmp_path / "lib" / "iris" / "config" / "loopback.yaml").write_text(
        "name: loopback\nplatform:\n  manual: {}\ndefaults:\n  worker:\n    docker_image: w:1\n"
        f"controller:\n  manual:\n    host: {host}\n    port: {port}\n"
    )
    (tmp_path / "lib" / "iris" / "src").mkdir()
    monkeypatch.chdir(tmp_path / "lib" / "iris" / "src")
    m = await IrisMachineFactory(cluster="loopback", token=TOKEN).create(spec())
    try:
        r = await m.run(Command(("sh", "-c", "echo via cluster; hostname")))
        said, container = r.stdout.decode().rsplit("\n", 2)[:2]
        assert (r.exit_code, said) == (0, "via cluster")
        assert docker_container_exists(container)  # Docker names a container's host after its id
    finally:
        await m.close()
    assert docker_container_removed(container)
    with pytest.raises(ValueError, match='no config file for cluster "elsewhere"') as error:
        IrisMachineFactory(cluster="elsewhere", token=TOKEN)
    assert error.value.field == "cluster"
    # A controller marin-iris reaches through a tunnel: without marin-iris installed, refused by name.
    (tmp_path / "lib" / "iris" / "config" / "tunnelled.yaml").write_text(
        "name: tunnelled\ncontroller:\n  gcp:\n    zone: z\n    service_account: sa@p.iam.gserviceaccount.com\n"
    )
    with pytest.raises(UnsupportedMachineSpec, match="SSH tunnel") as error:
        IrisMachineFactory(cluster="tunnelled", token=TOKEN)
    assert error.value.field == "cluster"


# The marin-iris the Go tests check against (lib/remote/remotetest.MarinIrisVersion); its environment, with
# all of marin-iris's dependencies (its cluster resolution needs them), is shared with
# lib/backends/iris's TestResolveClusterAgreesWithMarinIris: same directory, lock and ready marker.
MARIN_IRIS = "0.2.227.dev40316220070"


@pytest.fixture(scope="module")
def marin_iris_python() -> str:
    if os.environ.get("SHELLBOX_MARIN_IRIS_FULL_PYTHON"):
        return os.environ["SHELLBOX_MARIN_IRIS_FULL_PYTHON"]
    base = os.environ.get("SHELLBOX_HARBOR_PYTHON")
    if not base:
        pytest.fail("SHELLBOX_HARBOR_PYTHON is not set: point it at a Python >= 3.12 (.ci/python312.sh prints one)")
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "shellbox"
    venv = cache / f"marin-iris-full-{MARIN_IRIS}"
    cache.mkdir(parents=True, exist_ok=True)
    with open(f"{venv}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (venv / ".shellbox-ready").exists():
            subprocess.run(["rm", "-rf", str(venv)], check=True)
            subprocess.run([base, "-m", "venv", str(venv)], check=True)
            # Marin's releases need prereleases of its own packages; httpx 1.0 prereleases break it.
            done = subprocess.run(
                [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "--pre", f"marin-iris=={MARIN_IRIS}", "httpx>=0.28.1,<1"],
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, done.stderr[-4000:]
            (venv / ".shellbox-ready").touch()
    return str(venv / "bin" / "python")


def test_cluster_marin_iris_reaches(marin_iris_python, tmp_path):
    """A cluster shellbox does not reach itself goes to marin-iris's connect_controller when it is
    installed; one behind IAP comes back (shellbox cannot send IAP's Google tokens), refused by name,
    with marin-iris's endpoint closed."""
    clusters = tmp_path / ".config" / "marin" / "clusters"
    clusters.mkdir(parents=True)
    (clusters / "behind-iap.yaml").write_text(
        "name: behind-iap\nplatform:\n  manual: {}\ndefaults:\n  worker:\n    docker_image: w:1\n"
        "controller:\n  manual:\n    host: h\nauth:\n  iap:\n    url: https://iris.example\n"
    )
    script = textwrap.dedent(
        """
        import iris.cli.connect as connect
        from shellbox.backends.iris.machine import IrisMachineFactory
        from shellbox.machine import UnsupportedMachineSpec

        opened = []
        real = connect.connect_controller
        def recording(**kw):
            endpoint = real(**kw)
            opened.append(endpoint)
            endpoint._resources.callback(lambda: opened.remove(endpoint))
            return endpoint
        connect.connect_controller = recording
        try:
            IrisMachineFactory(cluster="behind-iap")
        except UnsupportedMachineSpec as error:
            assert error.field == "cluster" and "IAP" in str(error), error
        else:
            raise AssertionError("a cluster behind IAP was accepted")
        assert opened == [], "marin-iris's endpoint was left open"
        print("HANDED TO MARIN-IRIS OK")
        """
    )
    env = {**os.environ, "HOME": str(tmp_path), "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "python")}
    done = subprocess.run([marin_iris_python, "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "HANDED TO MARIN-IRIS OK" in done.stdout, done.stdout + done.stderr


async def test_refusals(controller, factory):
    with pytest.raises(ValueError, match="exactly one"):
        IrisMachineFactory()
    with pytest.raises(ValueError, match="exactly one"):
        IrisMachineFactory(cluster="c", controller_url=controller)
    with pytest.raises(UnsupportedMachineSpec):
        await factory.create(spec(gpus=1))
    with pytest.raises(UnsupportedMachineSpec):
        await factory.create(MachineSpec(DockerImage(IMAGE)))
    with pytest.raises(MachineStartupError, match="unauthenticated"):
        await IrisMachineFactory(controller_url=controller, token="wrong").create(spec())
