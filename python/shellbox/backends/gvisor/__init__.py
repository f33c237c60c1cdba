"""The gVisor backend: the Docker backend with the runsc runtime."""
