package iris_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/shellbox/shellbox/lib/backends/iris"
	"github.com/shellbox/shellbox/lib/machine"
)

// A command is one ExecInContainer: on the machine's first command the
// workdir is made by the same exec, and a small stdin rides in it too;
// creating the machine execs nothing.
func TestOneExecPerCommand(t *testing.T) {
	t.Parallel()
	var execs atomic.Int32
	h := server.Handler()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/ExecInContainer") {
			execs.Add(1)
		}
		h.ServeHTTP(w, r)
	}))
	defer hs.Close()
	f, err := iris.New(iris.Options{ControllerURL: hs.URL, Token: token, User: "tester"})
	if err != nil {
		t.Fatal(err)
	}
	sp := spec(machine.NetworkDeny)
	sp.Workdir = "/work/deep/dir"
	m := create(t, f, sp)
	if n := execs.Load(); n != 0 {
		t.Fatalf("creating the machine took %d execs", n)
	}
	for i, stdin := range []string{"in\x00put", ""} {
		before := execs.Load()
		r, err := m.Run(context.Background(), machine.Command{Argv: []string{"sh", "-c", "pwd; cat; echo err >&2"}, Stdin: []byte(stdin), OutputLimit: 1 << 20})
		if err != nil || r.ExitCode == nil || *r.ExitCode != 0 || string(r.Stdout) != "/work/deep/dir\n"+stdin || string(r.Stderr) != "err\n" {
			t.Fatalf("command %d: %+v %v", i, r, err)
		}
		if n := execs.Load() - before; n != 1 {
			t.Fatalf("command %d took %d execs", i, n)
		}
	}
}
