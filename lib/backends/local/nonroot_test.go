package local

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/helpers"
	"github.com/shellbox/shellbox/lib/helpers/helperstest"
	"github.com/shellbox/shellbox/lib/machine"
)

// TestNonRootLimits runs this test binary as nobody (a host without root,
// where the sandbox has a user namespace and no cgroup): commands get
// RLIMIT_NPROC = the user's host tasks + 256, RLIMIT_FSIZE 1 GiB and
// RLIMIT_CORE 0, and cannot raise them.
func TestNonRootLimits(t *testing.T) {
	if os.Getenv("SHELLBOX_NONROOT_CHILD") == "1" {
		nonRootChild(t)
		return
	}
	t.Logf("%s", asNobody(t, "TestNonRootLimits"))
}

// asNobody runs the test named name of this binary as nobody (the
// parent must be root, as CI is), with the helper and a temporary
// directory nobody can reach, and returns its output once it passed.
// The child sees SHELLBOX_NONROOT_CHILD=1.
func asNobody(t *testing.T, name string) string {
	cmd, tmp := nobodyCommand(t, name)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: "+name) {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
	left, _ := os.ReadDir(tmp)
	for _, e := range left {
		if strings.HasPrefix(e.Name(), machineDirPrefix) {
			t.Fatalf("the child left the machine directory %s", e.Name())
		}
	}
	return string(out)
}

// nobodyCommand is the command asNobody runs, and the child's TMPDIR.
func nobodyCommand(t *testing.T, name string) (*exec.Cmd, string) {
	if os.Geteuid() != 0 {
		t.Skip("the parent switches to nobody, which needs root (CI runs as root)")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatalf("setpriv (util-linux) is needed: %v", err)
	}
	// nobody must reach the test binary, the helper and a temp directory.
	dir, err := os.MkdirTemp("", "nonroot-test-") // t.TempDir's parent is private
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	bin := filepath.Join(dir, "local.test")
	copyFile(t, os.Args[0], bin)
	helper, err := helpers.Path("shellbox-sandboxd")
	if err != nil {
		helperstest.Build(t)
		helper, _ = helpers.Path("shellbox-sandboxd")
	}
	os.Mkdir(filepath.Join(dir, "bin"), 0o755)
	copyFile(t, helper, filepath.Join(dir, "bin", "shellbox-sandboxd"))
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o777)
	os.Chmod(tmp, 0o1777)
	cmd := exec.Command(setpriv, "--reuid", "65534", "--regid", "65534", "--clear-groups", bin,
		"-test.run=^"+name+"$", "-test.v")
	cmd.Env = []string{"SHELLBOX_NONROOT_CHILD=1", "SHELLBOX_BIN_DIR=" + filepath.Join(dir, "bin"),
		"TMPDIR=" + tmp, "HOME=" + tmp, "PATH=" + os.Getenv("PATH")}
	return cmd, tmp
}

func nonRootChild(t *testing.T) {
	f := newFactory(t, Options{})
	m := newMachine(t, f, hostSpec())
	tasks := userTasks(os.Geteuid())
	r := run(t, m, sh(`grep -E '^Max (processes|file size|core file size)' /proc/self/limits; ulimit -u unlimited 2>/dev/null && echo raised; id -u`))
	out := string(r.Stdout)
	t.Logf("host tasks of uid %d: %d\n%s", os.Geteuid(), tasks, out)
	m1 := regexp.MustCompile(`Max processes\s+(\d+)\s+(\d+)`).FindStringSubmatch(out)
	if m1 == nil || m1[1] != m1[2] {
		t.Fatalf("no fixed process limit:\n%s", out)
	}
	// The count was taken when the machine started; this test's own
	// threads come and go a little.
	if n, _ := strconv.Atoi(m1[1]); n < processHeadroom+1 || n > tasks+processHeadroom+32 {
		t.Fatalf("process limit %d, want about %d + %d", n, tasks, processHeadroom)
	}
	if !matches(`Max file size\s+1073741824\s+1073741824`, out) || !matches(`Max core file size\s+0\s+0`, out) {
		t.Fatalf("limits:\n%s", out)
	}
	if strings.Contains(out, "raised") {
		t.Fatalf("a command raised its process limit:\n%s", out)
	}
	// Without a pids cgroup (nobody cannot make one here) a task that
	// needs a process limit is told so.
	err := f.CheckEnvironment(machine.Requirements{Capabilities: []string{"process_limit"}}, hostSpec())
	var us *machine.UnsupportedSpec
	switch {
	case f.cgroups.Available() && err != nil:
		t.Fatalf("with a pids cgroup: %v", err)
	case !f.cgroups.Available() && (!errors.As(err, &us) || us.Field != "capabilities" || !strings.Contains(us.Reason, "pids cgroup")):
		t.Fatalf("without a pids cgroup: %v", err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
