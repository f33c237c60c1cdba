// Command shellbox-daytona-server serves the Daytona API and toolbox API
// on a host of the user's own, with shellbox machines as sandboxes, so the
// official Daytona SDKs (and Harbor's Daytona environment) can run there:
//
//	shellbox-daytona-server -listen 127.0.0.1:3986 -backend docker
//	DAYTONA_API_URL=http://127.0.0.1:3986/api DAYTONA_API_KEY=... python my_script.py
//
// The API key is read from SHELLBOX_DAYTONA_SERVER_KEY (or -api-key).
// With -backend docker a snapshot's image name is a Docker image the
// daemon has (or can pull); with -backend local every sandbox is a
// bubblewrap machine over the host's own programs and image names are
// ignored.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	_ "github.com/shellbox/shellbox/lib/backends/docker"
	_ "github.com/shellbox/shellbox/lib/backends/local"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/daytonad"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "shellbox-daytona-server:", err)
		os.Exit(1)
	}
}

func run() error {
	listen := flag.String("listen", "127.0.0.1:3986", "address to listen on")
	backend := flag.String("backend", "docker", "machine backend of the sandboxes: docker, gvisor or local")
	options := flag.String("options", "", "the backend factory's options as JSON (the Python factory's keyword arguments)")
	apiKey := flag.String("api-key", os.Getenv("SHELLBOX_DAYTONA_SERVER_KEY"), "the bearer key clients must send (default $SHELLBOX_DAYTONA_SERVER_KEY)")
	flag.Parse()
	if *apiKey == "" {
		return errors.New("no API key: set SHELLBOX_DAYTONA_SERVER_KEY or pass -api-key")
	}
	f, err := machine.Open(*backend, json.RawMessage(*options))
	if err != nil {
		return err
	}
	cfg := daytonad.Config{APIKey: *apiKey, Factory: f, Resources: *backend != "local"}
	switch *backend {
	case "local":
		cfg.Source = func(string) (machine.Source, error) { return machine.HostImage{}, nil }
	default:
		cfg.Source = func(image string) (machine.Source, error) { return machine.DockerImage{Reference: image}, nil }
	}
	srv, err := daytonad.New(cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	fmt.Printf("serving the Daytona API at http://%s/api\n", ln.Addr())
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 30 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err = <-errc:
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_ = hs.Shutdown(sctx)
	return errors.Join(err, srv.Close(sctx))
}
