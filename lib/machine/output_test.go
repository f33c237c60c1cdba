package machine

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestOutputKeepsTheFirstLimitBytes(t *testing.T) {
	for _, offHeap := range []bool{false, true} {
		o := NewOutput(OffHeapMin, offHeap)
		if o.OffHeap() != offHeap {
			t.Fatalf("offHeap %v: got %v", offHeap, o.OffHeap())
		}
		chunk := bytes.Repeat([]byte("abcdefg"), 100_000)
		for len(o.Bytes()) < OffHeapMin {
			if n, err := o.Write(chunk); n != len(chunk) || err != nil {
				t.Fatal(n, err)
			}
		}
		if len(o.Bytes()) != OffHeapMin || !o.Truncated() || !bytes.Equal(o.Bytes()[:7], []byte("abcdefg")) {
			t.Fatalf("offHeap %v: kept %d, truncated %v", offHeap, len(o.Bytes()), o.Truncated())
		}
		o.Free()
		o.Free()
	}
	if o := NewOutput(OffHeapMin-1, true); o.OffHeap() {
		t.Fatal("a small limit went off the heap")
	}
}

// rss is this process's resident memory in KiB.
func rss(t *testing.T) int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.Fields(v)[0])
			return n
		}
	}
	t.Fatal("no VmRSS")
	return 0
}

func TestOffHeapOutputReturnsItsMemory(t *testing.T) {
	const size = 256 << 20
	before := rss(t)
	o := NewOutput(1<<30, true) // a reservation costs nothing until written
	if grown := rss(t) - before; grown > 16<<10 {
		t.Fatalf("reserving 1 GiB took %d KiB", grown)
	}
	chunk := bytes.Repeat([]byte{1}, 1<<20)
	for range size >> 20 {
		o.Write(chunk)
	}
	if grown := rss(t) - before; grown < size>>10*9/10 {
		t.Fatalf("256 MiB written, RSS grew %d KiB", grown)
	}
	// Discard of the first half returns it; the rest is intact.
	Discard(o.Bytes()[:size/2])
	if grown := rss(t) - before; grown > size>>10*6/10 {
		t.Fatalf("after discarding half, RSS is %d KiB over", grown)
	}
	if o.Bytes()[size-1] != 1 || o.Bytes()[0] != 0 {
		t.Fatal("discard touched the wrong pages")
	}
	// Discard of heap memory is a no-op.
	heap := bytes.Repeat([]byte{2}, 1<<20)
	Discard(heap)
	if heap[0] != 2 {
		t.Fatal("discard changed heap memory")
	}
	o.Free()
	if grown := rss(t) - before; grown > 32<<10 {
		t.Fatalf("after Free, RSS is %d KiB over", grown)
	}
}
