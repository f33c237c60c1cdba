// Package cgroup gives each local machine a cgroup with a pids limit, on
// cgroup v2 or on a cgroup v1 pids hierarchy, and kills and removes it.
package cgroup

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Support is where this process may create machine cgroups.
type Support struct {
	parent string // machine cgroups are created here
	home   string // cgroup v1: this process's own pids cgroup
	v2     bool
	// Reason says why cgroups are unavailable ("" when they are).
	Reason string
}

// Available says whether machines get a cgroup.
func (s *Support) Available() bool { return s != nil && s.parent != "" }

// Home is the v1 cgroup a launcher returns to after starting bubblewrap.
func (s *Support) Home() string { return s.home }

// Detect finds a pids controller this process can use: cgroup v2 under its
// own cgroup when that is the hierarchy's root, else under a "shellbox"
// cgroup at the root; or the cgroup v1 pids hierarchy under its own cgroup.
// It proves the choice by creating and removing a cgroup.
func Detect() *Support {
	s := &Support{}
	var reasons []string
	try := func(parent string, v2 bool, home string) bool {
		if err := s.prepare(parent, v2); err != nil {
			reasons = append(reasons, err.Error())
			return false
		}
		s.parent, s.v2, s.home = parent, v2, home
		probe, err := s.Create(fmt.Sprintf("shellbox-probe-%d", os.Getpid()), 16)
		if err != nil {
			reasons = append(reasons, err.Error())
			s.parent = ""
			return false
		}
		probe.Remove()
		return true
	}
	own := ownCgroups()
	if isFS("/sys/fs/cgroup", unix.CGROUP2_SUPER_MAGIC) {
		if p, ok := own[""]; ok && p == "/" && try("/sys/fs/cgroup", true, "") {
			return s
		}
		if try("/sys/fs/cgroup/shellbox", true, "") {
			return s
		}
	} else {
		if p, ok := own["pids"]; ok && isFS("/sys/fs/cgroup/pids", unix.CGROUP_SUPER_MAGIC) {
			home := filepath.Join("/sys/fs/cgroup/pids", p)
			if try(home, false, home) {
				return s
			}
		} else {
			reasons = append(reasons, "no cgroup v1 pids hierarchy at /sys/fs/cgroup/pids")
		}
		if p, ok := own[""]; ok && p == "/" && isFS("/sys/fs/cgroup/unified", unix.CGROUP2_SUPER_MAGIC) && try("/sys/fs/cgroup/unified", true, "") {
			return s
		}
	}
	if len(reasons) == 0 {
		reasons = append(reasons, "no cgroup hierarchy with a pids controller")
	}
	s.Reason = strings.Join(reasons, "; ")
	return s
}

// prepare makes parent exist with the pids controller enabled for its
// children (cgroup v2).
func (s *Support) prepare(parent string, v2 bool) error {
	if err := os.Mkdir(parent, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("creating %s: %w", parent, err)
	}
	if !v2 {
		return nil
	}
	ctl, err := os.ReadFile(filepath.Join(parent, "cgroup.controllers"))
	if err != nil {
		return err
	}
	if !hasWord(string(ctl), "pids") {
		return fmt.Errorf("%s: the pids controller is not available", parent)
	}
	sub, err := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control"))
	if err != nil {
		return err
	}
	if !hasWord(string(sub), "pids") {
		if err := os.WriteFile(filepath.Join(parent, "cgroup.subtree_control"), []byte("+pids"), 0); err != nil {
			return fmt.Errorf("enabling pids in %s: %w", parent, err)
		}
	}
	return nil
}

// Create makes a machine cgroup allowing at most pidsMax tasks.
func (s *Support) Create(name string, pidsMax int) (*Group, error) {
	dir := filepath.Join(s.parent, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating cgroup %s: %w", dir, err)
	}
	g := &Group{dir: dir, v2: s.v2}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(pidsMax)), 0); err != nil {
		g.Remove()
		return nil, fmt.Errorf("setting pids.max in %s: %w", dir, err)
	}
	return g, nil
}

// Sweep removes the empty machine cgroups named with prefix that are
// older than a minute (left by a launcher that was killed; a younger one
// may be a machine that is starting). It never kills: a cgroup with
// processes belongs to a live machine, perhaps of a process with another
// temp directory.
func (s *Support) Sweep(prefix string) {
	if !s.Available() {
		return
	}
	entries, _ := os.ReadDir(s.parent)
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Minute {
			unix.Rmdir(filepath.Join(s.parent, e.Name())) // EBUSY while in use
		}
	}
}

// Group is one machine's cgroup.
type Group struct {
	dir string
	v2  bool
}

// Open names an existing cgroup directory.
func Open(dir string) *Group {
	return &Group{dir: dir, v2: isFS(dir, unix.CGROUP2_SUPER_MAGIC)}
}

func (g *Group) Dir() string { return g.dir }
func (g *Group) V2() bool    { return g.v2 }

// Kill SIGKILLs every process in the cgroup until it is empty (cgroup v2
// does it in one step with cgroup.kill; on v1 the pids limit keeps a fork
// bomb from outrunning the loop).
func (g *Group) Kill() error {
	if g.v2 {
		if err := os.WriteFile(filepath.Join(g.dir, "cgroup.kill"), []byte("1"), 0); err == nil {
			return g.waitEmpty()
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids, err := g.procs()
		if err != nil || len(pids) == 0 {
			return err
		}
		for _, p := range pids {
			syscall.Kill(p, syscall.SIGKILL)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroup %s: %d processes survive SIGKILL", g.dir, len(pids))
		}
		time.Sleep(time.Millisecond)
	}
}

func (g *Group) waitEmpty() error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids, err := g.procs()
		if err != nil || len(pids) == 0 {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cgroup %s: %d processes survive cgroup.kill", g.dir, len(pids))
		}
		time.Sleep(time.Millisecond)
	}
}

func (g *Group) procs() ([]int, error) {
	f, err := os.Open(filepath.Join(g.dir, "cgroup.procs"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var pids []int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if p, err := strconv.Atoi(strings.TrimSpace(sc.Text())); err == nil {
			pids = append(pids, p)
		}
	}
	return pids, sc.Err()
}

// Remove deletes the cgroup, waiting briefly for exiting tasks to leave.
func (g *Group) Remove() error {
	deadline := time.Now().Add(5 * time.Second)
	for {
		err := unix.Rmdir(g.dir)
		if err == nil || errors.Is(err, unix.ENOENT) {
			return nil
		}
		if !errors.Is(err, unix.EBUSY) || time.Now().After(deadline) {
			return fmt.Errorf("removing cgroup %s: %w", g.dir, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// AddProcess moves a process (a pid in decimal) into the cgroup directory.
func AddProcess(dir, pid string) error {
	return os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(pid), 0)
}

// ownCgroups maps each controller list of /proc/self/cgroup ("" for cgroup
// v2) to this process's path; v1 lines are also keyed by each controller.
func ownCgroups() map[string]string {
	out := map[string]string{}
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return out
	}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		out[parts[1]] = parts[2]
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out
}

func isFS(p string, magic int64) bool {
	var st unix.Statfs_t
	return unix.Statfs(p, &st) == nil && int64(st.Type) == magic
}

func hasWord(s, w string) bool {
	for _, f := range strings.Fields(s) {
		if f == w {
			return true
		}
	}
	return false
}
