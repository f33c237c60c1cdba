"""The ShellSim backend: machines that simulate a shell and its commands in-process (no host program runs)."""
