// Command shellsim-bench measures ShellSim against its targets: environment
// creation, small actions, an arithmetic loop, a 1 MiB text pipeline (with
// the same scripts in host bash for the ratio) and idle memory per
// environment.
//
//	go run ./bench/shellsim
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim"
	_ "github.com/shellbox/shellbox/lib/shellsim/commands/all"
)

// cpuTime is this process's user+system CPU time: on a shared, loaded host
// it is a steadier measure than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

var lastCPU, lastSimCPU time.Duration

// bench returns the wall time per call; lastCPU holds the CPU time per call.
func bench(n int, f func()) time.Duration {
	f() // warm up
	c0 := cpuTime()
	start := time.Now()
	for i := 0; i < n; i++ {
		f()
	}
	lastCPU = (cpuTime() - c0) / time.Duration(n)
	return time.Since(start) / time.Duration(n)
}

func simAction(src string, stdin []byte, n int) (time.Duration, shellsim.Result) {
	var last shellsim.Result
	d := bench(n, func() {
		env := shellsim.NewEnvironment(shellsim.DefaultLimits())
		last = env.Run(context.Background(), src, stdin)
	})
	return d, last
}

func hostBash(src string, stdin []byte, n int) time.Duration {
	if _, err := exec.LookPath("bash"); err != nil {
		return 0
	}
	dir, _ := os.MkdirTemp("", "shellsim-bench")
	defer os.RemoveAll(dir)
	return bench(n, func() {
		c := exec.Command("bash", "-c", src)
		c.Dir = dir
		c.Stdin = strings.NewReader(string(stdin))
		c.Run()
	})
}

func corpus() []byte {
	var b strings.Builder
	words := []string{"alpha", "beta", "gamma", "delta", "error", "warning", "info", "debug"}
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "%d %s %s line %d\n", i%97, words[i%len(words)], words[(i*7)%len(words)], i)
	}
	return []byte(b.String())
}

func main() {
	fmt.Printf("%-36s %14s %14s %14s %8s\n", "benchmark", "shellsim wall", "shellsim cpu", "host bash", "ratio")
	row := func(name string, sim, host time.Duration) {
		simCPU := lastSimCPU
		ratio := ""
		if host > 0 {
			ratio = fmt.Sprintf("%.2fx", float64(sim)/float64(host))
		}
		hs := "-"
		if host > 0 {
			hs = host.String()
		}
		fmt.Printf("%-36s %14s %14s %14s %8s\n", name, sim, simCPU, hs, ratio)
	}

	create := bench(20000, func() { shellsim.NewEnvironment(shellsim.DefaultLimits()) })
	lastSimCPU = lastCPU
	row("fresh environment (target <=20us)", create, 0)

	warm := shellsim.DefaultLimits()
	warm.CPU, warm.Output = 1<<60, 1<<60 // usage is cumulative across actions
	env := shellsim.NewEnvironment(warm)
	echo := bench(20000, func() {
		env.Run(context.Background(), "echo hi", nil)
	})
	lastSimCPU = lastCPU
	row("echo hi, warm env (target <=10us)", echo, hostBash("echo hi", nil, 50))

	sortD, _ := simAction(`printf "b\na\n" | sort`, nil, 2000)
	lastSimCPU = lastCPU
	row(`printf "b\na\n" | sort`, sortD, hostBash(`printf "b\na\n" | sort`, nil, 50))

	loop := `i=0; s=0; while [ $i -lt 10000 ]; do s=$((s+i)); i=$((i+1)); done; echo $s`
	loopD, r := simAction(loop, nil, 10)
	lastSimCPU = lastCPU
	if string(r.Stdout) != "49995000\n" {
		fmt.Fprintf(os.Stderr, "loop: unexpected %q %q\n", r.Stdout, r.Stderr)
	}
	row("10,000-iteration arithmetic loop", loopD, hostBash(loop, nil, 5))

	data := corpus()
	pipe := `grep error | sort | uniq -c | sort -n | tail`
	big := shellsim.DefaultLimits()
	big.CPU = 1 << 40
	var pr shellsim.Result
	pipeD := bench(5, func() {
		e := shellsim.NewEnvironment(big)
		pr = e.Run(context.Background(), pipe, data)
	})
	lastSimCPU = lastCPU
	if pr.Outcome.ExitStatus != 0 {
		fmt.Fprintf(os.Stderr, "pipeline: status %d %q\n", pr.Outcome.ExitStatus, pr.Stderr)
	}
	row("1 MiB grep|sort|uniq -c|sort -n|tail", pipeD, hostBash(pipe, data, 5))
	fmt.Printf("  (modeled CPU for the pipeline: %d units)\n", pr.Outcome.Usage.CPUUsed)

	const n = 10000
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	envs := make([]*shellsim.Environment, n)
	for i := range envs {
		envs[i] = shellsim.NewEnvironment(shellsim.DefaultLimits())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := (after.HeapAlloc - before.HeapAlloc) / n
	fmt.Printf("%-36s %11d B (target <= 65536 B, %d live environments)\n", "idle memory per environment", per, n)
	runtime.KeepAlive(envs)
}
