package sched

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestPipeBackpressureAndSigpipe(t *testing.T) {
	s := New()
	var got string
	var werr error
	s.RunRoot(func(root *Task) {
		r, w := s.NewPipe(16)
		yes := s.Spawn(func(t *Task) {
			defer w.Close()
			for {
				if _, err := w.Write([]byte("y\n")); err != nil {
					werr = err
					return
				}
			}
		})
		head := s.Spawn(func(t *Task) {
			defer r.Close()
			buf := make([]byte, 6)
			n, _ := io.ReadFull(r, buf)
			got = string(buf[:n])
		})
		root.Wait(head)
		root.Wait(yes)
	})
	if got != "y\ny\ny\n" || !errors.Is(werr, ErrBrokenPipe) {
		t.Fatal(got, werr)
	}
}

func TestSleepsOverlap(t *testing.T) {
	s := New()
	var order []string
	s.RunRoot(func(root *Task) {
		a := s.Spawn(func(t *Task) { t.Sleep(5 * time.Second); order = append(order, "a") })
		root.Sleep(3 * time.Second)
		order = append(order, "root")
		root.Wait(a)
	})
	if s.Now() != 5*time.Second || strings.Join(order, ",") != "root,a" {
		t.Fatal(s.Now(), order)
	}
}

func TestDeadlockAndKill(t *testing.T) {
	s := New()
	var err error
	s.RunRoot(func(root *Task) {
		r, w := s.NewPipe(4)
		_ = w
		_, err = r.Read(make([]byte, 1))
	})
	if !errors.Is(err, ErrDeadlock) {
		t.Fatal(err)
	}
	var kerr error
	s.RunRoot(func(root *Task) {
		c := s.Spawn(func(t *Task) { kerr = t.Sleep(time.Hour) })
		root.Yield()
		c.Signal(15, true)
		root.Wait(c)
	})
	if !errors.Is(kerr, ErrKilled) {
		t.Fatal(kerr)
	}
}

func TestBackgroundParksBetweenRoots(t *testing.T) {
	s := New()
	n := 0
	s.RunRoot(func(root *Task) {
		s.Spawn(func(t *Task) {
			for i := 0; i < 3; i++ {
				n++
				t.Yield()
			}
		})
	})
	if n != 0 {
		t.Fatal("background ran without a root", n)
	}
	s.RunRoot(func(root *Task) {
		for s.Live() > 1 {
			root.Yield()
		}
	})
	if n != 3 {
		t.Fatal(n)
	}
}
