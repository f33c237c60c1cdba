"""Hostile transfers (issue 10, points 1.3 and 4): a guest plants setuid files, devices, fifos, hard and
symbolic links for the host to download, fills a download with a huge sparse file, or a host tree links to
a host secret; the public API on local, docker, gvisor and shellsim must keep the host as it was.

Every download goes through lib/transfer.Extract on the host; see its package documentation for the
rules (and for the disk reserve, SHELLBOX_DOWNLOAD_RESERVE_BYTES)."""

from __future__ import annotations

import os
import stat
import subprocess
import time
from pathlib import Path

import pytest
import pytest_asyncio
from testimages import BACKENDS, factory_and_spec

from shellbox.machine import Command, DownloadLimitExceeded

SPECIAL_BITS = stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module", params=BACKENDS)
async def machine(request):
    factory, spec = factory_and_spec(request.param)
    m = await factory.create(spec)
    m.backend_name = request.param
    yield m
    await m.close()


async def sh(machine, script: str, timeout: float = 60) -> str:
    result = await machine.run(Command(("sh", "-c", script), timeout=timeout))
    assert result.exit_code == 0, result
    return result.stdout.decode()


def host_tree(root: Path) -> dict[str, tuple[int, int, int, str]]:
    """Every path under root: (mode, uid, link count, link target or content)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [".", *dirnames, *filenames] if dirpath == str(root) else [*dirnames, *filenames]:
            p = Path(dirpath, name) if name != "." else root
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode):
                what = "-> " + os.readlink(p)
            elif stat.S_ISREG(st.st_mode):
                what = p.read_bytes().decode(errors="replace")
            else:
                what = ""
            out[str(p.relative_to(root))] = (st.st_mode, st.st_uid, st.st_nlink, what)
    return out


def assert_safe_tree(root: Path) -> None:
    """Nothing under root is setuid/setgid/sticky, special, owned by someone else or linked outside."""
    inside = {}
    for rel, (mode, uid, _, what) in host_tree(root).items():
        assert not mode & SPECIAL_BITS, f"{rel} kept special bits: {stat.filemode(mode)}"
        assert uid == os.getuid(), f"{rel} is owned by uid {uid}"
        assert stat.S_ISDIR(mode) or stat.S_ISREG(mode) or stat.S_ISLNK(mode), f"{rel} is {stat.filemode(mode)}"
        p = root / rel
        if stat.S_ISLNK(mode):
            real = os.path.realpath(p)
            assert real == str(root) or real.startswith(str(root) + "/"), f"{rel} {what} resolves to {real}"
        if stat.S_ISREG(mode):
            inside.setdefault(p.lstat().st_ino, []).append(rel)
    for ino, names in inside.items():
        assert (root / names[0]).lstat().st_nlink == len(names), f"{names} are linked to a file outside the target"


async def test_setuid_and_sticky_bits_are_stripped(machine, host_state, tmp_path):
    """A guest `chmod 6755` file kept its bits when the local backend downloaded it (root-owned here)."""
    await sh(
        machine,
        "rm -rf /tmp/sx && mkdir -p /tmp/sx/sgid /tmp/sx/sticky && printf '#!/bin/sh\\nid\\n' > /tmp/sx/suid "
        "&& chmod 6755 /tmp/sx/suid && chmod 2775 /tmp/sx/sgid && chmod 1777 /tmp/sx/sticky && chmod 3777 /tmp/sx",
    )
    file = tmp_path / "suid"
    await machine.download("/tmp/sx/suid", file)
    assert stat.S_IMODE(file.stat().st_mode) == 0o755, stat.filemode(file.stat().st_mode)
    assert file.stat().st_uid == os.getuid()
    tree = tmp_path / "tree"
    await machine.download("/tmp/sx", tree)
    modes = {rel: stat.S_IMODE(mode) for rel, (mode, *_rest) in host_tree(tree).items()}
    assert modes == {".": 0o777, "suid": 0o755, "sgid": 0o775, "sticky": 0o777}, modes
    assert_safe_tree(tree)
    # Into an existing directory (merged) too.
    existing = tmp_path / "existing"
    existing.mkdir()
    await machine.download("/tmp/sx", existing)
    assert_safe_tree(existing)
    host_state.assert_unchanged()


async def test_special_files_and_hard_links(machine, host_state, tmp_path):
    """Fifos and devices are never created on the host; hard links stay inside the downloaded tree."""
    made = await sh(
        machine,
        "rm -rf /tmp/sp && mkdir -p /tmp/sp/sub && echo data > /tmp/sp/a && ln /tmp/sp/a /tmp/sp/sub/b "
        "&& (mkfifo /tmp/sp/fifo 2>/dev/null && echo fifo; mknod /tmp/sp/null c 1 3 2>/dev/null && echo dev; "
        " ln /etc/passwd /tmp/sp/passwd 2>/dev/null && echo passwd; true)",
    )
    target = tmp_path / "sp"
    await machine.download("/tmp/sp", target)
    tree = host_tree(target)
    assert tree["a"][3] == tree["sub/b"][3] == "data\n"
    assert ("fifo" in tree, "null" in tree) == (False, False), (made, tree)
    assert_safe_tree(target)
    host_state.assert_unchanged()


async def test_host_hard_link_in_target_is_replaced_not_written(machine, host_state, tmp_path):
    """A host file hard-linked into the download target is unlinked, not written through."""
    await sh(machine, "rm -rf /tmp/hl && mkdir /tmp/hl && echo guest > /tmp/hl/pw")
    target = tmp_path / "hl"
    target.mkdir()
    os.link(host_state.sentinel, target / "pw")
    await machine.download("/tmp/hl", target)
    assert (target / "pw").read_text() == "guest\n"
    os.unlink(target / "pw")  # the sentinel's link count is back to one
    assert host_state.sentinel.stat().st_nlink == 1
    host_state.assert_unchanged()


@pytest.mark.parametrize(
    "script",
    [
        "ln -s /etc /tmp/sl/etc",
        "ln -s ../../.. /tmp/sl/up",
        # A lexical check passes l2 -> l/.. (it reads "."), but l -> . makes it the target's parent.
        "ln -s . /tmp/sl/l && ln -s l/.. /tmp/sl/l2",
        "mkdir /tmp/sl/d && ln -s .. /tmp/sl/d/up && ln -s d/up/.. /tmp/sl/esc",
    ],
    ids=["absolute", "dotdot", "dot-then-dotdot", "climb-through-link"],
)
async def test_escaping_guest_links_are_refused(machine, host_state, tmp_path, script):
    await sh(machine, f"rm -rf /tmp/sl && mkdir /tmp/sl && echo x > /tmp/sl/file && {script}")
    target = tmp_path / "sl"
    with pytest.raises(PermissionError):
        await machine.download("/tmp/sl", target)
    assert not target.exists() and not target.is_symlink(), "a refused download left files"
    assert os.listdir(tmp_path) == [], os.listdir(tmp_path)
    host_state.assert_unchanged()


async def test_planted_host_links_are_never_followed(machine, host_state, tmp_path):
    """A link at or inside the download target pointing at the host's files is replaced or refused."""
    await sh(machine, "rm -rf /tmp/pl && mkdir -p /tmp/pl/sub && echo pwned > /tmp/pl/sub/sentinel")
    target = tmp_path / "pl"
    target.mkdir()
    (target / "sub").symlink_to(host_state.sentinel_dir)
    await machine.download("/tmp/pl", target)
    assert (target / "sub").is_dir() and not (target / "sub").is_symlink()
    # The target itself as a link: refused for a tree, the link replaced for a file.
    link = tmp_path / "link"
    link.symlink_to(host_state.sentinel_dir)
    with pytest.raises(PermissionError):
        await machine.download("/tmp/pl", link)
    flink = tmp_path / "flink"
    flink.symlink_to(host_state.sentinel)
    await machine.download("/tmp/pl/sub/sentinel", flink)
    assert not flink.is_symlink() and flink.read_text() == "pwned\n"
    host_state.assert_unchanged()


async def test_max_bytes_zero_allows_nothing(machine, host_state, tmp_path):
    """max_bytes=0 was treated as "no limit"; None is the unbounded download."""
    await sh(machine, "rm -rf /tmp/mb && mkdir -p /tmp/mb/d/e && echo -n 1 > /tmp/mb/one && : > /tmp/mb/empty "
             "&& head -c 6 /dev/zero > /tmp/mb/d/a && head -c 5 /dev/zero > /tmp/mb/d/e/b")
    with pytest.raises(DownloadLimitExceeded):
        await machine.download("/tmp/mb/one", tmp_path / "one", max_bytes=0)
    assert not (tmp_path / "one").exists()
    await machine.download("/tmp/mb/empty", tmp_path / "empty", max_bytes=0)
    assert (tmp_path / "empty").read_bytes() == b""
    await machine.download("/tmp/mb/one", tmp_path / "one", max_bytes=None)
    assert (tmp_path / "one").read_bytes() == b"1"
    # A directory is bounded by the total of its files, on every backend.
    with pytest.raises(DownloadLimitExceeded):
        await machine.download("/tmp/mb/d", tmp_path / "d", max_bytes=10)
    assert not (tmp_path / "d").exists()
    with pytest.raises(DownloadLimitExceeded):
        await machine.download("/tmp/mb/d", tmp_path / "d", max_bytes=0)
    await machine.download("/tmp/mb/d", tmp_path / "d", max_bytes=11)
    assert (tmp_path / "d" / "e" / "b").read_bytes() == b"\0" * 5
    host_state.assert_unchanged()


@pytest.fixture
def small_fs(tmp_path):
    """A 64 MiB tmpfs, unmounted afterwards."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(mnt)], check=True)
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], check=True)


async def test_huge_sparse_file_does_not_fill_the_host(machine, tmp_path, small_fs, host_state):
    """A 20 GB sparse guest file (a tar stream of 20 GB of zeros on docker) must stop with a clear error,
    early, leaving nothing; with the limit a guest may reach (local: RLIMIT_FSIZE 1 GiB; shellsim: its
    disk) when 20 GB is refused in the guest."""
    # ShellSim meters truncate's 20 GB against its CPU budget (and stops the machine); its disk takes 200 MB.
    if machine.backend_name == "shellsim":
        make = "truncate -s 200M big"
    else:
        make = "truncate -s 20G big || truncate -s 1023M big"
    script = f"rm -rf /tmp/sparse && mkdir /tmp/sparse && cd /tmp/sparse && echo small > a && ({make}) 2>/dev/null"
    size = int((await sh(machine, script + "; stat -c %s big")).strip())
    assert size >= 128 << 20, size
    started = time.monotonic()
    # The last target is the mount point itself: its own free space counts, not its parent's.
    targets = (("/tmp/sparse/big", small_fs / "big"), ("/tmp/sparse", small_fs / "tree"), ("/tmp/sparse", small_fs))
    for source, target in targets:
        # "needs N more bytes": stopped before writing, not when the filesystem was full.
        with pytest.raises(DownloadLimitExceeded, match=r"needs \d+ more bytes.*SHELLBOX_DOWNLOAD_RESERVE_BYTES"):
            await machine.download(source, target)
        assert os.listdir(small_fs) == [], f"{source}: left {os.listdir(small_fs)}"
    assert time.monotonic() - started < 60, "the download read the whole file before stopping"
    # With a byte limit the limit is what stops it.
    with pytest.raises(DownloadLimitExceeded, match="limit of 1048576 bytes"):
        await machine.download("/tmp/sparse/big", small_fs / "big", max_bytes=1 << 20)
    assert os.listdir(small_fs) == []
    await machine.download("/tmp/sparse/a", small_fs / "a")
    assert (small_fs / "a").read_text() == "small\n"
    os.unlink(small_fs / "a")
    host_state.assert_unchanged()


async def test_upload_links_to_host_secrets_are_refused(machine, host_state, tmp_path):
    """Symbolic links that leave an uploaded tree are refused before anything reaches the guest; files
    are read without following links. (A hard link is its file's contents: an uploaded tree is the
    caller's own data.)"""
    links = {
        "absolute": {"x": str(host_state.sentinel)},
        "dotdot": {"x": "../../" + host_state.sentinel.name},
        # A lexical check reads l/.. as "."; the kernel resolves l -> . first: the tree's parent.
        "dot-then-dotdot": {"l": ".", "y": "l/.."},
    }
    for name, planted in links.items():
        tree = tmp_path / name
        (tree / "sub").mkdir(parents=True)
        (tree / "f").write_text("f")
        (tree / "sub" / "up").symlink_to("..")  # inside: allowed on its own
        for link, to in planted.items():
            (tree / link).symlink_to(to)
        with pytest.raises(PermissionError):  # ShellSim refuses every link it would import
            await machine.upload(tree, "/tmp/up-target")
        assert (await sh(machine, "ls -d /tmp/up-target 2>/dev/null || true")) == "", name
    host_state.assert_unchanged()
