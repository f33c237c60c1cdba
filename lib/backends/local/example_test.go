package local_test

import (
	"context"
	"fmt"

	_ "github.com/shellbox/shellbox/lib/backends/local" // registers "local"
	"github.com/shellbox/shellbox/lib/helpers"
	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
)

// Example opens the backend by name, as the C ABI does, runs two commands
// in one machine and closes it.
func Example() {
	// The Python package points helpers at its _bin directory; here, the
	// directory the package's tests build the helper into (they run first).
	if _, err := helpers.Path("shellbox-sandboxd"); err != nil {
		helpers.SetDir(helperstest.Dir())
	}
	ctx := context.Background()
	factory, err := machine.Open("local", []byte(`{}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := factory.Create(ctx, machine.Spec{Source: machine.HostImage{}, Workdir: "/workspace", Network: machine.NetworkDeny})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close(ctx)
	m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", "echo hello > greeting"}})
	res, _ := m.Run(ctx, machine.Command{Argv: []string{"cat", "greeting"}, OutputLimit: 100})
	fmt.Printf("%d %s", *res.ExitCode, res.Stdout)
	// Output: 0 hello
}
