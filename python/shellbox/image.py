"""Image sources that resolve to OCI images: registry references,
Dockerfiles, and OCI layouts prepared from either."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

OCI_TAG = "image"


@dataclass(frozen=True)
class RegistryImage:
    """An OCI registry reference such as ghcr.io/org/image:tag."""

    reference: str

    def __post_init__(self) -> None:
        if not self.reference.strip() or "://" in self.reference:
            raise ValueError("RegistryImage requires a container image reference without a URL scheme")


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

    def __post_init__(self) -> None:
        algorithm, _, value = self.manifest_digest.partition(":")
        if algorithm != "sha256" or len(value) != 64:
            raise ValueError(f"manifest_digest must be sha256:<64 hex>, got {self.manifest_digest!r}")
