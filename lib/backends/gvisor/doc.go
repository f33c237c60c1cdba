// Package gvisor is the shellbox backend that runs each machine as a Docker
// container under gVisor's runsc runtime: the docker backend with the
// runtime set, registered as "gvisor". Files move with tar inside the
// sandbox, since the daemon's archive endpoints cannot see a gVisor
// sandbox's writes.
package gvisor
