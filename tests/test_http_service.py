"""serve_http through the Python API: real HTTP from curl/wget inside real
bubblewrap and Docker machines to Python handlers on the host, loopback only."""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading

import pytest

from shellbox.backends.docker.machine import DockerMachineFactory
from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.http_service import MAX_BODY_BYTES, HttpRequest, HttpResponse, serve_http
from shellbox.machine import Command, DockerImage, HostImage, MachineClosed, MachineSpec
from shellbox.task import ContainerSpec, TaskSpec

from testimages import security_image


@pytest.fixture(scope="module")
def local() -> LocalMachineFactory:
    return LocalMachineFactory()


@pytest.fixture
async def machine(local):
    m = await local.create(MachineSpec(HostImage()))
    yield m
    await m.close()


async def sh(machine, script: str, timeout: float = 120):
    return await machine.run(Command(["sh", "-c", script], timeout=timeout, output_limit_bytes=16 << 20))


def echo(request: HttpRequest) -> HttpResponse:
    """A sync handler: what it saw, as JSON (it has no headers to see)."""
    assert not hasattr(request, "headers")
    seen = {"method": request.method, "path": request.path, "query": request.query,
            "sha256": hashlib.sha256(request.body).hexdigest(), "len": len(request.body), "repr": repr(request)}
    return HttpResponse(200, json.dumps(seen).encode())


async def test_round_trips(machine):
    async with serve_http(machine, echo, port=8200) as url:
        assert url == "http://127.0.0.1:8200"
        got = await sh(machine, f"curl -s -H 'Authorization: Bearer guest-token' -H 'Cookie: s=1' '{url}/v1/judge?a=1&b=two'")
        seen = json.loads(got.stdout)
        assert (seen["method"], seen["path"], seen["query"]) == ("GET", "/v1/judge", "a=1&b=two")
        assert b"guest-token" not in got.stdout and b"Cookie" not in got.stdout
        # Binary bytes both ways, and the handler's status and content type.
        payload = bytes(range(256)) * 64
        posted = await machine.run(Command(["curl", "-s", "--data-binary", "@-", f"{url}/bin"], stdin=payload, timeout=60))
        seen = json.loads(posted.stdout)
        assert seen["sha256"] == hashlib.sha256(payload).hexdigest() and seen["len"] == len(payload) and seen["method"] == "POST"
        got = await sh(machine, f"curl -s -o /dev/null -w '%{{http_code}} ' -X PUT -d x {url}/; curl -s -o /dev/null -w '%{{http_code}}' -X PATCH {url}/")
        assert got.stdout == b"405 405"

    async def binary(request: HttpRequest) -> HttpResponse:
        return HttpResponse(207, b"\x00\xff\x01" + request.body, content_type="application/octet-stream")

    async with serve_http(machine, binary, port=8200) as url:
        got = await machine.run(Command(["sh", "-c", f"curl -s -D /tmp/h --data-binary @- {url}/ | od -An -tx1 | tr -d ' \\n'; grep -i -e '^http' -e '^content-type' /tmp/h | tr -d '\\r'"], stdin=b"\x80\x00"))
        assert got.stdout.startswith(b"00ff018000HTTP/1.1 207") and b"207" in got.stdout and b"application/octet-stream" in got.stdout


async def test_limits_and_failures(machine):
    async def handler(request: HttpRequest) -> HttpResponse:
        if request.path == "/size":
            return HttpResponse(200, str(len(request.body)).encode())
        if request.path == "/big":
            return HttpResponse(200, b"z" * (MAX_BODY_BYTES + (request.query == "over")))
        if request.path == "/raise":
            raise RuntimeError("HOST-SECRET traceback /root/.ssh/id_rsa")
        if request.path == "/wrong":
            return "not a response"
        return HttpResponse(404, b"")

    async with serve_http(machine, handler, port=8201) as url:
        got = await sh(
            machine,
            f"""head -c {MAX_BODY_BYTES} /dev/zero > /tmp/max; head -c {MAX_BODY_BYTES + 1} /dev/zero > /tmp/over
            curl -s --data-binary @/tmp/max {url}/size; echo
            curl -s -o /dev/null -w '%{{http_code}}\\n' --data-binary @/tmp/over {url}/size
            curl -s {url}/big | wc -c
            curl -s -o /dev/null -w '%{{http_code}}\\n' '{url}/big?over'
            curl -s -w ' %{{http_code}}\\n' {url}/raise
            curl -s -o /dev/null -w '%{{http_code}}\\n' {url}/wrong""",
        )
        lines = got.stdout.decode().split("\n")
        assert lines[:4] == [str(MAX_BODY_BYTES), "413", str(MAX_BODY_BYTES), "502"], got
        assert lines[4].endswith(" 502") and "HOST-SECRET" not in got.stdout.decode() and "ssh" not in got.stdout.decode()
        assert lines[5] == "502"


async def test_hundred_concurrent_requests_sixteen_pending(machine):
    release = asyncio.Event()
    in_flight = 0
    most = 0

    async def held(request: HttpRequest) -> HttpResponse:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        try:
            await release.wait()
        finally:
            in_flight -= 1
        return HttpResponse(200, request.query.encode())

    async with serve_http(machine, held, port=8202) as url:
        burst = asyncio.create_task(
            sh(machine, f"mkdir -p /tmp/r; for i in $(seq 100); do curl -s -o /tmp/r/b$i -w '%{{http_code}}' '{url}/?'$i > /tmp/r/c$i & done; wait")
        )
        for _ in range(1200):
            rejected = await sh(machine, "cat /tmp/r/c* 2>/dev/null | fold -w3 | grep -c 503; true")
            if rejected.stdout.strip() == b"84" and in_flight == 16:
                break
            await asyncio.sleep(0.1)
        assert rejected.stdout.strip() == b"84" and in_flight == 16
        release.set()
        await burst
        got = await sh(machine, "for i in $(seq 100); do c=$(cat /tmp/r/c$i); [ $c = 200 ] && { [ \"$(cat /tmp/r/b$i)\" = $i ] || echo wrong $i; }; echo $c; done | sort | uniq -c")
        assert b"wrong" not in got.stdout and b"16 200" in got.stdout and b"84 503" in got.stdout
        assert most == 16


async def test_slow_handler_cancelled_and_no_listener_left(machine):
    started = asyncio.Event()
    cancelled = asyncio.Event()

    async def slow(request: HttpRequest) -> HttpResponse:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return HttpResponse(200, b"")

    async with serve_http(machine, slow, port=8203) as url:
        client = asyncio.create_task(sh(machine, f"curl -s -o /dev/null -w '%{{http_code}}' {url}/slow"))
        await asyncio.wait_for(started.wait(), 60)
    # Leaving the context cancels the handler and ends the guest's request.
    assert cancelled.is_set()
    result = await asyncio.wait_for(client, 60)
    assert result.stdout != b"200"
    after = await sh(machine, f"curl -s -o /dev/null {url}/; echo curl=$?; ls -a /tmp | grep -c '[s]hellbox-relay'; cat /proc/[0-9]*/cmdline | tr '\\0' ' ' | grep -c '[s]hellbox-relay'; true")
    assert after.stdout == b"curl=7\n0\n0\n"


async def test_blocking_sync_handler_does_not_stall_the_loop(machine):
    gate = threading.Event()

    def blocking(request: HttpRequest) -> HttpResponse:
        gate.wait(60)
        return HttpResponse(200, b"done")

    async with serve_http(machine, blocking, port=8204) as url:
        client = asyncio.create_task(sh(machine, f"curl -s {url}/"))
        await asyncio.sleep(0.5)  # the loop still runs while the handler blocks a thread
        gate.set()
        assert (await client).stdout == b"done"


async def test_machine_closed_first_is_reported(local):
    m = await local.create(MachineSpec(HostImage()))
    with pytest.raises(MachineClosed):
        async with serve_http(m, echo, port=8205):
            await m.close()
            await asyncio.sleep(0.2)


async def test_one_relay_serves_a_docker_group():
    factory = DockerMachineFactory()
    image = DockerImage(security_image())
    spec = TaskSpec((ContainerSpec("agent", MachineSpec(image)), ContainerSpec("app", MachineSpec(image), command=("sleep", "1000"))), "agent")
    async with await factory.create_task(spec) as task:

        async def judge(request: HttpRequest) -> HttpResponse:
            return HttpResponse(200, b'{"verdict": "pass"}')

        async with serve_http(task.containers["agent"], judge, port=8206) as url:
            got = await sh(task.containers["app"], f"wget -q -O- {url}/judge")
            assert got.stdout == b'{"verdict": "pass"}'
            too_big = await sh(task.containers["app"], f"head -c {MAX_BODY_BYTES + 1} /dev/zero | tr '\\0' a > /tmp/o; wget -q -O- --post-file /tmp/o {url}/; true")
            assert b"413" in too_big.stderr


@pytest.fixture
async def sim():
    from shellbox.backends.shellsim.machine import ShellSimMachineFactory
    from shellbox.machine import ShellSimBuiltins

    m = await ShellSimMachineFactory().create(MachineSpec(ShellSimBuiltins()))
    yield m
    await m.close()


async def test_shellsim_round_trips_through_a_virtual_route(sim, tmp_path):
    async with serve_http(sim, echo, port=8300) as url:
        assert url == "http://127.0.0.1:8300"
        got = await sh(sim, f"curl -s -H 'Authorization: Bearer guest-token' -H 'Cookie: s=1' '{url}/v1/judge?a=1&b=two'")
        seen = json.loads(got.stdout)
        assert (seen["method"], seen["path"], seen["query"]) == ("GET", "/v1/judge", "a=1&b=two")
        assert b"guest-token" not in got.stdout and b"Cookie" not in got.stdout
        got = await sh(sim, "wget -q -O- http://localhost:8300/w")
        assert json.loads(got.stdout)["path"] == "/w", got
        payload = bytes(range(256)) * 64
        (tmp_path / "payload").write_bytes(payload)
        await sim.upload(tmp_path / "payload", "/tmp/payload")
        posted = await sh(sim, f"curl -s --data-binary @/tmp/payload {url}/bin")
        seen = json.loads(posted.stdout)
        assert seen["sha256"] == hashlib.sha256(payload).hexdigest() and seen["len"] == len(payload) and seen["method"] == "POST"
        got = await sh(sim, f"curl -s -o /dev/null -w '%{{http_code}} ' -X PUT -d x {url}/; curl -s -o /dev/null -w '%{{http_code}}' -X DELETE {url}/")
        assert got.stdout == b"405 405"

    async def binary(request: HttpRequest) -> HttpResponse:
        return HttpResponse(207, b"\x00\xff\x01" + request.body, content_type="application/octet-stream")

    async with serve_http(sim, binary, port=8300) as url:
        got = await sh(sim, f"curl -s -o /tmp/out -w '%{{http_code}} %{{content_type}}' --data-binary @/tmp/payload {url}/")
        assert got.stdout == b"207 application/octet-stream", got
        await sim.download("/tmp/out", tmp_path / "out")
        assert (tmp_path / "out").read_bytes() == b"\x00\xff\x01" + payload
    # Leaving the context removed the route: nothing answers any more.
    gone = await sh(sim, f"curl -s -o /dev/null -w '%{{http_code}}' {url}/; echo \" $?\"")
    assert gone.stdout == b"000 7\n", gone


async def test_shellsim_limits_and_failures(sim, tmp_path):
    async def handler(request: HttpRequest) -> HttpResponse:
        if request.path == "/size":
            return HttpResponse(200, str(len(request.body)).encode())
        if request.path == "/big":
            return HttpResponse(200, b"z" * (MAX_BODY_BYTES + (request.query == "over")))
        if request.path == "/raise":
            raise RuntimeError("HOST-SECRET traceback /root/.ssh/id_rsa")
        return HttpResponse(404, b"")

    (tmp_path / "max").write_bytes(b"a" * MAX_BODY_BYTES)
    (tmp_path / "over").write_bytes(b"a" * (MAX_BODY_BYTES + 1))
    await sim.upload(tmp_path / "max", "/tmp/max")
    await sim.upload(tmp_path / "over", "/tmp/over")
    async with serve_http(sim, handler, port=8301) as url:
        got = await sh(
            sim,
            f"""curl -s --data-binary @/tmp/max {url}/size; echo
            curl -s -o /dev/null -w '%{{http_code}}\\n' --data-binary @/tmp/over {url}/size
            curl -s {url}/big | wc -c
            curl -s -o /dev/null -w '%{{http_code}}\\n' '{url}/big?over'
            curl -s -w ' %{{http_code}}\\n' {url}/raise""",
        )
        lines = got.stdout.decode().split("\n")
        assert [line.strip() for line in lines[:4]] == [str(MAX_BODY_BYTES), "413", str(MAX_BODY_BYTES), "502"], got
        assert lines[4].endswith(" 502") and "HOST-SECRET" not in got.stdout.decode() and "ssh" not in got.stdout.decode()


async def test_shellsim_machine_closed_first_is_reported():
    from shellbox.backends.shellsim.machine import ShellSimMachineFactory
    from shellbox.machine import ShellSimBuiltins

    m = await ShellSimMachineFactory().create(MachineSpec(ShellSimBuiltins()))
    with pytest.raises(MachineClosed):
        async with asyncio.timeout(60):
            async with serve_http(m, echo, port=8302):
                await m.close()
