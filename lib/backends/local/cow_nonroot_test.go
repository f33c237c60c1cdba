package local

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNonRootCopyOnWrite runs copy_on_write machines as nobody: a command
// changes /usr and /etc, the machine keeps the change, another machine and
// the host never see it, and after Close no fuse-overlayfs server, mount
// or layer is left.
func TestNonRootCopyOnWrite(t *testing.T) {
	if os.Getenv("SHELLBOX_NONROOT_CHILD") == "1" {
		nonRootCopyOnWriteChild(t)
		return
	}
	before := fuseServers(t, -1)
	out := asNobody(t, "TestNonRootCopyOnWrite")
	t.Logf("%s", out)
	if after := fuseServers(t, -1); len(after) > len(before) {
		t.Fatalf("fuse-overlayfs servers left: %v (before: %v)", after, before)
	}
}

func nonRootCopyOnWriteChild(t *testing.T) {
	f := newFactory(t, Options{SystemDirectories: "copy_on_write"})
	first := newMachine(t, f, hostSpec())
	second := newMachine(t, f, hostSpec())
	const marker = "/usr/bin/shellbox-cow-nonroot"
	r := run(t, first, sh(`id -u; echo mine > `+marker+` && rm /usr/bin/true && echo '10.9.9.9 cow' >> /etc/hosts && echo mine > /etc/shellbox-cow && grep CapEff /proc/self/status`))
	if code(r) != 0 || !strings.HasPrefix(string(r.Stdout), strconv.Itoa(os.Getuid())+"\n") ||
		!strings.Contains(string(r.Stdout), "CapEff:\t0000000000000000") {
		t.Fatalf("writes: %d %q %q", code(r), r.Stdout, r.Stderr)
	}
	r = run(t, first, sh(`cat `+marker+`; test -e /usr/bin/true || echo gone; grep -c cow /etc/hosts; cat /etc/shellbox-cow`))
	if string(r.Stdout) != "mine\ngone\n1\nmine\n" {
		t.Fatalf("the machine lost its writes: %q %q", r.Stdout, r.Stderr)
	}
	r = run(t, second, sh(`test -e `+marker+` || echo absent; /usr/bin/true && echo true; grep -c cow /etc/hosts`))
	if string(r.Stdout) != "absent\ntrue\n0\n" {
		t.Fatalf("another machine saw the writes: %q %q", r.Stdout, r.Stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the host sees the machine's file")
	}
	if _, err := os.Stat("/usr/bin/true"); err != nil {
		t.Fatal("the machine's delete reached the host")
	}
	if servers := fuseServers(t, os.Getuid()); len(servers) == 0 {
		t.Fatal("no fuse-overlayfs serves the running machines")
	}
	dir := first.plan.dir
	for _, m := range []*Machine{first, second} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := m.Close(ctx); err != nil {
			t.Fatal(err)
		}
		cancel()
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("machine directory %s left: %v", dir, err)
	}
	// The servers end with their machines (Close waits for the launcher,
	// which waits for everything it started).
	if servers := fuseServers(t, os.Getuid()); len(servers) != 0 {
		t.Fatalf("fuse-overlayfs servers left after Close: %v", servers)
	}
	if data, _ := os.ReadFile("/proc/self/mountinfo"); strings.Contains(string(data), "fuse-overlayfs") {
		t.Fatalf("a fuse-overlayfs mount is visible on the host:\n%s", data)
	}
}

// fuseServers lists live (not zombie) fuse-overlayfs processes of uid
// (-1: any user).
func fuseServers(t *testing.T, uid int) []string {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, p := range procs {
		stat, err := os.ReadFile(filepath.Join(p, "stat"))
		if err != nil {
			continue
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 || !strings.Contains(s[:i], "(fuse-overlayfs") || strings.HasPrefix(s[i+1:], " Z") {
			continue
		}
		if uid >= 0 {
			st, err := os.Stat(p)
			if err != nil || int(st.Sys().(*syscall.Stat_t).Uid) != uid {
				continue
			}
		}
		out = append(out, filepath.Base(p))
	}
	return out
}

// TestNonRootCopyOnWriteHostDeath kills the host process (as nobody) of a
// running copy_on_write machine: the lifeline ends the sandbox, and the
// fuse-overlayfs servers end with their namespace's stage.
func TestNonRootCopyOnWriteHostDeath(t *testing.T) {
	if os.Getenv("SHELLBOX_NONROOT_CHILD") == "1" {
		f := newFactory(t, Options{SystemDirectories: "copy_on_write"})
		m := newMachine(t, f, hostSpec())
		if r := run(t, m, sh("echo x > /usr/bin/shellbox-cow-death")); code(r) != 0 {
			t.Fatalf("%q", r.Stderr)
		}
		fmt.Println("READY")
		time.Sleep(time.Hour)
		return
	}
	before := fuseServers(t, 65534)
	cmd, _ := nobodyCommand(t, "TestNonRootCopyOnWriteHostDeath")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var seen []string
	for lines := bufio.NewScanner(out); ; {
		if !lines.Scan() {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the child did not start its machine:\n%s", strings.Join(seen, "\n"))
		}
		if lines.Text() == "READY" {
			break
		}
		seen = append(seen, lines.Text())
	}
	if servers := fuseServers(t, 65534); len(servers) <= len(before) {
		t.Fatalf("no fuse-overlayfs serves the child's machine (%v)", servers)
	}
	cmd.Process.Kill()
	cmd.Wait()
	deadline := time.Now().Add(30 * time.Second)
	for {
		servers := fuseServers(t, 65534)
		if len(servers) <= len(before) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("fuse-overlayfs servers outlived their host process: %v", servers)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
