package shellsim_test

import (
	"context"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// Successive writes get increasing mtimes, as on a real machine, and the
// times are the same in every run.
func TestFileTimesAdvance(t *testing.T) {
	const src = `touch a; touch b
[ b -nt a ] && echo b-newer
[ a -ot b ] && echo a-older
echo x > c; [ c -nt b ] && echo c-newer
touch a; [ a -nt c ] && echo a-newer
printf 'out: in\n\tcp in out\n' > Makefile
echo 1 > in; make -s; cat out
make; echo 2 > in; make -s; cat out
stat -c '%n %y' a b c in out
`
	run := func() string {
		env := shellsim.NewEnvironment(shellsim.DefaultLimits())
		r := env.Run(context.Background(), src, nil)
		if r.Outcome.ExitStatus != 0 || len(r.Stderr) != 0 {
			t.Fatalf("status %d, stderr %q", r.Outcome.ExitStatus, r.Stderr)
		}
		return string(r.Stdout)
	}
	first := run()
	const want = "b-newer\na-older\nc-newer\na-newer\n1\nmake: 'out' is up to date.\n2\n"
	if len(first) < len(want) || first[:len(want)] != want {
		t.Fatalf("got:\n%s\nwant it to start with:\n%s", first, want)
	}
	if second := run(); second != first {
		t.Errorf("file times differ between runs:\n%s\n---\n%s", first, second)
	}
	t.Log(first)
}
