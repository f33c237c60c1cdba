package digest

import (
	"bytes"
	"encoding/base32"
	"encoding/base64"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"strconv"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// base64, base32 - encode or decode data and print to standard output
//
//	base64 [-d] [-i] [-w COLS] [FILE]
//
// Encoded lines wrap at 76 columns (-w 0: no wrapping). Decoding ignores
// newlines; -i also ignores other bytes outside the alphabet.

type encoding interface {
	EncodeToString([]byte) string
	DecodeString(string) ([]byte, error)
}

var baseSpec = getopt.Spec{Short: "diw:", Long: []getopt.Long{
	{"decode", "d"}, {"ignore-garbage", "i"}, {"wrap=", "w"},
}}

func runBase(inv *command.Invocation, enc encoding, alphabet string) int {
	name := inv.Args[0]
	if inv.Sys.Charge(launchCost) != nil {
		return 1
	}
	opts, files, st, ok := getopt.Parse(inv, &baseSpec)
	if !ok {
		return st
	}
	decode, garbage, wrap := false, false, 76
	for _, o := range opts {
		switch o.Name {
		case "d":
			decode = true
		case "i":
			garbage = true
		case "w":
			n, err := strconv.Atoi(o.Val)
			if err != nil || n < 0 {
				fmt.Fprintf(inv.Stderr, "%s: invalid wrap size: '%s'\n", name, o.Val)
				return 1
			}
			wrap = n
		}
	}
	if len(files) > 1 {
		fmt.Fprintf(inv.Stderr, "%s: extra operand '%s'\nTry '%s --help' for more information.\n", name, files[1], name)
		return 1
	}
	file := "-"
	if len(files) == 1 {
		file = files[0]
	}
	r, err := open(inv, file)
	if err != nil {
		fmt.Fprintf(inv.Stderr, "%s: %s: %s\n", name, file, command.Message(err))
		return 1
	}
	data, release, err := readAll(inv, r)
	r.Close()
	defer release()
	if err == errStop {
		return 1
	}
	if err != nil {
		fmt.Fprintf(inv.Stderr, "%s: %s: %s\n", name, file, command.Message(err))
		return 1
	}
	if decode {
		clean := make([]byte, 0, len(data))
		for _, c := range data {
			if c == '\n' || (garbage && bytes.IndexByte([]byte(alphabet), c) < 0) {
				continue
			}
			clean = append(clean, c)
		}
		if garbage {
			// Padding may only end the input: drop '=' found mid-stream.
			s := bytes.TrimRight(clean, "=")
			s = bytes.ReplaceAll(s, []byte("="), nil)
			clean = append(s, clean[len(bytes.TrimRight(clean, "=")):]...)
		}
		dec, err := decodeLoose(enc, string(clean))
		if _, werr := inv.Stdout.Write(dec); werr != nil {
			return 1
		}
		if err != nil {
			fmt.Fprintf(inv.Stderr, "%s: invalid input\n", name)
			return 1
		}
		return 0
	}
	s := enc.EncodeToString(data)
	if inv.Sys.Charge(int64(len(s))) != nil {
		return 1
	}
	var b bytes.Buffer
	if wrap == 0 {
		b.WriteString(s)
	} else {
		for i := 0; i < len(s); i += wrap {
			b.WriteString(s[i:min(len(s), i+wrap)])
			b.WriteByte('\n')
		}
	}
	if _, err := inv.Stdout.Write(b.Bytes()); err != nil {
		return 1
	}
	return 0
}

// decodeLoose decodes s and, on a malformed tail, still returns the bytes
// of every complete quantum before it, as GNU writes them before failing.
func decodeLoose(enc encoding, s string) ([]byte, error) {
	out, err := enc.DecodeString(s)
	if err == nil {
		return out, nil
	}
	q := 4
	if _, ok := enc.(*base32.Encoding); ok {
		q = 8
	}
	good := len(s) / q * q
	for good > 0 {
		if o, e := enc.DecodeString(s[:good]); e == nil {
			// An unpadded final quantum still decodes, as in GNU.
			var raw encoding = base64.RawStdEncoding
			if q == 8 {
				raw = base32.StdEncoding.WithPadding(base32.NoPadding)
			}
			if t, e := raw.DecodeString(s[good:]); e == nil {
				o = append(o, t...)
			}
			return o, err
		}
		good -= q
	}
	if q == 4 {
		if t, e := base64.RawStdEncoding.DecodeString(s); e == nil {
			return t, err
		}
	}
	return nil, err
}
