"""Drives a Daytona-compatible server with the official Python SDK (daytona==0.200.2).

Usage: python sdk_check.py API_URL API_KEY IMAGE. Prints "SDK CHECK OK" at the end; any
failed expectation raises."""

import asyncio
import sys
import threading
import time

from daytona import (
    CreateSandboxFromImageParams,
    CreateSandboxFromSnapshotParams,
    CreateSnapshotParams,
    Daytona,
    DaytonaConfig,
    SessionExecuteRequest,
)
from daytona.common.errors import DaytonaAuthenticationError, DaytonaError, DaytonaNotFoundError

api_url, api_key, image = sys.argv[1:4]


def expect(cond, what):
    if not cond:
        raise AssertionError(what)
    print("ok:", what, flush=True)


client = Daytona(DaytonaConfig(api_key=api_key, api_url=api_url, target="local"))

# Snapshots: create, get, sandbox from it.
name = f"sdk-check-{int(time.time() * 1000)}"
snap = client.snapshot.create(CreateSnapshotParams(name=name, image=image))
expect(str(snap.state).lower().endswith("active"), f"snapshot {name} is active ({snap.state})")
expect(client.snapshot.get(name).name == name, "snapshot.get by name")

sandbox = client.create(
    CreateSandboxFromSnapshotParams(snapshot=name, env_vars={"SPEC_VAR": "from-spec"}, network_block_all=True),
    timeout=120,
)
expect(str(sandbox.state).lower().endswith("started"), "the sandbox is started")
expect(client.get(sandbox.id).id == sandbox.id, "get by id")

# process.exec: exit codes, merged output, env, cwd.
r = sandbox.process.exec("echo $SPEC_VAR; echo to-stderr >&2; exit 3")
expect(r.exit_code == 3 and r.result == "from-spec\nto-stderr\n", f"exec merged output and exit code: {r.exit_code} {r.result!r}")
r = sandbox.process.exec('printf "%s" "$X"; pwd', cwd="/tmp", env={"X": "from-env"})
expect(r.exit_code == 0 and r.result == "from-env/tmp\n", f"exec env and cwd: {r.result!r}")
t0 = time.time()
try:
    sandbox.process.exec("sleep 30", timeout=1)
    raise AssertionError("a command past its timeout returned")
except DaytonaError as e:
    expect(time.time() - t0 < 20, f"a timeout ends the command ({type(e).__name__}: {e})")

# Files.
sandbox.fs.upload_file(b"payload\x00\xff", "/tmp/sdk/dir/file.bin")
expect(sandbox.fs.download_file("/tmp/sdk/dir/file.bin") == b"payload\x00\xff", "upload_file then download_file")
sandbox.fs.upload_file(b"relative", "rel.txt")
expect(sandbox.process.exec("cat ~/rel.txt").result == "relative", "a relative upload lands in the user's home")
sandbox.fs.create_folder("/tmp/sdk/new", "755")
expect(sandbox.process.exec("test -d /tmp/sdk/new && echo yes").result == "yes\n", "create_folder")
try:
    sandbox.fs.download_file("/no/such/file")
    raise AssertionError("a missing file downloaded")
except DaytonaError as e:
    expect("not found" in str(e).lower(), f"a missing download fails ({e})")

# Sessions.
sandbox.process.create_session("s1")
resp = sandbox.process.execute_session_command("s1", SessionExecuteRequest(command="echo in-session; exit 4"))
expect(resp.exit_code == 4 and "in-session" in (resp.output or ""), f"session command: {resp.exit_code} {resp.output!r}")
resp = sandbox.process.execute_session_command("s1", SessionExecuteRequest(command="sleep 1; echo later", run_async=True))
deadline = time.time() + 30
while time.time() < deadline:
    cmd = sandbox.process.get_session_command("s1", resp.cmd_id)
    if cmd.exit_code is not None:
        break
    time.sleep(0.2)
expect(cmd.exit_code == 0, "an async session command finishes")
logs = sandbox.process.get_session_command_logs("s1", resp.cmd_id)
expect("later" in str(logs), f"its logs ({logs!r})")
# Streaming: input reaches a running command and its output is followed over the log
# websocket while it runs (the SDK's send_session_command_input and
# get_session_command_logs_async); the follow ends with the command.
resp = sandbox.process.execute_session_command(
    "s1", SessionExecuteRequest(command="read a; echo got-$a; read b; echo err-$b >&2; exit 3", run_async=True)
)
seen = {"out": "", "err": ""}
first_line = threading.Event()


def on_out(chunk):
    seen["out"] += chunk
    if "got-one" in seen["out"]:
        first_line.set()


def on_err(chunk):
    seen["err"] += chunk


follower = threading.Thread(
    target=lambda: asyncio.run(sandbox.process.get_session_command_logs_async("s1", resp.cmd_id, on_out, on_err))
)
follower.start()
sandbox.process.send_session_command_input("s1", resp.cmd_id, "one\n")
expect(first_line.wait(30), f"output arrives while the command runs ({seen})")
expect(sandbox.process.get_session_command("s1", resp.cmd_id).exit_code is None, "the command still waits for input")
sandbox.process.send_session_command_input("s1", resp.cmd_id, "two\n")
follower.join(30)
expect(not follower.is_alive(), "following the log ends with the command")
expect(seen["err"] == "err-two\n", f"stderr is followed as stderr ({seen})")
expect(sandbox.process.get_session_command("s1", resp.cmd_id).exit_code == 3, "the streamed command's status")
sandbox.process.delete_session("s1")

# Network: block_all leaves loopback only.
r = sandbox.process.exec("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")
expect(r.result.split() == ["lo"], f"network_block_all: interfaces {r.result.split()}")

# From an image (the SDK sends a one-line Dockerfile).
other = client.create(CreateSandboxFromImageParams(image=image), timeout=120)
expect(other.process.exec("echo hi").result == "hi\n", "a sandbox from an image")
client.delete(other)

# Errors: unknown sandbox, wrong key.
sandbox_id = sandbox.id
sandbox.delete()
try:
    client.get(sandbox_id)
    raise AssertionError("a deleted sandbox was found")
except DaytonaNotFoundError as e:
    expect(getattr(e, "status_code", 404) == 404, f"a deleted sandbox is 404 ({e})")
bad = Daytona(DaytonaConfig(api_key="wrong-" + api_key, api_url=api_url, target="local"))
try:
    bad.get("whatever")
    raise AssertionError("a wrong key was accepted")
except DaytonaAuthenticationError as e:
    expect(True, f"a wrong key is 401 ({e})")
client.snapshot.delete(client.snapshot.get(name))
print("SDK CHECK OK", flush=True)
