package text

import (
	"errors"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// limitWriter fails once n bytes have been written, as a closed pipe does.
type limitWriter struct {
	strings.Builder
	n int
}

func (w *limitWriter) Write(b []byte) (int, error) {
	if w.Len()+len(b) > w.n {
		k := w.n - w.Len()
		w.Builder.Write(b[:k])
		return k, errors.New("broken pipe")
	}
	return w.Builder.Write(b)
}

func TestYes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"yes"}, "y\ny\ny\n"},
		{[]string{"yes", "a", "b"}, "a b\na b\n"},
		{[]string{"yes", "a", "--", "b"}, "a b\na b\n"},
		{[]string{"yes", "--", "-x"}, "-x\n-x\n"},
	} {
		e := setup(t, nil)
		w := &limitWriter{n: 10000}
		var errb strings.Builder
		st := e.RunIO(c.args, strings.NewReader(""), w, &errb)
		if !strings.HasPrefix(w.String(), c.want) || w.Len() != 10000 || errb.Len() != 0 || st == 0 {
			t.Errorf("%q: got %q... (%d bytes), err %q, status %d", c.args, w.String()[:20], w.Len(), errb.String(), st)
		}
	}
	runTable(t, []commandtest.Golden{
		{Args: sh("yes -x"), Stderr: "yes: invalid option -- 'x'\nTry 'yes --help' for more information.\n", Status: 1},
	})
}

func TestYesStopsOnFuel(t *testing.T) {
	e := setup(t, nil)
	e.Sys.Fuel = 1000
	var out, errb strings.Builder
	st := e.RunIO([]string{"yes"}, strings.NewReader(""), &out, &errb)
	if st == 0 || out.Len() > 1000 {
		t.Errorf("status %d, %d bytes out", st, out.Len())
	}
}
