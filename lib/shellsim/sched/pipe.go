package sched

import "io"

// Pipe is a bounded in-memory pipe between tasks. Writers block when it is
// full, readers when it is empty; EOF comes after the last writer closes and
// writing with no reader left fails with ErrBrokenPipe.
type Pipe struct {
	s       *Scheduler
	data    []byte
	off     int
	size    int
	readers int
	writers int
	rq, wq  []*Task
	id      int
}

// ID numbers the pipe within its scheduler (from 1, in creation order).
func (p *Pipe) ID() int { return p.id }

// NewPipe returns the two ends of a pipe holding at most size bytes.
func (s *Scheduler) NewPipe(size int) (*PipeReader, *PipeWriter) {
	s.pipes++
	p := &Pipe{s: s, size: size, readers: 1, writers: 1, id: s.pipes}
	return &PipeReader{p: p}, &PipeWriter{p: p}
}

func (p *Pipe) wakeAll(q *[]*Task) {
	for _, t := range *q {
		p.s.Ready(t)
	}
	*q = (*q)[:0]
}

// PipeReader is the read end.
type PipeReader struct {
	p      *Pipe
	closed bool
}

// PipeWriter is the write end.
type PipeWriter struct {
	p      *Pipe
	closed bool
}

// Buffered is the number of unread bytes.
func (p *Pipe) Buffered() int { return len(p.data) - p.off }

// Ready reports whether a read would return without blocking: data is
// buffered, or no writer is left (EOF), or the end is closed (an error).
func (r *PipeReader) Ready() bool {
	return r.closed || r.p.Buffered() > 0 || r.p.writers == 0
}

func (r *PipeReader) Read(b []byte) (int, error) {
	p := r.p
	if r.closed {
		return 0, io.ErrClosedPipe
	}
	for p.Buffered() == 0 {
		if p.writers == 0 {
			return 0, io.EOF
		}
		t := p.s.cur
		if t == nil {
			return 0, io.EOF
		}
		p.rq = append(p.rq, t)
		if err := t.BlockFor(WaitReason{Kind: WaitPipeReadable, Pipe: p.id}); err != nil {
			return 0, err
		}
	}
	n := copy(b, p.data[p.off:])
	p.off += n
	if p.off == len(p.data) {
		p.data, p.off = p.data[:0], 0
	}
	p.wakeAll(&p.wq)
	return n, nil
}

// Close closes the read end (idempotent).
func (r *PipeReader) Close() error {
	if !r.closed {
		r.closed = true
		r.p.readers--
		r.p.wakeAll(&r.p.wq)
	}
	return nil
}

func (w *PipeWriter) Write(b []byte) (int, error) {
	p := w.p
	if w.closed {
		return 0, io.ErrClosedPipe
	}
	written := 0
	for len(b) > 0 {
		t := p.s.cur
		if p.readers == 0 {
			if t != nil {
				// SIGPIPE terminates the writing process.
				t.SigPipe = true
				if t.killed == 0 {
					t.killed = 13
				}
			}
			return written, ErrBrokenPipe
		}
		room := p.size - p.Buffered()
		if room == 0 {
			if t == nil {
				return written, ErrBrokenPipe
			}
			p.wq = append(p.wq, t)
			if err := t.BlockFor(WaitReason{Kind: WaitPipeWritable, Pipe: p.id}); err != nil {
				return written, err
			}
			continue
		}
		n := min(room, len(b))
		if p.off > 0 && len(p.data)+n > cap(p.data) {
			k := copy(p.data, p.data[p.off:])
			p.data, p.off = p.data[:k], 0
		}
		p.data = append(p.data, b[:n]...)
		b = b[n:]
		written += n
		p.wakeAll(&p.rq)
	}
	return written, nil
}

// Close closes the write end (idempotent).
func (w *PipeWriter) Close() error {
	if !w.closed {
		w.closed = true
		w.p.writers--
		w.p.wakeAll(&w.p.rq)
	}
	return nil
}
