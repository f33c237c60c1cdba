package egress

import (
	"errors"
	"os"
	"sync"
)

// Guard is the filter of one machine together with its decision log, as
// a backend holds it.
type Guard struct {
	*Filter
	log       *os.File
	closeOnce sync.Once
}

// NewGuard makes the filter of one machine. logPath, when not empty, is
// opened for appending: several machines of a factory may share it.
func NewGuard(machineID string, mode Mode, hosts []string, logPath string) (*Guard, error) {
	p, err := Parse(mode, hosts)
	if err != nil {
		return nil, err
	}
	res, err := defaultResolver()
	if err != nil {
		return nil, err
	}
	g := &Guard{}
	cfg := Config{Machine: machineID, Policy: p, Resolver: res}
	if logPath != "" {
		f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return nil, err
		}
		g.log = f
		cfg.Log = f
	}
	g.Filter = New(cfg)
	return g, nil
}

// SetNetwork is SetPolicy from a mode and entries.
func (g *Guard) SetNetwork(mode Mode, hosts []string, phase string) error {
	p, err := Parse(mode, hosts)
	if err != nil {
		return err
	}
	g.SetPolicy(p, phase)
	return nil
}

// Close stops the filter and closes the log.
func (g *Guard) Close() error {
	var err error
	g.closeOnce.Do(func() {
		err = g.Filter.Close()
		if g.log != nil {
			err = errors.Join(err, g.log.Close())
		}
	})
	return err
}
