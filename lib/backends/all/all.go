// Package all links every machine backend into a binary: importing it
// registers "local", "docker", "gvisor" (docker with runsc), "qemu",
// "shellsim", "daytona", "iris" and "spread" with lib/machine.
package all

import (
	_ "github.com/shellbox/shellbox/lib/backends/daytona"
	_ "github.com/shellbox/shellbox/lib/backends/docker"
	_ "github.com/shellbox/shellbox/lib/backends/iris"
	_ "github.com/shellbox/shellbox/lib/backends/local"
	_ "github.com/shellbox/shellbox/lib/backends/qemu"
	_ "github.com/shellbox/shellbox/lib/backends/shellsim"
	_ "github.com/shellbox/shellbox/lib/backends/spread"
)
