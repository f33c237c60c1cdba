package shellsim

import (
	"github.com/shellbox/shellbox/lib/shellsim/vfs"
)

// Checkpoint is a baseline of an environment's filesystem.
type Checkpoint struct {
	fs *vfs.FS
}

// WorkspaceRoot is the tree WorkspaceDiff compares.
const WorkspaceRoot = "/work"

// Checkpoint records the current filesystem as a baseline.
func (e *Environment) Checkpoint() *Checkpoint {
	e.mu.Lock()
	defer e.mu.Unlock()
	return &Checkpoint{fs: e.rt.FS.CloneShared()}
}

// WorkspaceDiff lists what changed under /work since cp, sorted by path:
// added, modified and deleted nodes with their type, mode and content.
func (e *Environment) WorkspaceDiff(cp *Checkpoint) []vfs.Change {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rt.FS.Diff(cp.fs, WorkspaceRoot)
}

// ResetWorkspace restores the filesystem to cp. Fuel, memory, output,
// virtual time, shell state (variables, cwd, functions) and processes are
// not rewound; the disk peak keeps its maximum. Background jobs still
// holding open files keep writing to the replaced tree, not the restored
// one.
func (e *Environment) ResetWorkspace(cp *Checkpoint) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.resetWorkspace(cp)
	e.note(func(c *Environment) { c.resetWorkspace(cp) }, 0)
}

func (e *Environment) resetWorkspace(cp *Checkpoint) {
	old := e.rt.FS
	_, _, peak := old.Usage()
	fsys := cp.fs.CloneShared()
	fsys.SetClock(e.rt.FileNow)
	fsys.RaisePeak(peak)
	e.rt.FS = fsys
	e.rt.ResetFS(fsys)
}
