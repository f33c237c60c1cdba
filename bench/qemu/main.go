// Command qemu benchmarks the QEMU microVM backend on this host: cold
// create (kernel boot) and restored create (saved state; RAM from a file
// mapped copy-on-write, and for comparison RAM in the migration stream)
// each to a first command result, Run(["true"]) on a live machine, a 10 MiB upload and
// download, and the host RSS and PSS of an idle machine; with two baselines
// measured in the same run: the bare QEMU boot of the same kernel to an
// /init that powers off at once (no agent), and the Docker backend's
// create + first command.
//
//	go run ./bench/qemu [-n 5] [-runs 100] [-accel tcg] [-only run|restore]
//
// -only run measures only Run(["true"]) on one cold-booted machine;
// -only restore only n restored creates, each to its first result.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cavaliergopher/cpio"

	"github.com/shellbox/shellbox/lib/backends/docker"
	"github.com/shellbox/shellbox/lib/backends/qemu"
	"github.com/shellbox/shellbox/lib/backends/qemu/boot"
	"github.com/shellbox/shellbox/lib/backends/qemu/qemutest"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

func main() {
	n := flag.Int("n", 5, "create samples of each kind")
	runs := flag.Int("runs", 100, "Run([true]) samples")
	accel := flag.String("accel", "tcg", "acceleration: auto, kvm or tcg")
	only := flag.String("only", "", `"run": only Run(["true"]) on a live machine; "restore": only restored creates`)
	flag.Parse()
	run := bench
	switch *only {
	case "":
	case "run":
		run = benchRun
	case "restore":
		run = benchRestore
	default:
		fmt.Fprintf(os.Stderr, "bench: -only %q: want \"run\" or \"restore\"\n", *only)
		os.Exit(2)
	}
	if err := run(*n, *runs, qemu.Acceleration(*accel)); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func median(d []time.Duration) time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}

// prepare builds the guest and a busybox image in a new work directory.
func prepare() (work, guest string, img machine.Source, err error) {
	if work, err = os.MkdirTemp("", "shellbox-bench-qemu-"); err != nil {
		return "", "", nil, err
	}
	if guest, err = qemutest.BuildGuest(work); err == nil {
		img, err = qemutest.BusyboxLayout(filepath.Join(work, "oci"))
	}
	if err != nil {
		os.RemoveAll(work)
		return "", "", nil, err
	}
	return work, guest, img, nil
}

// benchRun times Run(["true"]) on one cold-booted machine.
func benchRun(_, runs int, accel qemu.Acceleration) error {
	ctx := context.Background()
	work, guest, img, err := prepare()
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	off := false
	f, err := qemu.New(qemu.Options{Acceleration: accel, Guest: guest, CacheDir: filepath.Join(work, "cache"), DiskSizeMB: 256, Restore: &off})
	if err != nil {
		return err
	}
	m, err := f.Create(ctx, machine.Spec{Source: img, Workdir: "/workspace", Network: machine.NetworkDeny})
	if err != nil {
		return err
	}
	defer m.Close(ctx)
	// CPU time spent per command by QEMU and by this process: unlike the
	// wall time, it hardly depends on what else the host runs.
	i0 := qemuCPU()
	time.Sleep(2 * time.Second)
	idle := (qemuCPU() - i0) / 2
	q0, h0 := qemuCPU(), selfCPU()
	trues, err := timeTrue(ctx, m, runs)
	if err != nil {
		return err
	}
	q1, h1 := qemuCPU(), selfCPU()
	// The protocol's share: a program the guest cannot find answers
	// without a process being made.
	var missing []time.Duration
	for i := 0; i < runs; i++ {
		start := time.Now()
		if _, err := m.Run(ctx, machine.Command{Argv: []string{"/no/such/program"}}); err != nil {
			return err
		}
		missing = append(missing, time.Since(start))
	}
	sort.Slice(trues, func(i, j int) bool { return trues[i] < trues[j] })
	fmt.Printf("run([\"true\"]) on a live machine (%s, %d runs): median %.2f ms, p10 %.2f ms, p90 %.2f ms   target <= 5 ms\n",
		accel, runs, ms(trues[len(trues)/2]), ms(trues[len(trues)/10]), ms(trues[len(trues)*9/10]))
	fmt.Printf("  CPU per run: QEMU %.2f ms, host process %.2f ms; idle QEMU %.0f ms/s\n", ms((q1-q0)/time.Duration(runs)), ms((h1-h0)/time.Duration(runs)), ms(idle))
	fmt.Printf("  a missing program (the round trip without a process): median %.2f ms, %.2fx true\n", ms(median(missing)), float64(median(missing))/float64(trues[len(trues)/2]))
	return nil
}

// benchRestore times n restored creates, each to its first command's
// result, after one create that saves the state.
func benchRestore(n, _ int, accel qemu.Acceleration) error {
	ctx := context.Background()
	work, guest, img, err := prepare()
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	on := true
	f, err := qemu.New(qemu.Options{Acceleration: accel, Guest: guest, CacheDir: filepath.Join(work, "cache"), DiskSizeMB: 256, Restore: &on})
	if err != nil {
		return err
	}
	spec := machine.Spec{Source: img, Workdir: "/workspace", Network: machine.NetworkDeny}
	var times []time.Duration
	for i := -1; i < n; i++ {
		start := time.Now()
		m, err := f.Create(ctx, spec)
		if err != nil {
			return err
		}
		_, err = m.Run(ctx, machine.Command{Argv: []string{"true"}})
		d := time.Since(start)
		if i >= 0 && !m.(*qemu.Machine).Restored() {
			err = fmt.Errorf("a restore fell back to a cold boot")
		}
		m.Close(ctx)
		if err != nil {
			return err
		}
		if i >= 0 {
			times = append(times, d)
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	fmt.Printf("restored create + run(true) (%s, %d samples): median %.1f ms, min %.1f ms, max %.1f ms   target <= 250 ms\n",
		accel, n, ms(times[len(times)/2]), ms(times[0]), ms(times[len(times)-1]))
	return nil
}

// qemuCPU is the CPU time used so far by the QEMU processes this process
// started.
func qemuCPU() time.Duration {
	entries, _ := os.ReadDir("/proc")
	var total time.Duration
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil || !bytes.Contains(stat, []byte("(qemu-system-x86")) {
			continue
		}
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+2:]))
		if len(f) < 13 || f[1] != strconv.Itoa(os.Getpid()) {
			continue
		}
		u, _ := strconv.Atoi(f[11])
		s, _ := strconv.Atoi(f[12])
		total += time.Duration(u+s) * 10 * time.Millisecond // USER_HZ is 100
	}
	return total
}

// selfCPU is the CPU time used so far by this process.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// timeTrue times Run(["true"]) runs times, after a few unmeasured ones.
func timeTrue(ctx context.Context, m machine.Machine, runs int) ([]time.Duration, error) {
	var trues []time.Duration
	for i := -5; i < runs; i++ {
		start := time.Now()
		if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}}); err != nil {
			return nil, err
		}
		if i >= 0 {
			trues = append(trues, time.Since(start))
		}
	}
	return trues, nil
}

func bench(n, runs int, accel qemu.Acceleration) error {
	ctx := context.Background()
	work, guest, img, err := prepare()
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	spec := machine.Spec{Source: img, Workdir: "/workspace", Network: machine.NetworkDeny}
	off, on := false, true
	cold, err := qemu.New(qemu.Options{Acceleration: accel, Guest: guest, CacheDir: filepath.Join(work, "cache"), DiskSizeMB: 256, Restore: &off})
	if err != nil {
		return err
	}
	warm, err := qemu.New(qemu.Options{Acceleration: accel, Guest: guest, CacheDir: filepath.Join(work, "cache"), DiskSizeMB: 256, Restore: &on})
	if err != nil {
		return err
	}
	// The same restore with the RAM in the migration stream instead of a
	// file mapped copy-on-write.
	stream, err := qemu.New(qemu.Options{Acceleration: accel, Guest: guest, CacheDir: filepath.Join(work, "cache"), DiskSizeMB: 256, Restore: &on, RestoreRAM: qemu.RAMStream})
	if err != nil {
		return err
	}
	createRun := func(f *qemu.Factory) (time.Duration, machine.Machine, error) {
		start := time.Now()
		m, err := f.Create(ctx, spec)
		if err != nil {
			return 0, nil, err
		}
		if _, err := m.Run(ctx, machine.Command{Argv: []string{"true"}}); err != nil {
			m.Close(ctx)
			return 0, nil, err
		}
		return time.Since(start), m, nil
	}
	// Warm-up: stages the disk and the boot assets, saves the state.
	for _, f := range []*qemu.Factory{cold, warm, stream} {
		_, m, err := createRun(f)
		if err != nil {
			return err
		}
		m.Close(ctx)
	}

	bare, err := bareBoot(work, n)
	if err != nil {
		return err
	}
	var colds, warms, streams []time.Duration
	for i := 0; i < n; i++ {
		d, m, err := createRun(cold)
		if err != nil {
			return err
		}
		colds = append(colds, d)
		m.Close(ctx)
		d, m, err = createRun(warm)
		if err != nil {
			return err
		}
		if !m.(*qemu.Machine).Restored() {
			return fmt.Errorf("a restore fell back to a cold boot")
		}
		warms = append(warms, d)
		m.Close(ctx)
		d, m, err = createRun(stream)
		if err != nil {
			return err
		}
		streams = append(streams, d)
		m.Close(ctx)
	}

	_, m, err := createRun(warm)
	if err != nil {
		return err
	}
	defer m.Close(ctx)
	trues, err := timeTrue(ctx, m, runs)
	if err != nil {
		return err
	}
	payload := filepath.Join(work, "payload")
	if err := os.WriteFile(payload, bytes.Repeat([]byte("shellbox"), 10<<20/8), 0o644); err != nil {
		return err
	}
	start := time.Now()
	if err := m.Upload(ctx, payload, "/workspace/payload"); err != nil {
		return err
	}
	up := time.Since(start)
	start = time.Now()
	if err := m.Download(ctx, "/workspace/payload", filepath.Join(work, "back"), machine.DownloadOptions{}); err != nil {
		return err
	}
	down := time.Since(start)
	// Three idle restored machines: their RAM pages are shared (PSS).
	for i := 0; i < 2; i++ {
		_, other, err := createRun(warm)
		if err != nil {
			return err
		}
		defer other.Close(ctx)
	}
	time.Sleep(time.Second)
	rss, pss := idleRSS()

	dockerCreate, dockerErr := dockerBaseline(ctx, n)

	fmt.Printf("QEMU microVM backend (%s, %d create samples, %d runs; medians)\n", accel, n, runs)
	fmt.Printf("  bare QEMU boot to /init (no agent)    %8.1f ms   baseline\n", ms(bare))
	fmt.Printf("  cold create + run(true)               %8.1f ms   %.2fx bare   target <= 1500 ms\n", ms(median(colds)), ratio(median(colds), bare))
	fmt.Printf("  restored create + run(true)           %8.1f ms   %.2fx bare   target <= 250 ms\n", ms(median(warms)), ratio(median(warms), bare))
	fmt.Printf("    RAM in the stream instead of a file %8.1f ms   file is %.2fx stream\n", ms(median(streams)), ratio(median(warms), median(streams)))
	fmt.Printf("  run([\"true\"]) on a live machine       %8.2f ms   target <= 5 ms\n", ms(median(trues)))
	fmt.Printf("  upload 10 MiB / download 10 MiB       %8.1f / %.1f ms\n", ms(up), ms(down))
	fmt.Printf("  host RSS / PSS of an idle machine     %8.1f / %.1f MiB (3 restored machines up)\n", float64(rss)/1024, float64(pss)/1024)
	if dockerErr != nil {
		fmt.Printf("  docker create + run(true)             unavailable: %v\n", dockerErr)
	} else {
		fmt.Printf("  docker create + run(true)             %8.1f ms   restored QEMU is %.2fx docker\n", ms(dockerCreate), ratio(median(warms), dockerCreate))
	}
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func ratio(a, b time.Duration) float64 { return float64(a) / float64(b) }

// bareBoot boots the same kernel with an initramfs whose /init is busybox
// powering off at once, and times QEMU from start to exit.
func bareBoot(work string, n int) (time.Duration, error) {
	image := os.Getenv(qemu.KernelEnv)
	if image == "" {
		k, err := boot.FindKernel()
		if err != nil {
			return 0, err
		}
		image = k.Image
	}
	vmlinux, err := boot.Vmlinux(image)
	if err != nil {
		return 0, err
	}
	// A kernel without ACPI boots microvm with ACPI off, as the backend
	// does, and cannot power off: a reset ends QEMU (-no-reboot).
	machineOpt, stop, extra := "microvm", "poweroff", ""
	if boot.ParsesCmdlineDevices(vmlinux) {
		machineOpt, stop, extra = "microvm,acpi=off", "reboot", " reboot=t"
	}
	vm := filepath.Join(work, "bare-vmlinux")
	if err := os.WriteFile(vm, vmlinux, 0o644); err != nil {
		return 0, err
	}
	bb, err := exec.LookPath("busybox")
	if err != nil {
		return 0, err
	}
	bin, err := os.ReadFile(bb)
	if err != nil {
		return 0, err
	}
	var buf bytes.Buffer
	w := cpio.NewWriter(&buf)
	script := []byte("#!/bin/busybox sh\n/bin/busybox " + stop + " -f\n")
	for _, e := range []struct {
		name string
		mode cpio.FileMode
		data []byte
	}{{"bin", cpio.TypeDir | 0o755, nil}, {"bin/busybox", 0o755, bin}, {"init", 0o755, script}} {
		w.WriteHeader(&cpio.Header{Name: e.name, Mode: e.mode, Size: int64(len(e.data))})
		w.Write(e.data)
	}
	w.Close()
	initrd := filepath.Join(work, "bare-initramfs")
	if err := os.WriteFile(initrd, buf.Bytes(), 0o644); err != nil {
		return 0, err
	}
	khz := 0
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "cpu MHz" {
				f, _ := strconv.ParseFloat(strings.TrimSpace(v), 64)
				khz = int(f * 1000)
				break
			}
		}
	}
	var times []time.Duration
	for i := 0; i < n; i++ {
		start := time.Now()
		cmd := exec.Command("qemu-system-x86_64", "-machine", machineOpt, "-accel", "tcg", "-m", "512M",
			"-nodefaults", "-no-user-config", "-no-reboot", "-display", "none", "-serial", "stdio",
			"-kernel", vm, "-initrd", initrd,
			"-append", fmt.Sprintf("console=ttyS0 quiet panic=-1 rdinit=/init tsc_early_khz=%d%s", khz, extra))
		if out, err := cmd.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("bare boot: %v: %s", err, out)
		}
		times = append(times, time.Since(start))
	}
	return median(times), nil
}

// idleRSS is the resident memory and its proportional share (KiB) of the
// newest QEMU process of ours.
func idleRSS() (rss, pss int) {
	entries, _ := os.ReadDir("/proc")
	best := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil || !strings.Contains(string(b), "Name:\tqemu-system-x86") {
			continue
		}
		stat, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if !strings.Contains(string(stat), " "+strconv.Itoa(os.Getpid())+" ") || pid < best {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
				best = pid
				rss, _ = strconv.Atoi(strings.Fields(v)[0])
			}
		}
		roll, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "smaps_rollup"))
		for _, l := range strings.Split(string(roll), "\n") {
			if v, ok := strings.CutPrefix(l, "Pss:"); ok && best == pid {
				pss, _ = strconv.Atoi(strings.Fields(v)[0])
			}
		}
	}
	return rss, pss
}

// dockerBaseline is the Docker backend's create + first command.
func dockerBaseline(ctx context.Context, n int) (time.Duration, error) {
	f, err := docker.New(ctx, docker.Config{})
	if err != nil {
		return 0, err
	}
	if err := dockertest.EnsureBusybox(ctx, f.Client()); err != nil {
		return 0, err
	}
	spec := machine.Spec{Source: dockertest.Busybox, Network: machine.NetworkDeny}
	var times []time.Duration
	for i := 0; i <= n; i++ {
		start := time.Now()
		m, err := f.Create(ctx, spec)
		if err != nil {
			return 0, err
		}
		_, err = m.Run(ctx, machine.Command{Argv: []string{"true"}})
		d := time.Since(start)
		m.Close(ctx)
		if err != nil {
			return 0, err
		}
		if i > 0 { // the first one warms the daemon up
			times = append(times, d)
		}
	}
	return median(times), nil
}
