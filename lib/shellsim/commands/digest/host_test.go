package digest

import (
	"math/rand"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/shellsim/command/commandtest"
)

// TestAgainstHost runs random data through the dump and encoding commands
// here and on the host, comparing output. Opt-in (DIGEST_RANDOM=1).
func TestAgainstHost(t *testing.T) {
	if os.Getenv("DIGEST_RANDOM") == "" {
		t.Skip()
	}
	dir := t.TempDir()
	r := rand.New(rand.NewSource(5))
	argsets := [][]string{
		{"od"}, {"od", "-c"}, {"od", "-An", "-tx1"}, {"od", "-tx2", "-tc"}, {"od", "-td4"}, {"od", "-tu1", "-Ax"}, {"od", "-to8"},
		{"od", "-b", "-j3", "-N20"}, {"od", "-x", "-Ad"}, {"od", "-ta"}, {"od", "-td8", "-tx4"},
		{"xxd"}, {"xxd", "-p"}, {"xxd", "-c", "7", "-g", "3"}, {"xxd", "-s", "5", "-l", "30"}, {"xxd", "-u", "-g", "1"}, {"xxd", "-i"},
		{"hexdump"}, {"hexdump", "-C"}, {"hexdump", "-C", "-v"}, {"hexdump", "-s", "3", "-n", "17"},
		{"base64"}, {"base64", "-w", "10"}, {"base32"}, {"cksum"}, {"md5sum"}, {"sha512sum", "--tag"}, {"strings"}, {"strings", "-n", "2", "-t", "o"},
	}
	bad := 0
	for i := 0; i < 300; i++ {
		n := r.Intn(100)
		data := make([]byte, n)
		alpha := []byte("aaaabbc\n\x00\xff\t ~")
		for j := range data {
			if r.Intn(3) == 0 {
				data[j] = byte(r.Intn(256))
			} else {
				data[j] = alpha[r.Intn(len(alpha))]
			}
		}
		if r.Intn(4) == 0 && n > 48 {
			copy(data[16:32], data[0:16])
			copy(data[32:48], data[0:16])
		}
		os.WriteFile(dir+"/f", data, 0o644)
		for _, args := range argsets {
			cmd := exec.Command(args[0], append(args[1:], "f")...)
			cmd.Dir = dir
			want, _ := cmd.Output()
			e := commandtest.New(t, Commands())
			e.WriteFile("f", string(data))
			got, _, _ := e.Run(append(append([]string(nil), args...), "f"), "")
			if got != string(want) {
				bad++
				if bad <= 5 {
					t.Errorf("%s on %q:\ngot:\n%s\nwant:\n%s", strings.Join(args, " "), data, got, want)
				}
			}
		}
	}
	t.Logf("mismatches: %d", bad)
}
