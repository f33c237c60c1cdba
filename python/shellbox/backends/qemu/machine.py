"""QEMU machines: one microVM each, started and driven by Go."""

from __future__ import annotations

from pathlib import Path

from shellbox import _wire
from shellbox._go import GoMachine, GoMachineFactory
from shellbox.backends.qemu.image import QemuAssets
from shellbox.machine import Backend

__all__ = ["Acceleration", "QemuAssets", "QemuMachine", "QemuMachineFactory"]


Acceleration = _wire.Acceleration


class QemuMachine(GoMachine):
    """A microVM whose /init is the shellbox guest agent; timeouts keep the machine."""


def _path(p: Path | None) -> str | None:
    return str(Path(p).absolute()) if p is not None else None


class QemuMachineFactory(GoMachineFactory):
    """Creates QEMU microVMs from RegistryImage (pulled in Go with
    containers/image), DockerfileSource (built by the local Docker daemon),
    DockerImage (exported from the daemon), PreparedImage or QemuBundle
    sources. ``memory_mb`` (default 512) and
    ``cpus`` (default 1) size the VM, ``storage_mb`` its root disk; network
    DENY gives no network card, ALLOW QEMU's user-mode networking; GPUs are
    refused.

    ``acceleration`` AUTO uses KVM only after a bounded probe boot proves it
    works on this host (the verdict is cached per kernel and host boot) and
    TCG otherwise; a forced KVM that does not work raises MachineStartupError.
    ``bundle_cache`` holds staged disks and boot assets (default
    ~/.cache/shellbox/qemu); ``cache_max_mb`` bounds it (0: 20 GiB), evicting
    the least recently used images, never one a machine uses. ``image_cache``, ``authfile`` and ``policy`` are
    marin-shellbox's registry options: ``authfile`` holds registry
    credentials (default: where containers/image looks, ~/.docker/config.json
    included); ``policy`` is the containers-policy.json that RegistryImage
    pulls must satisfy (signedBy, sigstoreSigned, reject, per-registry and
    per-repository scopes, evaluated by containers/image). Without it the
    host's policy applies ($CONTAINERS_POLICY_JSON,
    ~/.config/containers/policy.json, /etc/containers/policy.json), and a
    host with none accepts every image, as marin-shellbox does without a
    policy. ``registries_dir`` (ours) is the registries.d that says where
    signatures are (lookaside, sigstore attachments; default
    containers/image's). A refused image raises MachineStartupError naming
    the image and the policy. ``restore``
    (ours) starts machines by restoring a saved booted state of the same image
    and configuration, made by the first create, instead of booting."""

    backend = Backend.QEMU
    machine_class = QemuMachine

    def __init__(
        self,
        acceleration: Acceleration = Acceleration.AUTO,
        *,
        assets: QemuAssets | None = None,
        bundle_cache: Path | None = None,
        image_cache: Path | None = None,
        authfile: Path | None = None,
        policy: Path | None = None,
        registries_dir: Path | None = None,
        restore: bool = True,
        cache_max_mb: int = 0,
        egress_log: Path | None = None,
    ):
        self.egress_log = egress_log
        self.acceleration = Acceleration(acceleration)
        self.assets = assets or QemuAssets()
        self.bundle_cache = bundle_cache
        self.image_cache = image_cache
        self.authfile = authfile
        self.policy = policy
        self.registries_dir = registries_dir
        super().__init__(
            _wire.QemuOptions(
                acceleration=self.acceleration,
                qemu=_path(self.assets.qemu),
                kernel=_path(self.assets.kernel),
                modules=_path(self.assets.modules),
                guest=_path(self.assets.guest),
                cache_dir=_path(bundle_cache),
                disk_size_mb=self.assets.disk_size_mb,
                authfile=_path(authfile),
                policy=_path(policy),
                registries_dir=_path(registries_dir),
                restore=restore,
                cache_max_mb=cache_max_mb,
            )
        )
