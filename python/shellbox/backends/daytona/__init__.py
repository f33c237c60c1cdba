"""The Daytona backend: machines that are Daytona sandboxes, over the Daytona API (in Go)."""
