package machine

import (
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

func TestSpecValidateRefusesHostileInput(t *testing.T) {
	ok := Spec{Source: HostImage{}, Network: NetworkDeny}
	with := func(change func(*Spec)) Spec {
		s := ok
		change(&s)
		return s
	}
	for name, c := range map[string]struct {
		spec        Spec
		field, want string
	}{
		"= in env":         {with(func(s *Spec) { s.Env = map[string]string{"A=B": "x"} }), "env", "'='"},
		"NUL in env":       {with(func(s *Spec) { s.Env = map[string]string{"A": "x\x00"} }), "env", "NUL"},
		"NUL in workdir":   {with(func(s *Spec) { s.Workdir = "/w\x00" }), "workdir", "NUL"},
		".. in workdir":    {with(func(s *Spec) { s.Workdir = "/w/../x" }), "workdir", ".."},
		"negative startup": {with(func(s *Spec) { s.StartupTimeout = -1 }), "startup_timeout", "positive"},
		"zero memory":      {with(func(s *Spec) { zero := 0; s.MemoryMB = &zero }), "memory_mb", "positive"},
		"zero cpus":        {with(func(s *Spec) { zero := 0; s.CPUs = &zero }), "cpus", "cpus must be positive"},
		"negative gpus":    {with(func(s *Spec) { s.GPUs = -1 }), "gpus", "must not be negative"},
		"unknown network":  {with(func(s *Spec) { s.Network = "maybe" }), "network", "network policy"},
		"no source":        {with(func(s *Spec) { s.Source = nil }), "source", "needs an image source"},
		"NUL in read_only": {with(func(s *Spec) { s.Source = HostImage{ReadOnly: []string{"/a\x00"}} }), "source", "NUL"},
		"md5 digest":       {with(func(s *Spec) { s.Source = PreparedImage{Layout: "/l", ManifestDigest: "md5:1"} }), "source", "sha256"},
		"URL reference":    {with(func(s *Spec) { s.Source = RegistryImage{Reference: "http://x"} }), "source", "without a URL scheme"},
		"empty reference":  {with(func(s *Spec) { s.Source = RegistryImage{Reference: " "} }), "source", "without a URL scheme"},
		"URL origin": {with(func(s *Spec) {
			s.Source = PreparedImage{Layout: "/l", ManifestDigest: "sha256:" + strings.Repeat("a", 64), Origin: RegistryImage{Reference: "http://x"}}
		}), "source", "without a URL scheme"},
	} {
		wantInvalid(t, name, c.spec.Validate(), c.field, c.want)
	}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for i := range 3 {
		env[strings.Repeat("E", i+1)] = strings.Repeat("v", MaxArgStrlen-10)
	}
	wantInvalid(t, "big spec env", Spec{Source: HostImage{}, Network: NetworkDeny, Env: env}.Validate(), "env", "limit of 262144")
}
