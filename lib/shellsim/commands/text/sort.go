package text

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/bits"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
)

// sort - sort lines of text files
//
//	sort [-bdfgiMhnRrVcCmsuz] [-k KEYDEF]... [-t SEP] [-o FILE] [FILE]...
//
// Byte ordering is the C locale's. Keys, their modifiers, the last-resort
// whole-line comparison, -s and -u follow GNU sort. -R orders by a fixed
// hash of the key (deterministic, identical keys together). -S, -T,
// --parallel, --batch-size and --compress-program only tune GNU's
// resource use and are accepted without effect on the output.

var sortSpec = getopt.Spec{
	Short: "bcCdfghik:mMno:rRsS:t:T:uVz",
	Long: []getopt.Long{
		{"ignore-leading-blanks", "b"}, {"check", "check"}, {"check=", "check"},
		{"compress-program=", "compress-program"}, {"debug", "debug"}, {"dictionary-order", "d"},
		{"ignore-case", "f"}, {"files0-from=", "files0-from"}, {"general-numeric-sort", "g"},
		{"ignore-nonprinting", "i"}, {"key=", "k"}, {"merge", "m"}, {"month-sort", "M"},
		{"numeric-sort", "n"}, {"human-numeric-sort", "h"}, {"version-sort", "V"},
		{"random-sort", "R"}, {"random-source=", "random-source"}, {"sort=", "sort"},
		{"output=", "o"}, {"reverse", "r"}, {"stable", "s"}, {"batch-size=", "batch-size"},
		{"buffer-size=", "S"}, {"field-separator=", "t"}, {"temporary-directory=", "T"},
		{"unique", "u"}, {"zero-terminated", "z"}, {"parallel=", "parallel"}, {"help", "help"},
		{"version", "version"},
	},
	GNUOrder: true,
}

// sortKey is one -k KEYDEF (or the whole line with the global options).
type sortKey struct {
	sword, schar   int // start field and character, 0-based
	eword, echar   int // end field (0-based) and character (0 = end of field)
	eol            bool
	skipsb, skipeb bool
	// ordering
	numeric, general, human, month, version, random bool
	dict, nonprint, fold, reverse                   bool
}

func (k *sortKey) hasOrdering() bool {
	return k.skipsb || k.skipeb || k.numeric || k.general || k.human || k.month || k.version ||
		k.random || k.dict || k.nonprint || k.fold || k.reverse
}

// setFlag applies one ordering letter; false if it is not one.
func (k *sortKey) setFlag(c byte, start bool) bool {
	switch c {
	case 'b':
		if start {
			k.skipsb = true
		} else {
			k.skipeb = true
		}
	case 'd':
		k.dict, k.nonprint = true, false
	case 'f':
		k.fold = true
	case 'g':
		k.general = true
	case 'h':
		k.human = true
	case 'i':
		k.nonprint, k.dict = true, false
	case 'M':
		k.month = true
	case 'n':
		k.numeric = true
	case 'R':
		k.random = true
	case 'r':
		k.reverse = true
	case 'V':
		k.version = true
	default:
		return false
	}
	return true
}

func (k *sortKey) incompatible() string {
	n := 0
	// As GNU: -V, -R and -d/-i count as one.
	for _, b := range []bool{k.numeric, k.general, k.human, k.month, k.version || k.random || k.dict || k.nonprint} {
		if b {
			n++
		}
	}
	if n <= 1 {
		return ""
	}
	s := ""
	for _, f := range []struct {
		on bool
		c  string
	}{{k.dict, "d"}, {k.fold, "f"}, {k.general, "g"}, {k.human, "h"},
		{k.nonprint, "i"}, {k.month, "M"}, {k.numeric, "n"}, {k.random, "R"}, {k.version, "V"}} {
		if f.on {
			s += f.c
		}
	}
	return "options '-" + s + "' are incompatible"
}

// parseKeyDef parses F[.C][OPTS][,F[.C][OPTS]].
func parseKeyDef(spec string, k *sortKey) string {
	bad := func(why string) string {
		return why + ": invalid field specification " + quote(spec)
	}
	s := spec
	num := func() (int, bool, string) {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 {
			return 0, false, ""
		}
		v, err := strconv.Atoi(s[:i])
		if err != nil {
			v = math.MaxInt32
		}
		s = s[i:]
		return v, true, ""
	}
	f, ok, _ := num()
	if !ok {
		return "invalid number at field start: invalid count at start of " + quote(s)
	}
	if f == 0 {
		return bad("field number is zero")
	}
	k.sword = f - 1
	if strings.HasPrefix(s, ".") {
		s = s[1:]
		c, ok, _ := num()
		if !ok {
			return "invalid number after '.': invalid count at start of " + quote(s)
		}
		if c == 0 {
			return bad("character offset is zero")
		}
		k.schar = c - 1
	}
	for len(s) > 0 && s[0] != ',' {
		if !k.setFlag(s[0], true) {
			return bad("stray character in field spec")
		}
		s = s[1:]
	}
	k.eol = true
	if strings.HasPrefix(s, ",") {
		s = s[1:]
		k.eol = false
		f, ok, _ := num()
		if !ok {
			return "invalid number after ',': invalid count at start of " + quote(s)
		}
		if f == 0 {
			return bad("field number is zero")
		}
		k.eword = f - 1
		if strings.HasPrefix(s, ".") {
			s = s[1:]
			c, ok, _ := num()
			if !ok {
				return "invalid number after '.': invalid count at start of " + quote(s)
			}
			k.echar = c
		}
		for len(s) > 0 {
			if !k.setFlag(s[0], false) {
				return bad("stray character in field spec")
			}
			s = s[1:]
		}
	}
	return ""
}

type sorter struct {
	keys    []sortKey
	tab     int // -1: blank-separated fields
	stable  bool
	unique  bool
	reverse bool // global -r, for the last-resort comparison
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func (s *sorter) begField(line []byte, k *sortKey) int {
	ptr, lim := 0, len(line)
	for n := k.sword; ptr < lim && n > 0; n-- {
		if s.tab >= 0 {
			for ptr < lim && int(line[ptr]) != s.tab {
				ptr++
			}
			if ptr < lim {
				ptr++
			}
		} else {
			for ptr < lim && isBlank(line[ptr]) {
				ptr++
			}
			for ptr < lim && !isBlank(line[ptr]) {
				ptr++
			}
		}
	}
	if k.skipsb {
		for ptr < lim && isBlank(line[ptr]) {
			ptr++
		}
	}
	return ptr + min(k.schar, lim-ptr)
}

func (s *sorter) limField(line []byte, k *sortKey) int {
	ptr, lim := 0, len(line)
	if k.eol {
		return lim
	}
	eword, echar := k.eword, k.echar
	if echar == 0 {
		eword++
	}
	for ; ptr < lim && eword > 0; eword-- {
		if s.tab >= 0 {
			for ptr < lim && int(line[ptr]) != s.tab {
				ptr++
			}
			if ptr < lim && (eword > 1 || echar != 0) {
				ptr++
			}
		} else {
			for ptr < lim && isBlank(line[ptr]) {
				ptr++
			}
			for ptr < lim && !isBlank(line[ptr]) {
				ptr++
			}
		}
	}
	if echar != 0 {
		if k.skipeb {
			for ptr < lim && isBlank(line[ptr]) {
				ptr++
			}
		}
		ptr += min(echar, lim-ptr)
	}
	return ptr
}

// compare orders two lines; with last resort unless -s or -u.
func (s *sorter) compare(a, b []byte) int {
	d := s.keyCompare(a, b)
	if d != 0 || s.stable || s.unique {
		return d
	}
	d = bytes.Compare(a, b)
	if s.reverse {
		d = -d
	}
	return d
}

func (s *sorter) keyCompare(a, b []byte) int {
	for i := range s.keys {
		k := &s.keys[i]
		ta, tb := a, b
		if i > 0 || k.sword != 0 || k.schar != 0 || !k.eol || k.skipsb {
			as, ae := s.begField(a, k), s.limField(a, k)
			bs, be := s.begField(b, k), s.limField(b, k)
			ae, be = max(ae, as), max(be, bs)
			ta, tb = a[as:ae], b[bs:be]
		}
		d := compareKey(k, ta, tb)
		if d != 0 {
			if k.reverse {
				return -d
			}
			return d
		}
	}
	return 0
}

func compareKey(k *sortKey, a, b []byte) int {
	if (k.fold || k.dict || k.nonprint) && (k.numeric || k.human || k.general || k.month || k.version) {
		// GNU translates and filters the key before a typed comparison.
		a, b = translateKey(k, a), translateKey(k, b)
	}
	switch {
	case k.random:
		ha, hb := randomHash(k, a), randomHash(k, b)
		if ha != hb {
			if ha < hb {
				return -1
			}
			return 1
		}
		return textCompare(k, a, b)
	case k.numeric:
		return numCompare(a, b, false)
	case k.human:
		return numCompare(a, b, true)
	case k.general:
		return generalCompare(a, b)
	case k.month:
		return monthOf(a) - monthOf(b)
	case k.version:
		return filevercmp(a, b)
	}
	return textCompare(k, a, b)
}

func translateKey(k *sortKey, b []byte) []byte {
	t := make([]byte, 0, len(b))
	for _, c := range b {
		if !ignored(k, c) {
			t = append(t, foldByte(k, c))
		}
	}
	return t
}

func randomHash(k *sortKey, b []byte) uint64 {
	h := fnv.New64a()
	h.Write([]byte("shellsim-sort-R"))
	if k.fold || k.dict || k.nonprint {
		var t []byte
		for _, c := range b {
			if ignored(k, c) {
				continue
			}
			t = append(t, foldByte(k, c))
		}
		b = t
	}
	h.Write(b)
	return h.Sum64()
}

func isPrint(c byte) bool { return c >= 0x20 && c < 0x7f }
func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func ignored(k *sortKey, c byte) bool {
	if k.dict {
		return !(isAlnum(c) || c == ' ' || c == '\t')
	}
	if k.nonprint {
		return !isPrint(c)
	}
	return false
}

func foldByte(k *sortKey, c byte) byte {
	if k.fold && c >= 'a' && c <= 'z' {
		return c - 32
	}
	return c
}

func textCompare(k *sortKey, a, b []byte) int {
	if !k.fold && !k.dict && !k.nonprint {
		return bytes.Compare(a, b)
	}
	i, j := 0, 0
	for {
		for i < len(a) && ignored(k, a[i]) {
			i++
		}
		for j < len(b) && ignored(k, b[j]) {
			j++
		}
		if i == len(a) || j == len(b) {
			switch {
			case i == len(a) && j == len(b):
				return 0
			case i == len(a):
				return -1
			}
			return 1
		}
		ca, cb := foldByte(k, a[i]), foldByte(k, b[j])
		if ca != cb {
			return int(ca) - int(cb)
		}
		i++
		j++
	}
}

// numCompare is GNU sort's -n (and, with human, -h) comparison in the C
// locale: arbitrary-length decimal strings, no thousands separator.
func numCompare(a, b []byte, human bool) int {
	na, nb := parseDecimal(a, human), parseDecimal(b, human)
	if na.neg != nb.neg {
		if na.neg {
			return -1
		}
		return 1
	}
	d := 0
	if human && na.suffix != nb.suffix {
		d = na.suffix - nb.suffix
	} else if len(na.int) != len(nb.int) {
		d = len(na.int) - len(nb.int)
	} else if c := strings.Compare(na.int, nb.int); c != 0 {
		d = c
	} else {
		d = strings.Compare(na.frac, nb.frac)
	}
	if na.neg {
		return -d
	}
	return d
}

type decimal struct {
	neg       bool
	int, frac string
	suffix    int
}

func parseDecimal(s []byte, human bool) decimal {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	var d decimal
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	st := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	d.int = strings.TrimLeft(string(s[st:i]), "0")
	if i < len(s) && s[i] == '.' {
		i++
		st = i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		d.frac = strings.TrimRight(string(s[st:i]), "0")
	}
	if human && i < len(s) {
		if j := strings.IndexByte("KMGTPEZYRQ", s[i]); j >= 0 {
			d.suffix = j + 1
		} else if s[i] == 'k' {
			d.suffix = 1
		}
	}
	if d.int == "" && d.frac == "" {
		d.neg = false
		if human {
			// A zero has no magnitude, whatever its suffix.
			d.suffix = 0
		}
	}
	return d
}

// parseFloatPrefix is strtold: the longest numeric prefix after blanks.
func parseFloatPrefix(s []byte) (float64, bool) {
	i := 0
	for i < len(s) && (isBlank(s[i]) || s[i] == '\v' || s[i] == '\f' || s[i] == '\r') {
		i++
	}
	st := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	rest := strings.ToLower(string(s[i:min(len(s), i+8)]))
	for _, w := range []string{"infinity", "inf", "nan"} {
		if strings.HasPrefix(rest, w) {
			v, _ := strconv.ParseFloat(string(s[st:i])+w, 64)
			return v, true
		}
	}
	if i+2 < len(s) && s[i] == '0' && (s[i+1]|0x20) == 'x' && isHex(s[i+2]) {
		j := i + 2
		for j < len(s) && isHex(s[j]) {
			j++
		}
		if j+1 < len(s) && s[j] == '.' && isHex(s[j+1]) {
			for j++; j < len(s) && isHex(s[j]); j++ {
			}
		}
		exp := "p0"
		if j+1 < len(s) && (s[j]|0x20) == 'p' {
			k := j + 1
			if k < len(s) && (s[k] == '+' || s[k] == '-') {
				k++
			}
			if k < len(s) && isDigit(s[k]) {
				for k < len(s) && isDigit(s[k]) {
					k++
				}
				exp = string(s[j:k])
			}
		}
		v, _ := strconv.ParseFloat(string(s[st:j])+exp, 64)
		return v, true
	}
	ds := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	nd := i - ds
	if i < len(s) && s[i] == '.' {
		i++
		fs := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		nd += i - fs
	}
	if nd == 0 {
		return 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			i = j
		}
	}
	v, err := strconv.ParseFloat(string(s[st:i]), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return v, true
		}
		return 0, false
	}
	return v, true
}

func generalCompare(a, b []byte) int {
	x, okx := parseFloatPrefix(a)
	y, oky := parseFloatPrefix(b)
	switch {
	case !okx && !oky:
		return 0
	case !okx:
		return -1
	case !oky:
		return 1
	case x < y:
		return -1
	case x > y:
		return 1
	case x == y:
		return 0
	case y == y:
		return -1 // x is NaN
	case x == x:
		return 1
	}
	return 0
}

func monthOf(b []byte) int {
	i := 0
	for i < len(b) && isBlank(b[i]) {
		i++
	}
	if len(b)-i < 3 {
		return 0
	}
	m := strings.ToUpper(string(b[i : i+3]))
	if j := strings.Index("JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC", m); j >= 0 && j%3 == 0 {
		return j/3 + 1
	}
	return 0
}

// Sort runs sort.
func Sort(inv *command.Invocation) int {
	p := newProc(inv, 2)
	opts, files, ok := p.parse(&sortSpec)
	if !ok {
		return p.status
	}
	var g sortKey
	g.eol = true
	s := &sorter{tab: -1}
	var keys []sortKey
	check, quiet, merge := false, false, false
	output, files0 := "", ""
	outputSet := false
	delim := byte('\n')
	for _, o := range opts {
		switch o.Name {
		case "b", "d", "f", "g", "h", "i", "M", "n", "R", "r", "V":
			g.setFlag(o.Name[0], true)
			if o.Name == "b" {
				g.skipeb = true
			}
		case "sort":
			m := map[string]byte{"general-numeric": 'g', "human-numeric": 'h', "month": 'M',
				"numeric": 'n', "random": 'R', "version": 'V'}
			c, ok := m[o.Val]
			if !ok {
				for name, cc := range m {
					if strings.HasPrefix(name, o.Val) && o.Val != "" {
						if ok {
							ok = false
							break
						}
						c, ok = cc, true
					}
				}
			}
			if !ok {
				p.warn("invalid argument %s for %s", quote(o.Val), quote("--sort"))
				p.errLines("Valid arguments are:\n  - \uE000general-numeric\uE001\n  - \uE000human-numeric\uE001\n  - \uE000month\uE001\n  - \uE000numeric\uE001\n  - \uE000random\uE001\n  - \uE000version\uE001\n")
				p.usage = 1 // argmatch failures exit 1
				return p.usageErr("")
			}
			g.setFlag(c, true)
		case "c", "C", "check":
			check = true
			quiet = o.Name == "C"
			if o.Name == "check" && o.HasVal {
				switch o.Val {
				case "quiet", "silent":
					quiet = true
				case "diagnose-first":
				default:
					p.warn("invalid argument %s for %s", quote(o.Val), quote("--check"))
					p.errLines("Valid arguments are:\n  - \uE000diagnose-first\uE001\n  - \uE000quiet\uE001, \uE000silent\uE001\n")
					return p.usageErr("")
				}
			}
		case "k":
			var k sortKey
			if msg := parseKeyDef(o.Val, &k); msg != "" {
				p.warn("%s", msg)
				return p.exit(2)
			}
			keys = append(keys, k)
		case "m":
			merge = true
		case "o":
			if outputSet && output != o.Val {
				p.warn("multiple output files specified")
				return p.exit(2)
			}
			output, outputSet = o.Val, true
		case "s":
			s.stable = true
		case "S":
			if _, err := parseCount(strings.TrimSuffix(o.Val, "%")); err != nil && !strings.HasSuffix(o.Val, "%") {
				p.warn("invalid -S argument %s", qfile(o.Val))
				return p.exit(2)
			}
		case "t":
			t := o.Val
			if t == `\0` {
				t = "\x00"
			}
			if len(t) != 1 {
				if t == "" {
					p.warn("empty tab")
				} else {
					p.warn("multi-character tab %s", quote(t))
				}
				return p.exit(2)
			}
			if s.tab >= 0 && s.tab != int(t[0]) {
				p.warn("incompatible tabs")
				return p.exit(2)
			}
			s.tab = int(t[0])
		case "u":
			s.unique = true
		case "z":
			delim = 0
		case "files0-from":
			files0 = o.Val
		case "T", "parallel", "batch-size", "compress-program":
			// Tuning only; no effect on the result.
		case "debug":
			return p.partial("sort --debug", "--debug annotations are not supported in shellsim")
		case "random-source":
			return p.partial("sort --random-source", "--random-source is not supported in shellsim")
		}
	}
	if len(keys) == 0 {
		if msg := g.incompatible(); msg != "" {
			p.warn("%s", msg)
			return p.exit(2)
		}
	}
	for i := range keys {
		k := &keys[i]
		if !k.hasOrdering() {
			k.skipsb, k.skipeb = g.skipsb, g.skipeb
			k.numeric, k.general, k.human, k.month = g.numeric, g.general, g.human, g.month
			k.version, k.random, k.dict, k.nonprint = g.version, g.random, g.dict, g.nonprint
			k.fold, k.reverse = g.fold, g.reverse
		}
		if msg := k.incompatible(); msg != "" {
			p.warn("%s", msg)
			return p.exit(2)
		}
	}
	if len(keys) == 0 {
		keys = []sortKey{g}
	}
	s.keys = keys
	s.reverse = g.reverse

	if files0 != "" {
		if len(files) > 0 {
			p.warn("extra operand %s", quote(files[0]))
			fmt.Fprintf(p.Stderr, "file operands cannot be combined with --files0-from\n")
			return p.usageErr("")
		}
		data, err := p.readAll(files0)
		if err != nil {
			if p.stop || err == errStop {
				return p.exit(2)
			}
			p.warn("cannot open %s for reading: %s", qfile(files0), command.Message(err))
			return p.exit(2)
		}
		for _, n := range splitLines(data, 0) {
			files = append(files, string(n))
		}
	}
	files = defaultStdin(files)
	if check {
		if len(files) > 1 {
			p.warn("extra operand %s not allowed with -%s", qfile(files[1]), map[bool]string{true: "C", false: "c"}[quiet])
			return p.exit(2)
		}
		return p.sortCheck(s, files[0], delim, quiet)
	}

	// Read every input (GNU reads all before opening -o, so "-o f f" works).
	var inputs [][][]byte
	for _, f := range files {
		data, err := p.readAll(f)
		if p.stop || err == errStop {
			return p.exit(2)
		}
		if err != nil {
			if err == command.ErrIsDir {
				p.warn("read failed: %s: %s", f, command.Message(err))
			} else {
				p.warn("cannot read: %s: %s", f, command.Message(err))
			}
			return p.exit(2)
		}
		lines, ok := p.lines(data, delim)
		if !ok {
			return p.exit(2)
		}
		inputs = append(inputs, lines)
	}
	var lines [][]byte
	n := 0
	for _, in := range inputs {
		n += len(in)
	}
	if len(inputs) > 1 && !p.reserve(24*int64(n)) {
		return p.exit(2)
	}
	if merge {
		lines = s.merge(inputs, n)
	} else {
		if len(inputs) == 1 {
			lines = inputs[0]
		} else {
			lines = make([][]byte, 0, n)
			for _, in := range inputs {
				lines = append(lines, in...)
			}
		}
		sort.SliceStable(lines, func(i, j int) bool { return s.compare(lines[i], lines[j]) < 0 })
	}
	// The modeled cost is n·log2(n) comparisons (plus the bytes already
	// charged on reading), independent of the sort algorithm's details.
	nl := int64(len(lines))
	if !p.charge(nl * int64(bits.Len64(uint64(nl)))) {
		return p.exit(2)
	}

	var w io.Writer = p.out
	var of command.File
	if outputSet {
		f, err := p.FS.OpenFile(p.Abs(output), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			p.warn("open failed: %s: %s", output, command.Message(err))
			return p.exit(2)
		}
		of = f
		w = f
	}
	var buf []byte
	flushBuf := func() bool {
		if len(buf) == 0 {
			return true
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		if err != nil {
			if of != nil {
				p.warn("write failed: %s: %s", output, command.Message(err))
			}
			p.stop = of == nil
			return false
		}
		return true
	}
	for i, l := range lines {
		if s.unique && i > 0 && s.compare(lines[i-1], l) == 0 {
			continue
		}
		buf = append(buf, l...)
		buf = append(buf, delim)
		if len(buf) >= 32*1024 && !flushBuf() {
			break
		}
	}
	ok = flushBuf()
	if of != nil {
		of.Close()
	}
	if !ok {
		return p.exit(2)
	}
	return p.exit(0)
}

func (s *sorter) merge(inputs [][][]byte, n int) [][]byte {
	out := make([][]byte, 0, n)
	idx := make([]int, len(inputs))
	for {
		best := -1
		for i, in := range inputs {
			if idx[i] >= len(in) {
				continue
			}
			if best < 0 || s.compare(in[idx[i]], inputs[best][idx[best]]) < 0 {
				best = i
			}
		}
		if best < 0 {
			return out
		}
		out = append(out, inputs[best][idx[best]])
		idx[best]++
	}
}

func (p *proc) sortCheck(s *sorter, f string, delim byte, quiet bool) int {
	data, err := p.readAll(f)
	if p.stop || err == errStop {
		return p.exit(2)
	}
	if err != nil {
		p.warn("cannot read: %s: %s", f, command.Message(err))
		return p.exit(2)
	}
	lines, ok := p.lines(data, delim)
	if !ok || !p.charge(int64(len(lines))) {
		return p.exit(2)
	}
	for i := 1; i < len(lines); i++ {
		d := s.compare(lines[i-1], lines[i])
		if d > 0 || (s.unique && d == 0) {
			if !quiet {
				p.flush()
				fmt.Fprintf(p.Stderr, "%s: %s:%d: disorder: %s\n", p.name, f, i+1, lines[i])
			}
			return p.exit(1)
		}
	}
	return p.exit(0)
}

// filevercmp is gnulib's version comparison (sort -V, ls -v), hand-written
// because no Go library reproduces its suffix and '~' rules exactly.
func filevercmp(a, b []byte) int {
	if len(a) == 0 || len(b) == 0 {
		switch {
		case len(a) == 0 && len(b) == 0:
			return 0
		case len(a) == 0:
			return -1
		}
		return 1
	}
	if a[0] == '.' {
		if b[0] != '.' {
			return -1
		}
		adot, bdot := len(a) == 1, len(b) == 1
		if adot {
			if bdot {
				return 0
			}
			return -1
		}
		if bdot {
			return 1
		}
		add, bdd := a[1] == '.' && len(a) == 2, b[1] == '.' && len(b) == 2
		if add {
			if bdd {
				return 0
			}
			return -1
		}
		if bdd {
			return 1
		}
	} else if b[0] == '.' {
		return 1
	}
	ap, bp := filePrefixLen(a), filePrefixLen(b)
	onePass := ap == len(a) && bp == len(b)
	r := verrevcmp(a[:ap], b[:bp])
	if r != 0 || onePass {
		return r
	}
	return verrevcmp(a, b)
}

func isHex(c byte) bool { return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'f' }

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func filePrefixLen(s []byte) int {
	n := len(s)
	prefix := 0
	for i := 0; ; {
		if i == n {
			return prefix
		}
		i++
		prefix = i
		for i+1 < n && s[i] == '.' && (isAlpha(s[i+1]) || s[i+1] == '~') {
			for i += 2; i < n && (isAlnum(s[i]) || s[i] == '~'); i++ {
			}
		}
	}
}

func verOrder(c byte) int {
	switch {
	case isDigit(c):
		return 0
	case isAlpha(c):
		return int(c)
	case c == '~':
		return -1
	}
	return int(c) + 256
}

func verrevcmp(a, b []byte) int {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		firstDiff := 0
		for (i < len(a) && !isDigit(a[i])) || (j < len(b) && !isDigit(b[j])) {
			ac, bc := 0, 0
			if i < len(a) {
				ac = verOrder(a[i])
			}
			if j < len(b) {
				bc = verOrder(b[j])
			}
			if ac != bc {
				return ac - bc
			}
			i++
			j++
		}
		for i < len(a) && a[i] == '0' {
			i++
		}
		for j < len(b) && b[j] == '0' {
			j++
		}
		for i < len(a) && j < len(b) && isDigit(a[i]) && isDigit(b[j]) {
			if firstDiff == 0 {
				firstDiff = int(a[i]) - int(b[j])
			}
			i++
			j++
		}
		if i < len(a) && isDigit(a[i]) {
			return 1
		}
		if j < len(b) && isDigit(b[j]) {
			return -1
		}
		if firstDiff != 0 {
			return firstDiff
		}
	}
	return 0
}
