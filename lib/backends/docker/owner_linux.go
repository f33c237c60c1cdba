package docker

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// ownerID identifies this process across PID reuse: the boot id, the pid
// and the process's start time in clock ticks since boot.
func ownerID() string {
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	pid := os.Getpid()
	start, ok := startTime(pid)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s/%d/%s", strings.TrimSpace(string(boot)), pid, start)
}

// startTime is field 22 of /proc/<pid>/stat.
func startTime(pid int) (string, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	// The command name (field 2) may hold spaces and parentheses.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return "", false
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 20 {
		return "", false
	}
	return fields[19], true
}

// ownerAlive says whether the owner named by an ownerID of this boot is
// still running (a malformed id counts as alive: never remove what we
// cannot account for).
func ownerAlive(owner string) bool {
	parts := strings.Split(owner, "/")
	if len(parts) != 3 {
		return true
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return true
	}
	start, ok := startTime(pid)
	return ok && start == parts[2]
}
