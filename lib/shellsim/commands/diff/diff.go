package diff

import (
	"bytes"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// diff - compare files line by line
//
//	diff [-u | -U NUM | -c | -C NUM] [-q] [-r] [-N] [-x PAT]... [-i] [-b] [-w] [-a] [--label L]... FILE1 FILE2
//
// Output is GNU's normal format by default, unified with -u and context
// with -c; FILE1 and FILE2 may be directories (with -r, recursively).
// Exit status: 0 same, 1 different, 2 trouble. Side-by-side (-y), -B and
// colour are not modeled.

var diffSpec = getopt.Spec{
	Short: "uU:qrNibwaBcC:ysx:",
	Long: []getopt.Long{
		{"brief", "q"}, {"color", "color"}, {"context=", "C"}, {"exclude=", "x"},
		{"ignore-all-space", "w"}, {"ignore-blank-lines", "B"}, {"ignore-case", "i"},
		{"ignore-space-change", "b"}, {"label=", "label"}, {"new-file", "N"}, {"normal", "normal"},
		{"recursive", "r"}, {"report-identical-files", "s"}, {"side-by-side", "y"},
		{"strip-trailing-cr", "strip-trailing-cr"}, {"text", "a"}, {"unified=", "U"},
	},
	Status: 2,
}

type diffOpts struct {
	unified        bool
	ctxFormat      bool // -c / -C N
	context        int
	brief, recurse bool
	newFile        bool
	icase, space   bool
	allSpace, text bool
	stripCR        bool
	reportSame     bool
	labels         []string
	excludes       []string
	switches       string // the options as given, for "diff -r a/x b/x" lines
}

type differ struct {
	inv    *command.Invocation
	o      diffOpts
	out    bytes.Buffer
	status int
	dead   bool
}

// Diff runs diff.
func Diff(inv *command.Invocation) int {
	if inv.Sys.Charge(100) != nil {
		return 2
	}
	opts, files, st, ok := getopt.Parse(inv, &diffSpec)
	if !ok {
		return st
	}
	d := &differ{inv: inv}
	d.o.context = 3
	var sw []string
	args := inv.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			sw = append(sw, shellQuote(a))
			// Options with a separate argument keep it in the header too.
			if (a == "-x" || a == "-U" || a == "-C" || a == "--label" || a == "--exclude" || a == "--unified" || a == "--context") && i+1 < len(args) {
				i++
				sw = append(sw, shellQuote(args[i]))
			}
		}
	}
	d.o.switches = strings.Join(sw, " ")
	for _, o := range opts {
		switch o.Name {
		case "u":
			d.o.unified, d.o.ctxFormat = true, false
		case "U":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 0 {
				fmt.Fprintf(inv.Stderr, "diff: invalid context length '%s'\nTry 'diff --help' for more information.\n", o.Val)
				return 2
			}
			d.o.unified, d.o.ctxFormat, d.o.context = true, false, n
		case "q":
			d.o.brief = true
		case "r":
			d.o.recurse = true
		case "N":
			d.o.newFile = true
		case "i":
			d.o.icase = true
		case "b":
			d.o.space = true
		case "w":
			d.o.allSpace = true
		case "a":
			d.o.text = true
		case "s":
			d.o.reportSame = true
		case "label":
			d.o.labels = append(d.o.labels, o.Val)
		case "strip-trailing-cr":
			d.o.stripCR = true
		case "normal":
			d.o.unified, d.o.ctxFormat = false, false
		case "c":
			d.o.ctxFormat, d.o.unified = true, false
		case "C":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 0 {
				fmt.Fprintf(inv.Stderr, "diff: invalid context length '%s'\nTry 'diff --help' for more information.\n", o.Val)
				return 2
			}
			d.o.ctxFormat, d.o.unified, d.o.context = true, false, n
		case "x":
			d.o.excludes = append(d.o.excludes, o.Val)
		default:
			flag := map[string]string{"B": "-B", "y": "-y", "color": "--color"}[o.Name]
			inv.Sys.Partial("diff " + flag)
			fmt.Fprintf(inv.Stderr, "diff: option %s is not supported here\n", flag)
			return 2
		}
	}
	if len(files) < 2 {
		if len(files) == 0 {
			fmt.Fprintf(inv.Stderr, "diff: missing operand after 'diff'\n")
		} else {
			fmt.Fprintf(inv.Stderr, "diff: missing operand after '%s'\n", files[0])
		}
		fmt.Fprintf(inv.Stderr, "diff: Try 'diff --help' for more information.\n")
		return 2
	}
	if len(files) > 2 {
		fmt.Fprintf(inv.Stderr, "diff: extra operand '%s'\ndiff: Try 'diff --help' for more information.\n", files[2])
		return 2
	}
	d.top(files[0], files[1])
	if d.dead {
		return 2
	}
	if _, err := inv.Stdout.Write(d.out.Bytes()); err != nil {
		return 2
	}
	return d.status
}

func (d *differ) trouble(format string, a ...any) {
	d.flush()
	fmt.Fprintf(d.inv.Stderr, "diff: "+format+"\n", a...)
	d.status = 2
}

// flush writes pending output so stdout and stderr interleave as in GNU.
func (d *differ) flush() {
	if d.out.Len() > 0 {
		if _, err := d.inv.Stdout.Write(d.out.Bytes()); err != nil {
			d.dead = true
		}
		d.out.Reset()
	}
}

func (d *differ) setStatus(s int) {
	if s > d.status {
		d.status = s
	}
}

// node is one operand as diff sees it.
type node struct {
	name  string // as printed
	path  string // absolute, "" for stdin
	info  command.FileInfo
	isDir bool
	stdin bool
	exist bool
}

func (d *differ) stat(name string) (node, error) {
	if name == "-" {
		return node{name: "-", stdin: true, exist: true, info: command.FileInfo{ModTime: d.inv.Sys.Now()}}, nil
	}
	p := d.inv.Abs(name)
	fi, err := d.inv.FS.Stat(p)
	if err != nil {
		return node{name: name, path: p}, err
	}
	return node{name: name, path: p, info: fi, isDir: fi.IsDir(), exist: true}, nil
}

func (d *differ) top(n1, n2 string) {
	a, errA := d.stat(n1)
	b, errB := d.stat(n2)
	if errA != nil && !(d.o.newFile && b.exist && isNotExist(errA)) {
		d.trouble("%s: %s", n1, command.Message(errA))
		return
	}
	if errB != nil && !(d.o.newFile && a.exist && isNotExist(errB)) {
		d.trouble("%s: %s", n2, command.Message(errB))
		return
	}
	switch {
	case a.isDir && b.isDir:
		d.dirs(a, b)
	case a.isDir && b.exist:
		// diff DIR FILE compares DIR/basename(FILE) with FILE.
		sub, err := d.stat(path.Join(n1, path.Base(n2)))
		if err != nil {
			d.trouble("%s: %s", sub.name, command.Message(err))
			return
		}
		d.files(sub, b, false)
	case b.isDir && a.exist:
		sub, err := d.stat(path.Join(n2, path.Base(n1)))
		if err != nil {
			d.trouble("%s: %s", sub.name, command.Message(err))
			return
		}
		d.files(a, sub, false)
	default:
		d.files(a, b, false)
	}
}

func isNotExist(err error) bool { return command.Message(err) == "No such file or directory" }

func (d *differ) dirs(a, b node) {
	la, err := d.inv.FS.ReadDir(a.path)
	if err != nil {
		d.trouble("%s: %s", a.name, command.Message(err))
		return
	}
	lb, err := d.inv.FS.ReadDir(b.path)
	if err != nil {
		d.trouble("%s: %s", b.name, command.Message(err))
		return
	}
	names := map[string][2]*command.FileInfo{}
	var order []string
	for i := range la {
		names[la[i].Name] = [2]*command.FileInfo{&la[i], nil}
		order = append(order, la[i].Name)
	}
	for i := range lb {
		e, seen := names[lb[i].Name]
		if !seen {
			order = append(order, lb[i].Name)
		}
		e[1] = &lb[i]
		names[lb[i].Name] = e
	}
	sortStrings(order)
	for _, name := range order {
		if d.excluded(name) {
			continue
		}
		if d.dead {
			return
		}
		e := names[name]
		pa, pb := path.Join(a.name, name), path.Join(b.name, name)
		if e[0] == nil || e[1] == nil {
			if !d.o.newFile {
				dir := a.name
				if e[0] == nil {
					dir = b.name
				}
				fmt.Fprintf(&d.out, "Only in %s: %s\n", dir, name)
				d.setStatus(1)
				continue
			}
		}
		na, errA := d.stat(pa)
		nb, errB := d.stat(pb)
		if errA != nil && e[0] != nil {
			d.trouble("%s: %s", pa, command.Message(errA))
			continue
		}
		if errB != nil && e[1] != nil {
			d.trouble("%s: %s", pb, command.Message(errB))
			continue
		}
		switch {
		case (na.isDir || !na.exist) && (nb.isDir || !nb.exist):
			if !na.exist || !nb.exist {
				// -N with a directory on one side only: recurse into it
				// against nothing, as GNU does with -r.
				if d.o.recurse {
					d.halfDir(na, nb)
				} else {
					fmt.Fprintf(&d.out, "Only in %s: %s\n", map[bool]string{true: a.name, false: b.name}[na.exist], name)
					d.setStatus(1)
				}
				continue
			}
			if d.o.recurse {
				d.dirs(na, nb)
			} else {
				fmt.Fprintf(&d.out, "Common subdirectories: %s and %s\n", pa, pb)
			}
		case na.isDir != nb.isDir && na.exist && nb.exist:
			kind := func(n node) string {
				if n.isDir {
					return "directory"
				}
				return "regular file"
			}
			fmt.Fprintf(&d.out, "File %s is a %s while file %s is a %s\n", pa, kind(na), pb, kind(nb))
			d.setStatus(1)
		default:
			d.files(na, nb, true)
		}
	}
}

// halfDir handles -rN for a directory present on one side only.
func (d *differ) halfDir(a, b node) {
	present := a
	if !a.exist {
		present = b
	}
	list, err := d.inv.FS.ReadDir(present.path)
	if err != nil {
		d.trouble("%s: %s", present.name, command.Message(err))
		return
	}
	for _, fi := range list {
		na, _ := d.stat(path.Join(a.name, fi.Name))
		nb, _ := d.stat(path.Join(b.name, fi.Name))
		if fi.IsDir() {
			d.halfDir(na, nb)
			continue
		}
		d.files(na, nb, true)
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func (d *differ) read(n node) ([]byte, bool) {
	if !n.exist {
		return nil, true
	}
	var data []byte
	var err error
	if n.stdin {
		data, err = io.ReadAll(d.inv.Stdin)
	} else {
		data, err = d.inv.FS.ReadFile(n.path)
	}
	if err != nil {
		d.trouble("%s: %s", n.name, command.Message(err))
		return nil, false
	}
	if d.inv.Sys.Charge(int64(len(data))) != nil {
		d.dead = true
		return nil, false
	}
	return data, true
}

// files compares two regular files (or stdin); inDir adds the "diff ..."
// line GNU prints before each differing pair during a directory walk.
func (d *differ) files(a, b node, inDir bool) {
	if a.exist && b.exist && !a.stdin && !b.stdin && a.info.Ino != 0 && a.info.Ino == b.info.Ino && a.path == b.path {
		return
	}
	da, ok := d.read(a)
	if !ok {
		return
	}
	db, ok := d.read(b)
	if !ok {
		return
	}
	rel, err := d.inv.Sys.Reserve(int64(3 * (len(da) + len(db))))
	defer rel()
	if err != nil {
		d.dead = true
		return
	}
	header := func() {
		if inDir {
			sw := ""
			if d.o.switches != "" {
				sw = d.o.switches + " "
			}
			fmt.Fprintf(&d.out, "diff %s%s %s\n", sw, a.name, b.name)
		}
	}
	if bytes.Equal(da, db) {
		if d.o.reportSame {
			fmt.Fprintf(&d.out, "Files %s and %s are identical\n", a.name, b.name)
		}
		return
	}
	binary := !d.o.text && (bytes.IndexByte(da, 0) >= 0 || bytes.IndexByte(db, 0) >= 0)
	if d.o.brief || binary {
		if binary && !d.o.brief {
			header()
			fmt.Fprintf(&d.out, "Binary files %s and %s differ\n", a.name, b.name)
		} else {
			fmt.Fprintf(&d.out, "Files %s and %s differ\n", a.name, b.name)
		}
		d.setStatus(1)
		return
	}
	la, lb := splitLines(da), splitLines(db)
	// Like GNU diff (io.c find_identical_ends), the identical head and
	// tail of the files are left out of the comparison, all but "horizon"
	// lines of them (the context length in unified output). This is not
	// only faster: it decides where ambiguous changes are reported.
	horizon := 0
	if d.o.unified || d.o.ctxFormat {
		horizon = d.o.context
	}
	pre := 0
	for pre < len(la) && pre < len(lb) && la[pre] == lb[pre] {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && la[len(la)-1-suf] == lb[len(lb)-1-suf] {
		suf++
	}
	pre = max(0, pre-horizon)
	suf = max(0, suf-horizon)
	ma, mb := la[pre:len(la)-suf], lb[pre:len(lb)-suf]
	ea, eb := d.classes(ma, mb)
	mca, mcb, ok := compare(ea, eb, func(n int64) bool { return d.inv.Sys.Charge(n) == nil })
	if !ok {
		d.dead = true
		return
	}
	ca := make([]bool, len(la))
	cb := make([]bool, len(lb))
	copy(ca[pre:], mca)
	copy(cb[pre:], mcb)
	changes := script(ca, cb)
	if len(changes) == 0 {
		return
	}
	if d.o.brief {
		fmt.Fprintf(&d.out, "Files %s and %s differ\n", a.name, b.name)
		d.setStatus(1)
		return
	}
	header()
	d.setStatus(1)
	switch {
	case d.o.unified:
		d.unifiedHeader(a, b, "---", "+++")
		unified(&d.out, la, lb, changes, d.o.context)
	case d.o.ctxFormat:
		d.unifiedHeader(a, b, "***", "---")
		contextDiff(&d.out, la, lb, changes, d.o.context)
	default:
		normal(&d.out, la, lb, changes)
	}
	if d.out.Len() > 64*1024 {
		d.flush()
	}
}

func (d *differ) unifiedHeader(a, b node, markA, markB string) {
	name := func(n node, i int) string {
		if i < len(d.o.labels) {
			return d.o.labels[i]
		}
		t := n.info.ModTime
		if !n.exist {
			t = time.Unix(0, 0)
		}
		return n.name + "\t" + t.UTC().Format("2006-01-02 15:04:05.000000000 -0700")
	}
	fmt.Fprintf(&d.out, "%s %s\n%s %s\n", markA, name(a, 0), markB, name(b, 1))
}

// splitLines splits data into lines that keep their "\n"; a last line
// without one stays without it.
func splitLines(data []byte) []string {
	var out []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			out = append(out, string(data))
			break
		}
		out = append(out, string(data[:i+1]))
		data = data[i+1:]
	}
	return out
}

// classes maps lines to equivalence ids under the comparison options.
func (d *differ) classes(la, lb []string) ([]int, []int) {
	ids := map[string]int{}
	key := func(s string) string {
		if d.o.stripCR {
			if strings.HasSuffix(s, "\r\n") {
				s = s[:len(s)-2] + "\n"
			}
		}
		if d.o.allSpace {
			s = strings.Map(func(r rune) rune {
				if r == ' ' || r == '\t' || r == '\r' || r == '\v' || r == '\f' {
					return -1
				}
				return r
			}, s)
		} else if d.o.space {
			// Runs of white space compare equal to one space; trailing
			// white space is ignored entirely.
			nl := strings.HasSuffix(s, "\n")
			var b strings.Builder
			inSpace := false
			for _, r := range strings.TrimRight(s, " \t\r\v\f\n") {
				if r == ' ' || r == '\t' || r == '\r' || r == '\v' || r == '\f' {
					inSpace = true
					continue
				}
				if inSpace {
					b.WriteByte(' ')
					inSpace = false
				}
				b.WriteRune(r)
			}
			s = b.String()
			if nl {
				s += "\n"
			}
		}
		if d.o.icase {
			s = strings.ToLower(s)
		}
		return s
	}
	conv := func(l []string) []int {
		out := make([]int, len(l))
		for i, s := range l {
			k := key(s)
			id, ok := ids[k]
			if !ok {
				id = len(ids)
				ids[k] = id
			}
			out[i] = id
		}
		return out
	}
	return conv(la), conv(lb)
}

func writeLine(b *bytes.Buffer, prefix, line string) {
	b.WriteString(prefix)
	b.WriteString(line)
	if !strings.HasSuffix(line, "\n") {
		b.WriteString("\n\\ No newline at end of file\n")
	}
}

func rangeStr(start, count int) string {
	// start is 0-based; GNU prints 1-based "first,last" or just "first".
	if count <= 1 {
		if count == 0 {
			return strconv.Itoa(start)
		}
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(start+count)
}

func normal(b *bytes.Buffer, la, lb []string, changes []change) {
	for _, c := range changes {
		switch {
		case c.del > 0 && c.ins > 0:
			fmt.Fprintf(b, "%sc%s\n", rangeStr(c.i, c.del), rangeStr(c.j, c.ins))
		case c.del > 0:
			fmt.Fprintf(b, "%sd%d\n", rangeStr(c.i, c.del), c.j)
		default:
			fmt.Fprintf(b, "%da%s\n", c.i, rangeStr(c.j, c.ins))
		}
		for _, l := range la[c.i : c.i+c.del] {
			writeLine(b, "< ", l)
		}
		if c.del > 0 && c.ins > 0 {
			b.WriteString("---\n")
		}
		for _, l := range lb[c.j : c.j+c.ins] {
			writeLine(b, "> ", l)
		}
	}
}

func unifiedRange(start, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(start) + ",0"
	case 1:
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(count)
}

func unified(b *bytes.Buffer, la, lb []string, changes []change, ctxLines int) {
	for k := 0; k < len(changes); {
		// Gather changes whose gaps are at most 2*context lines.
		end := k
		for end+1 < len(changes) && changes[end+1].i-(changes[end].i+changes[end].del) <= 2*ctxLines {
			end++
		}
		first, last := changes[k], changes[end]
		a0 := max(0, first.i-ctxLines)
		b0 := first.j - (first.i - a0)
		a1 := min(len(la), last.i+last.del+ctxLines)
		b1 := last.j + last.ins + (a1 - (last.i + last.del))
		fmt.Fprintf(b, "@@ -%s +%s @@\n", unifiedRange(a0, a1-a0), unifiedRange(b0, b1-b0))
		i := a0
		for _, c := range changes[k : end+1] {
			for ; i < c.i; i++ {
				writeLine(b, " ", la[i])
			}
			for _, l := range la[c.i : c.i+c.del] {
				writeLine(b, "-", l)
			}
			for _, l := range lb[c.j : c.j+c.ins] {
				writeLine(b, "+", l)
			}
			i = c.i + c.del
		}
		for ; i < a1; i++ {
			writeLine(b, " ", la[i])
		}
		k = end + 1
	}
}

func (d *differ) excluded(name string) bool {
	for _, pat := range d.o.excludes {
		if ok, _ := path.Match(pat, name); ok {
			return true
		}
	}
	return false
}

// shellQuote quotes an argument the way GNU diff echoes its switches.
func shellQuote(s string) string {
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_./=:,+-@%", c)) {
			safe = false
			break
		}
	}
	if safe && s != "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", "'\\''") + "'"
}

// hunks groups changes whose gaps are at most 2*context lines, as the
// unified and context formats both do.
func hunks(changes []change, ctxLines int) [][]change {
	var out [][]change
	for k := 0; k < len(changes); {
		end := k
		for end+1 < len(changes) && changes[end+1].i-(changes[end].i+changes[end].del) <= 2*ctxLines {
			end++
		}
		out = append(out, changes[k:end+1])
		k = end + 1
	}
	return out
}

// contextRange is GNU's context-format range: "first,last", one number
// for one line, or the line before for an empty range.
func contextRange(start, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(start)
	case 1:
		return strconv.Itoa(start + 1)
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(start+count)
}

func contextDiff(b *bytes.Buffer, la, lb []string, changes []change, ctxLines int) {
	for _, h := range hunks(changes, ctxLines) {
		first, last := h[0], h[len(h)-1]
		a0 := max(0, first.i-ctxLines)
		b0 := first.j - (first.i - a0)
		a1 := min(len(la), last.i+last.del+ctxLines)
		b1 := last.j + last.ins + (a1 - (last.i + last.del))
		b.WriteString("***************\n")
		fmt.Fprintf(b, "*** %s ****\n", contextRange(a0, a1-a0))
		hasDel, hasIns := false, false
		for _, c := range h {
			hasDel = hasDel || c.del > 0
			hasIns = hasIns || c.ins > 0
		}
		if hasDel {
			i := a0
			for _, c := range h {
				for ; i < c.i; i++ {
					writeLine(b, "  ", la[i])
				}
				mark := "- "
				if c.ins > 0 {
					mark = "! "
				}
				for _, l := range la[c.i : c.i+c.del] {
					writeLine(b, mark, l)
				}
				i = c.i + c.del
			}
			for ; i < a1; i++ {
				writeLine(b, "  ", la[i])
			}
		}
		fmt.Fprintf(b, "--- %s ----\n", contextRange(b0, b1-b0))
		if hasIns {
			j := b0
			for _, c := range h {
				for ; j < c.j; j++ {
					writeLine(b, "  ", lb[j])
				}
				mark := "+ "
				if c.del > 0 {
					mark = "! "
				}
				for _, l := range lb[c.j : c.j+c.ins] {
					writeLine(b, mark, l)
				}
				j = c.j + c.ins
			}
			for ; j < b1; j++ {
				writeLine(b, "  ", lb[j])
			}
		}
	}
}
