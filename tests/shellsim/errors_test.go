package shellsim_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// errorCases are scripts whose shell errors must end (or not end) the
// script as in bash, with bash's exit status and diagnostics.
var errorCases = []struct{ name, src string }{
	{"qmark_word", "echo a; echo ${x:?nope}; echo b"},
	{"qmark_empty", "echo a; : ${x:?}; echo b"},
	{"qmark_unset_empty", "echo a; : ${x?}; echo b"},
	{"qmark_in_function", "f(){ : ${x:?bad}; echo in; }; f; echo b"},
	{"qmark_in_subshell", "( : ${x:?bad}; echo in ); echo st=$?; echo b"},
	{"nounset", "set -u; echo a; echo $zz; echo b"},
	{"nounset_in_function", "set -u; f(){ echo $zz; echo in; }; f; echo b"},
	{"nounset_in_subshell", "set -u; ( echo $zz; echo in ); echo st=$?; echo b"},
	{"readonly_assign", "readonly x=1; echo a; x=2; echo st=$?; echo b $x"},
	{"readonly_in_function", "readonly x=1; f(){ x=2; echo st=$?; echo in; }; f; echo b st=$?"},
	{"declare_r_assign", "declare -r y=1; echo a; y=3; echo st=$?; echo b"},
	{"readonly_cmd_prefix", "readonly x=1; x=2 true; echo st=$?; echo b"},
	{"readonly_cmd_prefix_exported", "readonly x=1; export x; x=2 bash -c 'echo $x'; echo st=$?"},
	{"readonly_declare", "readonly x=1; declare x=5; echo st=$?; echo b"},
	{"readonly_unset", "readonly x=1; unset x; echo st=$?; echo b"},
	{"readonly_for", "readonly x=1; for x in 1 2; do echo $x; done; echo st=$?; echo b"},
	{"readonly_read", "readonly x=1; echo hi | { read x; echo st=$?; }; echo b"},
	{"readonly_read_toplevel", "readonly x=1; read x <<< hi; echo st=$?; echo b"},
	{"readonly_printf_v", "readonly x=1; printf -v x hi; echo st=$?; echo b"},
}

// errorModes are the ways a script reaches bash; each is run the same way
// inside ShellSim (a nested bash) and on the host. -c diagnostics differ in
// bash's line-number prefix, so only stdout and status are compared there.
var errorModes = []struct {
	name       string
	cmd        string // run in a directory holding the script as s.sh
	withStderr bool
}{
	{"file", "bash s.sh", true},
	{"stdin", "bash < s.sh", true},
	{"dash_c", `bash -c "$(cat s.sh)"`, false},
}

func TestShellErrors(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatal("bash is not installed on this host: the error cases compare against it")
	}
	for _, tc := range errorCases {
		for _, m := range errorModes {
			t.Run(tc.name+"/"+m.name, func(t *testing.T) {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "s.sh"), []byte(tc.src+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				cmd := exec.CommandContext(ctx, "bash", "-c", m.cmd)
				cmd.Dir, cmd.Env = dir, hostEnv
				var out, errb bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errb
				status := 0
				if err := cmd.Run(); err != nil {
					ee, ok := err.(*exec.ExitError)
					if !ok {
						t.Fatal(err)
					}
					status = ee.ExitCode()
				}

				env := shellsim.NewEnvironment(shellsim.DefaultLimits())
				setup := "cat > s.sh <<'__SCRIPT__'\n" + tc.src + "\n__SCRIPT__\n"
				if r := env.Run(ctx, setup, nil); r.Outcome.ExitStatus != 0 {
					t.Fatalf("writing the script: %s", r.Stderr)
				}
				r := env.Run(ctx, m.cmd, nil)
				if got := string(r.Stdout); got != out.String() {
					t.Errorf("stdout:\nbash:     %q\nshellsim: %q", out.String(), got)
				}
				if m.withStderr && string(r.Stderr) != errb.String() {
					t.Errorf("stderr:\nbash:     %q\nshellsim: %q", errb.String(), r.Stderr)
				}
				if r.Outcome.ExitStatus != status {
					t.Errorf("exit status: bash %d, shellsim %d (stderr %q)", status, r.Outcome.ExitStatus, r.Stderr)
				}
			})
		}
	}
}
