"""check_execution_requirements, re-exported by shellbox.machine (kept here so the wire helper's
machine.py stays small)."""

from __future__ import annotations

from shellbox.machine import (
    CommandSemantics,
    ExecutionRequirements,
    MachineSpec,
    NetworkPolicy,
    UnsupportedMachineSpec,
)


def check_execution_requirements(
    requirements: ExecutionRequirements,
    spec: MachineSpec,
    *,
    semantics: CommandSemantics,
    capabilities: frozenset[str],
    image_reference: str | None = None,
) -> None:
    """Refuse a task whose declared semantics, capabilities or image this backend cannot honour.

    Checks only what the task declares; it acquires nothing and promises no capacity."""
    if requirements.command_semantics != semantics:
        raise UnsupportedMachineSpec(f"this factory runs {semantics} semantics, the task asks for "
                                     f"{requirements.command_semantics}", "command_semantics")
    missing = sorted(set(requirements.capabilities) - set(capabilities))
    if missing:
        raise UnsupportedMachineSpec(f"capabilities not provided: {', '.join(missing)}", "capabilities")
    if "network" in requirements.capabilities and spec.network == NetworkPolicy.DENY:
        raise UnsupportedMachineSpec("the network capability needs network=NetworkPolicy.ALLOW", "network")
    if requirements.docker_image is not None and requirements.docker_image != image_reference:
        raise UnsupportedMachineSpec(
            f"the task needs image {requirements.docker_image}, the machine uses {image_reference}", "source"
        )
