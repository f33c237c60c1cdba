package files

import (
	"bufio"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// Ls lists directory contents.
//
//	ls [-laA1RdhtrSF] [FILE]...
//
// Output is what GNU ls prints to a pipe: one name per line (the simulator
// has no terminal). -l uses GNU's long format with owner names from the
// simulated user table and times from the virtual clock.
func Ls(inv *command.Invocation) int {
	spec := &getopt.Spec{
		Short: "laA1RdhtrSFUfiscCmxgonpQN",
		Long: []getopt.Long{
			{"all", "a"}, {"almost-all", "A"}, {"classify", "F"}, {"color", "color"},
			{"color=", "color"}, {"directory", "d"}, {"full-time", "full-time"},
			{"group-directories-first", "gdf"}, {"human-readable", "h"}, {"inode", "i"},
			{"numeric-uid-gid", "n"}, {"recursive", "R"}, {"reverse", "r"}, {"size", "s"},
		},
		Status:  2,
		Partial: map[string]bool{"U": true, "f": true, "c": true, "C": true, "m": true, "x": true, "Q": true, "N": false, "gdf": true, "full-time": true},
		Help:    true,
	}
	opts, operands, st, ok := getopt.Parse(inv, spec)
	if !ok {
		return st
	}
	l := &lister{inv: inv}
	for _, o := range opts {
		switch o.Name {
		case "l":
			l.long = true
		case "g":
			l.long, l.noOwner = true, true
		case "o":
			l.long, l.noGroup = true, true
		case "n":
			l.long, l.numeric = true, true
		case "a":
			l.all, l.almost = true, false
		case "A":
			l.almost, l.all = true, false
		case "R":
			l.recursive = true
		case "d":
			l.dirOnly = true
		case "h":
			l.human = true
		case "t":
			l.sortBy = 't'
		case "S":
			l.sortBy = 'S'
		case "r":
			l.reverse = true
		case "F":
			l.classify = true
		case "p":
			l.slash = true
		case "i":
			l.inode = true
		case "s":
			l.blocks = true
		case "color":
			// Without a terminal "auto" means no colour; a bare --color
			// means "always", which is not modelled.
			switch o.Val {
			case "never", "no", "none", "auto", "tty", "if-tty":
			default:
				return getopt.Unsupported(inv, "color="+o.Val, 2)
			}
		}
	}
	if err := inv.Sys.Charge(callCost); err != nil {
		return 1
	}
	w := bufio.NewWriter(inv.Stdout)
	l.w = w
	if len(operands) == 0 {
		operands = []string{"."}
	}
	var files []entry
	var dirs []entry
	for _, op := range operands {
		p := inv.Abs(op)
		fi, err := inv.FS.Lstat(p)
		if err == nil && isSymlink(fi) && !l.long && !l.dirOnly && !l.classify {
			// GNU follows a command-line link to a directory unless -l, -d
			// or -F is given.
			if t, err2 := inv.FS.Stat(p); err2 == nil && t.IsDir() {
				fi = t
			}
		}
		if err != nil {
			errorf(inv, "cannot access %s: %s", q(op), command.Message(err))
			l.status = 2
			continue
		}
		e := entry{name: op, path: p, fi: fi}
		if fi.IsDir() && !l.dirOnly {
			dirs = append(dirs, e)
		} else {
			files = append(files, e)
		}
	}
	l.sortEntries(files)
	l.sortEntries(dirs)
	if len(files) > 0 {
		if err := l.print(files); err != nil {
			return 1
		}
	}
	header := len(operands) > 1 || l.recursive
	for i, d := range dirs {
		if i > 0 || len(files) > 0 {
			w.WriteString("\n")
		}
		if err := l.listDir(d.name, d.path, header); err != nil {
			return 1
		}
	}
	if err := w.Flush(); err != nil {
		return 1
	}
	return l.status
}

type entry struct {
	name string // as shown
	path string // absolute
	fi   command.FileInfo
}

type lister struct {
	inv                          *command.Invocation
	w                            *bufio.Writer
	long, all, almost, recursive bool
	dirOnly, human, reverse      bool
	classify, slash              bool
	noOwner, noGroup, numeric    bool
	inode, blocks                bool
	sortBy                       byte
	status                       int
}

func (l *lister) sortEntries(es []entry) {
	less := func(a, b entry) bool {
		switch {
		case l.sortBy == 't' && !a.fi.ModTime.Equal(b.fi.ModTime):
			return a.fi.ModTime.After(b.fi.ModTime)
		case l.sortBy == 'S' && a.fi.Size != b.fi.Size:
			return a.fi.Size > b.fi.Size
		}
		return a.name < b.name
	}
	sort.SliceStable(es, func(i, j int) bool {
		if l.reverse {
			return less(es[j], es[i])
		}
		return less(es[i], es[j])
	})
}

func (l *lister) listDir(name, p string, header bool) error {
	inv := l.inv
	if header {
		l.w.WriteString(name + ":\n")
	}
	infos, err := inv.FS.ReadDir(p)
	if err != nil {
		l.w.Flush() // gnulib's error() flushes stdout first
		errorf(inv, "cannot open directory %s: %s", q(name), command.Message(err))
		if l.status == 0 {
			l.status = 2
		}
		return nil
	}
	if err := inv.Sys.Charge(int64(len(infos)) * 10); err != nil {
		return err
	}
	// The listing is held until it is sorted and printed.
	var held int64
	for _, fi := range infos {
		held += int64(len(fi.Name)) + 64
	}
	release, err := inv.Sys.Reserve(held)
	if err != nil {
		return err
	}
	defer release()
	var es []entry
	if l.all {
		for _, dot := range []string{".", ".."} {
			dp := path.Join(p, dot)
			if fi, err := inv.FS.Stat(dp); err == nil {
				fi.Name = dot
				es = append(es, entry{name: dot, path: dp, fi: fi})
			}
		}
	}
	for _, fi := range infos {
		if strings.HasPrefix(fi.Name, ".") && !l.all && !l.almost {
			continue
		}
		es = append(es, entry{name: fi.Name, path: path.Join(p, fi.Name), fi: fi})
	}
	l.sortEntries(es)
	if l.long || l.blocks {
		var total int64
		for _, e := range es {
			total += diskUsage(e.fi)
		}
		if l.human {
			fmt.Fprintf(l.w, "total %s\n", human(total))
		} else {
			fmt.Fprintf(l.w, "total %d\n", total/1024)
		}
	}
	if err := l.print(es); err != nil {
		return err
	}
	if l.recursive {
		for _, e := range es {
			if e.fi.IsDir() && e.name != "." && e.name != ".." {
				l.w.WriteString("\n")
				sub := name + "/" + e.name
				if name == "/" {
					sub = "/" + e.name
				}
				if err := l.listDir(sub, e.path, true); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (l *lister) indicator(fi command.FileInfo) string {
	m := fi.Mode
	switch {
	case m.IsDir():
		if l.classify || l.slash {
			return "/"
		}
	case !l.classify:
	case m&fs.ModeSymlink != 0:
		return "@"
	case m&fs.ModeNamedPipe != 0:
		return "|"
	case m&fs.ModeSocket != 0:
		return "="
	case m.IsRegular() && m&0o111 != 0:
		return "*"
	}
	return ""
}

// prefixes renders the -i and -s columns, right-aligned across es.
func (l *lister) prefixes(es []entry) []string {
	out := make([]string, len(es))
	if !l.inode && !l.blocks {
		return out
	}
	cols := make([][2]string, len(es))
	var w [2]int
	for i, e := range es {
		if l.inode {
			cols[i][0] = strconv.FormatUint(e.fi.Ino, 10)
		}
		if l.blocks {
			if l.human {
				cols[i][1] = human(diskUsage(e.fi))
			} else {
				cols[i][1] = strconv.FormatInt(diskUsage(e.fi)/1024, 10)
			}
		}
		w[0], w[1] = max(w[0], len(cols[i][0])), max(w[1], len(cols[i][1]))
	}
	for i := range es {
		if l.inode {
			out[i] += fmt.Sprintf("%*s ", w[0], cols[i][0])
		}
		if l.blocks {
			out[i] += fmt.Sprintf("%*s ", w[1], cols[i][1])
		}
	}
	return out
}

func (l *lister) print(es []entry) error {
	pre := l.prefixes(es)
	if !l.long {
		for i, e := range es {
			l.w.WriteString(pre[i] + e.name + l.indicator(e.fi) + "\n")
		}
		return l.inv.Sys.Charge(int64(len(es)))
	}
	rows := make([][5]string, len(es))
	var width [5]int
	for i, e := range es {
		fi := e.fi
		owner, group := userName(l.inv, fi.UID), groupName(l.inv, fi.GID)
		if l.numeric {
			owner, group = strconv.Itoa(fi.UID), strconv.Itoa(fi.GID)
		}
		size := strconv.FormatInt(fi.Size, 10)
		if l.human {
			size = human(fi.Size)
		}
		nlink := fi.Nlink
		if nlink == 0 {
			nlink = 1
		}
		rows[i] = [5]string{modeString(fi.Mode), strconv.Itoa(nlink), owner, group, size}
		for j, s := range rows[i] {
			width[j] = max(width[j], len(s))
		}
	}
	now := l.inv.Sys.Now()
	for i, e := range es {
		r := rows[i]
		line := pre[i] + fmt.Sprintf("%s %*s ", r[0], width[1], r[1])
		if !l.noOwner {
			line += fmt.Sprintf("%-*s ", width[2], r[2])
		}
		if !l.noGroup {
			line += fmt.Sprintf("%-*s ", width[3], r[3])
		}
		line += fmt.Sprintf("%*s %s %s%s", width[4], r[4], lsTime(e.fi.ModTime, now), e.name, l.indicator(e.fi))
		if isSymlink(e.fi) {
			target := e.fi.Target
			if target == "" {
				target, _ = l.inv.FS.Readlink(e.path)
			}
			line += " -> " + target
		}
		l.w.WriteString(line + "\n")
	}
	return l.inv.Sys.Charge(int64(len(es)) * 20)
}

// lsTime formats an mtime as GNU ls does: recent files show the time,
// files older than six months (or in the future) show the year.
func lsTime(t, now time.Time) string {
	t = t.UTC()
	sixMonths := time.Duration(365.2425 * 24 * float64(time.Hour) / 2)
	if t.After(now) || now.Sub(t) > sixMonths {
		return t.Format("Jan _2  2006")
	}
	return t.Format("Jan _2 15:04")
}
