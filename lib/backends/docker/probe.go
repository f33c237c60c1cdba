package docker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/helpers"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
)

// A task member's readiness attempts are supervised by cmd/shellbox-probe,
// a static helper copied into the container once: it runs the probe in its
// own process group and kills that group when the attempt overruns, so
// images need neither Python nor anything beyond what Run needs.

// ProbeHelperName is the helper, found with helpers.Path.
const ProbeHelperName = "shellbox-probe"

// Kept in step with cmd/shellbox-probe.
const (
	probeTimedOutStatus = 124
	probeTimedOutMarker = "shellbox-probe: timed out"
)

// probeGrace bounds how long the helper may take beyond the attempt's
// timeout to kill its group before Run's own timeout steps in.
const probeGrace = 30 * time.Second

var _ task.Prober = (*Machine)(nil)

// RunProbe runs one readiness attempt through the helper.
func (m *Machine) RunProbe(ctx context.Context, argv []string, timeout time.Duration, outputLimit int) (machine.Result, error) {
	bin, err := m.probeHelper(ctx)
	if err != nil {
		return machine.Result{}, err
	}
	cmd := machine.Command{Argv: append([]string{bin, "-timeout", timeout.String(), "--"}, argv...), OutputLimit: outputLimit}
	if timeout > 0 {
		cmd.Timeout = timeout + probeGrace
	}
	res, err := m.Run(ctx, cmd)
	if err != nil || res.ExitCode == nil || *res.ExitCode != probeTimedOutStatus {
		return res, err
	}
	if rest, ok := strings.CutSuffix(string(res.Stderr), "\n"+probeTimedOutMarker+"\n"); ok {
		res.Stderr, res.ExitCode, res.Reason = []byte(rest), nil, machine.TimedOut
	}
	return res, nil
}

// probeHelper copies the helper into the container on first use.
func (m *Machine) probeHelper(ctx context.Context) (string, error) {
	m.probeMu.Lock()
	defer m.probeMu.Unlock()
	if m.probeBin != "" {
		return m.probeBin, nil
	}
	src, err := helpers.Path(ProbeHelperName)
	if err != nil {
		return "", err
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	target := "/tmp/.shellbox-probe-" + hex.EncodeToString(rnd[:])
	if err := m.Upload(ctx, src, target); err != nil {
		return "", fmt.Errorf("placing the readiness helper in the container: %w", err)
	}
	m.probeBin = target
	return target, nil
}
