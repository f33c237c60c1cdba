"""The public names of marin-shellbox's modules for the backends shellbox has, and how ours compare.

``python tests/parity_names.py generate`` (run once, in a venv with marin-shellbox from PyPI, Harbor and
ShellSim installed: ``bench/parity/venv.sh`` makes one) writes ``tests/parity_names.json``: for each module,
each public class, function and enum marin-shellbox defines there, with its call signature (parameter
names, kinds, defaults), enum members and public methods. ``check(modules)`` compares ours with the table
(tests/test_parity_names.py).
"""

from __future__ import annotations

import enum
import importlib
import inspect
import json
import sys
from pathlib import Path
from typing import Any

TABLE = Path(__file__).with_name("parity_names.json")
MODULES = (
    "shellbox.machine",
    "shellbox.image",
    "shellbox.transfer",
    "shellbox.agent",
    "shellbox.backends.local.machine",
    "shellbox.backends.local.launch",
    "shellbox.backends.local.python_environment",
    "shellbox.backends.docker.machine",
    "shellbox.backends.gvisor.machine",
    "shellbox.backends.shellsim.machine",
    "shellbox.backends.shellsim.environment",
)
# The public constants callers use (the rest of marin-shellbox's module constants are its internals).
CONSTANTS = {
    "shellbox.machine": (
        "HARBOR_EXEC_OUTPUT_LIMIT_BYTES",
        "DEFAULT_MACHINE_OUTPUT_LIMIT_BYTES",
        "SHELL_SIMULATOR_CAPABILITIES",
        "LINUX_PROCESS_CAPABILITIES",
    ),
    "shellbox.image": ("OCI_TAG",),
    "shellbox.backends.local.machine": ("OVERLAID_DIRECTORIES", "SYSTEM_DIRECTORIES"),
    "shellbox.backends.local.python_environment": ("DEFAULT_PYTHON_VERSION",),
}
# Differences on purpose, each with its reason. A key is "module:Name" or "module:Name.method".
_MADE_BY_FACTORY = "machines and sessions are made by their factory, from a Go handle; nobody constructs them"
ALLOWED: dict[str, str] = {
    "shellbox.backends.local.machine:LocalMachine": _MADE_BY_FACTORY,
    "shellbox.backends.docker.machine:DockerMachine": _MADE_BY_FACTORY,
    "shellbox.backends.gvisor.machine:GvisorMachine": _MADE_BY_FACTORY,
    "shellbox.backends.shellsim.machine:ShellSimMachine": _MADE_BY_FACTORY,
    "shellbox.backends.shellsim.machine:ShellSimShellSession": _MADE_BY_FACTORY,
}
# Modules that import Harbor, which needs Python >= 3.12: checked in the Harbor venv.
HARBOR_MODULES = ("shellbox.agent", "shellbox.backends.shellsim.environment")


def _signature(obj: Any) -> list[list[Any]] | None:
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    out = []
    for p in signature.parameters.values():
        default = None if p.default is inspect.Parameter.empty else repr(p.default)
        out.append([p.name, p.kind.name, default])
    return out


def _describe(obj: Any) -> dict[str, Any]:
    if isinstance(obj, type) and issubclass(obj, enum.Enum):
        return {"kind": "enum", "bases": [b.__name__ for b in obj.__mro__[1:] if b is not object], "members": {m.name: m.value for m in obj}}
    if isinstance(obj, type):
        methods: dict[str, Any] = {}
        for name, member in vars(obj).items():
            if name.startswith("_") and name != "__init__":
                continue
            if isinstance(member, property):
                methods[name] = "property"
            elif isinstance(member, (staticmethod, classmethod)):
                methods[name] = _signature(member.__func__)
            elif inspect.isfunction(member):
                methods[name] = _signature(member)
        return {
            "kind": "class",
            "bases": [b.__name__ for b in obj.__mro__[1:] if b is not object],
            "signature": _signature(obj),
            "methods": methods,
        }
    function = getattr(obj, "__wrapped__", obj)
    return {"kind": "function", "async": inspect.iscoroutinefunction(function), "signature": _signature(function)}


def inventory(module_name: str) -> dict[str, Any]:
    """Every public class and function ``module_name`` defines itself (not the names it imports)."""
    module = importlib.import_module(module_name)
    names = {}
    for name, obj in vars(module).items():
        if name.startswith("_"):
            continue
        if name in CONSTANTS.get(module_name, ()):
            names[name] = {"kind": "constant", "value": _constant(obj)}
            continue
        function = inspect.isfunction(obj) or inspect.isfunction(getattr(obj, "__wrapped__", None))
        if not (inspect.isclass(obj) or function) or getattr(obj, "__module__", None) != module_name:
            continue
        names[name] = _describe(obj)
    return names


def _constant(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    return list(value) if isinstance(value, tuple) else value


def compatible(theirs: list[list[Any]] | None, ours: list[list[Any]] | None) -> str | None:
    """Why a call written against ``theirs`` would not work the same with ``ours``, or None.

    Every parameter of theirs exists in ours with the same kind and default, positional ones in the same
    order; ours may add parameters that have defaults (or ``*args``/``**kwargs``)."""
    if theirs is None:
        # A built-in exception's constructor: it takes the message positionally.
        required = [p for p in ours or () if p[2] is None and p[1] not in ("VAR_POSITIONAL", "VAR_KEYWORD")]
        return None if len(required) <= 1 else f"constructor needs {[p[0] for p in required]}"
    if ours is None:
        return f"signature {theirs} vs none"
    mine = {p[0]: p for p in ours}
    for name, kind, default in theirs:
        if name == "self":
            continue
        if name not in mine:
            return f"missing parameter {name}"
        _, our_kind, our_default = mine[name]
        if our_kind != kind:
            return f"parameter {name} is {our_kind}, not {kind}"
        if our_default != default and default is not None:  # ours may give a required parameter a default
            return f"parameter {name} defaults to {our_default}, not {default}"
    positional = ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")
    their_order = [p[0] for p in theirs if p[1] in positional]
    our_order = [p[0] for p in ours if p[1] in positional][: len(their_order)]
    if their_order != our_order:
        return f"positional order {our_order}, not {their_order}"
    for name, kind, default in ours:
        if name not in {p[0] for p in theirs} and default is None and kind not in ("VAR_POSITIONAL", "VAR_KEYWORD"):
            return f"extra required parameter {name}"
    return None


def check(modules: tuple[str, ...], allowed: dict[str, str]) -> list[str]:
    """Every difference between our modules and the table, except those in ``allowed`` (key: "module:Name"
    or "module:Name.method", value: why)."""
    table = json.loads(TABLE.read_text())
    problems = []
    for module_name in modules:
        try:
            module = importlib.import_module(module_name)
        except ImportError as error:
            problems.append(f"{module_name}: {error}")
            continue
        for name, theirs in table[module_name].items():
            key = f"{module_name}:{name}"
            if not hasattr(module, name):
                problems.append(f"{key}: missing")
                continue
            if theirs["kind"] == "constant":
                value = _constant(getattr(module, name))
                if value != theirs["value"]:
                    problems.append(f"{key}: {value!r}, not {theirs['value']!r}")
                continue
            ours = _describe(getattr(module, name))
            if ours["kind"] != theirs["kind"]:
                problems.append(f"{key}: a {ours['kind']}, not a {theirs['kind']}")
                continue
            if theirs["kind"] == "enum":
                for member, value in theirs["members"].items():
                    if ours["members"].get(member) != value:
                        problems.append(f"{key}.{member}: {ours['members'].get(member)!r}, not {value!r}")
                continue
            if theirs["kind"] == "function" and theirs["async"] != ours["async"] and key not in allowed:
                problems.append(f"{key}: async {ours['async']}, not {theirs['async']}")
            for base in theirs.get("bases", ()):
                if base not in ours.get("bases", ()) and base not in ("Protocol", "Generic") and key not in allowed:
                    problems.append(f"{key}: not a subclass of {base}")
            why = compatible(theirs["signature"], ours["signature"])
            if why and key not in allowed:
                problems.append(f"{key}: {why}")
            for method, their_method in theirs.get("methods", {}).items():
                mkey = f"{key}.{method}"
                our_method = ours["methods"].get(method)
                if our_method is None:
                    # Inherited from one of our bases is fine.
                    attr = getattr(getattr(module, name), method, None)
                    if attr is None:
                        problems.append(f"{mkey}: missing")
                        continue
                    our_method = "property" if isinstance(inspect.getattr_static(getattr(module, name), method), property) else _signature(attr)
                if method == "__init__":
                    continue  # compared as the class's signature
                if their_method == "property" or our_method == "property":
                    if their_method != our_method and mkey not in allowed and not (their_method == "property"):
                        problems.append(f"{mkey}: property vs method")
                    continue
                why = compatible(their_method, our_method)
                if why and mkey not in allowed:
                    problems.append(f"{mkey}: {why}")
    return problems


def main() -> None:
    if sys.argv[1:] != ["generate"]:
        sys.exit("usage: parity_names.py generate  (in a venv with marin-shellbox, harbor and shellsim)")
    import importlib.metadata as metadata

    # marin-shellbox's agent imports an exception only its vendored Harbor has; the inventory needs only
    # the import to succeed.
    import harbor.agents.base

    if not hasattr(harbor.agents.base, "TurnCapExhaustedError"):
        harbor.agents.base.TurnCapExhaustedError = type("TurnCapExhaustedError", (RuntimeError,), {})
    table: dict[str, Any] = {"_source": f"marin-shellbox {metadata.version('marin-shellbox')}"}
    for module_name in MODULES:
        table[module_name] = inventory(module_name)
    TABLE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
    print(f"wrote {TABLE}: {sum(len(v) for k, v in table.items() if k != '_source')} names")


if __name__ == "__main__":
    main()
