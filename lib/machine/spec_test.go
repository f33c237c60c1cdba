package machine

import (
	"strings"
	"testing"
)

func TestCommandValidate(t *testing.T) {
	if err := (Command{}).Validate(); err == nil || !strings.Contains(err.Error(), "argv") {
		t.Fatalf("empty argv: %v", err)
	}
	if err := (Command{Argv: []string{"x"}, Cwd: "rel"}).Validate(); err == nil {
		t.Fatal("relative cwd accepted")
	}
	if err := (Command{Argv: []string{"x"}}).Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestKindOf(t *testing.T) {
	for err, want := range map[error]Kind{
		&UnsupportedSpec{Field: "gpus"}:            KindUnsupported,
		&InvalidSpec{Field: "argv"}:                KindInvalid,
		&TerminatedError{Reason: "x"}:              KindTerminated,
		&StartupError{Err: ErrClosed}:              KindStartup,
		&PathError{NotFound: true}:                 KindNotFound,
		&PathError{}:                               KindPermission,
		&InternalError{Op: "run"}:                  KindInfrastructure,
		&DownloadLimitExceeded{}:                   KindDownloadLimit,
		&SandboxUnavailable{Backend: "local"}:      KindSandboxUnavailable,
		ErrClosed:                                  KindClosed,
		&InfrastructureError{Op: "stop", Err: nil}: KindInfrastructure,
	} {
		if got := KindOf(err); got != want {
			t.Errorf("%T: kind %d, want %d", err, got, want)
		}
	}
}
