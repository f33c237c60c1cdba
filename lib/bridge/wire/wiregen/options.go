package main

import (
	daytonabackend "github.com/shellbox/shellbox/lib/backends/daytona"
	dockerbackend "github.com/shellbox/shellbox/lib/backends/docker"
	irisbackend "github.com/shellbox/shellbox/lib/backends/iris"
	localbackend "github.com/shellbox/shellbox/lib/backends/local"
	qemubackend "github.com/shellbox/shellbox/lib/backends/qemu"
	"github.com/shellbox/shellbox/lib/shellsim/resources"
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
	{"DaytonaOptions", daytonabackend.Options{}},
	{"IrisOptions", irisbackend.Options{}},
}

// renamed are types whose Python name is not their Go name: ShellSim's
// budgets, beside shellbox.shellsim's own Limits (which checks its values).
// Daytona's network policy, beside the wire's own NetworkPolicy enum.
var renamed = map[any]string{resources.Limits{}: "SimLimits",
	daytonabackend.NetworkPolicy{}: "DaytonaNetworkPolicyOptions", daytonabackend.NetworkMode(""): "DaytonaNetworkMode"}
