package iris_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/backends/iris"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/irisd"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

const token = "iris-test-token"

var (
	dockerFactory *docker.Factory
	server        *irisd.Server
	serverURL     string
	factory       *iris.Factory
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

// run serves a loopback Iris controller whose tasks are Docker machines.
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
	server, err = irisd.New(irisd.Config{Token: token, Factory: dockerFactory, Resources: true,
		Source: func(image string) (machine.Source, error) { return machine.DockerImage{Reference: image}, nil }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	hs := httptest.NewServer(server.Handler())
	defer hs.Close()
	defer server.Close(ctx)
	serverURL = hs.URL
	if factory, err = iris.New(iris.Options{ControllerURL: hs.URL, Token: token, User: "tester"}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}
