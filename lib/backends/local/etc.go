package local

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/lib/execd"
)

// runtimeConfiguration is what a HostImage machine's private /etc holds,
// copied from the host's: what programs need to run (account databases,
// name resolution, the loader's cache, the time zone, alternatives, public
// CA certificates, shell defaults), and nothing that carries secrets or
// host policy (shadow, gshadow, environment, sudoers, ssh, ssl/private,
// profile.d, pip.conf, gitconfig...).
var runtimeConfiguration = []string{
	"alternatives", "bash.bashrc", "ca-certificates", "ca-certificates.conf", "debian_version",
	"gai.conf", "group", "host.conf", "hosts", "inputrc", "issue", "ld.so.cache", "ld.so.conf",
	"ld.so.conf.d", "localtime", "login.defs", "lsb-release", "magic", "magic.mime", "mime.types",
	"networks", "nsswitch.conf", "os-release", "passwd", "profile", "protocols", "resolv.conf", "rpc",
	"services", "shells", "skel", "ssl/cert.pem", "ssl/certs", "ssl/openssl.cnf", "terminfo", "timezone",
}

// etcBound are directories of runtimeConfiguration with hundreds of
// entries of public data (links to programs, CA certificates): a machine
// sees the host's read-only instead of a copy, which would cost more than
// the rest of Create.
var etcBound = []string{"alternatives", "ssl/certs"}

// etcEntry is one file, directory or symbolic link of the template.
type etcEntry struct {
	rel    string // relative to /etc
	mode   fs.FileMode
	data   []byte // a file's content
	target string // a link's target
	bind   string // a host directory bound read-only here
}

// etcTemplate is the host's runtime configuration, read once per factory
// and written into each machine's root.
type etcTemplate []etcEntry

// readEtc snapshots the runtime configuration under etc (the host's /etc).
func readEtc(etc string) etcTemplate {
	var t etcTemplate
	seenDir := map[string]bool{}
	addParents := func(rel string) {
		for d := filepath.Dir(rel); d != "."; d = filepath.Dir(d) {
			if !seenDir[d] {
				seenDir[d] = true
				defer func(d string) { t = append(t, etcEntry{rel: d, mode: fs.ModeDir | 0o755}) }(d)
			}
		}
	}
	for _, name := range runtimeConfiguration {
		top := filepath.Join(etc, name)
		st, err := os.Lstat(top)
		if err != nil {
			continue
		}
		addParents(name)
		if slices.Contains(etcBound, name) && st.IsDir() {
			t = append(t, etcEntry{rel: name, mode: fs.ModeDir | 0o755, bind: top})
			continue
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(top)
			abs := target
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(filepath.Dir(top), target)
			}
			// A link into /usr works in the machine; one elsewhere (say
			// resolv.conf into /run) is copied as what it leads to.
			if underAny(filepath.Clean(abs), hostSystemDirs) {
				t = append(t, etcEntry{rel: name, mode: fs.ModeSymlink, target: target})
				continue
			}
			if st, err = os.Stat(top); err != nil {
				continue
			}
		}
		if !st.IsDir() {
			if data, err := os.ReadFile(top); err == nil && st.Mode().IsRegular() {
				t = append(t, etcEntry{rel: name, mode: st.Mode().Perm(), data: sanitize(name, data)})
			}
			continue
		}
		filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(etc, p)
			info, err := d.Info()
			if err != nil {
				return nil
			}
			switch {
			case d.IsDir():
				t = append(t, etcEntry{rel: rel, mode: fs.ModeDir | info.Mode().Perm()})
			case d.Type()&fs.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				t = append(t, etcEntry{rel: rel, mode: fs.ModeSymlink, target: target})
			case d.Type().IsRegular():
				if data, err := os.ReadFile(p); err == nil {
					t = append(t, etcEntry{rel: rel, mode: info.Mode().Perm(), data: data})
				}
			}
			return nil
		})
	}
	return t
}

// sanitize drops password fields from the account databases: a hash (or
// a group password) must not reach a guest.
func sanitize(name string, data []byte) []byte {
	if name != "passwd" && name != "group" {
		return data
	}
	lines := strings.SplitAfter(string(data), "\n")
	for i, line := range lines {
		fields := strings.Split(line, ":")
		if len(fields) > 2 && !strings.HasPrefix(line, "#") {
			fields[1] = "x"
			lines[i] = strings.Join(fields, ":")
		}
	}
	return []byte(strings.Join(lines, ""))
}

// mounts binds the template's bound directories into a machine's /etc.
func (t etcTemplate) mounts() []string {
	var args []string
	for _, e := range t {
		if e.bind != "" {
			args = append(args, "--ro-bind", e.bind, path.Join("/etc", e.rel))
		}
	}
	return args
}

// etcSize bounds a machine's /etc, a tmpfs.
const etcSize = 16 << 20

// memfd puts the template's files in a sealed memory file that every
// machine's helper writes into its /etc (a tmpfs) at startup: writing
// them to disk per machine would cost more than the rest of Create.
func (t etcTemplate) memfd() (*os.File, error) {
	var entries []execd.FileEntry
	for _, e := range t {
		if e.bind == "" {
			entries = append(entries, execd.FileEntry{Path: e.rel, Mode: e.mode, Data: e.data, Link: e.target})
		}
	}
	data, err := json.Marshal(entries)
	if err != nil {
		return nil, err
	}
	fd, err := unix.MemfdCreate("shellbox-etc", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "shellbox-etc")
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, err
	}
	// Sealed: a guest that reached the descriptor could not change what
	// the next machine gets.
	if _, err := unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SEAL|unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// etcArgs mounts a machine's /etc: a small tmpfs that the helper fills
// from the template, with the bound directories read-only inside.
func (t etcTemplate) etcArgs() []string {
	args := []string{"--perms", "0755", "--size", strconv.Itoa(etcSize), "--tmpfs", "/etc"}
	return append(args, t.mounts()...)
}
