"""Building shellbox builds its Go parts: the shared library libshellbox.so
(loaded by ctypes, so one wheel serves every CPython >= 3.11) and the helper
binaries under cmd/, all placed inside the package."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Command, Distribution, setup
from setuptools.command.build_py import build_py

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70
    from wheel.bdist_wheel import bdist_wheel

ROOT = Path(__file__).resolve().parent


# containers/image's pure-Go OpenPGP signature verifier instead of GPGME (cgo);
# without it registry pulls refuse to run (lib/oci's package doc). The Makefile's
# go test uses the same tag.
GO_TAGS = "containers_image_openpgp"


def build_go(package_dir: Path) -> None:
    """Compile the library into package_dir/_lib and the helpers into package_dir/_bin."""
    go = shutil.which("go")
    if go is None:
        sys.exit("error: building shellbox needs the Go toolchain (go 1.26 or newer) on PATH; install Go and retry")
    env = dict(os.environ)
    lib = package_dir / "_lib"
    bins = package_dir / "_bin"
    lib.mkdir(parents=True, exist_ok=True)
    bins.mkdir(parents=True, exist_ok=True)

    def go_build(*args: str, cgo: bool) -> None:
        command = [go, "build", "-trimpath", "-tags", GO_TAGS, *args]
        print("+", " ".join(command), flush=True)
        done = subprocess.run(command, cwd=ROOT, env={**env, "CGO_ENABLED": "1" if cgo else "0"})
        if done.returncode:
            sys.exit(f"error: {' '.join(command[:2])} {args[-1]} failed (exit {done.returncode}); see the Go errors above")

    go_build("-buildmode=c-shared", "-o", str(lib / "libshellbox.so"), "./cgo", cgo=True)
    (lib / "libshellbox.h").unlink(missing_ok=True)
    go_build("-o", str(bins) + "/", "./cmd/...", cgo=False)
    copy_kernel(package_dir)


def copy_kernel(package_dir: Path) -> None:
    """Ship the guest kernel .ci/kernel.sh built, when SHELLBOX_QEMU_KERNEL names
    it, as package_dir/_kernel/vmlinux: the QEMU backend prefers it to Debian's."""
    kernel = os.environ.get("SHELLBOX_QEMU_KERNEL")
    if not kernel:
        return
    if not os.path.isfile(kernel):
        sys.exit(f"error: SHELLBOX_QEMU_KERNEL={kernel} is not a file; build it with .ci/kernel.sh")
    dest = package_dir / "_kernel"
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(kernel, dest / "vmlinux")


class BuildGo(Command):
    """`python setup.py build_go`: build the Go parts into python/shellbox (for development)."""

    description = "build the Go shared library and helpers into the source tree"
    user_options: list = []

    def initialize_options(self) -> None:
        pass

    def finalize_options(self) -> None:
        pass

    def run(self) -> None:
        build_go(ROOT / "python" / "shellbox")


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        build_go(Path(self.build_lib) / "shellbox")


class NativeDistribution(Distribution):
    """The package carries native code (built by build_py, not as extension
    modules): install it to platlib and tag the wheel for this platform."""

    def has_ext_modules(self) -> bool:
        return True


class BdistWheel(bdist_wheel):
    """Platform-specific (it holds native code) but not tied to a Python version or ABI."""

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(distclass=NativeDistribution, cmdclass={"build_go": BuildGo, "build_py": BuildPy, "bdist_wheel": BdistWheel})
