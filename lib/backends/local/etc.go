package local

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
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

// write creates the template under dir (a machine's /etc).
func (t etcTemplate) write(dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return err
	}
	for _, e := range t {
		p := filepath.Join(dir, e.rel)
		var err error
		switch {
		case e.mode&fs.ModeDir != 0:
			if err = os.Mkdir(p, e.mode.Perm()); os.IsExist(err) {
				err = nil
			}
		case e.mode&fs.ModeSymlink != 0:
			err = os.Symlink(e.target, p)
		default:
			err = os.WriteFile(p, e.data, e.mode.Perm())
		}
		if err != nil {
			return err
		}
	}
	return nil
}
