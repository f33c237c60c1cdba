package shwrap

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Replies of the scripts are lines starting with these markers; whatever
// precedes them is the shell's own complaint.
const (
	markResult = "SHELLBOX-RESULT"
	markInline = "SHELLBOX-INLINE"
	markSep    = "SHELLBOX-SEP"
	markEnd    = "SHELLBOX-END"
	// NoUser: the command's user has no account.
	NoUser = "SHELLBOX-NOUSER"
	// NoSu: the sandbox's su cannot switch users keeping the group.
	NoSu = "SHELLBOX-NOSU"
	// NoPid: nothing to stop: the command never started, or it ended and
	// its own script printed (and removed) its output.
	NoPid = "SHELLBOX-NOPID"
	// StopFail: the group still had members after SIGKILL.
	StopFail = "SHELLBOX-STOPFAIL"
	// NoSetsid: the sandbox lacks setsid.
	NoSetsid = "SHELLBOX-NOSETSID"
	// Dir, File, Missing, Special: what ProbeScript found.
	Dir     = "SHELLBOX-DIR"
	File    = "SHELLBOX-FILE"
	Missing = "SHELLBOX-MISSING"
	Special = "SHELLBOX-SPECIAL"
)

// InlineLimit is the most output per stream a command's reply carries in
// base64; more is downloaded from the files afterwards.
const InlineLimit = 256 << 10

// Quote is s as one POSIX shell word.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// QuoteAll is args as shell words.
func QuoteAll(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}

// claim makes $D/claim, failing when it exists (as a file or, made by an
// older script, a directory): whoever makes it prints the output and
// removes $D. The shell's noclobber creates it exclusively, without a
// process.
const claim = `set -C; { true > "$D/claim"; } 2>/dev/null`

// emit prints the result line and, when both streams fit, the kept bytes
// of each in base64, then removes the command's directory. It is one line
// of shell; an empty stream costs no process.
func emit(limit int) string {
	l, il := strconv.Itoa(limit), strconv.Itoa(InlineLimit)
	fits := "command -v base64 >/dev/null 2>&1"
	if limit > InlineLimit {
		fits += ` && [ $o -le ` + il + ` ] && [ $e -le ` + il + ` ]`
	}
	stream := func(v, file string) string {
		return `if [ $` + v + ` -gt ` + l + ` ]; then head -c ` + l + ` "$D/` + file + `" | base64; elif [ $` + v + ` -gt 0 ]; then base64 < "$D/` + file + `"; fi`
	}
	return `o=0; e=0; [ -s "$D/out" ] && o=$(wc -c < "$D/out"); [ -s "$D/err" ] && e=$(wc -c < "$D/err"); o=$((o+0)); e=$((e+0)); ` +
		`echo "` + markResult + ` $C $o $e"; ` +
		`if ` + fits + `; then echo ` + markInline + `; ` + stream("o", "out") + `; echo ` + markSep + `; ` +
		stream("e", "err") + `; echo ` + markEnd + `; rm -rf "$D"; fi`
}

// RunOptions describe one command for RunScript.
type RunOptions struct {
	Dir   string // the command's private directory (PrivateDir)
	Cwd   string
	User  string // "": no switch
	Argv  []string
	Env   map[string]string // exported before the command (names must be shell identifiers)
	Stdin bool              // $Dir/in holds the input; else /dev/null
	// Input, when not nil, is the command's stdin, carried in the script
	// itself (in base64, so keep it well under an argument's size) and
	// written to $Dir/in; it replaces Stdin.
	Input []byte
	Limit int // bytes kept of each stream
	// Prelude runs first (e.g. making the machine's workdir on its first
	// command); a failure fails the script.
	Prelude string
	// Workdir, when set, is a directory made (with its parents) by the
	// same process that makes Dir: the machine's working directory on its
	// first command, without a process of its own.
	Workdir string
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ValidEnvName reports whether name can be exported by a shell.
func ValidEnvName(name string) bool { return envName.MatchString(name) }

// launcher, run by setsid, records its process id (the group's) in
// $1/pid, enters $2 and runs the command, through su when $3 names a user.
const launcher = `echo $$ > "$1/pid"; cd "$2" || exit 1; if [ -n "$3" ]; then exec su -s /bin/sh -m "$3" "$4" "$5"; fi; shift 5; exec "$@"`

// header gives the statements every command script starts with: the
// setsid check, the prelude, $D (made with the workdir, if any), the
// input, the environment and the user's lookup; and the launcher's user,
// su option and command line arguments.
func header(o RunOptions) (stmts []string, n, su, cmdline string) {
	stmts = append(stmts, fmt.Sprintf("command -v setsid >/dev/null 2>&1 || { echo %s; exit 0; }", NoSetsid))
	if p := strings.TrimSpace(o.Prelude); p != "" {
		stmts = append(stmts, p)
	}
	stmts = append(stmts, "D="+Quote(o.Dir))
	if o.Workdir != "" {
		// $D gets the workdir's mode (0755 under the usual umask), as it
		// has when an upload of the input made it; its files are the
		// user's own.
		stmts = append(stmts, fmt.Sprintf(`mkdir -p %s "$D" || exit 1`, Quote(o.Workdir)))
	} else {
		stmts = append(stmts, `umask 077; mkdir -p "$D" || exit 1; umask 022`)
	}
	if o.Input != nil {
		stmts = append(stmts, fmt.Sprintf(`printf '%%s' %s | base64 -d > "$D/in" || exit 1`, base64.StdEncoding.EncodeToString(o.Input)))
	}
	names := make([]string, 0, len(o.Env))
	for k := range o.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		stmts = append(stmts, fmt.Sprintf("export %s=%s", k, Quote(o.Env[k])))
	}
	su, n, cmdline = "''", "''", "''"
	if o.User != "" {
		stmts = append(stmts,
			fmt.Sprintf(`N=$(awk -F: -v u=%s '$1==u||$3==u{print $1; exit}' /etc/passwd 2>/dev/null)`, Quote(o.User)),
			fmt.Sprintf(`[ -n "$N" ] || { echo %s; rm -rf "$D"; exit 0; }`, NoUser),
			fmt.Sprintf(`case $(su --help 2>&1) in *--session-command*) SU=--session-command;; *BusyBox*) SU=-c;; *) echo %s; rm -rf "$D"; exit 0;; esac`, NoSu))
		su, n, cmdline = `"$SU"`, `"$N"`, Quote(QuoteAll(o.Argv))
	}
	return stmts, n, su, cmdline
}

// RunScript runs argv in a session and process group of its own (setsid),
// whose id it records in $D/pid, with the streams in $D/out and $D/err;
// the user, when set, is switched to with su (util-linux su's
// --session-command keeps the process group; BusyBox's su -c never makes
// a new session). The command's exit status goes to $D/done; the reply
// carries the status, the stream sizes and, when both fit InlineLimit,
// the kept bytes of each in base64. The script is one line (unless an
// argument or the environment holds a newline), as a service that passes
// a command through another shell quotes one more simply, and it starts
// few processes besides the command: those are what a command's round
// trip costs in a sandbox.
func RunScript(o RunOptions) string {
	stmts, n, su, cmdline := header(o)
	in := "/dev/null"
	if o.Stdin || o.Input != nil {
		in = `"$D/in"`
	}
	// Whoever makes $D/claim first, this script once the command ended or
	// StopScript, prints the output and removes $D.
	stmts = append(stmts,
		fmt.Sprintf(`setsid /bin/sh -c %s shellbox "$D" %s %s %s %s %s <%s >"$D/out" 2>"$D/err" & wait $!`,
			Quote(launcher), Quote(o.Cwd), n, su, cmdline, QuoteAll(o.Argv), in),
		`C=$?; echo $C > "$D/done"`,
		claim+" || exit 0",
		"set +C",
		emit(o.Limit))
	return strings.Join(stmts, "; ")
}

// StopScript kills the process group recorded in $D/pid unless the
// command already finished, waits until no member of the group runs (a
// zombie does not), and prints the output so far as RunScript does. It
// claims the output first, so the run script, which may still be running
// when the service does not end it with its request, leaves it alone.
func StopScript(dir string, limit int) string {
	return "D=" + Quote(dir) + `
i=0; while [ ! -s "$D/pid" ] && [ ! -e "$D/done" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done
` + claim + ` || { echo ` + NoPid + `; exit 0; }
set +C
if [ ! -e "$D/done" ]; then
p=$(cat "$D/pid" 2>/dev/null)
case "$p" in ''|*[!0-9]*) echo ` + NoPid + `; rm -rf "$D"; exit 0;; esac
[ "$p" -gt 1 ] || { echo ` + NoPid + `; exit 0; }
kill -KILL -"$p" 2>/dev/null
i=0
while :; do
left=0
for f in /proc/[0-9]*/stat; do
l=$(cat "$f" 2>/dev/null) || continue
l=${l##*) }
set -- $l
[ "$3" = "$p" ] && [ "$1" != Z ] && { left=1; kill -KILL "${f#/proc/}" 2>/dev/null; }
done
[ $left = 0 ] && break
i=$((i+1)); [ $i -gt 200 ] && { echo ` + StopFail + `; exit 0; }
sleep 0.05
done
fi
C=-1
` + emit(limit) + "\n"
}

// Reply is a run or stop script's reply.
type Reply struct {
	Code           int
	OutLen, ErrLen int64
	Inline         bool // Stdout and Stderr hold the kept bytes
	Stdout, Stderr []byte
	Marker         string // a refusal marker, when the script printed one
	Preamble       string // what came before the markers
}

// ParseReply reads a run or stop script's reply.
func ParseReply(text string) (Reply, error) {
	var p Reply
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		line = strings.TrimRight(line, "\r")
		switch {
		case line == NoUser || line == NoSu || line == NoPid || line == StopFail || line == NoSetsid:
			p.Marker = line
			return p, nil
		case strings.HasPrefix(line, markResult+" "):
			f := strings.Fields(line)
			if len(f) != 4 {
				return p, fmt.Errorf("shwrap: malformed result line %q", line)
			}
			var err error
			if p.Code, err = strconv.Atoi(f[1]); err != nil {
				return p, fmt.Errorf("shwrap: malformed result line %q", line)
			}
			if p.OutLen, err = strconv.ParseInt(f[2], 10, 64); err != nil {
				return p, fmt.Errorf("shwrap: malformed result line %q", line)
			}
			if p.ErrLen, err = strconv.ParseInt(f[3], 10, 64); err != nil {
				return p, fmt.Errorf("shwrap: malformed result line %q", line)
			}
			p.Preamble = strings.Join(lines[:i], "\n")
			return p, p.inlined(lines[i+1:])
		}
	}
	return p, fmt.Errorf("shwrap: the command wrapper failed: %s", strings.TrimSpace(Truncate(text, 2000)))
}

func (p *Reply) inlined(rest []string) error {
	if len(rest) == 0 || strings.TrimSpace(rest[0]) != markInline {
		return nil
	}
	var out, errb strings.Builder
	cur := &out
	for _, line := range rest[1:] {
		switch strings.TrimSpace(line) {
		case markSep:
			cur = &errb
			continue
		case markEnd:
			var err error
			if p.Stdout, err = base64.StdEncoding.DecodeString(out.String()); err != nil {
				return fmt.Errorf("shwrap: decoding the command's stdout: %w", err)
			}
			if p.Stderr, err = base64.StdEncoding.DecodeString(errb.String()); err != nil {
				return fmt.Errorf("shwrap: decoding the command's stderr: %w", err)
			}
			p.Inline = true
			return nil
		}
		cur.WriteString(strings.TrimSpace(line))
	}
	return fmt.Errorf("shwrap: the command's output ended early")
}

// Truncate cuts s to n bytes for an error message.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// PrivateDir is a fresh directory name for one command's files.
func PrivateDir() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "/tmp/.shellbox-" + hex.EncodeToString(b)
}

// ProbeScript reports what source is: a directory (archived into archive
// with tar, whose size follows), a regular file (with its octal mode and
// size), something else, or nothing.
func ProbeScript(source, archive string) string {
	return fmt.Sprintf(`S=%s; A=%s
if [ -d "$S" ]; then tar -cf "$A" -C "$S" . && echo "%s $(wc -c < "$A")"
elif [ -f "$S" ]; then echo "%s $(stat -c %%a "$S") $(wc -c < "$S")"
elif [ -e "$S" ]; then echo %s
else echo %s; fi`, Quote(source), Quote(archive), Dir, File, Special, Missing)
}

// ParseStopReply reads a stop script's reply: an error when the group
// outlived SIGKILL; for a command the wrapper never started (NoPid: the
// request ended before the service ran it), an empty inline reply with
// code -1, as there is nothing to stop and nothing was printed.
func ParseStopReply(text string) (Reply, error) {
	p, err := ParseReply(text)
	if err != nil {
		return Reply{}, err
	}
	switch p.Marker {
	case StopFail:
		return p, errors.New("the process group still has members after SIGKILL")
	case NoPid:
		return Reply{Code: -1, Inline: true}, nil
	}
	return p, nil
}

// UntarScript extracts the tar archive at archive into the directory
// target (made if missing) and removes the archive.
func UntarScript(target, archive string) string {
	return fmt.Sprintf("T=%s; S=%s; mkdir -p \"$T\" && tar -xf \"$S\" -C \"$T\"; r=$?; rm -f \"$S\"; exit $r", Quote(target), Quote(archive))
}

// PlaceScript copies the file at tmp to target (its directory made if
// missing) with the octal mode, and removes tmp.
func PlaceScript(target, tmp string, mode int64) string {
	return fmt.Sprintf("T=%s; S=%s; mkdir -p %s && cat \"$S\" > \"$T\" && chmod %s \"$T\"; r=$?; rm -f \"$S\"; exit $r",
		Quote(target), Quote(tmp), Quote(path.Dir(target)), strconv.FormatInt(mode, 8))
}
