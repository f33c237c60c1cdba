"""Task groups through the Python API: real bwrap (HostImage members serving with
the host's python3) and real dockerd (busybox httpd), loopback only."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
from dataclasses import replace

import pytest

from shellbox.backends.docker.machine import DockerMachineFactory
from shellbox.backends.gvisor.machine import GvisorMachineFactory
from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.backends.shellsim.machine import ShellSimMachineFactory
from shellbox.machine import (
    Command,
    DockerImage,
    HostImage,
    MachineClosed,
    MachineSpec,
    NetworkPolicy,
    Requirements,
    ShellSimBuiltins,
    UnsupportedMachineSpec,
)
from shellbox.task import ContainerSpec, ReadinessProbe, ServiceEndpoint, Task, TaskSpec, create_compose_task

from leaks import descendants, temp_entries
from testimages import security_image


def web(port: int = 8000, body: str = "hello from web", probe: ReadinessProbe | None = None) -> ContainerSpec:
    script = (
        f"mkdir -p /tmp/www && printf %s '{body}' > /tmp/www/index.html && "
        f"exec /usr/bin/python3 -m http.server {port} --bind 127.0.0.1 --directory /tmp/www"
    )
    return ContainerSpec(
        "web",
        MachineSpec(HostImage()),
        endpoints=(ServiceEndpoint("http", port),),
        readiness=probe or ReadinessProbe(("wget", "-q", "-O", "/dev/null", f"http://127.0.0.1:{port}/"), timeout=5, interval=0.1, attempts=100),
        command=("sh", "-c", script),
    )


AGENT = ContainerSpec("agent", MachineSpec(HostImage()))


async def sh(machine, script: str, timeout: float = 60):
    return await machine.run(Command(["sh", "-c", script], timeout=timeout))


@pytest.fixture(scope="module")
def local() -> LocalMachineFactory:
    return LocalMachineFactory()


def test_spec_validation_names_the_field():
    host = MachineSpec(HostImage())
    allow = MachineSpec(HostImage(), network=NetworkPolicy.ALLOW)
    allowlist = MachineSpec(HostImage(), network=NetworkPolicy.ALLOWLIST, allowed_hosts=("example.com",))
    # A group's members agree on DENY or ALLOW; one member takes any policy.
    TaskSpec((ContainerSpec("a", allow), ContainerSpec("b", allow)), "a")
    TaskSpec((ContainerSpec("a", allowlist),), "a")
    cases = [
        (lambda: TaskSpec((), "a"), "containers"),
        (lambda: TaskSpec((ContainerSpec("a", host),), "b"), "primary"),
        (lambda: TaskSpec((ContainerSpec("a", host), ContainerSpec("a", host)), "a"), "containers"),
        (lambda: ContainerSpec("bad_name", host), "name"),
        (lambda: ContainerSpec("x" * 64, host), "name"),
        (lambda: ServiceEndpoint("http", 0), "port"),
        (lambda: ServiceEndpoint("http", 70000), "port"),
        (lambda: ServiceEndpoint("http", 80, "sctp"), "protocol"),
        (lambda: ReadinessProbe(("true",), timeout=0, interval=1), "timeout"),
        (lambda: ReadinessProbe(("true",), timeout=1, interval=-1), "interval"),
        (lambda: ReadinessProbe(("true",), timeout=1, interval=1, start_period=float("nan")), "start_period"),
        (lambda: ReadinessProbe(("true",), timeout=1, interval=1, attempts=0), "attempts"),
        (lambda: ReadinessProbe((), timeout=1, interval=1), "command"),
        (lambda: TaskSpec((ContainerSpec("a", host), ContainerSpec("b", allow)), "a"), "network"),
        (lambda: TaskSpec((ContainerSpec("a", allowlist), ContainerSpec("b", allowlist)), "a"), "network"),
    ]
    for make, field in cases:
        with pytest.raises(ValueError) as info:
            make()
        assert info.value.field == field, (field, info.value)


async def test_local_group_reaches_members_by_name(local):
    spec = TaskSpec((AGENT, web()), primary="agent")
    async with await local.create_task(spec) as task:
        assert isinstance(task, Task) and task.primary == "agent" and set(task.containers) == {"agent", "web"}
        await task.wait_ready(timeout=60)
        endpoint = task.endpoint("web", "http")
        assert endpoint == "web:8000"
        result = await sh(task.containers["agent"], f"wget -q -O- http://{endpoint}/index.html")
        assert (result.exit_code, result.stdout) == (0, b"hello from web")
        with pytest.raises(ValueError):
            task.endpoint("web", "grpc")
    with pytest.raises(MachineClosed):
        await task.containers["agent"].run(Command(["true"]))


async def test_local_concurrent_groups_on_one_port(local):
    tasks = [await local.create_task(TaskSpec((AGENT, web(body=f"group {i}")), "agent")) for i in range(2)]
    try:
        await asyncio.gather(*(t.wait_ready(timeout=60) for t in tasks))
        for i, task in enumerate(tasks):
            result = await sh(task.containers["agent"], "wget -q -O- http://web:8000/")
            assert result.stdout == f"group {i}".encode()
    finally:
        for task in tasks:
            await task.close()


async def test_local_failing_and_hanging_probes(local):
    failing = web(probe=ReadinessProbe(("sh", "-c", "echo probe-says-no; exit 9"), timeout=5, interval=0.05, attempts=2))
    task = await local.create_task(TaskSpec((AGENT, failing), "agent"))
    with pytest.raises(RuntimeError) as info:
        await task.wait_ready(timeout=60)
    assert '"web"' in str(info.value) and "probe-says-no" in str(info.value) and "2 readiness attempts" in str(info.value)
    with pytest.raises(RuntimeError):  # the group is closed
        await task.containers["agent"].run(Command(["true"]))
    await task.close()

    hanging = web(
        probe=ReadinessProbe(
            ("sh", "-c", "[ -e /tmp/once ] && exec wget -q -O /dev/null http://127.0.0.1:8000/; touch /tmp/once; echo $$ > /tmp/hung; exec sleep 1000"),
            timeout=0.7,
            interval=0.05,
            attempts=50,
        )
    )
    async with await local.create_task(TaskSpec((AGENT, hanging), "agent")) as task:
        await task.wait_ready(timeout=60)
        gone = await sh(task.containers["web"], "[ -e /proc/$(cat /tmp/hung)/cmdline ] && echo alive || echo gone")
        assert gone.stdout == b"gone\n"
        served = await sh(task.containers["agent"], "wget -q -O- http://web:8000/")
        assert served.stdout == b"hello from web"


async def test_local_wait_ready_timeout_and_cancel_close_the_group(local):
    never = web(probe=ReadinessProbe(("false",), timeout=5, interval=0.05))
    task = await local.create_task(TaskSpec((AGENT, never), "agent"))
    with pytest.raises(RuntimeError, match="readiness deadline"):
        await task.wait_ready(timeout=0.5)
    await task.close()
    task = await local.create_task(TaskSpec((AGENT, never), "agent"))
    waiting = asyncio.create_task(task.wait_ready())
    await asyncio.sleep(0.5)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    with pytest.raises(RuntimeError):
        for _ in range(100):  # the group closes as the cancelled wait ends
            await task.containers["agent"].run(Command(["true"]))
            await asyncio.sleep(0.05)
    await task.close()


async def test_local_member_exit_and_member_close_tear_down(local):
    crash = ContainerSpec("crash", MachineSpec(HostImage()), command=("sh", "-c", "sleep 0.5; exit 3"))
    task = await local.create_task(TaskSpec((AGENT, crash), "agent"))
    with pytest.raises(RuntimeError):
        for _ in range(600):
            await task.containers["agent"].run(Command(["true"]))
            await asyncio.sleep(0.05)
    await task.close()
    # Closing the primary's machine closes the service member too.
    task = await local.create_task(TaskSpec((AGENT, ContainerSpec("svc", MachineSpec(HostImage()), command=("sleep", "1000"))), "agent"))
    await task.containers["agent"].close()
    with pytest.raises(RuntimeError):
        await task.containers["svc"].run(Command(["true"]))
    await task.close()


async def test_local_fifty_groups_leave_nothing(local):
    async def cycle():
        spec = TaskSpec((AGENT, ContainerSpec("svc", MachineSpec(HostImage()), command=("sleep", "1000"))), "agent")
        async with await local.create_task(spec) as task:
            assert (await task.containers["agent"].run(Command(["true"]))).exit_code == 0

    await cycle()
    # Only our own machines' directories: other agents share /tmp.
    before_procs, before_temp = descendants(), temp_entries("shellbox-local-")
    for _ in range(50):
        await cycle()
    for _ in range(100):
        if descendants() == before_procs:
            break
        await asyncio.sleep(0.05)
    assert descendants() == before_procs
    # Other processes on this host make local machines too: a directory of
    # ours would stay, theirs come and go.
    left = temp_entries("shellbox-local-") - before_temp
    for _ in range(300):
        left &= temp_entries("shellbox-local-")
        if not left:
            break
        await asyncio.sleep(0.1)
    assert not left


async def test_one_member_tasks_everywhere_and_groups_refused():
    sim = ShellSimMachineFactory()
    probe = ReadinessProbe(("test", "-e", "/workspace/up"), timeout=1, interval=0.01, attempts=5)
    async with await sim.create_task(TaskSpec((ContainerSpec("main", MachineSpec(ShellSimBuiltins()), readiness=probe),), "main")) as task:
        await task.containers["main"].run(Command(["touch", "/workspace/up"]))
        await task.wait_ready(timeout=10)
    two = TaskSpec((ContainerSpec("main", MachineSpec(ShellSimBuiltins())), ContainerSpec("db", MachineSpec(ShellSimBuiltins()), command=("true",))), "main")
    requirements = Requirements()
    sim.check_environment(requirements, TaskSpec(two.containers[:1], "main"))
    with pytest.raises(UnsupportedMachineSpec) as info:
        sim.check_environment(requirements, two)
    assert info.value.field == "containers"
    with pytest.raises(UnsupportedMachineSpec) as info:
        await sim.create_task(two)
    assert info.value.field == "containers"
    image = DockerImage(security_image())
    gvisor = GvisorMachineFactory()
    group = TaskSpec((ContainerSpec("main", MachineSpec(image)), ContainerSpec("db", MachineSpec(image), command=("sleep", "9"))), "main")
    gvisor.check_environment(requirements, group)
    DockerMachineFactory().check_environment(requirements, group)
    LocalMachineFactory().check_environment(requirements, TaskSpec((AGENT, web()), "agent"))
    open_group = TaskSpec(tuple(ContainerSpec(c.name, replace(c.machine, network=NetworkPolicy.ALLOW), command=c.command) for c in (AGENT, web())), "agent")
    with pytest.raises(UnsupportedMachineSpec) as info:  # local groups have loopback only
        LocalMachineFactory().check_environment(requirements, open_group)
    assert info.value.field == "network"
    with pytest.raises(UnsupportedMachineSpec):  # a member the backend cannot run
        LocalMachineFactory().check_environment(requirements, TaskSpec((AGENT, ContainerSpec("db", MachineSpec(image), command=("x",))), "agent"))


def docker_task_containers() -> int:
    """Task group containers (members and gates) this process made; other processes may make theirs meanwhile."""
    out = subprocess.run(
        ["docker", "ps", "-a", "--filter", "label=dev.shellbox.task", "--format", '{{.Label "dev.shellbox.owner"}}'],
        capture_output=True, text=True, check=True,
    )
    return sum(f"/{os.getpid()}/" in owner for owner in out.stdout.split())


async def test_docker_group_with_busybox_httpd():
    factory = DockerMachineFactory()
    image = security_image()
    before = docker_task_containers()
    server = ContainerSpec(
        "web",
        MachineSpec(DockerImage(image)),
        endpoints=(ServiceEndpoint("http", 8080),),
        readiness=ReadinessProbe(("wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/"), timeout=5, interval=0.1, attempts=200),
        command=("sh", "-c", "mkdir -p /www && echo docker-web > /www/index.html && exec httpd -f -p 8080 -h /www"),
    )
    spec = TaskSpec((ContainerSpec("agent", MachineSpec(DockerImage(image))), server), "agent")
    async with await factory.create_task(spec) as task:
        await task.wait_ready(timeout=120)
        result = await sh(task.containers["agent"], f"wget -q -O- http://{task.endpoint('web', 'http')}/")
        assert result.stdout == b"docker-web\n"
        routes = await sh(task.containers["agent"], "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")
        assert routes.stdout == b"lo\n"
        assert docker_task_containers() == before + 2
    assert docker_task_containers() == before


async def test_gvisor_group_with_busybox_httpd():
    """gVisor: members on the group's own link (a service listens on 0.0.0.0), reached by name, with no
    default route; nothing is left after close."""
    factory = GvisorMachineFactory()
    image = security_image()
    before = docker_task_containers()
    server = ContainerSpec(
        "web",
        MachineSpec(DockerImage(image)),
        endpoints=(ServiceEndpoint("http", 8080),),
        readiness=ReadinessProbe(("wget", "-q", "-O", "/dev/null", "http://127.0.0.1:8080/"), timeout=10, interval=0.2, attempts=300),
        command=("sh", "-c", "mkdir -p /www && echo gvisor-web > /www/index.html && exec httpd -f -p 0.0.0.0:8080 -h /www"),
    )
    spec = TaskSpec((ContainerSpec("agent", MachineSpec(DockerImage(image))), server), "agent")
    async with await factory.create_task(spec) as task:
        await task.wait_ready(timeout=300)
        assert task.endpoint("web", "http") == "web:8080"
        result = await sh(task.containers["agent"], f"wget -q -O- http://{task.endpoint('web', 'http')}/", timeout=120)
        assert result.stdout == b"gvisor-web\n"
        script = "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' ' | sort | tr '\\n' ' '; echo; tail -n +2 /proc/net/route | cut -f2"
        links, _, routes = (await sh(task.containers["agent"], script)).stdout.decode().partition("\n")
        assert links.split() == ["eth0", "lo"] and "00000000" not in routes.split(), (links, routes)
        assert docker_task_containers() == before + 4  # two members, two gates
    assert docker_task_containers() == before


def bridge_gateway() -> str:
    out = subprocess.run(
        ["docker", "network", "inspect", "bridge", "--format", "{{range .IPAM.Config}}{{.Gateway}} {{end}}"],
        capture_output=True, text=True, check=True,
    )
    return next(a for a in out.stdout.split() if "." in a)


@pytest.mark.parametrize("network", [NetworkPolicy.ALLOW, NetworkPolicy.DENY])
async def test_docker_compose_group_route_out(tmp_path, network):
    """create_compose_task(network=ALLOW) gives the group Docker's bridge: it reaches a host server on the
    bridge's gateway (standing for the outside world); with DENY it does not. main reaches web by name either way."""
    gateway = bridge_gateway()
    server = socket.socket()
    server.bind((gateway, 0))
    server.listen()
    server.setblocking(False)
    port = server.getsockname()[1]

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        while True:
            conn, _ = await loop.sock_accept(server)
            await loop.sock_sendall(conn, b"OUTSIDE")
            conn.close()

    image = security_image()
    (tmp_path / "compose.yaml").write_text(
        f"services:\n  main:\n    image: {image}\n  web:\n    image: {image}\n"
        "    command: [sh, -c, 'mkdir -p /www && echo web > /www/index.html && exec httpd -f -p 8080 -h /www']\n"
        "    healthcheck:\n      test: [CMD, wget, -q, -O, /dev/null, 'http://127.0.0.1:8080/']\n      interval: 1s\n      retries: 100\n"
    )
    serving = asyncio.create_task(serve())
    try:
        async with await create_compose_task(DockerMachineFactory(), [tmp_path / "compose.yaml"], network=network) as task:
            await task.wait_ready(timeout=120)
            main = task.containers["main"]
            assert (await sh(main, "wget -q -O- http://web:8080/")).stdout == b"web\n"
            reached = await sh(main, f"timeout 5 nc {gateway} {port} </dev/null")
            assert (b"OUTSIDE" in reached.stdout) == (network == NetworkPolicy.ALLOW), reached
    finally:
        serving.cancel()
        server.close()
