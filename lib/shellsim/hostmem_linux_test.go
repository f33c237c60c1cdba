package shellsim_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
)

// The host memory a simulation may use: at most twice its modeled memory
// limit plus 64 MiB of slack, whatever the script does.
func hostBound(limit int64) int64 { return 2*limit + 64<<20 }

// probeEnv is how the parent test asks its child process to run one script.
const probeEnv = "SHELLSIM_HOSTMEM_PROBE"

type probeRequest struct {
	Script  string        `json:"script"`
	Memory  int64         `json:"memory"`
	Timeout time.Duration `json:"timeout"`
}

type probeReport struct {
	Base, Peak, After int64 // VmRSS before, VmHWM, VmRSS after Close (bytes)
	Status            int
	StopReason        string
	Stderr            string
}

// procStatus reads a "kB" field of /proc/self/status in bytes.
func procStatus(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), field+":"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10
		}
	}
	panic("no " + field)
}

// TestHostMemoryProbeChild runs in the child process only: it executes one
// script and prints what /proc/self/status said about its memory.
func TestHostMemoryProbeChild(t *testing.T) {
	raw := os.Getenv(probeEnv)
	if raw == "" {
		t.Skip("the child half of the host-memory tests")
	}
	var req probeRequest
	if err := json.Unmarshal([]byte(raw), &req); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	debug.FreeOSMemory()
	// VmHWM is reset so the peak is the script's own.
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		t.Fatal(err)
	}
	rep := probeReport{Base: procStatus("VmRSS")}
	l := shellsim.Limits{CPU: 1 << 50, Memory: req.Memory, Disk: req.Memory, Output: 1 << 20}
	env := shellsim.NewEnvironment(l)
	ctx, cancel := context.WithTimeout(context.Background(), req.Timeout)
	r := env.Run(ctx, req.Script, nil)
	cancel()
	env.Close()
	rep.Peak, rep.After = procStatus("VmHWM"), procStatus("VmRSS")
	rep.Status = r.Outcome.ExitStatus
	if r.Outcome.StopReason != nil {
		rep.StopReason = *r.Outcome.StopReason
	}
	rep.Stderr = string(r.Stderr[:min(len(r.Stderr), 300)])
	b, _ := json.Marshal(rep)
	fmt.Printf("PROBE %s\n", b)
}

// probe runs script in a fresh child process with the given modeled memory
// limit, so that neither a crash nor the peak of one script affects others.
func probe(t *testing.T, script string, memory int64, timeout time.Duration) probeReport {
	t.Helper()
	req, _ := json.Marshal(probeRequest{Script: script, Memory: memory, Timeout: timeout})
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostMemoryProbeChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), probeEnv+"="+string(req), "GOTRACEBACK=single")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%q: the child process failed: %v\n%s", script, err, tail(out.String(), 2000))
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if b, ok := strings.CutPrefix(line, "PROBE "); ok {
			var rep probeReport
			if err := json.Unmarshal([]byte(b), &rep); err != nil {
				t.Fatal(err)
			}
			return rep
		}
	}
	t.Fatalf("%q: no report:\n%s", script, tail(out.String(), 2000))
	return probeReport{}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// Every script, however hostile, keeps the host memory of its process within
// hostBound of the modeled limits (memory, plus the disk quota whose files
// live in host memory too), stops with a typed reason or a status instead of
// crashing the process, and gives the memory back when the environment
// closes. Each script runs in its own child process.
func TestHostMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("runs child processes of several hundred MiB")
	}
	const limit = 256 << 20
	for _, tc := range []struct{ name, src string }{
		{"function-recursion", `f(){ f; }; f`},
		{"subshell-recursion", `f(){ ( f ); }; f`},
		{"substitution-recursion", `f(){ echo $(f); }; f`},
		{"eval-recursion", `x='eval "$x"'; eval "$x"`},
		{"child-shell-recursion", `echo 'sh /work/s' > /work/s; sh /work/s`},
		{"concatenation", `x=a; while :; do x=$x$x; done`},
		{"quoted-concatenation", `x=a; while :; do x="$x$x"; done`},
		{"substitution-capture", `x=a; while :; do x=$(echo $x$x); done`},
		{"case-conversion", `x=a; while :; do x=$x$x; y=${x^^}; done`},
		{"array-doubling", `a=(x); while :; do a=("${a[@]}" "${a[@]}"); done`},
		{"array-append", `a=(x); while :; do a+=("${a[@]}"); done`},
		{"sort", `yes | head -c 400000000 | sort > /dev/null`},
		{"tac", `yes | head -c 400000000 | tac > /dev/null`},
		{"file-write", `yes > /work/f`},
		{"here-document", "x=a; while :; do x=$x$x; cat <<EOF > /dev/null\n$x$x\nEOF\ndone"},
		{"printf-width", `printf '%200000000d' 1 | wc -c; printf '%2000000000d' 1 | wc -c`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := probe(t, tc.src, limit, time.Minute)
			if r.Status == 0 && r.StopReason == "" {
				t.Errorf("not stopped: status %d stderr %q", r.Status, r.Stderr)
			}
			bound := hostBound(limit)
			if tc.name == "file-write" {
				bound = hostBound(2 * limit) // files are host memory too: memory + disk quota
			}
			if grown := r.Peak - r.Base; grown > bound {
				t.Errorf("host memory grew by %d MiB (bound %d MiB); stop %q stderr %q", grown>>20, bound>>20, r.StopReason, r.Stderr)
			}
			if kept := r.After - r.Base; kept > 64<<20 {
				t.Errorf("%d MiB kept after Close", kept>>20)
			}
		})
	}
}
