"""The Daytona backend through the Python API, against shellbox-daytona-server on loopback (Docker
sandboxes), since the hosted service is out of reach from CI."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from shellbox.backends.daytona.machine import (
    DaytonaMachineFactory,
    DaytonaNetworkMode,
    DaytonaNetworkPolicy,
)
from shellbox.image import DockerfileSource, RegistryImage
from shellbox.machine import (
    Command,
    ExitReason,
    MachineClosed,
    MachineSpec,
    MachineStartupError,
    NetworkPolicy,
    UnsupportedMachineSpec,
)

from testimages import busybox_image

KEY = "python-test-key"
IMAGE = "shellbox-daytona/busybox:1"
SERVER = Path(__file__).resolve().parents[1] / "python" / "shellbox" / "_bin" / "shellbox-daytona-server"


@pytest.fixture(scope="module")
def server():
    busybox_image(IMAGE)
    env = {**os.environ, "SHELLBOX_DAYTONA_SERVER_KEY": KEY}
    proc = subprocess.Popen(
        [str(SERVER), "-listen", "127.0.0.1:0", "-backend", "docker"], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        line = proc.stdout.readline()
        assert "http://" in line, line
        yield line.split()[-1]  # http://127.0.0.1:port/api
    finally:
        proc.terminate()
        assert proc.wait(timeout=60) == 0


def api(server: str, path: str, key: str = KEY):
    """GET an API path; (status, JSON body)."""
    request = urllib.request.Request(server + path, headers={"Authorization": f"Bearer {key}"})
    try:
        with urllib.request.urlopen(request) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.fixture
def factory(server) -> DaytonaMachineFactory:
    return DaytonaMachineFactory(api_key=KEY, api_url=server)


def spec(**kw) -> MachineSpec:
    return MachineSpec(RegistryImage(IMAGE), **kw)


async def test_run_transfer_and_close(factory, server, tmp_path):
    m = await factory.create(spec(env={"SPEC": "from-spec"}))
    try:
        r = await m.run(Command(("sh", "-c", 'printf "%s" "$SPEC"; pwd'), user="root"))
        assert r == type(r)(0, b"from-spec/workspace\n", b"", False, False, ExitReason.EXITED)
        r = await m.run(Command(("sh", "-c", "cat; printf '\\000\\377' >&2"), stdin=b"abc\x00\xff", output_limit_bytes=4))
        assert (r.stdout, r.stdout_truncated, r.stderr, r.stderr_truncated) == (b"abc\x00", True, b"\x00\xff", False)
        src = tmp_path / "bin"
        src.write_bytes(bytes(range(256)) * 100)
        await m.upload(src, "/workspace/in/bin")
        await m.download("/workspace/in/bin", tmp_path / "back")
        assert (tmp_path / "back").read_bytes() == src.read_bytes()
    finally:
        await m.close()
    await m.close()
    with pytest.raises(MachineClosed):
        await m.run(Command(("true",)))


async def test_close_deletes_the_sandbox_and_keeps_the_snapshot(factory, server):
    _, before = api(server, "/sandbox")
    m = await factory.create(spec())
    _, during = api(server, "/sandbox")
    (new,) = [s for s in during if s["id"] not in {b["id"] for b in before}]
    assert new["user"] == "root" and new["networkBlockAll"] is True and new["snapshot"].startswith("shellbox-")
    await m.close()
    status, body = api(server, "/sandbox/" + new["id"])
    assert status == 404 and body["statusCode"] == 404 and "not found" in body["message"]
    status, snap = api(server, "/snapshots/" + new["snapshot"])
    assert status == 200 and snap["state"] == "active"


async def test_timeout_stops_the_group_and_keeps_the_sandbox(factory):
    m = await factory.create(spec())
    try:
        r = await m.run(Command(("sh", "-c", "echo partial; sleep 1000 & echo $! > child.pid; sleep 1000"), timeout=0.5))
        assert (r.exit_code, r.reason, r.stdout) == (None, ExitReason.TIMED_OUT, b"partial\n")
        r = await m.run(Command(("sh", "-c", 'p=$(cat child.pid); kill -0 "$p" 2>/dev/null && echo alive || echo gone')))
        assert r.stdout == b"gone\n"
    finally:
        await m.close()


async def test_snapshots_are_keyed_by_image_and_whole_gib(factory, server):
    snapshot_of = {}
    for memory in (1500, 2048, 2049):
        _, before = api(server, "/sandbox")
        m = await factory.create(spec(memory_mb=memory))
        _, during = api(server, "/sandbox")
        (new,) = [s for s in during if s["id"] not in {b["id"] for b in before}]
        snapshot_of[memory] = new["snapshot"]
        assert new["memory"] == (2 if memory <= 2048 else 3)
        await m.close()
    # 1500 MB and 2048 MB both round up to 2 GiB (one snapshot); 2049 MB is 3 GiB (another).
    assert snapshot_of[1500] == snapshot_of[2048] != snapshot_of[2049]
    assert api(server, "/snapshots/" + snapshot_of[2049])[1]["mem"] == 3


async def test_unsupported_sources_are_refused_before_any_snapshot(factory, server, tmp_path):
    (tmp_path / "Dockerfile").write_text(f"FROM {IMAGE}\nadd x /x\n")
    _, before = api(server, "/snapshots")
    with pytest.raises(UnsupportedMachineSpec, match="source"):
        await factory.create(MachineSpec(DockerfileSource(tmp_path, tmp_path / "Dockerfile")))
    _, after = api(server, "/snapshots")
    assert after["total"] == before["total"]


async def test_dockerfile_without_context(factory, tmp_path):
    (tmp_path / "Dockerfile").write_text(f"FROM {IMAGE}\n")
    m = await factory.create(MachineSpec(DockerfileSource(tmp_path, tmp_path / "Dockerfile")))
    try:
        assert (await m.run(Command(("echo", "built")))).stdout == b"built\n"
    finally:
        await m.close()


async def test_network_policies(factory, server):
    async def interfaces(f, **kw) -> list[str]:
        m = await f.create(spec(**kw))
        try:
            r = await m.run(Command(("sh", "-c", "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")))
            return r.stdout.decode().split()
        finally:
            await m.close()

    assert await interfaces(factory) == ["lo"]
    assert len(await interfaces(factory, network=NetworkPolicy.ALLOW)) > 1
    unrestricted = DaytonaMachineFactory(
        api_key=KEY, api_url=server, network_policy=DaytonaNetworkPolicy(DaytonaNetworkMode.UNRESTRICTED)
    )
    assert len(await interfaces(unrestricted)) > 1
    blocked = DaytonaMachineFactory(
        api_key=KEY, api_url=server, network_policy=DaytonaNetworkPolicy(DaytonaNetworkMode.BLOCK_ALL)
    )
    assert await interfaces(blocked, network=NetworkPolicy.ALLOW) == ["lo"]
    # This server cannot enforce allow lists and says so instead of ignoring them.
    domains = DaytonaMachineFactory(
        api_key=KEY, api_url=server, network_policy=DaytonaNetworkPolicy("domain_allow_list", "example.org")
    )
    with pytest.raises(MachineStartupError, match="domainAllowList"):
        await domains.create(spec())


def test_network_policy_values():
    assert DaytonaNetworkPolicy(DaytonaNetworkMode.BLOCK_ALL).parameters() == {"network_block_all": True}
    assert DaytonaNetworkPolicy("unrestricted").parameters() == {"network_block_all": False}
    p = DaytonaNetworkPolicy(DaytonaNetworkMode.NETWORK_ALLOW_LIST, "10.0.0.0/8")
    assert p.parameters() == {"network_allow_list": "10.0.0.0/8"}
    with pytest.raises(ValueError, match="needs a value"):
        DaytonaNetworkPolicy(DaytonaNetworkMode.DOMAIN_ALLOW_LIST)
    with pytest.raises(ValueError, match="takes no value"):
        DaytonaNetworkPolicy(DaytonaNetworkMode.BLOCK_ALL, "x")


async def test_wrong_key_and_missing_credentials(server, monkeypatch):
    bad = DaytonaMachineFactory(api_key="wrong", api_url=server)
    with pytest.raises(MachineStartupError, match="401"):
        await bad.create(spec())
    monkeypatch.delenv("DAYTONA_API_KEY", raising=False)
    with pytest.raises(ValueError, match="DAYTONA_API_KEY"):
        DaytonaMachineFactory(api_url=server)
    monkeypatch.setenv("DAYTONA_API_KEY", KEY)
    monkeypatch.setenv("DAYTONA_API_URL", server)
    m = await DaytonaMachineFactory().create(spec())
    await m.close()
