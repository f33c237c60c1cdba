"""Images and machine specs the Python tests share, built locally (no registry is reachable in CI)."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile

from shellbox.backends.docker.machine import DockerMachineFactory
from shellbox.backends.gvisor.machine import GvisorMachineFactory
from shellbox.backends.local.machine import LocalMachineFactory
from shellbox.backends.shellsim.machine import ShellSimMachineFactory
from shellbox.machine import DockerImage, HostImage, MachineSpec, ShellSimBuiltins

BACKENDS = ("local", "docker", "gvisor", "shellsim")


def busybox_image(tag: str, dirs: tuple[str, ...] = ("bin", "tmp", "etc", "root", "proc", "sys", "dev")) -> str:
    """A busybox image under `tag`, imported into the local dockerd from the host's static busybox."""
    if subprocess.run(["docker", "image", "inspect", tag], capture_output=True).returncode == 0:
        return tag
    busybox = shutil.which("busybox") or "/bin/busybox"
    applets = set(subprocess.run([busybox, "--list"], capture_output=True, text=True, check=True).stdout.split())
    applets.discard("busybox")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for d in dirs:
            info = tarfile.TarInfo(d)
            info.type, info.mode = tarfile.DIRTYPE, 0o1777 if d == "tmp" else 0o755
            tar.addfile(info)
        tar.add(busybox, "bin/busybox")
        for applet in sorted(applets):
            info = tarfile.TarInfo(f"bin/{applet}")
            info.type, info.linkname = tarfile.SYMTYPE, "busybox"
            tar.addfile(info)
        passwd = b"root:x:0:0:root:/root:/bin/sh\n"
        info = tarfile.TarInfo("etc/passwd")
        info.size = len(passwd)
        tar.addfile(info, io.BytesIO(passwd))
    done = subprocess.run(
        ["docker", "import", "--change", "ENV PATH=/bin", "--change", 'CMD ["/bin/sh"]', "-", tag],
        input=buf.getvalue(),
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr
    return tag


SECURITY_IMAGE = "shellbox-security/busybox:1"


def security_image() -> str:
    """The busybox image of the attack suite (with a /workspace)."""
    return busybox_image(SECURITY_IMAGE, ("bin", "tmp", "etc", "root", "proc", "sys", "dev", "workspace"))


def factory_and_spec(backend: str):
    """A fresh factory of `backend` and a spec it can create: the host for local, busybox for Docker and
    gVisor (with /workspace), ShellSim's builtins."""
    if backend == "local":
        return LocalMachineFactory(), MachineSpec(HostImage())
    if backend in ("docker", "gvisor"):
        tag = security_image()
        factory = DockerMachineFactory() if backend == "docker" else GvisorMachineFactory()
        return factory, MachineSpec(DockerImage(tag))
    return ShellSimMachineFactory(), MachineSpec(ShellSimBuiltins())
