package cgroup

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Limits is a caller's cgroup_parent: where machine cgroups that enforce
// CPU and memory limits are made. On cgroup v2 it is one directory with
// the cpu, memory and pids controllers delegated; on cgroup v1 it names a
// path inside one controller hierarchy (/sys/fs/cgroup/memory/a/b), and
// the same relative path (a/b) is used in the cpu, cpuacct and memory
// hierarchies, made when missing.
type Limits struct {
	V2 bool
	// Parents maps each controller to its parent directory (v2: "" only).
	Parents map[string]string
}

// v1Controllers are the hierarchies a v1 machine cgroup is made in.
var v1Controllers = []string{"cpu", "cpuacct", "memory"}

// OpenLimits checks parent and says why it cannot be used.
func OpenLimits(parent string) (*Limits, error) {
	parent = filepath.Clean(parent)
	if !filepath.IsAbs(parent) {
		return nil, fmt.Errorf("%s is not an absolute path", parent)
	}
	if isFS(parent, unix.CGROUP2_SUPER_MAGIC) {
		ctl, err := os.ReadFile(filepath.Join(parent, "cgroup.controllers"))
		if err != nil {
			return nil, err
		}
		var enable []string
		for _, c := range []string{"cpu", "memory", "pids"} {
			if !hasWord(string(ctl), c) {
				return nil, fmt.Errorf("%s: the %s controller is not delegated to it (cgroup.controllers: %q)", parent, c, strings.TrimSpace(string(ctl)))
			}
			enable = append(enable, "+"+c)
		}
		if err := os.WriteFile(filepath.Join(parent, "cgroup.subtree_control"), []byte(strings.Join(enable, " ")), 0); err != nil {
			return nil, fmt.Errorf("enabling cpu, memory and pids for the children of %s: %w", parent, err)
		}
		return &Limits{V2: true, Parents: map[string]string{"": parent}}, nil
	}
	mounts, err := v1Mounts()
	if err != nil {
		return nil, err
	}
	rel := ""
	for _, mp := range mounts {
		if r, err := filepath.Rel(mp, parent); err == nil && !strings.HasPrefix(r, "..") {
			rel = r
			break
		}
	}
	if rel == "" {
		return nil, fmt.Errorf("%s is neither on cgroup v2 nor inside a cgroup v1 hierarchy", parent)
	}
	l := &Limits{Parents: map[string]string{}}
	for _, c := range v1Controllers {
		mp, ok := mounts[c]
		if !ok {
			return nil, fmt.Errorf("no cgroup v1 %s hierarchy is mounted", c)
		}
		dir := filepath.Join(mp, rel)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("creating %s: %w", dir, err)
		}
		l.Parents[c] = dir
	}
	return l, nil
}

// v1Mounts maps each v1 controller to the mount point of its hierarchy.
func v1Mounts() (map[string]string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, fl := range fields {
			if fl == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || sep+3 >= len(fields) || fields[sep+1] != "cgroup" {
			continue
		}
		for _, opt := range strings.Split(fields[sep+3], ",") {
			for _, c := range v1Controllers {
				if opt == c {
					if _, seen := out[c]; !seen {
						out[c] = fields[4]
					}
				}
			}
		}
	}
	return out, sc.Err()
}

// LimitGroup is one machine's cgroups under a Limits: one directory on v2,
// one per hierarchy on v1.
type LimitGroup struct {
	v2   bool
	dirs map[string]string
}

// Create makes the machine's cgroups; cpus limits CPU time to that many
// CPUs (CFS quota), memoryMB the memory, with swap off. Zero means no
// limit.
func (l *Limits) Create(name string, cpus, memoryMB, pidsMax int) (*LimitGroup, error) {
	g := &LimitGroup{v2: l.V2, dirs: map[string]string{}}
	for c, parent := range l.Parents {
		dir := filepath.Join(parent, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			g.Remove()
			return nil, fmt.Errorf("creating cgroup %s: %w", dir, err)
		}
		g.dirs[c] = dir
	}
	set := func(c, file, value string) error {
		if err := os.WriteFile(filepath.Join(g.dirs[c], file), []byte(value), 0); err != nil {
			return fmt.Errorf("setting %s in %s: %w", file, g.dirs[c], err)
		}
		return nil
	}
	var err error
	if l.V2 {
		err = errors.Join(
			when(pidsMax > 0, func() error { return set("", "pids.max", strconv.Itoa(pidsMax)) }),
			when(cpus > 0, func() error { return set("", "cpu.max", fmt.Sprintf("%d 100000", cpus*100000)) }),
			when(memoryMB > 0, func() error { return set("", "memory.max", strconv.Itoa(memoryMB<<20)) }),
			when(memoryMB > 0, func() error { return set("", "memory.swap.max", "0") }),
		)
	} else {
		err = errors.Join(
			when(cpus > 0, func() error { return set("cpu", "cpu.cfs_period_us", "100000") }),
			when(cpus > 0, func() error { return set("cpu", "cpu.cfs_quota_us", strconv.Itoa(cpus*100000)) }),
			when(memoryMB > 0, func() error { return set("memory", "memory.limit_in_bytes", strconv.Itoa(memoryMB<<20)) }),
			// memsw is memory plus swap: equal to the limit, no swap at all.
			when(memoryMB > 0, func() error { return set("memory", "memory.memsw.limit_in_bytes", strconv.Itoa(memoryMB<<20)) }),
		)
	}
	if err != nil {
		g.Remove()
		return nil, err
	}
	return g, nil
}

func when(cond bool, f func() error) error {
	if !cond {
		return nil
	}
	return f()
}

// Dirs are the group's directories: a process joins the machine by being
// written to each one's cgroup.procs.
func (g *LimitGroup) Dirs() []string {
	var out []string
	for _, d := range g.dirs {
		out = append(out, d)
	}
	return out
}

// Join moves the calling process into every directory of the group (its
// children are then born inside).
func (g *LimitGroup) Join() error {
	self := strconv.Itoa(os.Getpid())
	for _, d := range g.dirs {
		if err := AddProcess(d, self); err != nil {
			return fmt.Errorf("joining %s: %w", d, err)
		}
	}
	return nil
}

// Kill SIGKILLs every process of the group until it is empty.
func (g *LimitGroup) Kill() error {
	var errs []error
	for _, d := range g.dirs {
		errs = append(errs, (&Group{dir: d, v2: g.v2}).Kill())
	}
	return errors.Join(errs...)
}

// Remove deletes the group's directories.
func (g *LimitGroup) Remove() error {
	var errs []error
	for _, d := range g.dirs {
		errs = append(errs, (&Group{dir: d, v2: g.v2}).Remove())
	}
	return errors.Join(errs...)
}

// Usage is the CPU time (nanoseconds) the group's processes have used and
// its peak memory (bytes), as far as the kernel reports them (0 if not).
func (g *LimitGroup) Usage() (cpuNs, peakBytes uint64) {
	read := func(c, file string) string {
		data, _ := os.ReadFile(filepath.Join(g.dirs[c], file))
		return strings.TrimSpace(string(data))
	}
	if g.v2 {
		for _, line := range strings.Split(read("", "cpu.stat"), "\n") {
			if v, ok := strings.CutPrefix(line, "usage_usec "); ok {
				us, _ := strconv.ParseUint(v, 10, 64)
				cpuNs = us * 1000
			}
		}
		peakBytes, _ = strconv.ParseUint(read("", "memory.peak"), 10, 64)
		return
	}
	cpuNs, _ = strconv.ParseUint(read("cpuacct", "cpuacct.usage"), 10, 64)
	peakBytes, _ = strconv.ParseUint(read("memory", "memory.max_usage_in_bytes"), 10, 64)
	return
}

// ResetPeak starts a new peak-memory measurement where the kernel allows
// it (cgroup v1's max_usage_in_bytes; v2's memory.peak since Linux 6.12).
func (g *LimitGroup) ResetPeak() {
	if g.v2 {
		os.WriteFile(filepath.Join(g.dirs[""], "memory.peak"), []byte("0"), 0)
		return
	}
	os.WriteFile(filepath.Join(g.dirs["memory"], "memory.max_usage_in_bytes"), []byte("0"), 0)
}

// Sweep removes the empty machine cgroups named with prefix that a killed
// host process left (see Support.Sweep; it never kills).
func (l *Limits) Sweep(prefix string) {
	for _, parent := range l.Parents {
		(&Support{parent: parent}).Sweep(prefix)
	}
}
