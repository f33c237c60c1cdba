"""The QEMU backend: one microVM per machine, booted directly into the shellbox guest agent."""
