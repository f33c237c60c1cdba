package local

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

type hostState struct {
	descendants []string // our child processes, as "pid cmdline"
	sandboxd    int      // helper processes of our machines (see dirs)
	mounts      []string // /proc/self/mountinfo, without Docker's own mounts
	tempDirs    []string
	fds         int
	goroutines  int
}

// snapshot describes the host as far as this test owns it: other agents
// may run sandboxes and Docker on the same host at the same time, so
// helpers and temp dirs count only when they belong to dirs (our machines).
func snapshot(t *testing.T, dirs map[string]bool) hostState {
	t.Helper()
	var s hostState
	parent := map[int]int{}
	cmdline := map[int]string{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		parent[pid], _ = strconv.Atoi(f[1])
		cl, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		cmdline[pid] = strings.ReplaceAll(string(cl), "\x00", " ")
	}
	self := os.Getpid()
	for pid := range parent {
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == self {
				s.descendants = append(s.descendants, strconv.Itoa(pid)+" "+cmdline[pid])
				break
			}
		}
		if strings.Contains(cmdline[pid], helperPath) {
			for d := range dirs {
				if strings.Contains(cmdline[pid], d) {
					s.sandboxd++
				}
			}
		}
	}
	mi, _ := os.ReadFile("/proc/self/mountinfo")
	for _, line := range strings.Split(string(mi), "\n") {
		// Other agents on this host run dockerd, whose mounts come and go.
		if f := strings.Fields(line); len(f) > 4 && !strings.HasPrefix(f[4], "/var/lib/docker/") && !strings.HasPrefix(f[4], "/run/docker/") {
			s.mounts = append(s.mounts, line)
		}
	}
	slices.Sort(s.mounts)
	tmp, _ := os.ReadDir(os.TempDir())
	for _, e := range tmp {
		if dirs[filepath.Join(os.TempDir(), e.Name())] {
			s.tempDirs = append(s.tempDirs, e.Name())
		}
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	s.fds = len(fds)
	s.goroutines = runtime.NumGoroutine()
	return s
}

func TestLeaks200Cycles(t *testing.T) {
	f := newFactory(t, Options{})
	ctx := context.Background()
	dirs := map[string]bool{}
	cycle := func(i int) {
		m, err := f.Create(ctx, hostSpec())
		if err != nil {
			t.Fatal(err)
		}
		dirs[m.(*Machine).dir] = true
		switch i % 4 {
		case 0:
			cmd := sh("sleep 10 & sleep 10")
			cmd.Timeout = 20 * time.Millisecond
			if r, err := m.Run(ctx, cmd); err != nil || r.Reason != machine.TimedOut {
				t.Fatalf("timeout cycle: %+v %v", r, err)
			}
		case 1:
			cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
			if _, err := m.Run(cctx, sh("sleep 10")); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("cancel cycle: %v", err)
			}
			cancel()
		case 2:
			if r, err := m.Run(ctx, sh("sleep 100 & echo started")); err != nil || code(r) != 0 {
				t.Fatalf("background cycle: %+v %v", r, err)
			}
		case 3:
			p, err := m.(*Machine).OpenProcess(ctx, machine.Command{Argv: []string{"cat"}, OutputLimit: 10})
			if err != nil {
				t.Fatal(err)
			}
			p.Stdin().Write([]byte("x"))
			// Left open: Close of the machine must reclaim it.
		}
		if r, err := m.Run(ctx, machine.Command{Argv: []string{"true"}, OutputLimit: 10}); err != nil || code(r) != 0 {
			t.Fatalf("true: %+v %v", r, err)
		}
		if err := m.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	cycle(0) // warm up lazily created state
	// Factories of earlier tests hold descriptors (their /etc memfd) that
	// their finalizers close once they are collected.
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	before := snapshot(t, dirs)
	for i := range 200 {
		cycle(i)
	}
	var after hostState
	for range 50 { // goroutines of closed connections wind down
		after = snapshot(t, dirs)
		if after.goroutines <= before.goroutines+2 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("before: %d processes, %d helpers, %d mounts, %d temp dirs, %d fds, %d goroutines",
		len(before.descendants), before.sandboxd, len(before.mounts), len(before.tempDirs), before.fds, before.goroutines)
	t.Logf("after:  %d processes, %d helpers, %d mounts, %d temp dirs, %d fds, %d goroutines",
		len(after.descendants), after.sandboxd, len(after.mounts), len(after.tempDirs), after.fds, after.goroutines)
	if !slices.Equal(before.descendants, after.descendants) || after.sandboxd != before.sandboxd {
		t.Errorf("processes: before %v (%d helpers) after %v (%d helpers)", before.descendants, before.sandboxd, after.descendants, after.sandboxd)
	}
	if !slices.Equal(before.mounts, after.mounts) {
		t.Errorf("mounts: %q -> %q", before.mounts, after.mounts)
	}
	if !slices.Equal(before.tempDirs, after.tempDirs) {
		t.Errorf("temp dirs: %v -> %v", before.tempDirs, after.tempDirs)
	}
	// Fewer is fine: finalizers of earlier tests' factories may close theirs meanwhile.
	if after.fds > before.fds {
		t.Errorf("fds: %d -> %d", before.fds, after.fds)
	}
	if after.goroutines > before.goroutines+2 {
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Errorf("goroutines: %d -> %d\n%s", before.goroutines, after.goroutines, buf[:n])
	}
}
