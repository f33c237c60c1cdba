package digest

import (
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"io"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// cksum - POSIX checksum and byte count
//
//	cksum [FILE]...
//
// Prints "CRC SIZE NAME" (no name for standard input). The POSIX CRC is an
// MSB-first CRC-32 over the data and then its length; Go's hash/crc32 is the
// reflected variant, so the table is built here.

var crcTable = func() (t [256]uint32) {
	for i := range t {
		c := uint32(i) << 24
		for j := 0; j < 8; j++ {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04C11DB7
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return
}()

type posixCRC struct {
	crc uint32
	n   int64
}

func (p *posixCRC) Write(b []byte) (int, error) {
	for _, c := range b {
		p.crc = p.crc<<8 ^ crcTable[byte(p.crc>>24)^c]
	}
	p.n += int64(len(b))
	return len(b), nil
}

func (p *posixCRC) Sum() uint32 {
	c := p.crc
	for n := p.n; n > 0; n >>= 8 {
		c = c<<8 ^ crcTable[byte(c>>24)^byte(n)]
	}
	return ^c
}

// Cksum runs cksum.
func Cksum(inv *command.Invocation) int {
	if inv.Sys.Charge(launchCost) != nil {
		return 1
	}
	opts, files, st, ok := getopt.Parse(inv, &getopt.Spec{Short: "a:", Long: []getopt.Long{{"algorithm=", "a"}}})
	if !ok {
		return st
	}
	for _, o := range opts {
		if o.Name == "a" && o.Val != "crc" {
			inv.Sys.Partial("cksum -a " + o.Val)
			fmt.Fprintf(inv.Stderr, "cksum: -a %s is not supported here; use %ssum\n", o.Val, o.Val)
			return 1
		}
	}
	named := len(files) > 0
	if !named {
		files = []string{"-"}
	}
	status := 0
	for _, f := range files {
		r, err := open(inv, f)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "cksum: %s: %s\n", f, command.Message(err))
			status = 1
			continue
		}
		var c posixCRC
		err = stream(inv, r, &c)
		r.Close()
		if err == errStop {
			return 1
		}
		if err != nil {
			fmt.Fprintf(inv.Stderr, "cksum: %s: %s\n", f, command.Message(err))
			status = 1
			continue
		}
		line := fmt.Sprintf("%d %d", c.Sum(), c.n)
		if named {
			line += " " + f
		}
		if _, err := io.WriteString(inv.Stdout, line+"\n"); err != nil {
			return 1
		}
	}
	return status
}
