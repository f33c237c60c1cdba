"""Image sources that resolve to OCI images: registry references,
Dockerfiles, and OCI layouts prepared from either. Go checks them (a
reference without a URL scheme, a sha256 manifest digest) when a factory
sees them."""

from __future__ import annotations

from dataclasses import dataclass
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
