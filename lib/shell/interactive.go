package shell

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// Terminal starts a program on a fresh pseudo-terminal: the Process's
// Stdin is the terminal's input, its Stdout the terminal's output (echo,
// \r\n line ends and job-control messages included). A backend whose
// sandbox can allocate a terminal implements it; HostTerminal is the
// host's own.
type Terminal interface {
	OpenTerminal(ctx context.Context, cmd machine.Command) (machine.Process, error)
}

// Options say how the shell is started.
type Options struct {
	Bash string            // the Bash program; "" means "bash" on PATH
	Env  map[string]string // overlaid on the machine's environment
	Cwd  string            // "" means the machine's workdir
	// StartTimeout bounds the shell's start; 0 means 30 seconds.
	StartTimeout time.Duration
}

func (o Options) bash() string {
	if o.Bash == "" {
		return "bash"
	}
	return o.Bash
}

func (o Options) startTimeout() time.Duration {
	if o.StartTimeout <= 0 {
		return 30 * time.Second
	}
	return o.StartTimeout
}

// markerByte frames the per-command marker the shell prints when a command
// ends: \x1e<token> <status>\x1e. A token is 16 hex digits, so a marker is
// at most this long.
const (
	markerByte = 0x1e
	markerMax  = 1 + 16 + 1 + 11 + 1
	// chunkBytes of a command are sent per line: escaped at most 4 times
	// their size, a line stays below the terminal's 4095-byte line limit.
	chunkBytes = 900
	// exitGrace is how long output may still arrive after the shell's
	// process ended before the shell is declared gone.
	exitGrace = 200 * time.Millisecond
	// settle is how long after a command started Interrupt waits at least.
	settle = 100 * time.Millisecond
)

// promptCommand prints the marker of the command that just ended (the
// token is set only while one of our commands runs).
const promptCommand = `__sb_st=$?; if [ -n "${__sb_tok-}" ]; then printf '\036%s %d\036' "$__sb_tok" "$__sb_st"; __sb_tok=; fi`

// Interactive is a Session over one Bash reading a byte stream.
type Interactive struct {
	opts      Options
	tty       bool
	open      func(ctx context.Context, cmd machine.Command) (machine.Process, error)
	interrupt func(ctx context.Context, p *shellProc) error
	// reap, when set, stops what is left of a shell's session (its jobs)
	// before the shell's process is closed.
	reap func(ctx context.Context, pid int)

	opMu sync.Mutex // one Execute or Read at a time

	mu      sync.Mutex
	cur     *shellProc
	running bool
	closed  bool
}

// NewTerminalSession is an interactive session whose Bash runs on a
// terminal t provides. Interrupt types Ctrl-C.
func NewTerminalSession(t Terminal, opts Options) *Interactive {
	s := &Interactive{opts: opts, tty: true, open: t.OpenTerminal}
	if st, ok := t.(ScriptTerminal); ok {
		s.reap = st.killSession
	}
	s.interrupt = func(ctx context.Context, p *shellProc) error {
		_, err := p.p.Stdin().Write([]byte{0x03})
		return err
	}
	return s
}

// NewPipeSession is an interactive session whose Bash reads plain pipes of
// a ProcessMachine, for backends that cannot allocate a terminal yet.
// Interrupt sends SIGINT to the shell's children through a second command
// (so the machine must show the shell's processes to its commands, and
// have kill); a program that needs a terminal will not behave as on one.
func NewPipeSession(m machine.ProcessMachine, opts Options) *Interactive {
	s := &Interactive{opts: opts, open: m.OpenProcess}
	s.interrupt = func(ctx context.Context, p *shellProc) error {
		// The command may not have forked yet: retry for a second.
		script := fmt.Sprintf(`i=0; while [ $i -lt 20 ]; do f=; for c in $(cat /proc/%d/task/*/children 2>/dev/null); do `+
			`kill -INT "$c" 2>/dev/null && f=1; done; [ -n "$f" ] && break; i=$((i+1)); sleep 0.05; done; true`, p.pid)
		res, err := m.Run(ctx, machine.Command{Argv: []string{"sh", "-c", script}, OutputLimit: 4096, Timeout: 10 * time.Second})
		if err != nil {
			return err
		}
		if res.ExitCode == nil {
			return errors.New("interrupting the shell's command timed out")
		}
		return nil
	}
	return s
}

// Interactive is true: Read, Write and Interrupt work.
func (s *Interactive) Interactive() bool { return true }

// Execute starts command in the shell and waits at most wait for it.
func (s *Interactive) Execute(ctx context.Context, command string, wait time.Duration, outputLimit int) (Update, error) {
	s.opMu.Lock()
	defer s.opMu.Unlock()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return Update{}, machine.ErrClosed
	}
	if s.running {
		s.mu.Unlock()
		return Update{}, ErrBusy
	}
	p := s.cur
	s.mu.Unlock()
	if p != nil && p.isDead() {
		s.drop(ctx, p)
		p = nil
	}
	if p == nil {
		var err error
		if p, err = s.start(ctx); err != nil {
			return Update{}, err
		}
	}
	token := newToken()
	p.begin(token, outputLimit)
	if _, err := p.p.Stdin().Write(commandLines(command, token, s.tty)); err != nil {
		s.drop(ctx, p)
		return Update{Status: Reset}, nil
	}
	s.mu.Lock()
	s.running = true
	s.mu.Unlock()
	return s.collect(ctx, p, wait, outputLimit)
}

// Read waits at most wait for more of the running command.
func (s *Interactive) Read(ctx context.Context, wait time.Duration, outputLimit int) (Update, error) {
	s.opMu.Lock()
	defer s.opMu.Unlock()
	p, err := s.active()
	if err != nil {
		return Update{}, err
	}
	p.setLimit(outputLimit)
	return s.collect(ctx, p, wait, outputLimit)
}

// Write sends data to the running command's input.
func (s *Interactive) Write(ctx context.Context, data []byte) error {
	p, err := s.active()
	if err != nil {
		return err
	}
	_, err = p.p.Stdin().Write(data)
	return err
}

// Interrupt sends Ctrl-C to the running command.
func (s *Interactive) Interrupt(ctx context.Context) error {
	p, err := s.active()
	if err != nil {
		return err
	}
	p.waitStarted(ctx, 10*time.Second)
	// A command that started a moment ago may still be handing the terminal
	// to its process group; a Ctrl-C then would reach the shell instead.
	p.mu.Lock()
	since := time.Since(p.startedAt)
	p.mu.Unlock()
	if since < settle {
		select {
		case <-time.After(settle - since):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return s.interrupt(ctx, p)
}

// Close ends the shell and its jobs.
func (s *Interactive) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	p := s.cur
	s.cur = nil
	s.running = false
	s.mu.Unlock()
	if p == nil {
		return nil
	}
	return s.closeProc(ctx, p)
}

func (s *Interactive) closeProc(ctx context.Context, p *shellProc) error {
	if s.reap != nil && p.pid > 1 {
		s.reap(ctx, p.pid)
	}
	return p.close(ctx)
}

func (s *Interactive) active() (*shellProc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, machine.ErrClosed
	}
	if !s.running || s.cur == nil {
		return nil, ErrNoCommand
	}
	return s.cur, nil
}

// drop forgets a shell that ended and releases what is left of it.
func (s *Interactive) drop(ctx context.Context, p *shellProc) {
	s.mu.Lock()
	if s.cur == p {
		s.cur = nil
		s.running = false
	}
	s.mu.Unlock()
	_ = s.closeProc(ctx, p)
}

func (s *Interactive) start(ctx context.Context) (*shellProc, error) {
	env := map[string]string{}
	for k, v := range s.opts.Env {
		env[k] = v
	}
	var argv []string
	if s.tty {
		argv = []string{s.opts.bash(), "--norc", "--noprofile", "--noediting", "-i"}
		env["PS1"], env["PS2"], env["PS0"] = "", "", ""
		env["PROMPT_COMMAND"] = promptCommand
		env["HISTFILE"] = "/dev/null"
		if env["TERM"] == "" {
			env["TERM"] = "dumb"
		}
	} else {
		argv = []string{s.opts.bash(), "--norc", "--noprofile", "-s"}
	}
	proc, err := s.open(ctx, machine.Command{Argv: argv, Env: env, Cwd: s.opts.Cwd, OutputLimit: 64 << 10})
	if err != nil {
		return nil, err
	}
	p := newShellProc(proc)
	token := newToken()
	p.begin(token, 64<<10)
	var init string
	if s.tty {
		init = "stty -echo -onlcr 2>/dev/null; set +H; set +o history; export -n PROMPT_COMMAND PS0 PS1 PS2; " +
			"read -r _ _ _ _ _ __sb_sid _ < /proc/$$/stat 2>/dev/null; printf '\\036%s %d\\036' " + token + " \"${__sb_sid:-$$}\"\n"
	} else {
		init = "exec 2>&1; set +H; printf '\\036%s %d\\036' " + token + " $$\n"
	}
	if _, err := proc.Stdin().Write([]byte(init)); err != nil {
		_ = p.close(ctx)
		return nil, fmt.Errorf("starting the shell: %w", err)
	}
	sctx, cancel := context.WithTimeout(ctx, s.opts.startTimeout())
	defer cancel()
	u, err := s.collectFrom(sctx, p, s.opts.startTimeout(), 64<<10)
	if err != nil || u.Status != Completed {
		_ = p.close(ctx)
		if err == nil {
			err = fmt.Errorf("the shell ended before it was ready: %q", u.Output)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("starting the shell: %w", err)
	}
	// The marker's number is the shell's pid (pipes) or session id (terminal).
	p.pid = *u.ExitCode
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		_ = p.close(ctx)
		return nil, machine.ErrClosed
	}
	s.cur = p
	return p, nil
}

// collect waits for the running command and updates the session's state
// when it ended.
func (s *Interactive) collect(ctx context.Context, p *shellProc, wait time.Duration, limit int) (Update, error) {
	u, err := s.collectFrom(ctx, p, wait, limit)
	if err != nil {
		return u, err
	}
	switch u.Status {
	case Completed:
		s.mu.Lock()
		s.running = false
		s.mu.Unlock()
	case Reset:
		s.drop(ctx, p)
		s.mu.Lock()
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return Update{}, machine.ErrClosed
		}
	}
	return u, nil
}

func (s *Interactive) collectFrom(ctx context.Context, p *shellProc, wait time.Duration, limit int) (Update, error) {
	deadline := time.NewTimer(max(wait, 0))
	defer deadline.Stop()
	var u Update
	for {
		p.mu.Lock()
		chunk, over := p.out, p.over
		p.out, p.over = nil, false
		exit, dead, wake := p.exit, p.dead, p.wake
		p.exit = nil
		p.mu.Unlock()
		u.Output, u.Truncated = appendLimited(u.Output, chunk, limit, u.Truncated || over)
		switch {
		case exit != nil:
			u.Status, u.ExitCode = Completed, exit
			return u, nil
		case dead:
			u.Status = Reset
			return u, nil
		}
		select {
		case <-wake:
		case <-deadline.C:
			// Take what arrived meanwhile, then report the command running.
			p.mu.Lock()
			chunk, over := p.out, p.over
			p.out, p.over = nil, false
			p.mu.Unlock()
			u.Output, u.Truncated = appendLimited(u.Output, chunk, limit, u.Truncated || over)
			u.Status = Running
			return u, nil
		case <-ctx.Done():
			return Update{}, ctx.Err()
		}
	}
}

func appendLimited(dst, src []byte, limit int, truncated bool) ([]byte, bool) {
	room := limit - len(dst)
	if room < 0 {
		room = 0
	}
	if len(src) > room {
		return append(dst, src[:room]...), true
	}
	if dst == nil && src != nil {
		dst = []byte{}
	}
	return append(dst, src...), truncated
}

func newToken() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// commandLines is what the shell is sent to run command: the command
// assembled from escaped chunks (so no line is long, and no byte is a
// terminal control character), then run by eval under the token. On a
// terminal the prompt command prints the marker (so Ctrl-C, which abandons
// the whole line, still reports); on pipes the line prints it itself.
func commandLines(command, token string, tty bool) []byte {
	var b strings.Builder
	b.WriteString("__sb_c=\n")
	data := []byte(command)
	for len(data) > 0 {
		n := min(len(data), chunkBytes)
		b.WriteString("__sb_c+=")
		b.WriteString(ansiQuote(data[:n]))
		b.WriteByte('\n')
		data = data[n:]
	}
	// The "-1" marker says the shell has read the whole command.
	started := `printf '\036%s -1\036' ` + token + "; "
	if tty {
		b.WriteString("__sb_tok=" + token + "; " + started + `eval "$__sb_c"` + "\n")
	} else {
		b.WriteString(started + `eval "$__sb_c"; printf '\036%s %d\036' ` + token + ` "$?"` + "\n")
	}
	return []byte(b.String())
}

// ansiQuote writes data as a Bash $'...' word of printable ASCII only.
func ansiQuote(data []byte) string {
	var b strings.Builder
	b.WriteString("$'")
	for _, c := range data {
		switch {
		case c == '\\' || c == '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c >= 0x20 && c < 0x7f:
			b.WriteByte(c)
		case c == 0:
			// a shell string cannot hold NUL
		default:
			fmt.Fprintf(&b, "\\x%02x", c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// shellProc is one running shell and what its reader has seen.
type shellProc struct {
	p   machine.Process
	pid int

	mu        sync.Mutex
	wake      chan struct{} // closed and replaced on every change
	out       []byte        // output not yet taken
	cap       int           // bound of out
	over      bool          // output was dropped since the last take
	want      string        // token whose marker ends the current command
	exit      *int          // its status, once seen
	started   bool          // the shell has read the current command
	startedAt time.Time     // when that was seen
	tail      []byte        // a possible marker cut by a read boundary
	dead      bool
	exited    bool
	once      sync.Once
}

func newShellProc(p machine.Process) *shellProc {
	sp := &shellProc{p: p, wake: make(chan struct{}), cap: 64 << 10}
	go sp.readLoop()
	go func() {
		_, _ = p.Wait(context.Background())
		sp.mu.Lock()
		sp.exited = true
		sp.mu.Unlock()
		// Background jobs may keep the stream open after the shell ended.
		time.AfterFunc(exitGrace, sp.markDead)
	}()
	return sp
}

func (sp *shellProc) readLoop() {
	buf := make([]byte, 32<<10)
	for {
		n, err := sp.p.Stdout().Read(buf)
		if n > 0 {
			sp.mu.Lock()
			sp.feed(buf[:n])
			sp.signal()
			sp.mu.Unlock()
		}
		if err != nil {
			sp.markDead()
			return
		}
	}
}

func (sp *shellProc) markDead() {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if !sp.dead {
		if len(sp.tail) > 0 {
			sp.emit(sp.tail)
			sp.tail = nil
		}
		sp.dead = true
		sp.signal()
	}
}

func (sp *shellProc) isDead() bool {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.dead || sp.exited
}

// signal wakes every waiter; sp.mu is held.
func (sp *shellProc) signal() {
	close(sp.wake)
	sp.wake = make(chan struct{})
}

// begin starts waiting for token's marker, dropping output left from
// before (background jobs, the previous command's tail).
func (sp *shellProc) begin(token string, limit int) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	sp.want, sp.exit, sp.out, sp.over, sp.cap, sp.started = token, nil, nil, false, limit, false
}

// waitStarted waits until the shell has read the current command (or it
// ended), so that a Ctrl-C cannot flush the command before it runs.
func (sp *shellProc) waitStarted(ctx context.Context, limit time.Duration) {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		sp.mu.Lock()
		done, wake := sp.started || sp.exit != nil || sp.dead || sp.want == "", sp.wake
		sp.mu.Unlock()
		if done {
			return
		}
		select {
		case <-wake:
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (sp *shellProc) setLimit(limit int) {
	sp.mu.Lock()
	sp.cap = limit
	sp.mu.Unlock()
}

// feed splits data into output and markers; sp.mu is held.
func (sp *shellProc) feed(data []byte) {
	if len(sp.tail) > 0 {
		data = append(sp.tail, data...)
		sp.tail = nil
	}
	for len(data) > 0 {
		i := bytes.IndexByte(data, markerByte)
		if i < 0 {
			sp.emit(data)
			return
		}
		sp.emit(data[:i])
		data = data[i:]
		j := bytes.IndexByte(data[1:], markerByte)
		if j < 0 {
			if len(data) < markerMax {
				sp.tail = append([]byte(nil), data...)
				return
			}
			sp.emit(data[:1])
			data = data[1:]
			continue
		}
		token, code, ok := parseMarker(data[1 : 1+j])
		if !ok {
			sp.emit(data[:1])
			data = data[1:]
			continue
		}
		if token == sp.want {
			if code == -1 {
				sp.started, sp.startedAt = true, time.Now()
			} else {
				sp.exit = &code
				sp.want = ""
			}
		}
		data = data[j+2:]
	}
}

func parseMarker(body []byte) (string, int, bool) {
	if len(body) < 18 || body[16] != ' ' {
		return "", 0, false
	}
	token := string(body[:16])
	if _, err := hex.DecodeString(token); err != nil {
		return "", 0, false
	}
	code, err := strconv.Atoi(string(body[17:]))
	if err != nil {
		return "", 0, false
	}
	return token, code, true
}

// emit keeps output up to the bound, without carriage returns; sp.mu is held.
func (sp *shellProc) emit(data []byte) {
	for len(data) > 0 {
		k := bytes.IndexByte(data, '\r')
		part := data
		if k >= 0 {
			part = data[:k]
		}
		room := sp.cap - len(sp.out)
		if room < 0 {
			room = 0
		}
		if len(part) > room {
			sp.over = true
			part = part[:room]
		}
		sp.out = append(sp.out, part...)
		if k < 0 {
			return
		}
		data = data[k+1:]
	}
}

func (sp *shellProc) close(ctx context.Context) error {
	var err error
	sp.once.Do(func() { err = sp.p.Close(ctx) })
	return err
}
