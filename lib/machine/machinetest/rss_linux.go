package machinetest

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RSS is this process's resident set in bytes.
func RSS() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// PeakRSS samples the resident set while fn runs and returns its growth.
func PeakRSS(fn func()) int64 {
	runtime.GC()
	base := RSS()
	peak := base
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				if r := RSS(); r > peak {
					peak = r
				}
			}
		}
	}()
	fn()
	close(stop)
	wg.Wait()
	if r := RSS(); r > peak {
		peak = r
	}
	return peak - base
}

// Descendants counts the processes descending from this one, zombies
// included: a process backend's machines must leave none behind.
func Descendants() (int, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	parent := map[int]int{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // exited meanwhile
		}
		// The command name may hold spaces and parentheses: the fields
		// after it start after the last ')'.
		i := strings.LastIndexByte(string(data), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(data[i+1:]))
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		parent[pid] = ppid
	}
	self := os.Getpid()
	n := 0
	for pid := range parent {
		for p, hops := parent[pid], 0; p > 1 && hops < 64; p, hops = parent[p], hops+1 {
			if p == self {
				n++
				break
			}
		}
	}
	return n, nil
}
