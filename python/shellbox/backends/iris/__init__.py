"""The Iris backend: machines that are single-task SANDBOX jobs on an Iris cluster (in Go, over Connect)."""
