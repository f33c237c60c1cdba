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
	if pid <= 0 || id == "" {
		return 0
	}
	dirs := containerCgroupDirs(id, pid)
	if dirs == nil {
		return 0
	}
	killed := 0
	if unix.Kill(pid, unix.SIGKILL) == nil {
		killed++
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

// containerCgroupDirs are the cgroup directories of pid under
// /sys/fs/cgroup (the pids controller's on cgroup v1, the unified one on
// v2), or nil unless every path names container id.
func containerCgroupDirs(id string, pid int) []string {
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
