"""The Docker backend: one container per machine, over the Engine API (in Go)."""
