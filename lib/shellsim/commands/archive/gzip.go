package archive

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"github.com/shellbox/shellbox/lib/shellsim/command/getopt"
	"io"
	"path"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// gzip, gunzip, zcat - compress or expand files
//
//	gzip [-cdfklqtv] [-1..-9] [FILE]...
//	gunzip [-cfklqtv] [FILE]...
//	zcat [FILE]...
//
// FILE becomes FILE.gz (and back); the output keeps the input's mode and
// modification time and the input is removed unless -k or -c. The header
// stores the file name and a zero time, so archives are reproducible.
// Decompressed output is capped at 16 MiB.

type gzOpts struct {
	decompress, stdout, force, keep, list, quiet, test, verbose bool
	level                                                       int
}

var gzipSpec = getopt.Spec{Short: "cdfklqtvnN123456789rS:", Long: []getopt.Long{
	{"best", "9"}, {"decompress", "d"}, {"fast", "1"}, {"force", "f"}, {"keep", "k"}, {"list", "l"},
	{"name", "N"}, {"no-name", "n"}, {"quiet", "q"}, {"recursive", "r"}, {"stdout", "c"},
	{"suffix=", "S"}, {"test", "t"}, {"to-stdout", "c"}, {"uncompress", "d"}, {"verbose", "v"},
}}

func runGzip(inv *command.Invocation, decompress, cat bool) int {
	if inv.Sys.Charge(100) != nil {
		return 1
	}
	opts, files, st, ok := getopt.Parse(inv, &gzipSpec)
	if !ok {
		return st
	}
	o := gzOpts{decompress: decompress, stdout: cat, level: 6}
	for _, op := range opts {
		switch op.Name {
		case "c":
			o.stdout = true
		case "d":
			o.decompress = true
		case "f":
			o.force = true
		case "k":
			o.keep = true
		case "l":
			o.list = true
		case "q":
			o.quiet = true
		case "t":
			o.test = true
		case "v":
			o.verbose = true
		case "n", "N":
		case "r", "S":
			inv.Sys.Partial("gzip -" + op.Name)
			fmt.Fprintf(inv.Stderr, "%s: option -%s is not supported here\n", inv.Args[0], op.Name)
			return 1
		default:
			o.level = int(op.Name[0] - '0')
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	// gunzip and zcat are gzip underneath and speak as gzip.
	name := "gzip"
	if o.list {
		fmt.Fprintf(inv.Stdout, "         compressed        uncompressed  ratio uncompressed_name\n")
	}
	warn := func(s int) {
		if s > status && !(status == 1 && s == 2) {
			status = s
		}
	}
	var totalC, totalU int64
	for _, f := range files {
		var data []byte
		var err error
		var fi command.FileInfo
		p := ""
		if f == "-" {
			data, err = io.ReadAll(io.LimitReader(inv.Stdin, maxArchive+1))
		} else {
			p = inv.Abs(f)
			fi, err = inv.FS.Stat(p)
			if err == nil && fi.IsDir() {
				if !o.quiet {
					fmt.Fprintf(inv.Stderr, "%s: %s is a directory -- ignored\n", name, f)
				}
				warn(2)
				continue
			}
			if err == nil {
				data, err = inv.FS.ReadFile(p)
			}
		}
		if err != nil {
			fmt.Fprintf(inv.Stderr, "%s: %s: %s\n", name, f, command.Message(err))
			status = 1
			continue
		}
		if inv.Sys.Charge(int64(len(data))) != nil {
			return 1
		}
		// The input and the result are both held in memory.
		release, err := inv.Sys.Reserve(int64(len(data)))
		if err != nil {
			return 1
		}
		defer release()
		if o.list || o.test || o.decompress {
			if !o.list && !o.test && !o.stdout && f != "-" {
				if _, ok := plainName(f); !ok {
					if !o.quiet {
						fmt.Fprintf(inv.Stderr, "%s: %s: unknown suffix -- ignored\n", name, f)
					}
					warn(2)
					continue
				}
			}
			plain, err := gunzip(data)
			if err != nil {
				if err == errNotGzip {
					fmt.Fprintf(inv.Stderr, "\n%s: %s: %s\n", name, displayName(f), err)
				} else {
					fmt.Fprintf(inv.Stderr, "%s: %s: %s\n", name, displayName(f), err)
				}
				status = 1
				continue
			}
			if inv.Sys.Charge(int64(len(plain))) != nil {
				return 1
			}
			releasePlain, err := inv.Sys.Reserve(int64(len(plain)))
			if err != nil {
				return 1
			}
			defer releasePlain()
			if o.list {
				un := strings.TrimSuffix(f, ".gz")
				if f == "-" {
					un = "stdout"
				}
				// Like gzip, the ratio leaves out the header and trailer.
				fmt.Fprintf(inv.Stdout, "%19d %19d %5.1f%% %s\n", len(data), len(plain), ratio(len(data)-gzipOverhead(data), len(plain)), un)
				totalC += int64(len(data))
				totalU += int64(len(plain))
				continue
			}
			if o.test {
				continue
			}
			if o.stdout || f == "-" {
				if _, err := inv.Stdout.Write(plain); err != nil {
					return 1
				}
				continue
			}
			out, ok := plainName(f)
			if !ok {
				if !o.quiet {
					fmt.Fprintf(inv.Stderr, "%s: %s: unknown suffix -- ignored\n", name, f)
				}
				warn(2)
				continue
			}
			warn(writeOut(inv, o, name, p, out, plain, fi))
			continue
		}
		comp := gzipBytes(data, o.level, path.Base(f), f != "-")
		if o.stdout || f == "-" {
			if _, err := inv.Stdout.Write(comp); err != nil {
				return 1
			}
			continue
		}
		if strings.HasSuffix(f, ".gz") || strings.HasSuffix(f, ".tgz") {
			if !o.quiet {
				fmt.Fprintf(inv.Stderr, "%s: %s already has %s suffix -- unchanged\n", name, f, path.Ext(f))
			}
			continue
		}
		warn(writeOut(inv, o, name, p, f+".gz", comp, fi))
	}
	if o.list && len(files) > 1 {
		fmt.Fprintf(inv.Stdout, "%19d %19d %5.1f%% (totals)\n", totalC, totalU, ratio(int(totalC), int(totalU)))
	}
	return status
}

func displayName(f string) string {
	if f == "-" {
		return "stdin"
	}
	return f
}

func ratio(c, u int) float64 {
	if u == 0 {
		return 0
	}
	return 100 * (float64(u) - float64(c)) / float64(u)
}

// plainName maps a compressed name to its expanded name.
func plainName(f string) (string, bool) {
	for _, s := range []string{".gz", "-gz", ".z", "-z", "_z"} {
		if strings.HasSuffix(f, s) && len(f) > len(s) {
			return strings.TrimSuffix(f, s), true
		}
	}
	if strings.HasSuffix(f, ".tgz") {
		return strings.TrimSuffix(f, ".tgz") + ".tar", true
	}
	return "", false
}

// writeOut writes the result next to the input, then removes the input
// (unless -k), copying its mode and time; it returns an exit status.
func writeOut(inv *command.Invocation, o gzOpts, name, src, dstName string, data []byte, fi command.FileInfo) int {
	dst := inv.Abs(dstName)
	if _, err := inv.FS.Lstat(dst); err == nil && !o.force {
		fmt.Fprintf(inv.Stderr, "%s: %s already exists;\tnot overwritten\n", name, dstName)
		return 2
	}
	if err := inv.FS.WriteFile(dst, data, fi.Mode.Perm()); err != nil {
		fmt.Fprintf(inv.Stderr, "%s: %s: %s\n", name, dstName, command.Message(err))
		inv.FS.Remove(dst)
		return 1
	}
	inv.FS.Chmod(dst, fi.Mode.Perm())
	inv.FS.Chtimes(dst, fi.ModTime)
	if o.verbose {
		if o.decompress {
			fmt.Fprintf(inv.Stderr, "%s:\t%5.1f%% -- replaced with %s\n", path.Base(src), ratio(int(fi.Size), len(data)), dstName)
		} else {
			fmt.Fprintf(inv.Stderr, "%s:\t%5.1f%% -- replaced with %s\n", path.Base(src), ratio(len(data), int(fi.Size)), dstName)
		}
	}
	if !o.keep {
		inv.FS.Remove(src)
	}
	return 0
}

func gzipBytes(data []byte, level int, name string, named bool) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, level)
	if named {
		zw.Name = name
	}
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// gunzip expands data (every concatenated member), bounded.
func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, errNotGzip
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxExpanded+1))
	if err != nil {
		if err == io.ErrUnexpectedEOF {
			return nil, fmt.Errorf("unexpected end of file")
		}
		return nil, fmt.Errorf("invalid compressed data--format violated")
	}
	if len(out) > maxExpanded {
		return nil, fmt.Errorf("decompressed data exceeds %d bytes", maxExpanded)
	}
	return out, nil
}

var errNotGzip = errors.New("not in gzip format")

// gzipOverhead is the size of a gzip member's header and trailer.
func gzipOverhead(data []byte) int {
	if len(data) < 18 {
		return 0
	}
	n, flags := 10, data[3]
	if flags&4 != 0 && len(data) > n+2 {
		n += 2 + int(data[n]) | int(data[n+1])<<8
	}
	for _, bit := range []byte{8, 16} {
		if flags&bit != 0 {
			for n < len(data) && data[n] != 0 {
				n++
			}
			n++
		}
	}
	if flags&2 != 0 {
		n += 2
	}
	return n + 8
}
