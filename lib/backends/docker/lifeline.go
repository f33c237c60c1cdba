package docker

import (
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/docker/docker/api/types"
)

// primaryScript is the container's main process. Its stdin is the
// lifeline: the attach connection of the process that owns the machine,
// which the daemon closes (the container has StdinOnce) when that
// connection ends, however the owner ends. It runs as a pipeline, so that
// neither side is an asynchronous list (whose SIGINT stays ignored for
// good):
//
//   - the runner reads the first two lines (the machine's first command, or
//     "-" twice for none), lets the killer go on, and runs that command
//     exactly as runScript does (with stdin from /dev/null), so the first
//     command of a machine needs no exec;
//   - the killer then reads the lifeline and kills each process group named
//     by a line, with builtins only (no fork: it works while a fork bomb
//     holds every task the container may have); at EOF it kills the main
//     shell, whose init then ends the container.
//
// A machine therefore does not outlive its owner.
const primaryScript = `exec 3<&0 4>&2 5>&1
{
  if IFS= read -r n && IFS= read -r c; then
    echo go
    exec >&5 5>&- 3<&- </dev/null
    if [ "$n" != - ]; then
      D=
      eval "$c"
      exec 2>/dev/null
      (setsid /bin/sh -c 'd=$1; shift; printf "` + pgidPrefix + `%s\n" "$$" && { [ -z "$d" ] || cd "$d" || exit 126; } && exec "$@"' sh "$D" "$@" 2>&4 4>&-)
      s=$?
      printf '\037%s:%s\n' "$n" "$s"
      printf '\037%s:%s\n' "$n" "$s" >&4
    fi
  fi
} | {
  IFS= read -r x
  exec <&3 3<&- >/dev/null 2>&1 4>&- 5>&-
  while IFS= read -r g; do
    case $g in ''|*[!0-9]*) continue ;; esac
    i=0
    while [ "$i" -lt 100 ] && { kill -KILL "-$g" || kill -s KILL -- "-$g"; }; do i=$((i+1)); done
  done
  kill -KILL $$
}`

// lifeline is the owner's end of the container's main stdin: it carries
// the first command and kill requests, and its closing stops the container.
type lifeline struct {
	hj types.HijackedResponse
	// out feeds the writer, which keeps the messages in order without
	// making a kill wait behind a long first command line (the main
	// process reads its stdin a byte at a time).
	out chan string

	mu      sync.Mutex
	started bool // the first two lines were queued
	closed  bool
}

func newLifeline(hj types.HijackedResponse) *lifeline {
	l := &lifeline{hj: hj, out: make(chan string, 64)}
	go func() {
		for msg := range l.out {
			if _, err := io.WriteString(hj.Conn, msg); err != nil {
				for range l.out {
				}
				return
			}
		}
	}()
	return l
}

// send queues msg; the caller holds l.mu. A kill that finds the queue
// full is dropped: the root exec that follows it still stops the group.
func (l *lifeline) send(msg string) {
	select {
	case l.out <- msg:
	default:
	}
}

// start queues the first command (nonce and command line); it reports
// false when the lifeline has already started (or closed), and the
// command must go elsewhere.
func (l *lifeline) start(nonce, line string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.started || l.closed {
		return false
	}
	l.started = true
	l.send(nonce[len(markerLead):] + "\n" + line + "\n")
	return true
}

// kill asks the main process to SIGKILL process group pgid, without a new
// process in the container.
func (l *lifeline) kill(pgid int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	msg := strconv.Itoa(pgid) + "\n"
	if !l.started {
		l.started = true
		msg = "-\n-\n" + msg
	}
	l.send(msg)
}

// close hangs up: the container's main process ends.
func (l *lifeline) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed = true
		close(l.out)
		l.hj.Close()
	}
}

// drain discards what still comes on the attach stream once the first
// command's output was read (background processes it left may write to
// the container's stdout, and an unread attach stream would block them).
// An expired read deadline (see rawExec.closeConn) is not the end.
func drain(hj types.HijackedResponse) {
	for {
		_, err := io.Copy(io.Discard, hj.Reader)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			_ = hj.Conn.SetReadDeadline(time.Time{})
			continue
		}
		return
	}
}
