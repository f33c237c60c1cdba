// Package gvisor tests the "gvisor" backend, the docker backend with gVisor's
// runsc runtime (docker.GvisorConfig), against the real daemon and runsc.
package gvisor
