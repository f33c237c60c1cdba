package daytona

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// The wrapper scripts run by the sandbox's shell (the toolbox pipes an
// execute request's command to a shell's standard input, so their length is
// not bounded by the argument limit). Their replies are lines starting with
// these markers; whatever precedes them is the shell's own complaint.
const (
	markResult   = "SHELLBOX-RESULT"
	markInline   = "SHELLBOX-INLINE"
	markSep      = "SHELLBOX-SEP"
	markEnd      = "SHELLBOX-END"
	markNoUser   = "SHELLBOX-NOUSER"
	markNoSu     = "SHELLBOX-NOSU"
	markNoPid    = "SHELLBOX-NOPID"
	markStopFail = "SHELLBOX-STOPFAIL"
	markNoSetsid = "SHELLBOX-NOSETSID"
	markReady    = "SHELLBOX-READY"
	markDir      = "SHELLBOX-DIR"
	markFile     = "SHELLBOX-FILE"
	markMissing  = "SHELLBOX-MISSING"
	markSpecial  = "SHELLBOX-SPECIAL"
)

// inlineLimit is the most output per stream a command's reply carries in
// base64; more is downloaded from the files afterwards.
const inlineLimit = 1 << 20

// quote is s as one POSIX shell word.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func quoteAll(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = quote(a)
	}
	return strings.Join(q, " ")
}

// emit prints the result line and, when both streams fit, the kept bytes
// of each in base64, then removes the command's directory.
func emit(limit int) string {
	l := strconv.Itoa(limit)
	return `o=$(wc -c < "$D/out" 2>/dev/null || echo 0); e=$(wc -c < "$D/err" 2>/dev/null || echo 0)
o=$((o+0)); e=$((e+0))
echo "` + markResult + ` $C $o $e"
if command -v base64 >/dev/null 2>&1 && { [ $o -le ` + strconv.Itoa(inlineLimit) + ` ] || [ ` + l + ` -le ` + strconv.Itoa(inlineLimit) + ` ]; } && { [ $e -le ` + strconv.Itoa(inlineLimit) + ` ] || [ ` + l + ` -le ` + strconv.Itoa(inlineLimit) + ` ]; }; then
echo ` + markInline + `
head -c ` + l + ` "$D/out" | base64
echo ` + markSep + `
head -c ` + l + ` "$D/err" | base64
echo ` + markEnd + `
rm -rf "$D"
fi
`
}

// runScript runs argv in a session and process group of its own (setsid),
// whose id it records in $D/pid, with the streams in $D/out and $D/err;
// user, when set, is switched to with su (util-linux su's
// --session-command keeps the process group; BusyBox's su -c never makes
// a new session). The command's exit status goes to $D/done.
func runScript(dir, cwd, user string, argv []string, stdin bool, limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "D=%s\numask 077; mkdir -p \"$D\" || exit 1; umask 022\n", quote(dir))
	in := "/dev/null"
	if stdin {
		in = `"$D/in"`
	}
	su, n, cmdline := "''", "''", "''"
	if user != "" {
		fmt.Fprintf(&b, `N=$(awk -F: -v u=%s '$1==u||$3==u{print $1; exit}' /etc/passwd 2>/dev/null)
[ -n "$N" ] || { echo %s; rm -rf "$D"; exit 0; }
case $(su --help 2>&1) in *--session-command*) SU=--session-command;; *BusyBox*) SU=-c;; *) echo %s; rm -rf "$D"; exit 0;; esac
`, quote(user), markNoUser, markNoSu)
		su, n, cmdline = `"$SU"`, `"$N"`, quote(quoteAll(argv))
	}
	inner := `echo $$ > "$1/pid"; cd "$2" || exit 1; if [ -n "$3" ]; then exec su -s /bin/sh -m "$3" "$4" "$5"; fi; shift 5; exec "$@"`
	fmt.Fprintf(&b, "setsid /bin/sh -c %s shellbox \"$D\" %s %s %s %s %s <%s >\"$D/out\" 2>\"$D/err\" &\nwait $!\nC=$?\necho $C > \"$D/done\"\n",
		quote(inner), quote(cwd), n, su, cmdline, quoteAll(argv), in)
	b.WriteString(emit(limit))
	return b.String()
}

// stopScript kills the process group recorded in $D/pid unless the
// command already finished, waits until no member of the group runs (a
// zombie does not), and prints the output so far as runScript does.
func stopScript(dir string, limit int) string {
	return "D=" + quote(dir) + `
i=0; while [ ! -s "$D/pid" ] && [ ! -e "$D/done" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i+1)); done
if [ ! -e "$D/done" ]; then
p=$(cat "$D/pid" 2>/dev/null)
case "$p" in ''|*[!0-9]*) echo ` + markNoPid + `; rm -rf "$D"; exit 0;; esac
[ "$p" -gt 1 ] || { echo ` + markNoPid + `; exit 0; }
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
i=$((i+1)); [ $i -gt 200 ] && { echo ` + markStopFail + `; exit 0; }
sleep 0.05
done
fi
C=-1
` + emit(limit)
}

// setupScript checks the sandbox has what the wrapper needs and makes the
// workdir.
func setupScript(workdir string) string {
	s := "command -v setsid >/dev/null 2>&1 || { echo " + markNoSetsid + "; exit 0; }\n"
	if workdir != "" {
		s += "mkdir -p " + quote(workdir) + " || exit 1\n"
	}
	return s + "echo " + markReady + "\n"
}

// parsed is a wrapper's reply.
type parsed struct {
	code           int
	outLen, errLen int64
	inline         bool
	stdout, stderr []byte
	marker         string // a refusal marker, when the wrapper printed one
	preamble       string // what came before the markers
}

// parseReply reads a run or stop script's reply.
func parseReply(text string) (parsed, error) {
	var p parsed
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		line = strings.TrimRight(line, "\r")
		switch {
		case line == markNoUser || line == markNoSu || line == markNoPid || line == markStopFail:
			p.marker = line
			return p, nil
		case strings.HasPrefix(line, markResult+" "):
			f := strings.Fields(line)
			if len(f) != 4 {
				return p, fmt.Errorf("daytona: malformed result line %q", line)
			}
			var err error
			if p.code, err = strconv.Atoi(f[1]); err != nil {
				return p, fmt.Errorf("daytona: malformed result line %q", line)
			}
			if p.outLen, err = strconv.ParseInt(f[2], 10, 64); err != nil {
				return p, fmt.Errorf("daytona: malformed result line %q", line)
			}
			if p.errLen, err = strconv.ParseInt(f[3], 10, 64); err != nil {
				return p, fmt.Errorf("daytona: malformed result line %q", line)
			}
			p.preamble = strings.Join(lines[:i], "\n")
			return p, p.inlined(lines[i+1:])
		}
	}
	return p, fmt.Errorf("daytona: the command wrapper failed: %s", strings.TrimSpace(truncate(text, 2000)))
}

func (p *parsed) inlined(rest []string) error {
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
			if p.stdout, err = base64.StdEncoding.DecodeString(out.String()); err != nil {
				return fmt.Errorf("daytona: decoding the command's stdout: %w", err)
			}
			if p.stderr, err = base64.StdEncoding.DecodeString(errb.String()); err != nil {
				return fmt.Errorf("daytona: decoding the command's stderr: %w", err)
			}
			p.inline = true
			return nil
		}
		cur.WriteString(strings.TrimSpace(line))
	}
	return fmt.Errorf("daytona: the command's output ended early")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
