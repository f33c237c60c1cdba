package local

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestHostDeathEndsSandbox kills a host process that owns a machine and
// checks that the sandbox goes away with it.
func TestHostDeathEndsSandbox(t *testing.T) {
	if os.Getenv("SHELLBOX_LOCAL_CHILD") == "1" {
		f := newFactory(t, Options{})
		m, err := f.Create(context.Background(), hostSpec())
		if err != nil {
			t.Fatal(err)
		}
		m.Run(context.Background(), sh("sleep 1000 &"))
		fmt.Println(m.(*Machine).dir)
		time.Sleep(time.Hour)
		return
	}
	newFactory(t, Options{}) // build the helper before the child needs it
	child := exec.Command(os.Args[0], "-test.run=^TestHostDeathEndsSandbox$")
	child.Env = append(os.Environ(), "SHELLBOX_LOCAL_CHILD=1")
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	dir, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		child.Process.Kill()
		t.Fatalf("child: %v", err)
	}
	dir = strings.TrimSpace(dir)
	defer os.RemoveAll(dir)
	if n := processesMentioning(dir); n == 0 {
		t.Fatal("no sandbox found for", dir)
	}
	child.Process.Kill()
	child.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for processesMentioning(dir) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("sandbox of %s survived its host", dir)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// processesMentioning counts live (non-zombie) processes whose command line
// contains s.
func processesMentioning(s string) int {
	n := 0
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cl, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !strings.Contains(string(cl), s) {
			continue
		}
		if stat, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			st := string(stat)
			if f := strings.Fields(st[strings.LastIndexByte(st, ')')+1:]); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		n++
	}
	return n
}
