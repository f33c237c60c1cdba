package shellsim_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// FuzzRun parses and executes arbitrary source with small limits: it must
// never panic or hang.
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		"echo hi", "x=1; echo ${x:-y}", ":(){ :|:& };:", "yes | head -2", "while :; do :; done",
		"f(){ f; }; f", "echo {1..100000}", "cat <<EOF\n$x\nEOF", "a=(1 2); echo ${a[@]:5:-1}",
		"exec 3>&1 4<&3; echo >&9", "trap 'kill $$' EXIT", "sleep 1 & kill %1; wait", "((1/0))",
		"read -n 3 x <<< abcdef; echo $x", "set -euo pipefail; false | true", "case x in (x) echo;; esac",
		"printf '%*.*d\\n' 5 3 7", "diff <(echo a) <(echo b); cat < <(yes) | head -1", "echo x > >(cat)",
		"declare -A m; m[$a,$b]=1; (( m[x]++ )); echo ${!m[@]}", "read -ra a <<< ',,a,'", "trap 'echo $LINENO' ERR; false", "[[ a =~ ( ]]", "echo $(( 1 <<  70 ))", "${x", "$(", "mapfile -t a < /proc/self/status",
		"f(){ ( f ); }; f", "f(){ echo $(f); }; f", "FUNCNEST=2; f(){ f; }; f", "x=a; while :; do x=$x$x; done",
		"a=(x); while :; do a+=(\"${a[@]}\"); done", "printf '%2000000000d' 1", "printf '%-1000001s|' a",
		"x=$(printf '(%.0s' {1..3000}); eval \"$x\"", "echo $((1 +)) ${x!}\nlet 1+; ((x = )); echo $[2 *]",
		"x=1/0; echo $(( 2 ** -1 )) $((08)) $(( x /= 0 )) $(( a[1] % 0 ))", "readonly r=1\nr=2; echo no\necho yes", "y=${x^^}; x=aa; while :; do x=$x$x; y=${x^^}; done",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		l := shellsim.Limits{CPU: 200_000, Memory: 4 << 20, Disk: 1 << 20, Output: 64 << 10}
		env := shellsim.NewEnvironment(l)
		done := make(chan struct{})
		go func() {
			defer close(done)
			env.Run(context.Background(), src, []byte("input\n"))
			env.Run(context.Background(), "echo again", nil)
			env.Close()
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			// Crash the worker so the fuzzer records the input.
			panic(fmt.Sprintf("hang on %q", src))
		}
	})
}

// FuzzForkReplay runs arbitrary source as a background job next to a
// sleeping one, forks the busy environment (a replay of its history) and
// checks that the copy and the original then behave identically: the
// engine must be deterministic for forks to be right.
func FuzzForkReplay(f *testing.F) {
	for _, s := range []string{
		"echo hi", "for i in 1 2 3; do sleep 0.3; echo $i; done", "yes | head -c 5000 | wc -c",
		"x=$(cat); echo ${#x}", "trap 'echo t' USR1; kill -USR1 $$; echo after", "sleep 2 & wait -n; echo $?",
		"read a b; echo $b$a", "seq 100 | sort -r | tail -3", "f(){ f; }; f", "echo {1..1000} | wc -w",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		l := shellsim.Limits{CPU: 200_000, Memory: 4 << 20, Disk: 1 << 20, Output: 64 << 10}
		env := shellsim.NewEnvironment(l)
		defer env.Close()
		done := make(chan struct{})
		go func() {
			defer close(done)
			env.Run(context.Background(), "sleep 3 & echo $! > /tmp/pid", nil)
			env.WriteFile("/work/script", []byte(src), 0o644)
			env.Run(context.Background(), "(source /work/script) > /work/out 2>&1 < /dev/null & sleep 0.5", []byte("in\n"))
			c, err := env.Duplicate()
			if err != nil {
				if env.Terminated() {
					return
				}
				t.Errorf("fork: %v", err)
				return
			}
			defer c.Close()
			follow := "sleep 1; cat /work/out; wait; echo $?; date +%s.%N; ls /proc | wc -l"
			a, b := env.Run(context.Background(), follow, nil), c.Run(context.Background(), follow, nil)
			if string(a.Stdout) != string(b.Stdout) || a.Outcome.ExitStatus != b.Outcome.ExitStatus || a.Outcome.Usage != b.Outcome.Usage {
				t.Errorf("fork differs for %q:\noriginal %q %+v\nfork     %q %+v", src, a.Stdout, a.Outcome.Usage, b.Stdout, b.Outcome.Usage)
			}
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			panic(fmt.Sprintf("hang on %q", src))
		}
	})
}
