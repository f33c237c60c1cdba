package guest

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// Memory protection: a command that allocates without bound must not take
// the machine with it. PID 1 and the agent are exempt from the OOM killer
// (oom_score_adj -1000) and every command runs in the cgroup below, whose
// memory.max leaves the kernel and the agent a reserve: a memory bomb is
// OOM-killed inside the cgroup (its command ends with SIGKILL, exit 137)
// and the agent keeps serving.

// CommandCgroup is the cgroup v2 directory every command starts in.
const CommandCgroup = "/sys/fs/cgroup/commands"

// memoryReserve is what commands leave to the kernel and the agent: an
// eighth of the memory, at least 48 MiB.
func memoryReserve(total int64) int64 { return max(total/8, 48<<20) }

// protectMemory makes PID 1 (and the agent it starts, which inherits it)
// unkillable by the OOM killer and creates the commands' cgroup with its
// memory bound.
func protectMemory() error {
	if err := os.WriteFile("/proc/self/oom_score_adj", []byte("-1000"), 0); err != nil {
		return fmt.Errorf("oom_score_adj: %w", err)
	}
	if err := mount("cgroup2", "/sys/fs/cgroup", "cgroup2", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return err
	}
	if err := os.WriteFile("/sys/fs/cgroup/cgroup.subtree_control", []byte("+memory"), 0); err != nil {
		return fmt.Errorf("enabling the memory controller: %w", err)
	}
	if err := os.Mkdir(CommandCgroup, 0o755); err != nil {
		return err
	}
	total, err := memTotal()
	if err != nil {
		return err
	}
	limit := max(total-memoryReserve(total), 16<<20)
	if err := os.WriteFile(CommandCgroup+"/memory.max", []byte(strconv.FormatInt(limit, 10)), 0); err != nil {
		return fmt.Errorf("memory.max: %w", err)
	}
	return nil
}

// oomKills counts the commands' cgroup's OOM kills already reported.
var oomKills atomic.Int64

// oomKillNote explains a command's SIGKILL when the commands' cgroup had
// an OOM kill since the last one reported (execd.ServeOptions.KillNote).
func oomKillNote() string {
	b, err := os.ReadFile(CommandCgroup + "/memory.events")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "oom_kill "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			if old := oomKills.Load(); n > old && oomKills.CompareAndSwap(old, n) {
				limit, _ := os.ReadFile(CommandCgroup + "/memory.max")
				mib, _ := strconv.ParseInt(strings.TrimSpace(string(limit)), 10, 64)
				return fmt.Sprintf("shellbox: killed by the guest's out-of-memory killer (commands share %d MiB of the machine's memory)\n", mib>>20)
			}
		}
	}
	return ""
}

// memTotal is MemTotal of /proc/meminfo in bytes.
func memTotal() (int64, error) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("MemTotal %q: %w", v, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("/proc/meminfo has no MemTotal")
}
