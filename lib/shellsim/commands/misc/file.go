package misc

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"io"
	"io/fs"
	"strings"
	"unicode/utf8"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// file - determine file type
//
//	file [-bLi] [--mime-type] FILE...
//
// Recognises what scripts meet in a sandbox: empty files, directories,
// symbolic links, gzip, tar, zip, ELF, PNG, JSON, HTML, shell and other
// scripts by their #! line, and ASCII/UTF-8 text with its line-terminator
// notes; anything else is "data". Only the first 64 KiB are examined.

var fileSpec = getopt.Spec{Short: "bLhi", Long: []getopt.Long{
	{"brief", "b"}, {"dereference", "L"}, {"mime", "i"}, {"mime-type", "mime-type"},
	{"no-dereference", "h"},
}}

// File runs file.
func File(inv *command.Invocation) int {
	if inv.Sys.Charge(50) != nil {
		return 1
	}
	opts, files, st, ok := getopt.Parse(inv, &fileSpec)
	if !ok {
		return st
	}
	brief, follow, mime, mimeType := false, false, false, false
	for _, o := range opts {
		switch o.Name {
		case "b":
			brief = true
		case "L":
			follow = true
		case "h":
			follow = false
		case "i":
			mime = true
		case "mime-type":
			mimeType = true
		}
	}
	if len(files) == 0 {
		fmt.Fprintf(inv.Stderr, "Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n            <file> ...\n       file -C [-m <magicfiles>]\n       file [--help]\n")
		return 1
	}
	// Standard input is shown as /dev/stdin.
	shown := func(f string) string {
		if f == "-" {
			return "/dev/stdin"
		}
		return f
	}
	width := 0
	for _, f := range files {
		width = max(width, len(shown(f))+1)
	}
	var out bytes.Buffer
	for _, f := range files {
		desc, m := describe(inv, f, follow)
		switch {
		case mimeType:
			desc = m
			if i := strings.IndexByte(m, ';'); i >= 0 {
				desc = m[:i]
			}
		case mime:
			desc = m
		}
		if brief {
			out.WriteString(desc + "\n")
		} else {
			fmt.Fprintf(&out, "%-*s %s\n", width, shown(f)+":", desc)
		}
	}
	if inv.Sys.Charge(int64(out.Len())) != nil {
		return 1
	}
	if _, err := inv.Stdout.Write(out.Bytes()); err != nil {
		return 1
	}
	return 0
}

// describe returns the description and MIME type of one operand.
func describe(inv *command.Invocation, name string, follow bool) (string, string) {
	if name == "-" {
		data, _ := io.ReadAll(io.LimitReader(inv.Stdin, 64<<10))
		inv.Sys.Charge(int64(len(data)))
		return magic(data, false)
	}
	p := inv.Abs(name)
	var fi command.FileInfo
	var err error
	if follow {
		fi, err = inv.FS.Stat(p)
	} else {
		fi, err = inv.FS.Lstat(p)
	}
	if err != nil {
		msg := fmt.Sprintf("cannot open `%s' (%s)", name, command.Message(err))
		return msg, msg
	}
	switch {
	case fi.IsDir():
		return "directory", "inode/directory; charset=binary"
	case fi.Mode&fs.ModeSymlink != 0:
		if _, err := inv.FS.Stat(p); err != nil {
			return "broken symbolic link to " + fi.Target, "inode/symlink; charset=binary"
		}
		return "symbolic link to " + fi.Target, "inode/symlink; charset=binary"
	case fi.Mode&fs.ModeNamedPipe != 0:
		return "fifo (named pipe)", "inode/fifo; charset=binary"
	case fi.Mode&fs.ModeCharDevice != 0:
		// The devices a sandbox has, with Linux's major/minor numbers.
		if dev, ok := map[string]string{"/dev/null": "1/3", "/dev/zero": "1/5", "/dev/full": "1/7", "/dev/random": "1/8",
			"/dev/urandom": "1/9", "/dev/tty": "5/0"}[p]; ok {
			return "character special (" + dev + ")", "inode/chardevice; charset=binary"
		}
		return "character special", "inode/chardevice; charset=binary"
	}
	f, err := inv.FS.Open(p)
	if err != nil {
		msg := fmt.Sprintf("cannot open `%s' (%s)", name, command.Message(err))
		return msg, msg
	}
	data, _ := io.ReadAll(io.LimitReader(f, 64<<10))
	f.Close()
	inv.Sys.Charge(int64(len(data)))
	return magic(data, fi.Mode.Perm()&0o111 != 0)
}

func magic(b []byte, _ bool) (string, string) {
	switch {
	case len(b) == 0:
		return "empty", "inode/x-empty; charset=binary"
	case bytes.HasPrefix(b, []byte{0x1f, 0x8b}):
		return gzipDesc(b), "application/gzip; charset=binary"
	case bytes.HasPrefix(b, []byte("\x7fELF")):
		return "ELF executable", "application/x-executable; charset=binary"
	case bytes.HasPrefix(b, []byte("PK\x03\x04")) && len(b) >= 30:
		ver := binary.LittleEndian.Uint16(b[4:])
		method := map[uint16]string{0: "store", 8: "deflate"}[binary.LittleEndian.Uint16(b[8:])]
		if method == "" {
			method = fmt.Sprint(binary.LittleEndian.Uint16(b[8:]))
		}
		return fmt.Sprintf("Zip archive data, at least v%d.%d to extract, compression method=%s", ver/10, ver%10, method), "application/zip; charset=binary"
	case len(b) >= 263 && bytes.Equal(b[257:265], []byte("ustar  \x00")):
		return "POSIX tar archive (GNU)", "application/x-tar; charset=binary"
	case len(b) >= 263 && bytes.Equal(b[257:263], []byte("ustar\x00")):
		return "POSIX tar archive", "application/x-tar; charset=binary"
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) && len(b) >= 24:
		return fmt.Sprintf("PNG image data, %d x %d", binary.BigEndian.Uint32(b[16:]), binary.BigEndian.Uint32(b[20:])), "image/png; charset=binary"
	case bytes.HasPrefix(b, []byte("%PDF-")):
		return "PDF document, version " + strings.TrimSpace(string(b[5:min(len(b), 8)])), "application/pdf; charset=binary"
	}
	enc, charset := textKind(b)
	if enc == "" {
		return "data", "application/octet-stream; charset=binary"
	}
	notes := lineNotes(b)
	kind, mime := enc+" text", "text/plain"
	if bytes.HasPrefix(b, []byte("#!")) {
		line := string(b[2:])
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		interp := ""
		if len(f) > 0 {
			interp = f[0][strings.LastIndexByte(f[0], '/')+1:]
			if interp == "env" && len(f) > 1 {
				interp = f[1]
			}
		}
		script := map[string]string{"sh": "POSIX shell script", "bash": "Bourne-Again shell script", "dash": "POSIX shell script",
			"zsh": "Paul Falstad's zsh script", "python": "Python script", "python3": "Python script", "python2": "Python script",
			"perl": "Perl script text", "ruby": "Ruby script", "node": "Node.js script", "awk": "awk or perl script"}[strings.TrimRight(interp, "0123456789.")]
		if interp == "python3" || interp == "python2" {
			script = "Python script"
		}
		smime := map[string]string{"Python script": "text/x-script.python", "POSIX shell script": "text/x-shellscript",
			"Bourne-Again shell script": "text/x-shellscript"}[script]
		if smime == "" {
			smime = "text/plain"
		}
		if script == "" {
			script = "a " + interp + " script"
		}
		return script + ", " + kind + " executable" + notes, smime + "; charset=" + charset
	}
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') && json.Valid(trimmed) {
		return "JSON text data", "application/json; charset=" + charset
	}
	lower := strings.ToLower(string(trimmed[:min(len(trimmed), 256)]))
	if strings.HasPrefix(lower, "<!doctype html") || strings.HasPrefix(lower, "<html") {
		return "HTML document, " + kind + notes, "text/html; charset=" + charset
	}
	if strings.HasPrefix(lower, "<?xml") {
		return "XML 1.0 document, " + kind + notes, "text/xml; charset=" + charset
	}
	return kind + notes, mime + "; charset=" + charset
}

// textKind tells ASCII from UTF-8 text and rejects binary data.
func textKind(b []byte) (string, string) {
	ascii := true
	for _, c := range b {
		if c >= 0x80 {
			ascii = false
			continue
		}
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\b' && c != 0x1b && c != '\v' {
			return "", ""
		}
		if c == 0x7f {
			return "", ""
		}
	}
	if ascii {
		return "ASCII", "us-ascii"
	}
	if utf8.Valid(b) {
		return "Unicode text, UTF-8", "utf-8"
	}
	return "ISO-8859", "iso-8859-1"
}

// lineNotes is file's ", with CRLF line terminators" family.
func lineNotes(b []byte) string {
	var notes []string
	longest, cur := 0, 0
	crlf, lf, cr := false, false, false
	for i, c := range b {
		switch c {
		case '\n':
			if i > 0 && b[i-1] == '\r' {
				crlf = true
			} else {
				lf = true
			}
			longest, cur = max(longest, cur), 0
		case '\r':
			if i+1 >= len(b) || b[i+1] != '\n' {
				cr = true
				longest, cur = max(longest, cur), 0
			}
		default:
			cur++
		}
	}
	longest = max(longest, cur)
	if longest > 300 {
		notes = append(notes, fmt.Sprintf("with very long lines (%d)", longest))
	}
	switch {
	case crlf && !lf && !cr:
		notes = append(notes, "with CRLF line terminators")
	case cr && !lf && !crlf:
		notes = append(notes, "with CR line terminators")
	case crlf && lf:
		notes = append(notes, "with CRLF, LF line terminators")
	case !crlf && !lf && !cr:
		notes = append(notes, "with no line terminators")
	}
	if len(notes) == 0 {
		return ""
	}
	return ", " + strings.Join(notes, ", ")
}

func gzipDesc(b []byte) string {
	s := "gzip compressed data"
	if len(b) < 10 {
		return s
	}
	flags := b[3]
	n := 10
	if flags&4 != 0 && len(b) > n+2 {
		n += 2 + int(binary.LittleEndian.Uint16(b[n:]))
	}
	if flags&8 != 0 && n < len(b) {
		end := bytes.IndexByte(b[n:], 0)
		if end >= 0 {
			s += fmt.Sprintf(", was \"%s\"", b[n:n+end])
		}
	}
	if mt := binary.LittleEndian.Uint32(b[4:]); mt != 0 {
		s += ", last modified: " + unixDate(int64(mt))
	}
	switch b[8] {
	case 2:
		s += ", max compression"
	case 4:
		s += ", max speed"
	}
	s += ", from Unix"
	if len(b) >= 18 {
		s += fmt.Sprintf(", original size modulo 2^32 %d", binary.LittleEndian.Uint32(b[len(b)-4:]))
	}
	return s
}
