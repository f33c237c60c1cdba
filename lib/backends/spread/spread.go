// Package spread is a machine factory over several others (Docker hosts,
// remote backends): each machine goes to the healthy member with the
// fewest machines, each member holds at most its limit at once (Create
// waits for a free place), and a member whose health check fails is out of
// rotation until it passes again, while its machines report
// machine.ErrTerminated.
package spread

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/machine"
)

// Backend is this factory's name.
const Backend = "spread"

// DefaultCheckEvery is how often members are checked.
const DefaultCheckEvery = 5 * time.Second

// HealthChecker is a factory that can say whether its host answers (the
// docker backend's Factory is one).
type HealthChecker interface {
	Health(ctx context.Context) error
}

// Member is one factory of the spread.
type Member struct {
	Name    string
	Factory machine.Factory
	// Limit bounds the member's machines at once (0: no bound).
	Limit int
	// Health, when nil, is the factory's own (HealthChecker) or none.
	Health func(ctx context.Context) error
}

func init() {
	machine.Register(Backend, func(raw json.RawMessage) (machine.Factory, error) {
		var o struct {
			Members []struct {
				Backend string          `json:"backend"`
				Options json.RawMessage `json:"options"`
				Limit   int             `json:"limit"`
			} `json:"members"`
			CheckEvery *float64 `json:"check_every"`
		}
		if err := json.Unmarshal(raw, &o); err != nil {
			return nil, &machine.InvalidSpec{Field: "options", Reason: err.Error()}
		}
		var members []Member
		for i, m := range o.Members {
			if m.Backend == Backend {
				return nil, &machine.InvalidSpec{Field: "members", Reason: "a spread cannot contain a spread"}
			}
			f, err := machine.Open(m.Backend, m.Options)
			if err != nil {
				return nil, err
			}
			members = append(members, Member{Name: fmt.Sprintf("%d:%s", i, m.Backend), Factory: f, Limit: m.Limit})
		}
		every := DefaultCheckEvery
		if o.CheckEvery != nil {
			d, err := machine.DurationFromSeconds("check_every", *o.CheckEvery)
			if err != nil {
				return nil, err
			}
			every = d
		}
		return New(members, every)
	})
}

type member struct {
	Member
	count   int
	healthy bool
	lastErr error
}

// Factory spreads machines over its members.
type Factory struct {
	every  time.Duration
	stop   context.CancelFunc
	mu     sync.Mutex
	cond   chan struct{} // closed and replaced when a place frees or health changes
	member []*member
}

// New checks every member once and starts checking them every interval
// (until Close).
func New(members []Member, every time.Duration) (*Factory, error) {
	if len(members) == 0 {
		return nil, &machine.InvalidSpec{Field: "members", Reason: "a spread needs at least one member"}
	}
	if every <= 0 {
		every = DefaultCheckEvery
	}
	f := &Factory{every: every, cond: make(chan struct{})}
	for _, m := range members {
		if m.Limit < 0 {
			return nil, &machine.InvalidSpec{Field: "limit", Reason: "must not be negative"}
		}
		if m.Health == nil {
			if hc, ok := m.Factory.(HealthChecker); ok {
				m.Health = hc.Health
			}
		}
		f.member = append(f.member, &member{Member: m, healthy: true})
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.stop = cancel
	f.check(ctx)
	go f.loop(ctx)
	return f, nil
}

// Close stops the health checks.
func (f *Factory) Close() { f.stop() }

func (f *Factory) loop(ctx context.Context) {
	t := time.NewTicker(f.every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f.check(ctx)
		}
	}
}

// check asks every member's health at once.
func (f *Factory) check(ctx context.Context) {
	var wg sync.WaitGroup
	for _, m := range f.member {
		if m.Health == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.probe(ctx, m)
		}()
	}
	wg.Wait()
}

// probe asks one member's health and records it; it reports whether the
// member answers.
func (f *Factory) probe(ctx context.Context, m *member) bool {
	if m.Health == nil {
		return true
	}
	cctx, cancel := context.WithTimeout(ctx, max(f.every, 5*time.Second))
	err := m.Health(cctx)
	cancel()
	if ctx.Err() != nil {
		return true
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if m.healthy != (err == nil) {
		f.wake()
	}
	m.healthy, m.lastErr = err == nil, err
	return err == nil
}

// wake tells waiting Creates to look again (f.mu held).
func (f *Factory) wake() {
	close(f.cond)
	f.cond = make(chan struct{})
}

func (f *Factory) Backend() string { return Backend }

// CheckEnvironment passes when a healthy member accepts the spec.
func (f *Factory) CheckEnvironment(req machine.Requirements, spec machine.Spec) error {
	var first error
	for _, m := range f.members() {
		err := m.Factory.CheckEnvironment(req, spec)
		if err == nil {
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

func (f *Factory) members() []*member {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []*member
	for _, m := range f.member {
		if m.healthy {
			out = append(out, m)
		}
	}
	return out
}

// Loads reports each member's machines, by name.
func (f *Factory) Loads() map[string]int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := map[string]int{}
	for _, m := range f.member {
		out[m.Name] = m.count
	}
	return out
}

// take reserves a place on the least-loaded healthy member, waiting for
// one.
func (f *Factory) take(ctx context.Context) (*member, error) {
	for {
		f.mu.Lock()
		var best *member
		healthy := 0
		for _, m := range f.member {
			if !m.healthy {
				continue
			}
			healthy++
			if m.Limit > 0 && m.count >= m.Limit {
				continue
			}
			if best == nil || m.count*max(best.Limit, 1) < best.count*max(m.Limit, 1) {
				best = m
			}
		}
		if best != nil {
			best.count++
			f.mu.Unlock()
			return best, nil
		}
		wait := f.cond
		f.mu.Unlock()
		select {
		case <-ctx.Done():
			if healthy == 0 {
				return nil, fmt.Errorf("no member of the spread answers: %w", ctx.Err())
			}
			return nil, ctx.Err()
		case <-wait:
		}
	}
}

func (f *Factory) release(m *member) {
	f.mu.Lock()
	m.count--
	f.wake()
	f.mu.Unlock()
}

// Create makes the machine on the least-loaded healthy member with a free
// place.
func (f *Factory) Create(ctx context.Context, spec machine.Spec) (machine.Machine, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	m, err := f.take(ctx)
	if err != nil {
		return nil, err
	}
	inner, err := m.Factory.Create(ctx, spec)
	if err != nil {
		f.release(m)
		return nil, err
	}
	sm := &Machine{f: f, m: m, inner: inner}
	if _, ok := inner.(machine.ProcessMachine); ok {
		return &processMachine{sm}, nil
	}
	return sm, nil
}

// Machine is a member's machine that reports machine.ErrTerminated once
// its member is out of rotation.
type Machine struct {
	f     *Factory
	m     *member
	inner machine.Machine
	once  sync.Once
}

// Member is the name of the member that holds the machine.
func (s *Machine) Member() string { return s.m.Name }

// Inner is the member's machine.
func (s *Machine) Inner() machine.Machine { return s.inner }

// check turns a failure on a member that is down into ErrTerminated (a
// failure makes the member be asked at once).
func (s *Machine) check(err error) error {
	var (
		iv *machine.InvalidSpec
		us *machine.UnsupportedSpec
		pe *machine.PathError
		le *machine.DownloadLimitExceeded
	)
	if err == nil || errors.Is(err, machine.ErrClosed) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.As(err, &iv) || errors.As(err, &us) || errors.As(err, &pe) || errors.As(err, &le) {
		return err // the caller's doing, not the host's
	}
	if s.f.probe(context.Background(), s.m) {
		return err
	}
	if errors.Is(err, machine.ErrTerminated) {
		return err
	}
	s.f.mu.Lock()
	last := s.m.lastErr
	s.f.mu.Unlock()
	return fmt.Errorf("%w (%v)", &machine.TerminatedError{Reason: fmt.Sprintf("the host %s stopped answering: %v", s.m.Name, last)}, err)
}

func (s *Machine) Run(ctx context.Context, cmd machine.Command) (machine.Result, error) {
	r, err := s.inner.Run(ctx, cmd)
	return r, s.check(err)
}

func (s *Machine) Upload(ctx context.Context, source, target string) error {
	return s.check(s.inner.Upload(ctx, source, target))
}

func (s *Machine) Download(ctx context.Context, source, target string, opts machine.DownloadOptions) error {
	return s.check(s.inner.Download(ctx, source, target, opts))
}

// Close closes the member's machine and frees its place; on a member
// that no longer answers there is nothing left to close.
func (s *Machine) Close(ctx context.Context) error {
	err := s.inner.Close(ctx)
	s.once.Do(func() { s.f.release(s.m) })
	if err != nil && !s.f.probe(ctx, s.m) {
		return nil
	}
	return err
}

type processMachine struct{ *Machine }

func (p *processMachine) OpenProcess(ctx context.Context, cmd machine.Command) (machine.Process, error) {
	proc, err := p.inner.(machine.ProcessMachine).OpenProcess(ctx, cmd)
	return proc, p.check(err)
}

// Spread is the wrapper itself.
func (p *processMachine) Spread() *Machine { return p.Machine }
