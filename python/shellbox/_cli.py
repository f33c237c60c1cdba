"""Console entry points that hand over to the bundled Go binaries."""

import os
import sys

from shellbox._native import bin_dir


def _exec(name: str) -> None:
    path = bin_dir() / name
    if not path.exists():
        sys.exit(f"shellbox: {path} is missing; reinstall shellbox")
    os.execv(path, [name, *sys.argv[1:]])


def shellsim() -> None:
    _exec("shellsim")


def shellbox() -> None:
    """`shellbox doctor|run|shell|bench`: the Go command (lib/cli)."""
    _exec("shellbox")


def shellbox_stage() -> None:
    """marin-shellbox's `shellbox-stage` flags: `shellbox stage --compat` (lib/cli)."""
    path = bin_dir() / "shellbox"
    if not path.exists():
        sys.exit(f"shellbox-stage: {path} is missing; reinstall shellbox")
    os.execv(path, ["shellbox", "stage", "--compat", *sys.argv[1:]])


if __name__ == "__main__":
    shellbox()
