package local

import (
	"testing"
)

func TestSmoke(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	r := run(t, m, sh("pwd; id; echo err >&2; exit 3"))
	t.Logf("%d %q %q", code(r), r.Stdout, r.Stderr)
}
