package dockertest

import (
	"context"

	"github.com/shellbox/shellbox/lib/backends/docker"
)

// Setup prepares a test binary of the docker backend (any runtime): it
// takes the daemon lock shared, starts the daemon if needed, builds the
// factory and makes sure the busybox fixture is there. The caller releases
// the lock when its tests are done.
func Setup(ctx context.Context, cfg docker.Config) (*docker.Factory, *Lock, error) {
	lock, err := Shared()
	if err != nil {
		return nil, nil, err
	}
	f, err := setup(ctx, cfg)
	if err != nil {
		lock.Release()
		return nil, nil, err
	}
	return f, lock, nil
}

func setup(ctx context.Context, cfg docker.Config) (*docker.Factory, error) {
	if err := StartDaemon(ctx); err != nil {
		return nil, err
	}
	f, err := docker.New(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := EnsureBusybox(ctx, f.Client()); err != nil {
		return nil, err
	}
	return f, nil
}
