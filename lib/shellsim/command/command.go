package command

import (
	"errors"
	"io"
	"io/fs"
	"time"
)

// Trust says how faithfully a command models its GNU/BusyBox namesake.
type Trust string

const (
	// Real: the supported flags behave like the real command.
	Real Trust = "real"
	// Partial: common uses work; some flags or behaviours are missing and
	// every use of a missing one is recorded through System.Partial.
	Partial Trust = "partial"
	// Unsupported: the name exists only to fail loudly (exit 127) and be
	// recorded in the report.
	Unsupported Trust = "unsupported"
)

// Invocation is everything one run of a command sees.
type Invocation struct {
	Args   []string // Args[0] is the name the command was called by
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Dir    string // absolute working directory
	Env    Env
	FS     FS
	Sys    System
}

// Abs resolves p against the invocation's working directory.
func (inv *Invocation) Abs(p string) string { return Join(inv.Dir, p) }

// Env is the process environment (exported variables only).
type Env interface {
	Get(name string) (string, bool)
	Environ() []string // "NAME=value", sorted
}

// Func runs one command and returns its exit status. A command must return
// promptly when a write fails, when Sys.Charge returns an error, or when
// Sys.Sleep returns an error: those mean the process is being stopped (broken
// pipe, signal, resource exhaustion), and the executor decides the status.
type Func func(inv *Invocation) int

// Entry is one row of the command table.
type Entry struct {
	Name  string
	Trust Trust
	Run   Func
}

// System is the metered, virtual world a command runs in. All time is
// virtual; nothing here touches the host.
type System interface {
	// Charge spends CPU fuel (1 unit = 1 µs of modeled CPU). Commands charge
	// per byte or element of work. A non-nil error means stop now.
	Charge(units int64) error
	// Reserve models working-set memory; call release when done. A non-nil
	// error (memory exhausted) means stop now.
	Reserve(bytes int64) (release func(), err error)
	// Now is the virtual wall clock (epoch 2025-01-01T00:00:00Z at start).
	Now() time.Time
	// Uptime is the virtual monotonic clock.
	Uptime() time.Duration
	// Sleep advances this process's virtual time without blocking the host.
	// It returns an error when the process is signalled meanwhile.
	Sleep(d time.Duration) error
	// Partial and Unsupported record the use of a missing feature, e.g.
	// Partial("sort --parallel").
	Partial(feature string)
	Unsupported(feature string)
	// Exec runs another command (or script, or function) as a child process,
	// as xargs, find -exec, env, timeout and nice do. It returns the child's
	// exit status. A timeout of 0 means none.
	Exec(req ExecRequest) (status int, err error)
	// Processes lists live logical processes, for ps.
	Processes() []Process
	// PID is this process's id; PPID its parent's.
	PID() int
	PPID() int
	// Identity of the simulated machine.
	Hostname() string
	Users() Users
	// Limits returns the memory limit (bytes) for free/meminfo and the disk
	// quota (bytes) and usage for df.
	MemoryLimit() int64
	Disk() (quota, used int64)
}

// ExecRequest describes a child process started by a command.
type ExecRequest struct {
	Args      []string
	Env       []string // nil: inherit
	Dir       string   // "": inherit
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer
	Timeout   time.Duration // for timeout(1): signal the child after this virtual time
	Signal    int           // signal sent on timeout (default 15)
	KillAfter time.Duration
}

// Process describes a logical process for ps and /proc.
type Process struct {
	PID, PPID, PGID int
	State           string // "R", "S", "Z", "T"
	Cmdline         []string
	Start           time.Duration // monotonic start time
	CPU             time.Duration
}

// Users maps ids to names for ls -l, id, stat, chown.
type Users interface {
	UID() int
	GID() int
	UserName(uid int) (string, bool)
	GroupName(gid int) (string, bool)
	LookupUser(name string) (int, bool)
	LookupGroup(name string) (int, bool)
}

// ErrStopped is returned (wrapped) by System methods when the process must
// stop; commands just return any status on seeing it.
var ErrStopped = errors.New("process stopped")

// FS is the virtual filesystem seen by commands. Every path is absolute and
// clean (use Invocation.Abs). Errors are *fs.PathError wrapping fs.ErrNotExist,
// fs.ErrExist, fs.ErrPermission, or this package's ErrIsDir, ErrNotDir,
// ErrNotEmpty, ErrNoSpace, ErrLoop, ErrReadOnly; Message(err) gives the text
// a GNU tool prints ("No such file or directory").
type FS interface {
	Stat(path string) (FileInfo, error)      // follows symlinks
	Lstat(path string) (FileInfo, error)     // does not follow the last element
	ReadDir(path string) ([]FileInfo, error) // sorted by name, without . and ..
	ReadFile(path string) ([]byte, error)
	Open(path string) (File, error)                                 // read-only
	OpenFile(path string, flag int, perm fs.FileMode) (File, error) // os.O_* flags
	WriteFile(path string, data []byte, perm fs.FileMode) error
	Mkdir(path string, perm fs.FileMode) error
	MkdirAll(path string, perm fs.FileMode) error
	Remove(path string) error // file, symlink or empty directory
	RemoveAll(path string) error
	Rename(oldpath, newpath string) error
	Symlink(target, link string) error
	Link(oldpath, newpath string) error
	Readlink(path string) (string, error)
	Chmod(path string, mode fs.FileMode) error
	Chown(path string, uid, gid int) error
	Chtimes(path string, mtime time.Time) error // zero mtime: now, from the filesystem's clock
	Realpath(path string) (string, error)       // resolves every symlink
}

// File is an open file in the virtual filesystem.
type File interface {
	io.Reader
	io.Writer
	io.Seeker
	io.Closer
	Truncate(size int64) error
	Stat() (FileInfo, error)
}

// FileInfo describes a node. Mode carries the type bits of io/fs
// (fs.ModeDir, fs.ModeSymlink, fs.ModeNamedPipe, fs.ModeCharDevice) and the
// permission bits, with fs.ModeSetuid/Setgid/Sticky for the special bits.
type FileInfo struct {
	Name    string
	Mode    fs.FileMode
	Size    int64
	ModTime time.Time
	UID     int
	GID     int
	Nlink   int
	Ino     uint64
	Target  string // symlink target, for Lstat of a symlink
}

func (fi FileInfo) IsDir() bool { return fi.Mode.IsDir() }
