"""Bounded downloads of many files at once, on any backend: ``download_files``."""

from __future__ import annotations

import io
import tarfile
from collections.abc import Sequence
from pathlib import PurePosixPath

from shellbox.machine import Command, DownloadLimitExceeded, Machine

# Exit codes of the probe script: the path is missing, or a component of it is a symlink.
_ABSENT = 44
_LINKED = 45
_TAR_OVERHEAD = 1 << 20  # headers and padding allowed beyond the payload budget
_PROBE = (
    'p=${1%/}; while [ -n "$p" ] && [ "$p" != / ]; do [ -L "$p" ] && exit '
    + str(_LINKED)
    + '; case $p in */*) p=${p%/*};; *) break;; esac; done; '
    'if [ -d "$1" ]; then printf d; elif [ -f "$1" ]; then printf f; else exit ' + str(_ABSENT) + "; fi"
)


class DownloadRefused(PermissionError, RuntimeError):
    """A selected path, or a directory above it, is a symlink; or the archive is not what was asked
    for. A RuntimeError too, as marin-shellbox raises."""


async def download_files(
    machine: Machine,
    paths: Sequence[str],
    *,
    timeout: float | None,
    max_files: int,
    max_bytes: int,
    max_file_bytes: int,
) -> dict[str, bytes]:
    """The regular files at ``paths`` (directories expanded recursively), keyed by absolute path.

    Missing paths are left out; a selected path reached through a symlink is refused
    (DownloadRefused), while links inside a selected directory are skipped. The limits bound the whole
    result: going over raises DownloadLimitExceeded and returns nothing. Files are read as the
    machine's command user."""
    files: dict[str, bytes] = {}
    total = 0
    archive_limit = max_bytes + _TAR_OVERHEAD + 1024 * max_files
    for path in paths:
        root = PurePosixPath(path)
        if not root.is_absolute() or ".." in root.parts or root.as_posix() != path:
            raise ValueError(f"paths: {path!r} is not a normalized absolute path")
        probe = await machine.run(Command(("sh", "-c", _PROBE, "probe", path), timeout=timeout))
        if probe.exit_code == _ABSENT:
            continue
        if probe.exit_code != 0 or probe.stdout not in (b"d", b"f"):
            raise DownloadRefused(f"cannot download {path}: it or a directory above it is a symlink, or unreadable")
        is_dir = probe.stdout == b"d"
        base = root if is_dir else root.parent
        # GNU tar reads backslash escapes even in file name arguments.
        name = "." if is_dir else root.name.replace("\\", "\\\\")
        packed = await machine.run(
            Command(("tar", "-cf", "-", "-C", str(base), "--", name), timeout=timeout, output_limit_bytes=archive_limit + 1)
        )
        if packed.stdout_truncated or len(packed.stdout) > archive_limit:
            raise DownloadLimitExceeded(f"{path} is larger than the download budget")
        if packed.exit_code != 0:
            raise DownloadRefused(f"cannot archive {path}: {packed.stderr.decode(errors='replace')[-2000:]}")
        seen: dict[str, bytes] = {}
        try:
            with tarfile.open(fileobj=io.BytesIO(packed.stdout), mode="r:") as archive:
                for member in archive:
                    relative = PurePosixPath(member.name)
                    if relative.is_absolute() or ".." in relative.parts:
                        raise DownloadRefused(f"archive member {member.name!r} escapes {path}")
                    if member.isdir() or member.issym():
                        continue
                    if not (member.isfile() or member.islnk()):
                        raise DownloadRefused(f"{member.name} in {path} is not a regular file")
                    target = (base / relative).as_posix()
                    if not is_dir and target != path:
                        raise DownloadRefused(f"archive of {path} holds {target}")
                    if member.islnk():
                        linked = (base / PurePosixPath(member.linkname)).as_posix()
                        if linked not in seen:
                            raise DownloadRefused(f"{target} is a hard link to a file outside the download")
                        data = seen[linked]
                    else:
                        if member.size > max_file_bytes:
                            raise DownloadLimitExceeded(f"{target} is larger than max_file_bytes")
                        data = None
                    size = len(data) if data is not None else member.size
                    if target not in files and (len(files) >= max_files or total + size > max_bytes):
                        raise DownloadLimitExceeded("the download exceeds max_files or max_bytes")
                    if data is None:
                        stream = archive.extractfile(member)
                        data = stream.read() if stream is not None else b""
                    seen[target] = data
                    if target not in files:
                        files[target] = data
                        total += size
        except tarfile.TarError as error:
            raise DownloadRefused(f"unreadable archive of {path}") from error
    return files
