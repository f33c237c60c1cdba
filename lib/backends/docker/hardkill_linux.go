package docker

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// killContainerTasks SIGKILLs every host task of a container whose runtime
// does not stop it: a gVisor sandbox saturated by a fork bomb cannot serve
// the runtime's kill request, so the daemon's forced removal waits on it.
// It works only when the daemon runs on this host and we may signal its
// containers (root); otherwise it does nothing and the removal just takes
// longer. pid is the container's init as the daemon reports it; it is
// trusted only while /proc/<pid>/cgroup still names the container, so a
// reused PID is never killed.
func killContainerTasks(id string, pid int) int {
	if len(id) < 12 || strings.ContainsAny(id, "/.") {
		return 0
	}
	killed := 0
	dirs := containerCgroupDirs(id, pid)
	if dirs != nil && unix.Kill(pid, unix.SIGKILL) == nil {
		killed++
	}
	// The daemon may not tell us the PID (it does not answer while stuck
	// in the removal): the container's cgroup under the usual parents of
	// the cgroupfs and systemd drivers names it too.
	for _, dir := range cgroupCandidates(id) {
		if _, err := os.Stat(filepath.Join(dir, "cgroup.procs")); err == nil {
			dirs = append(dirs, dir)
		}
	}
	// The sandbox's helpers (gofer, ptrace stubs) live in the same cgroup.
	for _, dir := range dirs {
		// cgroup v2 kills the whole cgroup at once; v1 has no such file.
		_ = os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
		data, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
		if err != nil {
			continue
		}
		for _, field := range strings.Fields(string(data)) {
			if p, err := strconv.Atoi(field); err == nil && p > 0 && unix.Kill(p, unix.SIGKILL) == nil {
				killed++
			}
		}
	}
	return killed
}

// killContainerShim SIGKILLs the containerd shim that serves container
// id, when it runs on this host: the last resort for a container whose
// runtime died under it (a gVisor sandbox ended by a fork bomb) while its
// shim, never reaping it, still reports it running, so the daemon can
// neither stop nor remove it. With its shim gone, containerd reports the
// task's end and the daemon's removal completes. It reports whether a
// shim was found and killed.
func killContainerShim(id string) bool {
	if len(id) < 12 || strings.ContainsAny(id, "/.") {
		return false
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	// A container's processes are visible here too, and a guest may name
	// one like a shim: only a process of our own PID namespace (the
	// daemon's, where shims run) is taken for one.
	ours, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return false
	}
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid <= 1 {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
		if err != nil || !isShimOf(strings.Split(strings.TrimRight(string(data), "\x00"), "\x00"), id) {
			continue
		}
		if ns, err := os.Readlink(filepath.Join("/proc", p.Name(), "ns/pid")); err != nil || ns != ours {
			continue
		}
		return unix.Kill(pid, unix.SIGKILL) == nil
	}
	return false
}

// isShimOf says whether argv is a containerd shim's serving container id
// (containerd-shim-runc-v2 -namespace moby -id <id> -address ...).
func isShimOf(argv []string, id string) bool {
	if len(argv) == 0 || !strings.HasPrefix(filepath.Base(argv[0]), "containerd-shim") {
		return false
	}
	for i := 1; i+1 < len(argv); i++ {
		if argv[i] == "-id" || argv[i] == "--id" {
			return argv[i+1] == id
		}
	}
	return false
}

// initIsOf says whether host process pid belongs to container id (its
// cgroups name it): only then is its death the container's.
func initIsOf(id string, pid int) bool { return containerCgroupDirs(id, pid) != nil }

// initAlive says whether host process pid still runs (a zombie does not).
func initAlive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state ...: comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) {
		return true
	}
	switch data[i+2] {
	case 'Z', 'X', 'x':
		return false
	}
	return true
}

// containerCgroupDirs are the cgroup directories of pid under
// /sys/fs/cgroup (the pids controller's on cgroup v1, the unified one on
// v2), or nil unless every path names container id.
func containerCgroupDirs(id string, pid int) []string {
	if pid <= 0 {
		return nil
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cgroup")
	if err != nil || !bytes.Contains(data, []byte(id)) {
		return nil
	}
	var dirs []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		// hierarchy-ID:controller-list:path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 || !strings.Contains(parts[2], id) || strings.Contains(parts[2], "..") {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			dirs = append(dirs, filepath.Join("/sys/fs/cgroup", parts[2]))
		case controllerListHas(parts[1], "pids"):
			dirs = append(dirs, filepath.Join("/sys/fs/cgroup/pids", parts[2]))
		}
	}
	return dirs
}

func controllerListHas(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// initPID is the host PID of the container's init as the daemon reports
// it, or 0.
func (f *Factory) initPID(ctx context.Context, id string) int {
	insp, err := f.cli.ContainerInspect(ctx, id)
	if err != nil || insp.State == nil || !insp.State.Running {
		return 0
	}
	return insp.State.Pid
}

// taskLimitExhausted says whether the container's pids cgroup (found as
// killContainerTasks finds it, so only with a local daemon) holds as many
// tasks as its limit allows.
func taskLimitExhausted(id string) bool {
	for _, dir := range cgroupCandidates(id) {
		cur, err1 := os.ReadFile(filepath.Join(dir, "pids.current"))
		max, err2 := os.ReadFile(filepath.Join(dir, "pids.max"))
		if err1 != nil || err2 != nil {
			continue
		}
		c, err1 := strconv.Atoi(strings.TrimSpace(string(cur)))
		m, err2 := strconv.Atoi(strings.TrimSpace(string(max)))
		return err1 == nil && err2 == nil && c >= m-8
	}
	return false
}

// cgroupCandidates are the directories the cgroupfs and systemd drivers
// give a container by default (the pids hierarchy on cgroup v1, the
// unified one on v2).
func cgroupCandidates(id string) []string {
	var dirs []string
	for _, rel := range []string{"pids/docker/" + id, "pids/system.slice/docker-" + id + ".scope", "docker/" + id, "system.slice/docker-" + id + ".scope"} {
		dirs = append(dirs, filepath.Join("/sys/fs/cgroup", rel))
	}
	return dirs
}
