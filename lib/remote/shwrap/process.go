package shwrap

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// Lines of a process script's output, and the end of its input.
const (
	// markOut precedes a chunk of the command's stdout in base64.
	markOut = "SHELLBOX-OUT"
	// markExit precedes the status, stderr's size and its kept bytes in
	// base64.
	markExit = "SHELLBOX-EXIT"
	// InputEnd is the input line that closes the command's stdin.
	InputEnd = ".\n"
)

// ProcessScript runs argv as RunScript does, but streaming: each line of
// the script's own stdin is base64 fed to the command's stdin as it
// arrives (InputEnd closes it), and each read of the command's stdout is
// printed at once as a line in base64, so a service that carries a
// command's input and output as text (Daytona's session input and log
// stream) carries binary both ways. After stdout ends the script prints
// the status and the kept stderr, unless StopScript claimed the output
// first. It needs mkfifo, dd, base64 and tr besides RunScript's tools.
func ProcessScript(o RunOptions) string {
	var b strings.Builder
	stmts, n, su, cmdline := header(o)
	for _, st := range stmts {
		b.WriteString(st + "\n")
	}
	l := strconv.Itoa(o.Limit)
	// $D/out stays empty: StopScript reports no stdout, which the stream
	// already carried.
	// An asynchronous list reads /dev/null unless told otherwise: fd 3 is
	// the script's stdin for the input pump. dd with count=1 copies what
	// one read returns, so output is not held back for a full block. The
	// output loop opens its FIFO in a subshell of its own: BusyBox's sh
	// gives up an open that SIGCHLD interrupts (the input pump may end
	// meanwhile), and a subshell has no children to signal it.
	fmt.Fprintf(&b, `mkfifo "$D/i" "$D/o" && : >"$D/out" || exit 1
exec 3<&0
setsid /bin/sh -c %s shellbox "$D" %s %s %s %s %s <"$D/i" >"$D/o" 2>"$D/err" &
P=$!
{ while IFS= read -r l; do [ "$l" = . ] && break; printf %%s "$l" | base64 -d || break; done; } <&3 >"$D/i" &
I=$!
exec 3<&-
(while c=$(dd bs=65536 count=1 2>/dev/null | base64 | tr -d '\n'); [ -n "$c" ]; do echo "%s $c"; done <"$D/o")
wait $P
C=$?
kill $I 2>/dev/null
echo $C > "$D/done"
%s || exit 0
set +C
e=$(wc -c < "$D/err"); e=$((e+0))
echo "%s $C $e $(head -c %s "$D/err" | base64 | tr -d '\n')"
rm -rf "$D"
`, Quote(launcher), Quote(o.Cwd), n, su, cmdline, QuoteAll(o.Argv), markOut, claim, markExit, l)
	return b.String()
}

// EncodeInput is b as input lines of ProcessScript.
func EncodeInput(b []byte) string {
	return base64.StdEncoding.EncodeToString(b) + "\n"
}

// ProcessLine is one line of a process script's output: a chunk of
// stdout, the exit (Exited), or a refusal marker.
type ProcessLine struct {
	Stdout []byte
	Exited bool
	Code   int
	Stderr []byte
	ErrLen int64
	Marker string
}

// ParseProcessLine reads one line of a process script's output; a line
// that is none of its own is the shell's complaint, returned as an error.
func ParseProcessLine(line string) (ProcessLine, error) {
	line = strings.TrimRight(line, "\r")
	var p ProcessLine
	switch {
	case line == NoUser || line == NoSu || line == NoSetsid:
		p.Marker = line
		return p, nil
	case strings.HasPrefix(line, markOut+" "):
		b, err := base64.StdEncoding.DecodeString(line[len(markOut)+1:])
		if err != nil {
			return p, fmt.Errorf("shwrap: decoding the command's stdout: %w", err)
		}
		p.Stdout = b
		return p, nil
	case strings.HasPrefix(line, markExit+" "):
		f := strings.Fields(line)
		if len(f) != 3 && len(f) != 4 {
			return p, fmt.Errorf("shwrap: malformed exit line %q", line)
		}
		var err error
		if p.Code, err = strconv.Atoi(f[1]); err != nil {
			return p, fmt.Errorf("shwrap: malformed exit line %q", line)
		}
		if p.ErrLen, err = strconv.ParseInt(f[2], 10, 64); err != nil {
			return p, fmt.Errorf("shwrap: malformed exit line %q", line)
		}
		if len(f) == 4 {
			if p.Stderr, err = base64.StdEncoding.DecodeString(f[3]); err != nil {
				return p, fmt.Errorf("shwrap: decoding the command's stderr: %w", err)
			}
		}
		p.Exited = true
		return p, nil
	}
	return p, fmt.Errorf("shwrap: the process wrapper: %s", Truncate(line, 2000))
}
