package main

import (
	dockerbackend "github.com/shellbox/shellbox/lib/backends/docker"
	localbackend "github.com/shellbox/shellbox/lib/backends/local"
	qemubackend "github.com/shellbox/shellbox/lib/backends/qemu"
)

// factoryOptions are the backends' factory options, which open_factory
// carries as its "options": each backend declares its own; the Python
// factories build them with these generated classes. (ShellSim's are
// wire.ShellSimOptions; gVisor takes Docker's.)
var factoryOptions = []struct {
	python string
	value  any
}{
	{"LocalOptions", localbackend.Options{}},
	{"DockerOptions", dockerbackend.Options{}},
	{"QemuOptions", qemubackend.Options{}},
}
