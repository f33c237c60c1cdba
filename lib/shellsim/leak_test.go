package shellsim_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim"
)

func TestNoLeaks(t *testing.T) {
	l := shellsim.DefaultLimits()
	l.CPU, l.Output = 1<<40, 1<<40
	env := shellsim.NewEnvironment(l)
	defer env.Close()
	src := `x=$(echo a | cat); f(){ local y=$1; echo $y; }; f 1 >/dev/null; (true); yes | head -1 >/dev/null; sleep 1 & wait; arr=(1 2 3); unset arr; : $(( i++ ))`
	var mem0 int64
	g0 := 0
	procs0 := ""
	for i := 0; i < 300; i++ {
		r := env.Run(context.Background(), src, nil)
		if r.Outcome.ExitStatus != 0 {
			t.Fatalf("%d: %q", r.Outcome.ExitStatus, r.Stderr)
		}
		if i == 10 || i == 299 {
			p := env.Run(context.Background(), "echo /proc/[0-9]*", nil)
			if i == 10 {
				procs0 = string(p.Stdout)
			} else if string(p.Stdout) != procs0 {
				t.Errorf("process table grows: %q -> %q", procs0, p.Stdout)
			}
		}
		if i == 10 {
			mem0 = r.Outcome.Usage.MemoryCurrent
			g0 = runtime.NumGoroutine()
		}
		if i == 299 {
			if r.Outcome.Usage.MemoryCurrent > mem0+1024 {
				t.Errorf("modeled memory grows: %d -> %d", mem0, r.Outcome.Usage.MemoryCurrent)
			}
			if g := runtime.NumGoroutine(); g > g0+2 {
				t.Errorf("goroutines grow: %d -> %d", g0, g)
			}
		}
	}
}

// Forks of a busy environment hold goroutines (their copies of the jobs);
// closing them releases every one, and the original is unaffected.
func TestForksOfBusyEnvironmentsLeaveNothing(t *testing.T) {
	env := shellsim.NewEnvironment(shellsim.DefaultLimits())
	defer env.Close()
	env.Run(context.Background(), "sleep 100 & yes | head -c 100000 > /dev/null & sleep 1", nil)
	jobs := "jobs -r > /tmp/j; wc -l < /tmp/j"
	g0 := runtime.NumGoroutine()
	want := ""
	for i := 0; i < 200; i++ {
		c, err := env.Duplicate()
		if err != nil {
			t.Fatal(err)
		}
		r := c.Run(context.Background(), jobs, nil)
		if want == "" {
			want = string(r.Stdout)
		}
		if string(r.Stdout) != want || want == "0\n" {
			t.Fatalf("fork %d: %q %q", i, r.Stdout, r.Stderr)
		}
		c.Close()
	}
	if g := runtime.NumGoroutine(); g > g0+2 {
		t.Fatalf("goroutines: %d before, %d after 200 forks", g0, g)
	}
	if r := env.Run(context.Background(), jobs, nil); string(r.Stdout) != want {
		t.Fatalf("original: %q, forks %q", r.Stdout, want)
	}
}
