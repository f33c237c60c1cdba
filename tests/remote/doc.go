// Package remote holds the tests of the remote backends (daytona, iris,
// spread) that need a real machine backend behind them: each starts our
// server of the service on loopback (lib/remote/daytonad, lib/remote/irisd)
// with Docker machines, or spreads over Docker daemons. They live outside
// lib/backends because no backend may depend on another, tests included.
package remote
