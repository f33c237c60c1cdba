"""Drives an Iris controller with marin-iris's own generated Connect client (ControllerServiceClientSync,
as marin-shellbox builds it: Iris's compressions accepted, nothing compressed on send), in binary
proto and in Iris's JSON codec.

Usage: python client_check.py URL TOKEN IMAGE. Prints "CLIENT CHECK OK" at the end."""

import sys
import time

from connectrpc.code import Code
from connectrpc.errors import ConnectError
from iris.rpc import controller_connect, controller_pb2, job_pb2, time_pb2
from iris.rpc.compression import IRIS_RPC_COMPRESSIONS

url, token, image = sys.argv[1:4]
AUTH = {"authorization": f"Bearer {token}"}
C = controller_pb2.Controller


def expect(cond, what):
    if not cond:
        raise AssertionError(what)
    print("ok:", what, flush=True)


def launch(client, name, **kw):
    request = C.LaunchJobRequest(
        name=name,
        entrypoint=job_pb2.RuntimeEntrypoint(
            run_command=job_pb2.CommandEntrypoint(argv=["sh", "-c", "trap 'exit 0' TERM INT; sleep infinity & wait"])
        ),
        resources=job_pb2.ResourceSpecProto(cpu_millicores=1000, memory_bytes=512 << 20, disk_bytes=1 << 30),
        environment=job_pb2.EnvironmentConfig(env_vars={"JOB_VAR": "from-job"}),
        task_image=image,
        container_profile=job_pb2.CONTAINER_PROFILE_SANDBOX,
        scheduling_timeout=time_pb2.Duration(milliseconds=120_000),
        timeout=time_pb2.Duration(milliseconds=600_000),
        max_retries_failure=0,
        max_retries_preemption=0,
        **kw,
    )
    return client.launch_job(request, headers=AUTH).job_id


def running_task(client, job_id):
    deadline = time.time() + 120
    while time.time() < deadline:
        tasks = client.list_tasks(C.ListTasksRequest(job_id=job_id), headers=AUTH).tasks
        if tasks and tasks[0].state == job_pb2.TASK_STATE_RUNNING:
            return tasks[0]
        time.sleep(0.2)
    raise AssertionError(f"job {job_id} did not run")


for proto_json in (False, True):
    codec = "json" if proto_json else "proto"
    client = controller_connect.ControllerServiceClientSync(
        address=url,
        proto_json=proto_json,
        timeout_ms=60_000,
        accept_compression=IRIS_RPC_COMPRESSIONS,
        send_compression=None,
    )
    job_id = launch(client, f"/checker/client-{codec}-{int(time.time() * 1000)}", egress_policy=job_pb2.EGRESS_POLICY_NONE)
    task = running_task(client, job_id)
    expect(task.task_id == job_id + "/0", f"[{codec}] task id {task.task_id}")

    r = client.exec_in_container(
        C.ExecInContainerRequest(task_id=task.task_id, command=["sh", "-c", 'echo "$JOB_VAR"; echo e >&2; exit 7'], timeout_seconds=30),
        headers=AUTH,
    )
    expect((r.exit_code, r.stdout, r.stderr, r.error) == (7, "from-job\n", "e\n", ""), f"[{codec}] exec: {r}")
    r = client.exec_in_container(
        C.ExecInContainerRequest(task_id=task.task_id, command=["sh", "-c", "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '"]),
        headers=AUTH,
    )
    expect(r.stdout.split() == ["lo"], f"[{codec}] EGRESS_POLICY_NONE leaves loopback only: {r.stdout.split()}")
    r = client.exec_in_container(C.ExecInContainerRequest(task_id=task.task_id, command=["sleep", "30"], timeout_seconds=1), headers=AUTH)
    expect(r.error != "", f"[{codec}] an exec past its timeout reports an error ({r.error})")

    status = client.get_job_status(C.GetJobStatusRequest(job_id=job_id), headers=AUTH)
    expect(status.job.state == job_pb2.JOB_STATE_RUNNING, f"[{codec}] job running")
    expect(status.request.container_profile == job_pb2.CONTAINER_PROFILE_SANDBOX, f"[{codec}] the request is kept")
    states = client.get_job_state(C.GetJobStateRequest(job_ids=[job_id]), headers=AUTH).states
    expect(states[job_id] == job_pb2.JOB_STATE_RUNNING, f"[{codec}] GetJobState")

    client.terminate_job(C.TerminateJobRequest(job_id=job_id), headers=AUTH)
    st = client.get_task_status(C.GetTaskStatusRequest(task_id=task.task_id), headers=AUTH).task
    expect(st.state == job_pb2.TASK_STATE_KILLED, f"[{codec}] terminated task is KILLED")
    r = client.exec_in_container(C.ExecInContainerRequest(task_id=task.task_id, command=["true"]), headers=AUTH)
    expect(r.error != "", f"[{codec}] exec in a killed task fails: {r.error}")

    for what, call, code in (
        ("unknown job", lambda: client.get_job_status(C.GetJobStatusRequest(job_id="/nobody/none"), headers=AUTH), Code.NOT_FOUND),
        ("wrong token", lambda: client.list_tasks(C.ListTasksRequest(job_id=job_id), headers={"authorization": "Bearer wrong"}), Code.UNAUTHENTICATED),
        ("no token", lambda: client.list_tasks(C.ListTasksRequest(job_id=job_id)), Code.UNAUTHENTICATED),
        ("SANDBOX with CLUSTER egress", lambda: launch(client, "/checker/bad", egress_policy=job_pb2.EGRESS_POLICY_CLUSTER), Code.INVALID_ARGUMENT),
    ):
        try:
            call()
            raise AssertionError(f"{what} succeeded")
        except ConnectError as e:
            expect(e.code == code, f"[{codec}] {what}: {e.code}")


print("CLIENT CHECK OK", flush=True)
