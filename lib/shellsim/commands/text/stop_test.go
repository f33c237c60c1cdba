package text

import (
	"strings"
	"testing"
)

// Streaming commands stop reading once they have what they need, so that
// "yes | head" ends.
func TestStreamingStopsOnEndlessInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{sh("head -n 2"), "y\ny\n"},
		{sh("head -c 3"), "y\ny"},
		{sh("grep -m 1 y"), "y\n"},
		{sh("grep -q y"), ""},
	} {
		e := setup(t, nil)
		var out, errb strings.Builder
		st := e.RunIO(c.args, newEndless(), &out, &errb)
		if st != 0 || out.String() != c.want || errb.Len() != 0 {
			t.Errorf("%q: status %d out %q err %q", c.args, st, out.String(), errb.String())
		}
	}
}

// A failed write (closed pipe) or exhausted fuel ends a command promptly.
func TestStopsOnWriteErrorAndFuel(t *testing.T) {
	for _, args := range [][]string{sh("cat"), sh("tr a b"), sh("cut -c1"), sh("grep y"), sh("fold -w 1"), sh("rev"), sh("tee")} {
		e := setup(t, nil)
		w := &limitWriter{n: 100}
		var errb strings.Builder
		st := e.RunIO(args, newEndless(), w, &errb)
		if st == 0 || w.Len() > 100 {
			t.Errorf("%q on a closed pipe: status %d, %d bytes", args, st, w.Len())
		}
	}
	for _, args := range [][]string{sh("cat"), sh("sort"), sh("wc"), sh("tail -n 1"), sh("uniq"), sh("tac")} {
		e := setup(t, nil)
		e.Sys.Fuel = 100000
		var out, errb strings.Builder
		st := e.RunIO(args, newEndless(), &out, &errb)
		if st == 0 || e.Sys.Mem != 0 {
			t.Errorf("%q out of fuel: status %d, %d bytes still reserved", args, st, e.Sys.Mem)
		}
	}
}

func TestSortReservesMemory(t *testing.T) {
	e := setup(t, nil)
	e.Sys.MemLimit = 1000
	var out, errb strings.Builder
	st := e.RunIO(sh("sort"), strings.NewReader(strings.Repeat("line\n", 1000)), &out, &errb)
	if st == 0 || out.Len() != 0 {
		t.Errorf("sort over the memory limit: status %d, %d bytes out", st, out.Len())
	}
	e = setup(t, nil)
	_, _, st = e.Run(sh("sort"), strings.Repeat("b\na\n", 100))
	if st != 0 || e.Sys.MemPeak < 400 || e.Sys.Mem != 0 {
		t.Errorf("sort: status %d, peak %d, left %d", st, e.Sys.MemPeak, e.Sys.Mem)
	}
}

func TestPartialFlags(t *testing.T) {
	for _, c := range []struct {
		args    []string
		err     string
		status  int
		feature string
	}{
		{sh("sort --debug"), "sort: --debug annotations are not supported in shellsim\n", 2, "sort --debug"},
		{sh("column -J"), "column: option -J is not supported in shellsim\n", 1, "column -J"},
	} {
		e := setup(t, nil)
		out, errs, st := e.Run(c.args, "")
		if out != "" || errs != c.err || st != c.status {
			t.Errorf("%q: out=%q err=%q status=%d", c.args, out, errs, st)
		}
		if len(e.Sys.Partials) != 1 || e.Sys.Partials[0] != c.feature {
			t.Errorf("%q: partials %q", c.args, e.Sys.Partials)
		}
	}
}

func TestChargesFuel(t *testing.T) {
	e := setup(t, map[string]string{"f": strings.Repeat("x", 10000)})
	_, _, st := e.Run(sh("cat f"), "")
	if st != 0 || e.Sys.Used < 10000 || e.Sys.Used > 11000 {
		t.Errorf("cat of 10000 bytes charged %d", e.Sys.Used)
	}
}
