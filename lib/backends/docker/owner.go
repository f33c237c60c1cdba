package docker

import (
	"context"
	"strings"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
)

// LabelOwner names the process that created a container, as
// "<boot id>/<pid>/<start time>" (see ownerID), so that a later factory on
// the same host can tell whether that process is gone.
const LabelOwner = "dev.shellbox.owner"

// sweepTimeout bounds the removal of one leftover container.
const sweepTimeout = 2 * time.Minute

// sweep removes, in the background, the containers whose owner process on
// this host has ended (killed before it could close its machines; its
// lifeline already stopped them). Owners on other hosts sharing the daemon
// are left alone.
func (f *Factory) sweep() {
	if f.owner == "" {
		return
	}
	boot, _, _ := strings.Cut(f.owner, "/")
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		list, err := f.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: filters.NewArgs(filters.Arg("label", LabelOwner))})
		if err != nil {
			return
		}
		for _, c := range list {
			owner := c.Labels[LabelOwner]
			if b, _, _ := strings.Cut(owner, "/"); b != boot || ownerAlive(owner) {
				continue
			}
			go func(id string) {
				rctx, cancel := context.WithTimeout(context.Background(), sweepTimeout)
				defer cancel()
				_ = f.removeContainer(rctx, id)
			}(c.ID)
		}
	}()
}
