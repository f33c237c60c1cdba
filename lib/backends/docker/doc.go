// Package docker is the shellbox backend that runs each machine as one
// container of a Docker daemon, driven only through the Docker Engine API.
//
// A machine's container runs a keep-alive under the daemon's init; every
// command is an exec whose wrapper puts it in its own process group and
// reports that group on the first line of stdout, so a timeout or a
// cancellation can kill the whole group and confirm it is gone. The same
// factory, given the runsc runtime, is the gVisor backend.
package docker
