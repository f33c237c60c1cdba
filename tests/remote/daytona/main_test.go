package daytona_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/shellbox/shellbox/lib/backends/daytona"
	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/daytonad"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// testImage is the busybox test image under a tag the API accepts (it
// refuses ":latest" snapshots).
const testImage = "shellbox-test/busybox:daytona"

const apiKey = "test-key"

var (
	dockerFactory *docker.Factory
	server        *daytonad.Server
	serverURL     string
	factory       *daytona.Factory
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

// run serves the Daytona API on loopback with Docker machines as
// sandboxes, the way shellbox-daytona-server does.
func run(m *testing.M) int {
	ctx := context.Background()
	lock, err := dockertest.Shared()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer lock.Release()
	if err := dockertest.StartDaemon(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if dockerFactory, err = docker.New(ctx, docker.Config{Backend: "docker"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := dockertest.EnsureBusybox(ctx, dockerFactory.Client()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := dockerFactory.Client().ImageTag(ctx, dockertest.BusyboxImage, testImage); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	server, err = daytonad.New(daytonad.Config{APIKey: apiKey, Factory: dockerFactory, Resources: true,
		Source: func(image string) (machine.Source, error) { return machine.DockerImage{Reference: image}, nil }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	hs := httptest.NewServer(server.Handler())
	defer hs.Close()
	defer server.Close(ctx)
	serverURL = hs.URL
	if factory, err = daytona.New(daytona.Options{APIKey: apiKey, APIURL: hs.URL + "/api"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}
