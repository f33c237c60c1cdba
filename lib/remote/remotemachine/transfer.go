package remotemachine

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/shwrap"
	"github.com/shellbox/shellbox/lib/transfer"
)

// Probe is what shwrap.ProbeScript found at a download's source.
type Probe struct {
	// Dir: a directory, archived (Size bytes) at the script's archive;
	// otherwise a regular file of Mode and Size.
	Dir        bool
	Mode, Size int64
}

// ParseProbe reads the reply of shwrap.ProbeScript(source, ...): the
// last line of out. A missing or special source is a *machine.PathError.
func ParseProbe(source, out string) (Probe, error) {
	out = strings.TrimSpace(out)
	f := strings.Fields(out[strings.LastIndex(out, "\n")+1:])
	bad := fmt.Errorf("probing %s: %s", source, out)
	switch {
	case len(f) == 0:
		return Probe{}, bad
	case f[0] == shwrap.Missing:
		return Probe{}, &machine.PathError{Op: "read", Path: source, Reason: "no such file or directory", NotFound: true}
	case f[0] == shwrap.Special:
		return Probe{}, &machine.PathError{Op: "read", Path: source, Reason: "not a regular file or directory"}
	case f[0] == shwrap.Dir && len(f) == 2:
		size, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return Probe{}, bad
		}
		return Probe{Dir: true, Size: size}, nil
	case f[0] == shwrap.File && len(f) == 3:
		mode, err1 := strconv.ParseInt(f[1], 8, 64)
		size, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			return Probe{}, bad
		}
		return Probe{Mode: mode, Size: size}, nil
	}
	return Probe{}, bad
}

// ExtractFile extracts the size bytes of the file source read from r to
// target as the one-entry archive lib/transfer extracts (which treats it
// as hostile and applies opts); a file that gives fewer bytes shrank while
// it was read, an error.
func ExtractFile(ctx context.Context, r io.Reader, source string, mode, size int64, target string, opts machine.DownloadOptions) error {
	pr, pw := io.Pipe()
	go func() {
		tw := tar.NewWriter(pw)
		err := tw.WriteHeader(&tar.Header{Name: transfer.RootName, Typeflag: tar.TypeReg, Mode: mode, Size: size})
		if err == nil {
			var n int64
			n, err = io.Copy(tw, io.LimitReader(r, size))
			if err == nil && n < size {
				err = fmt.Errorf("%s shrank while it was downloaded", source)
			}
		}
		if err == nil {
			err = tw.Close()
		}
		pw.CloseWithError(err)
	}()
	err := transfer.Extract(ctx, pr, target, transfer.ForDownload(opts))
	pr.CloseWithError(errors.New("download ended"))
	return err
}

// Stage sends the host file or directory source, with put, to a fresh
// temporary path in the machine (a directory as a tar archive) and returns
// that path and the script that moves it into place at target. tmp is ""
// when nothing was sent (source could not be read).
func Stage(ctx context.Context, source, target string, put func(ctx context.Context, tmp string, r io.Reader) error) (tmp, script string, err error) {
	if err := transfer.Check(ctx, source); err != nil {
		return "", "", err
	}
	st, err := os.Stat(source)
	if err != nil {
		return "", "", &machine.PathError{Op: "read", Path: source, Reason: err.Error(), NotFound: errors.Is(err, os.ErrNotExist)}
	}
	if st.IsDir() {
		tmp = shwrap.PrivateDir()
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(transfer.WriteTar(ctx, pw, source)) }()
		err = put(ctx, tmp, pr)
		pr.CloseWithError(errors.New("upload ended"))
		return tmp, shwrap.UntarScript(target, tmp), err
	}
	f, err := os.Open(source)
	if err != nil {
		return "", "", &machine.PathError{Op: "read", Path: source, Reason: err.Error(), NotFound: errors.Is(err, os.ErrNotExist)}
	}
	defer f.Close()
	tmp = shwrap.PrivateDir()
	return tmp, shwrap.PlaceScript(target, tmp, transfer.TarMode(st.Mode())), put(ctx, tmp, f)
}
