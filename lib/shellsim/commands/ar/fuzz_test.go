package ar

import (
	"bytes"
	"testing"
)

// FuzzParse: any bytes are parsed or refused, never a panic, and what
// format writes parses back to the same members.
func FuzzParse(f *testing.F) {
	f.Add([]byte(magic))
	f.Add(format([]member{{"a.txt", []byte("hi\n")}, {"averyveryverylongname.txt", []byte("x")}}))
	f.Add([]byte(magic + "/0              0           0     0     644     2         `\nxx"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ms, err := parse(b)
		if err != nil {
			return
		}
		for _, m := range ms {
			if m.name == "" || bytes.ContainsAny([]byte(m.name), "/\n") {
				return // names format cannot write back
			}
		}
		again, err := parse(format(ms))
		if err != nil || len(again) != len(ms) {
			t.Fatalf("round trip: %v, %d vs %d members", err, len(again), len(ms))
		}
		for i := range ms {
			if again[i].name != ms[i].name || !bytes.Equal(again[i].data, ms[i].data) {
				t.Fatalf("member %d differs", i)
			}
		}
	})
}
