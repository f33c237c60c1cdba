// Package sched is ShellSim's deterministic cooperative scheduler: logical
// tasks (one goroutine each, but only one ever runs, handing a baton at
// blocking points in FIFO order), a virtual monotonic clock with timers that
// jumps forward only when nothing is runnable, bounded pipes with
// backpressure, signals, and the process table.
package sched
