package cli

import (
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// isTerminal says whether w is a terminal (an *os.File on a TTY).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// logger writes structured lines (logfmt) to stderr.
func logger(stdio IO) *slog.Logger {
	return slog.New(slog.NewTextHandler(stdio.Stderr, nil))
}

// step runs fn, a long step (pulling, building, unpacking or staging an
// image while a machine is created). The backends report no progress of
// their own, so a terminal gets a spinner with the elapsed time, and
// anything else structured lines (logfmt) when the step has taken a
// second and when it ends.
func step(stdio IO, what string, attrs []any, fn func() error) error {
	start := time.Now()
	if !isTerminal(stdio.Stderr) {
		// Quick steps log nothing: the command's own stderr stays clean.
		log := logger(stdio)
		logged := make(chan struct{})
		t := time.AfterFunc(time.Second, func() { log.Info(what, attrs...); close(logged) })
		err := fn()
		if !t.Stop() {
			<-logged
			done := append(append([]any{}, attrs...), "elapsed", time.Since(start).Round(time.Millisecond).String())
			if err != nil {
				log.Error(what+" failed", append(done, "error", err.Error())...)
			} else {
				log.Info(what+" done", done...)
			}
		}
		return err
	}
	desc := what
	for i := 0; i+1 < len(attrs); i += 2 {
		desc += fmt.Sprintf(" %v=%v", attrs[i], attrs[i+1])
	}
	bar := progressbar.NewOptions(-1,
		progressbar.OptionSetWriter(stdio.Stderr),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(50*time.Millisecond),
	)
	stop := make(chan struct{})
	ticked := make(chan struct{})
	go func() {
		defer close(ticked)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				_ = bar.Add(1)
			}
		}
	}()
	err := fn()
	close(stop)
	<-ticked
	_ = bar.Finish()
	if err == nil && time.Since(start) > time.Second {
		fmt.Fprintf(stdio.Stderr, "%s: done in %s\n", desc, time.Since(start).Round(100*time.Millisecond))
	}
	return err
}
