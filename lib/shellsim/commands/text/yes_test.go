package text

import (
	"errors"
	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
	"strings"
	"testing"
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
	runTable(t, []tc{
		{args: sh("yes -x"), err: "yes: invalid option -- 'x'\nTry 'yes --help' for more information.\n", status: 1},
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

func TestTee(t *testing.T) {
	runTable(t, []tc{
		{args: sh("tee t1 t2"), stdin: "hi\n", out: "hi\n", files: map[string]string{"t1": "old\n"},
			check: func(t *testing.T, e *commandtest.Env) {
				if e.ReadFile("t1") != "hi\n" || e.ReadFile("t2") != "hi\n" {
					t.Errorf("files: %q %q", e.ReadFile("t1"), e.ReadFile("t2"))
				}
			}},
		{args: sh("tee -a t1"), stdin: "x\n", out: "x\n", files: map[string]string{"t1": "old\n"},
			check: func(t *testing.T, e *commandtest.Env) {
				if got := e.ReadFile("t1"); got != "old\nx\n" {
					t.Errorf("t1 = %q", got)
				}
			}},
		{args: sh("tee nosuchdir/x t1"), stdin: "hi\n", out: "hi\n", status: 1,
			err: "tee: nosuchdir/x: No such file or directory\n",
			check: func(t *testing.T, e *commandtest.Env) {
				if got := e.ReadFile("t1"); got != "hi\n" {
					t.Errorf("t1 = %q", got)
				}
			}},
		{args: sh("tee d"), files: map[string]string{"d/": ""}, stdin: "hi\n", out: "hi\n", status: 1,
			err: "tee: d: Is a directory\n"},
		{args: sh("tee -p -i"), stdin: "hi\n", out: "hi\n"},
		{args: sh("tee -z"), status: 1, err: "tee: invalid option -- 'z'\nTry 'tee --help' for more information.\n"},
	})
}
