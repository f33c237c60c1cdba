package qemu

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/digitalocean/go-qemu/qmp"

	"github.com/shellbox/shellbox/lib/machine"
)

// Fast starts: a staged image is booted once as a template, its state is
// saved by migrating it to a file, and every machine after that starts by
// restoring the state (-incoming, then cont) on a fresh copy-on-write
// overlay of the template's disk. The template's disk writes (the mount)
// live in the saved qcow2 overlay, so the restored guest's page cache and
// its disk agree. Guest clock, randomness and working directory are fixed
// by the sync request every new channel starts with.
//
// With file-backed RAM (the default, RestoreRAM "file") the template's
// guest memory is a shared mapping of a file in the state directory and
// migration leaves it out of the stream (x-ignore-shared): the stream is
// only device state. A restored machine maps the same file privately
// (share=off): its pages come from the host's page cache, shared by every
// machine restored from the state, and are copied only when the guest
// writes them. RestoreRAM "stream" keeps the RAM in the migration stream.

// ignoreSharedRAM leaves shared file-backed RAM out of a migration, on
// both ends.
const ignoreSharedRAM = `{"execute":"migrate-set-capabilities","arguments":{"capabilities":[{"capability":"x-ignore-shared","state":true}]}}`

// stateFormat versions the saved state layout (a change invalidates keys).
const stateFormat = "state-v4"

// Ways of saving the template's RAM (Options.RestoreRAM).
const (
	RAMFile   = "file"
	RAMStream = "stream"
)

// savedState is a booted template saved to disk.
type savedState struct {
	dir     string
	state   string // the migration stream
	disk    string // the template's qcow2 overlay ("" without an image disk)
	ram     string // the template's RAM file ("" when RAM is in the stream)
	cmdline string // the template's kernel command line, reused on restore
}

func (s *savedState) valid() bool {
	for _, p := range []string{s.state, filepath.Join(s.dir, "meta.json")} {
		if _, err := os.Stat(p); err != nil {
			return false
		}
	}
	return true
}

// stateKey names the saved state of one machine configuration: whatever
// the restored QEMU must match (devices, memory, CPUs, accelerator) and
// whatever the guest's memory holds (kernel, guest program, disk).
func stateKey(assets *bootAssets, disk *stagedDisk, spec machine.Spec, accel Acceleration, ram string) string {
	mem, cpus := resources(spec)
	diskID := ""
	if disk != nil {
		diskID = disk.path
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{stateFormat, assets.kernelID, assets.guestID, diskID,
		strconv.Itoa(mem), strconv.Itoa(cpus), string(accel), string(spec.Network), ram}, "\x00")))
	return hex.EncodeToString(sum[:])
}

func resources(spec machine.Spec) (mem, cpus int) {
	mem, cpus = defaultMemoryMB, defaultCPUs
	if spec.MemoryMB != nil {
		mem = *spec.MemoryMB
	}
	if spec.CPUs != nil {
		cpus = *spec.CPUs
	}
	return mem, cpus
}

// savedStateFor returns the saved state for the configuration, making it
// first when there is none (one flock per key: concurrent creates save
// once), and its use lock, held.
func (f *Factory) savedStateFor(ctx context.Context, spec machine.Spec, assets *bootAssets, disk *stagedDisk, accel Acceleration) (*savedState, *os.File, error) {
	key := stateKey(assets, disk, spec, accel, f.opts.RestoreRAM)
	hold, err := useLock(stateUseLock(f.cacheDir, key))
	if err != nil {
		return nil, nil, err
	}
	s, err := f.savedState(ctx, spec, assets, disk, accel, key)
	if err != nil {
		hold.Close()
		return nil, nil, err
	}
	return s, hold, nil
}

func (f *Factory) savedState(ctx context.Context, spec machine.Spec, assets *bootAssets, disk *stagedDisk, accel Acceleration, key string) (*savedState, error) {
	states := filepath.Join(f.cacheDir, "states")
	final := filepath.Join(states, key)
	load := func(dir string) *savedState {
		s := &savedState{dir: dir, state: filepath.Join(dir, "state")}
		b, err := os.ReadFile(filepath.Join(dir, "meta.json"))
		if err != nil {
			return nil
		}
		var meta struct {
			Cmdline string `json:"cmdline"`
			Disk    bool   `json:"disk"`
			RAM     bool   `json:"ram"`
		}
		if json.Unmarshal(b, &meta) != nil {
			return nil
		}
		s.cmdline = meta.Cmdline
		if meta.Disk {
			s.disk = filepath.Join(dir, "disk.qcow2")
		}
		if meta.RAM {
			s.ram = filepath.Join(dir, "ram")
		}
		if !s.valid() {
			return nil
		}
		return s
	}
	if s := load(final); s != nil {
		return s, nil
	}
	err := withLock(filepath.Join(states, "."+key+".lock"), func() error {
		if load(final) != nil {
			return nil
		}
		f.grew.Store(true)
		tmp, err := os.MkdirTemp(states, ".save-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if err := f.saveTemplate(ctx, spec, assets, disk, accel, tmp); err != nil {
			return err
		}
		return os.Rename(tmp, final)
	})
	if err != nil {
		return nil, err
	}
	if s := load(final); s != nil {
		return s, nil
	}
	return nil, errors.New("the saved state is incomplete")
}

// saveTemplate boots a template machine writing to a qcow2 overlay in dir,
// waits for its agent, and migrates it into dir/state.
func (f *Factory) saveTemplate(ctx context.Context, spec machine.Spec, assets *bootAssets, disk *stagedDisk, accel Acceleration, dir string) error {
	var overlay string
	if disk != nil {
		overlay = filepath.Join(dir, "disk.qcow2")
		img, err := qemuImg(f.qemu)
		if err != nil {
			return err
		}
		out, err := exec.CommandContext(ctx, img, "create", "-q", "-f", "qcow2", "-F", "raw", "-b", disk.path, overlay).CombinedOutput()
		if err != nil {
			return fmt.Errorf("qemu-img create: %v: %s", err, strings.TrimSpace(string(out)))
		}
	}
	how := launch{overlay: overlay}
	if f.opts.RestoreRAM == RAMFile {
		how.ram = filepath.Join(dir, "ram")
	}
	m, err := f.start(ctx, spec, assets, disk, accel, how)
	if err != nil {
		return err
	}
	defer m.kill()
	if err := m.warmUp(ctx); err != nil {
		return err
	}
	// The state file goes to QEMU as a descriptor (QMP getfd): no shell,
	// no quoting of the cache path.
	state, err := os.OpenFile(filepath.Join(dir, "state"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	defer state.Close()
	err = m.qmp(ctx, 2*time.Minute, func(mon *qmp.SocketMonitor) error {
		if _, err := mon.Run([]byte(`{"execute":"stop"}`)); err != nil {
			return err
		}
		if how.ram != "" {
			if _, err := mon.Run([]byte(ignoreSharedRAM)); err != nil {
				return err
			}
		}
		if _, err := mon.RunWithFile([]byte(`{"execute":"getfd","arguments":{"fdname":"state"}}`), state); err != nil {
			return fmt.Errorf("passing the state file: %w", err)
		}
		if _, err := mon.Run([]byte(`{"execute":"migrate","arguments":{"uri":"fd:state"}}`)); err != nil {
			return err
		}
		for {
			raw, err := mon.Run([]byte(`{"execute":"query-migrate"}`))
			if err != nil {
				return err
			}
			var r struct {
				Return struct {
					Status    string `json:"status"`
					ErrorDesc string `json:"error-desc"`
				} `json:"return"`
			}
			json.Unmarshal(raw, &r)
			switch r.Return.Status {
			case "completed":
				return nil
			case "failed", "cancelled":
				return fmt.Errorf("saving the machine state: migration %s: %s", r.Return.Status, r.Return.ErrorDesc)
			}
			time.Sleep(5 * time.Millisecond)
		}
	})
	if err != nil {
		return err
	}
	// disk_key ties the state to its staged disk in the cache: they are
	// evicted together (the overlay reads the disk).
	diskKey := ""
	if disk != nil && filepath.Dir(filepath.Dir(disk.path)) == filepath.Join(f.cacheDir, "disks") {
		diskKey = filepath.Base(filepath.Dir(disk.path))
	}
	meta, _ := json.Marshal(map[string]any{"cmdline": m.cmdline, "disk": overlay != "", "ram": how.ram != "", "disk_key": diskKey})
	return os.WriteFile(filepath.Join(dir, "meta.json"), meta, 0o644)
}

// warmUp does in the template what every restored machine would
// otherwise do first, in a QEMU process whose translations of guest code
// start empty: the agent finishes starting, answers a sync and runs the
// image's true and shell (the exec path's
// first-use work, the programs and their libraries in the guest's page
// cache). What the guest must not inherit is set again by every restored
// machine's own sync.
func (m *Machine) warmUp(ctx context.Context) error {
	// In /: the first creator's working directory must not appear in
	// every machine restored from the state.
	m.workdir = "/"
	if err := m.sync(m.deadline); err != nil {
		return err
	}
	for _, argv := range warmUpCommands {
		// A command the image lacks still warms the exec path.
		if _, err := m.Run(ctx, machine.Command{Argv: argv, Timeout: time.Minute}); err != nil {
			if alive := m.alive(); alive != nil {
				return alive
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
	}
	// The commands left their streams open for reuse (execd.Client) and
	// a spare (streamPool): close them all.
	m.client.Close()
	m.streams.stop()
	return m.quiesce(ctx)
}

// warmUpCommands run in a template before its state is saved.
var warmUpCommands = [][]string{{"true"}, {"sh", "-c", "true"}}

// quiesce waits until no stream of the channel is open on either side, so
// that the saved guest knows no stream a restored machine's host, whose
// multiplexer numbers streams from the start again, could open anew:
// once the host has seen every stream closed by the guest, a ping's
// answer says the guest has read the host's closes too (it reads the
// channel in order).
func (m *Machine) quiesce(ctx context.Context) error {
	for m.session.NumStreams() > 0 {
		if err := m.alive(); err != nil {
			return err
		}
		if time.Now().After(m.deadline) {
			return errors.New("the template's streams did not close before the startup timeout")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Millisecond):
		}
	}
	_, err := m.session.Ping()
	return err
}

// qemuImg finds qemu-img beside QEMU or on PATH.
func qemuImg(qemu string) (string, error) {
	if p := filepath.Join(filepath.Dir(qemu), "qemu-img"); qemu != "" {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("qemu-img")
	if err != nil {
		return "", fmt.Errorf("saved states need qemu-img (Debian package qemu-utils): %w", err)
	}
	return p, nil
}

// qmp runs fn on a QMP connection to the machine's QEMU, bounded by
// timeout: when it passes, or QEMU exits, the connection is cut.
func (m *Machine) qmp(ctx context.Context, timeout time.Duration, fn func(*qmp.SocketMonitor) error) error {
	deadline := time.Now().Add(timeout)
	sock := filepath.Join(m.dir, "qmp.sock")
	var mon *qmp.SocketMonitor
	for {
		var err error
		if mon, err = qmp.NewSocketMonitor("unix", sock, time.Second); err == nil {
			break
		}
		select {
		case <-m.exited:
			return fmt.Errorf("QEMU exited (%s)", m.cmd.ProcessState)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("QMP socket: %w", err)
		}
	}
	done := make(chan error, 1)
	go func() {
		err := mon.Connect()
		if err == nil {
			err = fn(mon)
		}
		done <- err
	}()
	var err error
	select {
	case err = <-done:
	case <-m.exited:
		err = fmt.Errorf("QEMU exited (%s)", m.cmd.ProcessState)
	case <-ctx.Done():
		err = ctx.Err()
	case <-time.After(time.Until(deadline)):
		err = errors.New("QMP did not answer in time")
	}
	mon.Disconnect()
	return err
}

// dropState removes a saved state that failed to restore.
func (f *Factory) dropState(s *savedState) {
	trash := s.dir + ".drop-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	if os.Rename(s.dir, trash) == nil {
		os.RemoveAll(trash)
	}
}
