package machine

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// wantInvalid checks that err is an *InvalidSpec naming field whose text
// contains want.
func wantInvalid(t *testing.T, what string, err error, field, want string) {
	t.Helper()
	var inv *InvalidSpec
	if !errors.As(err, &inv) || inv.Field != field || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: got %v, want an invalid %s containing %q", what, err, field, want)
	}
}

func TestCommandValidateRefusesHostileInput(t *testing.T) {
	ok := Command{Argv: []string{"echo", "hi"}, Env: map[string]string{"A": "b"}, Cwd: "/tmp", User: "root"}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("x", MaxArgStrlen)
	many := make([]string, 0, 12)
	for range 12 {
		many = append(many, big)
	}
	bigEnv := map[string]string{}
	for i := range 12 {
		bigEnv[strings.Repeat("V", i+1)] = big[:MaxArgStrlen-20]
	}
	for _, c := range []struct {
		name         string
		cmd          Command
		field, match string
	}{
		{"empty argv", Command{}, "argv", "at least one"},
		{"NUL in argv", Command{Argv: []string{"echo", "a\x00b"}}, "argv", "NUL"},
		{"non-UTF-8 argv", Command{Argv: []string{"echo", "a\xffb"}}, "argv", "UTF-8"},
		{"one argument over MAX_ARG_STRLEN", Command{Argv: []string{"echo", big + "x"}}, "argv", "limit of 131071"},
		{"10 MB argv", Command{Argv: append([]string{"echo"}, many...)}, "argv", "limit of 1048576"},
		{"10 MB env", Command{Argv: []string{"env"}, Env: bigEnv}, "env", "limit of 1048576"},
		{"NUL in env value", Command{Argv: []string{"x"}, Env: map[string]string{"A": "1\x002"}}, "env", "NUL"},
		{"NUL in env name", Command{Argv: []string{"x"}, Env: map[string]string{"A\x00B": "1"}}, "env", "NUL"},
		{"= in env name", Command{Argv: []string{"x"}, Env: map[string]string{"A=B": "1"}}, "env", "'='"},
		{"empty env name", Command{Argv: []string{"x"}, Env: map[string]string{"": "1"}}, "env", "empty"},
		{"relative cwd", Command{Argv: []string{"x"}, Cwd: "rel"}, "cwd", "absolute"},
		{"dotdot cwd", Command{Argv: []string{"x"}, Cwd: "/a/../b"}, "cwd", ".."},
		{"NUL in cwd", Command{Argv: []string{"x"}, Cwd: "/a\x00"}, "cwd", "NUL"},
		{"long cwd", Command{Argv: []string{"x"}, Cwd: "/" + strings.Repeat("a", 5000)}, "cwd", "limit of 4095"},
		{"NUL in user", Command{Argv: []string{"x"}, User: "ro\x00ot"}, "user", "NUL"},
		{"negative output limit", Command{Argv: []string{"x"}, OutputLimit: -1}, "output_limit_bytes", "negative"},
		{"negative timeout", Command{Argv: []string{"x"}, Timeout: -1}, "timeout", "positive"},
	} {
		wantInvalid(t, c.name, c.cmd.Validate(), c.field, c.match)
	}
	// Just under the limit is accepted: 7 arguments of MaxArgStrlen fit.
	if err := (Command{Argv: many[:7]}).Validate(); err != nil {
		t.Fatalf("7 maximal arguments: %v", err)
	}
}

func TestGuestPaths(t *testing.T) {
	for _, p := range []string{"/", "/a/b", "/a/./b", "//a//b/", "/a/..b/c.."} {
		if err := ValidateGuestPath("target", p); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
	for p, want := range map[string]string{
		"":             "empty",
		"a/b":          "absolute",
		"./a":          "absolute",
		"/a/../../etc": `".."`,
		"/..":          `".."`,
		"/a\x00b":      "NUL",
		"/a\xff":       "UTF-8",
	} {
		wantInvalid(t, p, ValidateGuestPath("target", p), "target", want)
	}
	wantInvalid(t, "host NUL", ValidateHostPath("source", "/tmp/a\x00"), "source", "NUL")
	if err := ValidateHostPath("source", "relative/ok"); err != nil {
		t.Fatal(err)
	}
}

func TestDurationFromSeconds(t *testing.T) {
	for s, want := range map[float64]time.Duration{
		1e-10: 1, 1e-300: 1, 0.0015: 1_500_000, 2: 2 * time.Second, 0: 0, -1e-10: -1,
	} {
		if d, err := DurationFromSeconds("timeout", s); err != nil || d != want {
			t.Errorf("%g: got %v, %v; want %v", s, d, err, want)
		}
	}
	for _, s := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := DurationFromSeconds("timeout", s)
		wantInvalid(t, "non-finite", err, "timeout", "finite")
	}
	for _, s := range []float64{1e300, -1e300, MaxSeconds, math.MaxInt64 / 1e9} {
		_, err := DurationFromSeconds("timeout", s)
		wantInvalid(t, "huge", err, "timeout", "over the limit")
	}
	if d, err := DurationFromSeconds("timeout", 9e9); err != nil || d != 9e18 {
		t.Fatalf("9e9 s: %v %v", d, err)
	}
}

func TestSecondsReadsNonFiniteMarkers(t *testing.T) {
	var v struct{ T *Seconds }
	for raw, check := range map[string]func(float64) bool{
		`{"T":"NaN"}`:       math.IsNaN,
		`{"T":"Infinity"}`:  func(f float64) bool { return math.IsInf(f, 1) },
		`{"T":"-Infinity"}`: func(f float64) bool { return math.IsInf(f, -1) },
		`{"T":1.5}`:         func(f float64) bool { return f == 1.5 },
	} {
		if err := json.Unmarshal([]byte(raw), &v); err != nil || !check(float64(*v.T)) {
			t.Errorf("%s: %v %v", raw, v.T, err)
		}
	}
	if err := json.Unmarshal([]byte(`{"T":"5"}`), &v); err == nil {
		t.Error("a string number was accepted")
	}
}

func TestSpecValidateRefusesHostileInput(t *testing.T) {
	for raw, want := range map[string][2]string{
		`{"source":{"type":"HostImage"},"env":{"A=B":"x"}}`:                           {"env", "'='"},
		`{"source":{"type":"HostImage"},"env":{"A":"x\u0000"}}`:                       {"env", "NUL"},
		`{"source":{"type":"HostImage"},"workdir":"/w\u0000"}`:                        {"workdir", "NUL"},
		`{"source":{"type":"HostImage"},"workdir":"/w/../x"}`:                         {"workdir", ".."},
		`{"source":{"type":"HostImage"},"startup_timeout":0}`:                         {"startup_timeout", "positive"},
		`{"source":{"type":"HostImage"},"startup_timeout":"NaN"}`:                     {"startup_timeout", "finite"},
		`{"source":{"type":"HostImage"},"startup_timeout":1e300}`:                     {"startup_timeout", "limit"},
		`{"source":{"type":"HostImage"},"memory_mb":0}`:                               {"memory_mb", "positive"},
		`{"source":{"type":"HostImage","read_only":["/a\u0000"]}}`:                    {"source", "NUL"},
		`{"source":{"type":"PreparedImage","layout":"/l","manifest_digest":"md5:1"}}`: {"source", "sha256"},
	} {
		var s Spec
		wantInvalid(t, raw, json.Unmarshal([]byte(raw), &s), want[0], want[1])
	}
	env := map[string]string{}
	for i := range 3 {
		env[strings.Repeat("E", i+1)] = strings.Repeat("v", MaxArgStrlen-10)
	}
	wantInvalid(t, "big spec env", Spec{Source: HostImage{}, Network: NetworkDeny, Env: env}.Validate(), "env", "limit of 262144")
}
