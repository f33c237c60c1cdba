package execd

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func threads(t *testing.T) int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no Threads line")
	return 0
}

func TestReserveThreadsKeepsIdleThreads(t *testing.T) {
	before := threads(t)
	ReserveThreads(24)
	after := threads(t)
	// The 24 existed at once and stay as idle threads, beside the main
	// thread (threads idle before may be among them: the runtime reuses
	// them, so the count need not grow by 24).
	if after < 25 {
		t.Fatalf("threads %d -> %d after reserving 24", before, after)
	}
	// Idle threads are reused, not multiplied: reserving again adds few.
	ReserveThreads(24)
	if again := threads(t); again > after+4 {
		t.Fatalf("threads %d -> %d after reserving the same number again", after, again)
	}
}
