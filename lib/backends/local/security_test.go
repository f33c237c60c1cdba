package local

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The tests in this file play a hostile guest: each one is a reproducer
// from issue 10 and checks the host afterwards.

func requireRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the attack needs a guest running as host root (CI runs as root)")
	}
}

// restoreSysctl puts a host sysctl back if a test changed it, so that a
// run against a vulnerable build does not leave the host broken.
func restoreSysctl(t *testing.T, p string) string {
	t.Helper()
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if now, _ := os.ReadFile(p); !bytes.Equal(now, orig) {
			os.WriteFile(p, orig, 0o644)
		}
	})
	return string(orig)
}

// TestCorePatternEscape is issue 10 §1.1: a root guest that knows its host
// root path points the host's core_pattern at a script of its own and
// crashes; the script would run on the host as root.
func TestCorePatternEscape(t *testing.T) {
	requireRoot(t)
	orig := restoreSysctl(t, "/proc/sys/kernel/core_pattern")
	restoreSysctl(t, "/proc/sys/fs/lease-break-time")
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	// The worst case: the guest knows its host root (today it reads it
	// from /proc/1/cmdline).
	hostRoot := m.Root()
	script := fmt.Sprintf(`
printf '#!/bin/sh\necho ran > %[1]s/tmp/ran\n' > /tmp/h.sh; chmod 755 /tmp/h.sh
echo "|%[1]s/tmp/h.sh" > /proc/sys/kernel/core_pattern; echo "core_pattern=$?"
echo 99 > /proc/sys/fs/lease-break-time; echo "lease=$?"
ulimit -c unlimited 2>/dev/null
sh -c 'kill -SEGV $$'
true`, hostRoot)
	r := run(t, m, sh(script))
	time.Sleep(500 * time.Millisecond) // a core handler runs asynchronously
	now, _ := os.ReadFile("/proc/sys/kernel/core_pattern")
	if string(now) != orig {
		t.Errorf("the guest changed the host's core_pattern to %q (output %q %q)", now, r.Stdout, r.Stderr)
	}
	if _, err := os.Stat(filepath.Join(hostRoot, "tmp", "ran")); err == nil {
		t.Errorf("the guest's script ran on the host")
	}
	if !bytes.Contains(r.Stdout, []byte("core_pattern=")) || bytes.Contains(r.Stdout, []byte("core_pattern=0")) || bytes.Contains(r.Stdout, []byte("lease=0")) {
		t.Errorf("writes to /proc/sys did not fail: %q %q", r.Stdout, r.Stderr)
	}
}

// TestHostKnobsReadOnly opens for writing (without writing) every file
// under the host-global parts of /proc and under /sys, as root.
func TestHostKnobsReadOnly(t *testing.T) {
	requireRoot(t)
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	script := `
for f in $(find /proc/sys /proc/sysrq-trigger /proc/irq /proc/bus /proc/fs /proc/acpi /proc/scsi /proc/driver /sys -xdev -type f 2>/dev/null); do
  if true 2>/dev/null >>"$f"; then echo "writable: $f"; fi
done
for d in /sys /sys/kernel /proc/sys/fs/binfmt_misc; do
  if true 2>/dev/null >"$d/shellbox-x"; then echo "created: $d/shellbox-x"; fi
done
mkdir /sys/x 2>/dev/null && echo "mkdir in /sys"
n=$(find /proc/sys -type f 2>/dev/null | wc -l); echo "proc-sys-files=$n"
ls -A /sys | wc -l
true`
	r := run(t, m, sh(script))
	out := string(r.Stdout)
	if strings.Contains(out, "writable:") || strings.Contains(out, "created:") || strings.Contains(out, "mkdir in") {
		t.Fatalf("host knobs writable from the guest:\n%s", out)
	}
	if !strings.Contains(out, "proc-sys-files=") || strings.Contains(out, "proc-sys-files=0\n") {
		t.Fatalf("the scan saw no /proc/sys files, so it proved nothing: %q %q", out, r.Stderr)
	}
	if !strings.HasSuffix(out, "\n0\n") {
		t.Fatalf("/sys is not empty: %q", out)
	}
}

// TestGuestSeesNoHostPaths: the guest must not learn where its files live
// on the host (the first step of the core_pattern escape).
func TestGuestSeesNoHostPaths(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	r := run(t, m, sh(`for f in /proc/[0-9]*/cmdline /proc/[0-9]*/environ /proc/[0-9]*/status /proc/self/cgroup /proc/self/mounts; do cat "$f" 2>/dev/null; echo; done | tr '\0' ' '`))
	for _, leak := range []string{m.dir, filepath.Base(m.dir), os.TempDir() + "/shellbox-"} {
		if bytes.Contains(r.Stdout, []byte(leak)) {
			t.Fatalf("the guest sees the host path %s:\n%s", leak, r.Stdout)
		}
	}
	if !bytes.Contains(r.Stdout, []byte(helperPath)) {
		t.Fatalf("the scan did not see the helper's command line: %q", r.Stdout)
	}
}

// TestInheritedDescriptorsDoNotReachGuest is issue 10 §1.2: a descriptor
// the embedding process left inheritable (here a host directory) must not
// reach any process of the sandbox.
func TestInheritedDescriptorsDoNotReachGuest(t *testing.T) {
	secretDir := t.TempDir()
	os.WriteFile(filepath.Join(secretDir, "secret"), []byte("host secret"), 0o644)
	fd, err := unix.Open(secretDir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, 0); err != nil { // not close-on-exec
		t.Fatal(err)
	}
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	r := run(t, m, sh(`ls /proc/self/fd | tr '\n' ' '; echo; cat /proc/self/fd/`+strconv.Itoa(fd)+`/secret 2>&1; for p in /proc/[0-9]*/fd/*; do readlink "$p"; done 2>/dev/null`))
	lines := strings.SplitN(string(r.Stdout), "\n", 2)
	// ls itself holds one descriptor open on /proc/self/fd.
	if lines[0] != "0 1 2 3 " {
		t.Errorf("a command has descriptors %q, want 0 1 2 (and ls's own 3)", lines[0])
	}
	if bytes.Contains(r.Stdout, []byte("host secret")) || bytes.Contains(r.Stdout, []byte(secretDir)) {
		t.Errorf("the guest reached the inherited directory:\n%s", r.Stdout)
	}
	// The helper itself (PID 1) holds only its own descriptors.
	helperFDs, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", m.helperPID()))
	for _, e := range helperFDs {
		if target, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", m.helperPID(), e.Name())); target == secretDir {
			t.Errorf("the helper holds the inherited descriptor %s", e.Name())
		}
	}
}

// helperPID is the host pid of the machine's helper.
func (m *Machine) helperPID() int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		cl, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.HasPrefix(cl, []byte(helperPath+"\x00")) {
			continue
		}
		if link, err := os.Readlink("/proc/" + e.Name() + "/root"); err == nil && link == "/" {
			continue
		}
		// The helper's root is the machine's root directory.
		var st1, st2 unix.Stat_t
		if unix.Stat("/proc/"+e.Name()+"/root/.", &st1) == nil && unix.Stat(m.Root(), &st2) == nil && st1.Ino == st2.Ino && st1.Dev == st2.Dev {
			pid, _ := strconv.Atoi(e.Name())
			return pid
		}
	}
	return -1
}

// TestPrivateEtc is issue 10 §1.4: a HostImage machine sees a private copy
// of the runtime configuration, not the host's /etc and /opt.
func TestPrivateEtc(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	r := run(t, m, sh(`for f in /etc/shadow /etc/gshadow /etc/environment /etc/sudoers /etc/ssh /etc/ssl/private /etc/profile.d; do [ -e "$f" ] && echo "present: $f"; done
awk -F: 'length($2) > 1 { print "hash: " $1 }' /etc/passwd /etc/group
echo "opt-entries=$(ls -A /opt | wc -l)"
touch /etc/machine-own && echo etc-writable
getent hosts localhost >/dev/null && echo resolves
test -s /etc/resolv.conf && echo dns-config
test -s /etc/ssl/certs/ca-certificates.crt && echo ca-certs
python3 -c 'print("python ok")'; bash -c 'echo bash ok'; ls / >/dev/null && echo ls ok
id -un`))
	out := string(r.Stdout)
	if strings.Contains(out, "present:") || strings.Contains(out, "hash:") {
		t.Errorf("host secrets visible:\n%s", out)
	}
	for _, want := range []string{"opt-entries=0\n", "etc-writable", "resolves", "dns-config", "ca-certs", "python ok", "bash ok", "ls ok", "root\n"} {
		if os.Geteuid() != 0 && want == "root\n" {
			continue
		}
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s\n%s", want, out, r.Stderr)
		}
	}
	if _, err := os.Stat("/etc/machine-own"); err == nil {
		os.Remove("/etc/machine-own")
		t.Fatal("a write to the guest's /etc reached the host's")
	}
	// Each machine has its own /etc.
	m2 := newMachine(t, f, hostSpec())
	if r := run(t, m2, sh("test -e /etc/machine-own && echo shared")); strings.Contains(string(r.Stdout), "shared") {
		t.Fatal("machines share /etc")
	}
}

// TestCommandLimits: commands run with a 1 GiB file size limit and no core
// dumps, which they cannot raise.
func TestCommandLimits(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	r := run(t, m, sh(`grep -E '^Max (file size|core file size|processes)' /proc/self/limits; ulimit -f unlimited && echo raised-fsize; ulimit -c 1000 && echo raised-core; true`))
	out := string(r.Stdout)
	for _, re := range []string{"Max file size\\s+1073741824\\s+1073741824\\s+bytes", "Max core file size\\s+0\\s+0\\s+bytes"} {
		if !matches(re, out) {
			t.Errorf("limits lack %s:\n%s", re, out)
		}
	}
	if strings.Contains(out, "raised") {
		t.Errorf("a command raised its limits:\n%s", out)
	}
	r = run(t, m, sh(`head -c 1073741825 /dev/zero > /tmp/big; echo "status=$?"; stat -c %s /tmp/big; rm -f /tmp/big`))
	if !strings.Contains(string(r.Stdout), "\n1073741824\n") || strings.Contains(string(r.Stdout), "status=0") {
		t.Errorf("a command wrote past 1 GiB: %q %q", r.Stdout, r.Stderr)
	}
}

// TestNoZombiesAfterCycles is issue 10 §1.6: create/run/close leaves no
// zombie reparented to host PID 1 or to this process.
func TestNoZombiesAfterCycles(t *testing.T) {
	// Orphans come to this process instead of host PID 1, which here may
	// reap them (an evaluation worker's container often has no such init).
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	defer unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)
	f := newFactory(t, Options{})
	ctx := context.Background()
	before := zombies()
	for range 60 {
		m, err := f.Create(ctx, hostSpec())
		if err != nil {
			t.Fatal(err)
		}
		if r, err := m.Run(ctx, sh("sleep 100 & true")); err != nil || code(r) != 0 {
			t.Fatalf("run: %+v %v", r, err)
		}
		if err := m.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var extra []int
	for range 50 { // a reaper may be a moment late
		extra = extra[:0]
		for pid := range zombies() {
			if !before[pid] {
				extra = append(extra, pid)
			}
		}
		if len(extra) == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("zombies after 60 cycles: %d", len(extra))
	if len(extra) > 0 {
		t.Fatalf("%d zombies left: %v", len(extra), extra)
	}
}

// zombies are zombie processes whose parent is this process. The test is a
// subreaper, so every orphan of ours comes here; zombies of host PID 1 are
// left out because other test packages running at the same time (dockerd's
// containerd-shims) leave theirs there.
func zombies() map[int]bool {
	out := map[int]bool{}
	entries, _ := os.ReadDir("/proc")
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(st)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		if ppid, _ := strconv.Atoi(f[1]); f[0] == "Z" && ppid == self {
			out[pid] = true
		}
	}
	return out
}

func matches(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }
