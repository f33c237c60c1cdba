// Command shellbox-iris-controller serves Iris's ControllerService (the
// job, task and exec RPCs) on a host of the user's own, with shellbox
// machines as tasks, so Iris clients and shellbox's Iris backend can run
// there:
//
//	shellbox-iris-controller -listen 127.0.0.1:10000 -backend docker -sandbox-backend gvisor
//
// The bearer token is read from SHELLBOX_IRIS_CONTROLLER_TOKEN (or -token);
// without one every caller is served. Task images are Docker images the
// daemon has (docker, gvisor) or ignored (local: the host's programs).
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
	"github.com/shellbox/shellbox/lib/remote/irisd"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "shellbox-iris-controller:", err)
		os.Exit(1)
	}
}

func run() error {
	listen := flag.String("listen", "127.0.0.1:10000", "address to listen on")
	backend := flag.String("backend", "docker", "machine backend of the tasks: docker, gvisor or local")
	sandbox := flag.String("sandbox-backend", "", "machine backend of SANDBOX tasks (default: -backend)")
	options := flag.String("options", "", "the backends' factory options as JSON")
	token := flag.String("token", os.Getenv("SHELLBOX_IRIS_CONTROLLER_TOKEN"), "the bearer token callers must send (default $SHELLBOX_IRIS_CONTROLLER_TOKEN; empty: none)")
	slots := flag.Int("exec-slots", 64, "execs running at once; more are shed with RESOURCE_EXHAUSTED")
	flag.Parse()
	f, err := machine.Open(*backend, json.RawMessage(*options))
	if err != nil {
		return err
	}
	cfg := irisd.Config{Token: *token, Factory: f, Resources: *backend != "local", ExecSlots: *slots,
		Source: func(image string) (machine.Source, error) { return machine.DockerImage{Reference: image}, nil }}
	if *backend == "local" {
		cfg.Source = func(string) (machine.Source, error) { return machine.HostImage{}, nil }
	}
	if *sandbox != "" && *sandbox != *backend {
		if cfg.SandboxFactory, err = machine.Open(*sandbox, json.RawMessage(*options)); err != nil {
			return err
		}
	}
	srv, err := irisd.New(cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	fmt.Printf("serving the Iris controller at http://%s\n", ln.Addr())
	// Connect over HTTP/1.1 and h2c alike, as Iris's clients use either.
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 30 * time.Second}
	hs.Protocols = new(http.Protocols)
	hs.Protocols.SetHTTP1(true)
	hs.Protocols.SetUnencryptedHTTP2(true)
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
