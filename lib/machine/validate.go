package machine

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

// Limits every backend enforces the same way, before anything runs. They are
// Linux's own (a command that passes them can be exec'd in any backend), with
// headroom for the environment a machine adds to every command.
const (
	// MaxArgBytes bounds a command's argv and env together. Each argument
	// and each NAME=value counts its bytes plus 9 (its terminating NUL and
	// its pointer, as Linux counts them against ARG_MAX), so that with the
	// spec's env (MaxSpecEnvBytes) and the machine's own variables a
	// command stays under Linux's 2 MiB.
	MaxArgBytes = 1 << 20
	// MaxSpecEnvBytes bounds MachineSpec.env, counted the same way.
	MaxSpecEnvBytes = 256 << 10
	// MaxArgStrlen bounds one argument or NAME=value (Linux's
	// MAX_ARG_STRLEN, 32 pages, less the terminating NUL).
	MaxArgStrlen = 32*4096 - 1
	// MaxPathBytes bounds a path (Linux's PATH_MAX, less the NUL).
	MaxPathBytes = 4095
	// MaxNameBytes bounds a user name.
	MaxNameBytes = 256
	// MaxSeconds is the largest timeout, in seconds, a time.Duration holds
	// (about 292 years); larger values are refused rather than mistaken for
	// "no timeout" or for a negative duration.
	MaxSeconds = float64(math.MaxInt64) / float64(time.Second)
)

// argCost is what one argv or env string costs against MaxArgBytes.
func argCost(s string) int { return len(s) + 1 + 8 }

// checkText refuses what cannot cross execve or a path: NUL bytes,
// non-UTF-8 bytes (they would otherwise be replaced silently somewhere on
// the way), and strings over max bytes.
func checkText(field, what, s string, max int) error {
	switch {
	case strings.IndexByte(s, 0) >= 0:
		return &InvalidSpec{Field: field, Reason: what + " contains a NUL byte"}
	case !utf8.ValidString(s):
		return &InvalidSpec{Field: field, Reason: what + " is not valid UTF-8"}
	case len(s) > max:
		return &InvalidSpec{Field: field, Reason: fmt.Sprintf("%s is %d bytes, over the limit of %d", what, len(s), max)}
	}
	return nil
}

// ValidateGuestPath checks a path inside a machine (a command's cwd, a
// transfer's guest side, a workdir): absolute, without NUL bytes, valid
// UTF-8, at most MaxPathBytes, and without ".." components (a guest path
// names one place; "." components and repeated slashes are cleaned by the
// backends).
func ValidateGuestPath(field, p string) error {
	if p == "" {
		return &InvalidSpec{Field: field, Reason: "the path is empty"}
	}
	if err := checkText(field, "the path", p, MaxPathBytes); err != nil {
		return err
	}
	if !strings.HasPrefix(p, "/") {
		return &InvalidSpec{Field: field, Reason: fmt.Sprintf("must be an absolute path, got %q", p)}
	}
	for part := range strings.SplitSeq(p, "/") {
		if part == ".." {
			return &InvalidSpec{Field: field, Reason: fmt.Sprintf("must not contain \"..\" components, got %q", p)}
		}
	}
	return nil
}

// ValidateHostPath checks a path on the host (a transfer's host side):
// not empty, without NUL bytes, at most MaxPathBytes.
func ValidateHostPath(field, p string) error {
	if p == "" {
		return &InvalidSpec{Field: field, Reason: "the path is empty"}
	}
	return checkText(field, "the path", p, MaxPathBytes)
}

// validateEnv checks environment variables and returns their cost against
// the argument limits.
func validateEnv(field string, env map[string]string) (int, error) {
	total := 0
	for name, value := range env {
		if name == "" {
			return 0, &InvalidSpec{Field: field, Reason: "a variable name is empty"}
		}
		if strings.IndexByte(name, '=') >= 0 {
			return 0, &InvalidSpec{Field: field, Reason: fmt.Sprintf("variable name %q contains '='", name)}
		}
		if err := checkText(field, fmt.Sprintf("variable name %.40q", name), name, MaxArgStrlen); err != nil {
			return 0, err
		}
		if err := checkText(field, fmt.Sprintf("the value of %.40q", name), value, MaxArgStrlen); err != nil {
			return 0, err
		}
		if n := len(name) + 1 + len(value); n > MaxArgStrlen {
			return 0, &InvalidSpec{Field: field, Reason: fmt.Sprintf("%.40s=... is %d bytes, over the limit of %d", name, n, MaxArgStrlen)}
		}
		total += argCost(name + "=" + value)
	}
	return total, nil
}

// DurationFromSeconds converts a timeout in seconds. NaN and
// infinities are refused; a positive value too small for a nanosecond is
// rounded up (a tiny timeout expires at once, it is never "none"); values
// over MaxSeconds are refused. The sign is left to the caller.
func DurationFromSeconds(field string, s float64) (time.Duration, error) {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return 0, &InvalidSpec{Field: field, Reason: fmt.Sprintf("must be a finite number of seconds, got %v", s)}
	}
	ns := s * float64(time.Second)
	if s > 0 {
		ns = math.Ceil(ns)
	} else {
		ns = math.Floor(ns)
	}
	// 2^63 itself is a float64 but not an int64.
	if math.Abs(ns) >= float64(math.MaxInt64) {
		return 0, &InvalidSpec{Field: field, Reason: fmt.Sprintf("%g seconds is over the limit of %.0f seconds (give no timeout instead)", s, MaxSeconds)}
	}
	return time.Duration(ns), nil
}
