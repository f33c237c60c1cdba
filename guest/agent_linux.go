package guest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/yamux"
	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/guest/channel"
	"github.com/shellbox/shellbox/lib/execd"
)

// portWait bounds the search for the virtio-serial port.
const portWait = 10 * time.Second

// serveAgent opens the host's port, announces readiness and serves execd
// operations on streams multiplexed over it until the host goes away.
func serveAgent(name string) error {
	port, err := openPort(name)
	if err != nil {
		return err
	}
	defer port.Close()
	if _, err := port.Write([]byte(channel.ReadyLine)); err != nil {
		return fmt.Errorf("announcing readiness: %w", err)
	}
	session, err := yamux.Server(channel.Coalesce(port), channel.Config())
	if err != nil {
		return err
	}
	// Commands start in the memory-bounded cgroup (see protectMemory).
	cg, err := os.Open(CommandCgroup)
	if err != nil {
		return fmt.Errorf("the commands' cgroup: %w", err)
	}
	defer cg.Close()
	srv, err := execd.NewServer(execd.ServeOptions{KeepCapabilities: true, CommandCgroup: cg, KillNote: oomKillNote})
	if err != nil {
		return err
	}
	// Each stream is served in the router's goroutine for it.
	newStreamRouter(session, srv.Handle)
	<-session.CloseChan()
	return nil // the host closed the channel
}

// openPort finds the virtio-serial port by name in sysfs (there is no udev
// to make /dev/virtio-ports links) and opens its device, retrying while the
// device node is not ready yet.
func openPort(name string) (*os.File, error) {
	deadline := time.Now().Add(portWait)
	var lastErr error
	for {
		dev, err := findPort(name)
		if err == nil {
			f, oerr := os.OpenFile(dev, os.O_RDWR|unix.O_CLOEXEC, 0)
			if oerr == nil {
				return f, nil
			}
			err = oerr
		}
		lastErr = err
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("opening the virtio-serial port %q: %w", name, lastErr)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func findPort(name string) (string, error) {
	names, _ := filepath.Glob("/sys/class/virtio-ports/*/name")
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil || strings.TrimSpace(string(b)) != name {
			continue
		}
		return "/dev/" + filepath.Base(filepath.Dir(n)), nil
	}
	return "", errors.New("no such port yet")
}
