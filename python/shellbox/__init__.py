"""shellbox: fresh, isolated machines for evaluating AI agents.

The Python package is a thin surface over one Go shared library
(``shellbox/_lib/libshellbox.so``) loaded with ctypes.
"""

__version__ = "0.1.0"

from shellbox.machine import PackageSpec  # noqa: E402  (marin-shellbox's users import it from here)

__all__ = ["PackageSpec"]
