package docker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/docker/cli/cli/connhelper"
	"github.com/docker/docker/client"
)

// Environment variables the docker CLI reads for a daemon over TCP with
// TLS, read the same way here.
const (
	EnvTLSVerify = "DOCKER_TLS_VERIFY"
	EnvCertPath  = "DOCKER_CERT_PATH"
)

// clientOptions are the client options for host as the docker CLI would
// connect. An ssh:// host is reached through the CLI's own connection
// helper: each connection is `ssh [user@]host docker system dial-stdio`,
// so the user's ssh configuration (keys, agent, known hosts, jump hosts)
// applies and the remote side needs only sshd and the docker CLI. With
// DOCKER_TLS_VERIFY set (to anything but ""), a TCP host is reached over
// TLS, verifying the daemon against ca.pem and presenting cert.pem and
// key.pem from DOCKER_CERT_PATH (default ~/.docker).
func clientOptions(host string) ([]client.Opt, error) {
	helper, err := connhelper.GetConnectionHelper(host)
	if err != nil {
		return nil, err
	}
	if helper != nil {
		return []client.Opt{client.WithHost(helper.Host), client.WithDialContext(helper.Dialer), client.WithAPIVersionNegotiation()}, nil
	}
	opts := []client.Opt{client.WithHost(host), client.WithAPIVersionNegotiation()}
	if os.Getenv(EnvTLSVerify) == "" {
		return opts, nil
	}
	dir := os.Getenv(EnvCertPath)
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("%s is set but %s is not, and there is no home directory: %w", EnvTLSVerify, EnvCertPath, err)
		}
		dir = filepath.Join(home, ".docker")
	}
	files := []string{filepath.Join(dir, "ca.pem"), filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("%s is set: %w", EnvTLSVerify, err)
		}
	}
	return append(opts, client.WithTLSClientConfig(files[0], files[1], files[2])), nil
}

// Health pings the daemon: nil while it answers.
func (f *Factory) Health(ctx context.Context) error {
	_, err := f.cli.Ping(ctx)
	return err
}
