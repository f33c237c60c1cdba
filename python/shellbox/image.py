"""Image sources that resolve to OCI images: registry references,
Dockerfiles, and OCI layouts prepared from either. Go checks them (a
reference without a URL scheme, a sha256 manifest digest) when a factory
sees them."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import threading
from dataclasses import dataclass, replace
from pathlib import Path

OCI_TAG = "image"


@dataclass(frozen=True)
class RegistryImage:
    """An OCI registry reference such as ghcr.io/org/image:tag."""

    reference: str


@dataclass(frozen=True)
class DockerfileSource:
    """A Dockerfile and its build context."""

    context: Path
    dockerfile: Path


@dataclass(frozen=True)
class PreparedImage:
    """One linux/amd64 image resolved to an OCI layout on disk, pinned by manifest digest."""

    layout: Path
    manifest_digest: str
    source: RegistryImage | DockerfileSource


def prepared_image_workdir(image: PreparedImage) -> str:
    """The image's initial working directory (its config's WorkingDir, else "/"), read from the layout
    after checking the manifest and config blobs against their digests."""
    manifest = json.loads(_verified_blob(image.layout, image.manifest_digest))
    config = json.loads(_verified_blob(image.layout, manifest["config"]["digest"]))
    return (config.get("config") or {}).get("WorkingDir") or "/"


def _verified_blob(layout: Path, digest: str) -> bytes:
    algorithm, _, value = digest.partition(":")
    if algorithm != "sha256":
        raise ValueError(f"Prepared image digest {digest} is not sha256")
    data = (Path(layout) / "blobs" / algorithm / value).read_bytes()
    if hashlib.sha256(data).hexdigest() != value:
        raise ValueError(f"Prepared image blob {digest} does not match its digest")
    return data


def image_source_key(source: RegistryImage | DockerfileSource) -> str:
    """A key for a source: the reference of a registry image; for a Dockerfile, a hash of the build
    context as it is now (paths, modes, link targets, file contents) and of the Dockerfile."""
    if isinstance(source, RegistryImage):
        return f"registry:{source.reference}"
    context, dockerfile = Path(source.context).resolve(), Path(source.dockerfile).resolve()
    inside = dockerfile.is_relative_to(context)
    h = hashlib.sha256(f"{dockerfile.relative_to(context) if inside else '<external>'}\0".encode())
    for path in sorted(context.rglob("*")):
        info = path.lstat()
        h.update(f"{path.relative_to(context)}\0{info.st_mode}\0".encode())
        if path.is_symlink():
            h.update(os.readlink(path).encode())
        elif path.is_file():
            h.update(path.read_bytes())
    if not inside:
        h.update(dockerfile.read_bytes())
    return f"dockerfile:{h.hexdigest()}"


def prepare_image(
    source: RegistryImage | DockerfileSource,
    cache: Path,
    *,
    authfile: Path | None = None,
    policy: Path | None = None,
) -> PreparedImage:
    """Copy the linux/amd64 image into an OCI layout under ``cache`` named by its manifest digest
    (``cache/sha256-<hex>``), in Go with containers/image; no skopeo. A RegistryImage is pulled from its
    registry (a manifest list gives its linux/amd64 image; every blob is checked against its digest); a
    DockerfileSource is built by the Docker daemon and copied out of it.

    ``authfile`` is a containers-auth.json or Docker config.json with the registry's credentials (absent:
    containers/image's lookup, $REGISTRY_AUTH_FILE then ~/.docker/config.json); a registry's CA is found in
    /etc/containers/certs.d/<host:port>/ as skopeo finds it. ``policy`` is the containers-policy.json the
    image must satisfy (signatures checked by containers/image); absent, the host's policy applies
    ($CONTAINERS_POLICY_JSON, ~/.config/containers/policy.json, /etc/containers/policy.json), and with
    none every image is accepted, as marin-shellbox's skopeo --insecure-policy. Blocks until done, as
    marin-shellbox's does."""
    from shellbox import _go, _native, _wire

    if isinstance(source, RegistryImage) and ("://" in source.reference or not source.reference.strip()):
        raise ValueError("RegistryImage requires a container image reference without a URL scheme")
    if not isinstance(source, (RegistryImage, DockerfileSource)):
        raise TypeError(f"prepare_image takes a RegistryImage or DockerfileSource, not {type(source).__name__}")
    Path(cache).mkdir(parents=True, exist_ok=True)
    _native.library()
    request = _wire.PrepareImageRequest(
        source=source,
        cache=str(Path(cache).absolute()),
        authfile=None if authfile is None else str(Path(authfile).absolute()),
        policy=None if policy is None else str(Path(policy).absolute()),
    )
    # A failed or refused pull raises RuntimeError and a failed build MachineStartupError (a RuntimeError),
    # as marin-shellbox's failed skopeo or docker run does.
    reply = _go.call_sync(0, _wire.ROOT_PREPARE_IMAGE, request)
    return PreparedImage(Path(reply.header.layout), reply.header.manifest_digest, source)


class ImageCache:
    """Prepares each source once per process: registry references once for the cache's lifetime,
    Dockerfile contexts again whenever their contents change. Concurrent callers of one key wait for
    the first."""

    def __init__(self, directory: Path, *, authfile: Path | None = None, policy: Path | None = None):
        self.directory = directory
        self.authfile = authfile
        self.policy = policy
        self._images: dict[str, PreparedImage] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    def prepare(self, source: RegistryImage | DockerfileSource) -> PreparedImage:
        key = image_source_key(source)
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._images:
                self._images[key] = prepare_image(
                    source, self.directory, authfile=self.authfile, policy=self.policy
                )
            return replace(self._images[key], source=source)


@functools.cache
def process_image_cache(directory: Path, authfile: Path | None, policy: Path | None) -> ImageCache:
    """The process's one ImageCache for these arguments."""
    return ImageCache(Path(directory).resolve(), authfile=authfile, policy=policy)
