package boot

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/cavaliergopher/cpio"
)

// GuestModules are the kernel modules the guest needs when the kernel has
// them as modules: the microvm transport, the root disk, the host channel
// and the entropy source; NetModules are the network card's, loaded only
// by a machine with a network.
var (
	GuestModules = []string{"virtio_mmio", "virtio_blk", "virtio_console", "virtio_rng"}
	NetModules   = []string{"virtio_net"}
)

// ModuleOrder is where the initramfs lists the modules to load
// (guest.ModuleOrder): one path per line, followed by " net" for a module
// only the network needs; a line "-" ends a wave, whose modules must be
// loaded before those of the next (the modules of one wave may load at
// the same time).
const ModuleOrder = "lib/modules/shellbox.order"

// Modules are the kernel modules an initramfs carries, as paths relative
// to the modules directory.
type Modules struct {
	// Waves are the modules in load waves (see ModuleWaves).
	Waves [][]string
	// Net marks the modules only the network card needs.
	Net map[string]bool
}

// WriteInitramfs writes an uncompressed newc initramfs (the kernel unpacks
// it faster than a compressed one, and it is small) holding the guest
// program as /init and the given modules (in modDir) with their load
// order (none for a kernel with everything built in).
func WriteInitramfs(w io.Writer, guest, modDir string, modules Modules) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	cw := cpio.NewWriter(bw)
	dirs := map[string]bool{}
	dir := func(p string) error {
		var parts []string
		for d := p; d != "." && d != "/" && !dirs[d]; d = path.Dir(d) {
			parts = append(parts, d)
		}
		for i := len(parts) - 1; i >= 0; i-- {
			dirs[parts[i]] = true
			if err := cw.WriteHeader(&cpio.Header{Name: parts[i], Mode: cpio.TypeDir | 0o755}); err != nil {
				return err
			}
		}
		return nil
	}
	file := func(name string, mode cpio.FileMode, data io.Reader, size int64) error {
		if err := dir(path.Dir(name)); err != nil {
			return err
		}
		if err := cw.WriteHeader(&cpio.Header{Name: name, Mode: cpio.TypeReg | mode, Size: size}); err != nil {
			return err
		}
		n, err := io.Copy(cw, data)
		if err == nil && n != size {
			err = fmt.Errorf("%s changed while it was copied", name)
		}
		return err
	}
	copyFile := func(name string, mode cpio.FileMode, src string) error {
		f, err := os.Open(src)
		if err != nil {
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		return file(name, mode, f, st.Size())
	}
	for _, d := range []string{"dev", "proc", "sys", "tmp", "newroot"} {
		if err := dir(d); err != nil {
			return err
		}
	}
	if err := copyFile("init", 0o755, guest); err != nil {
		return err
	}
	var order strings.Builder
	for i, wave := range modules.Waves {
		if i > 0 {
			order.WriteString("-\n")
		}
		for _, m := range wave {
			if !strings.HasSuffix(m, ".ko") {
				return fmt.Errorf("module %s is compressed; the guest loads only plain .ko files", m)
			}
			name := "lib/modules/" + filepath.Base(m)
			if err := copyFile(name, 0o644, filepath.Join(modDir, m)); err != nil {
				return err
			}
			order.WriteString("/" + name)
			if modules.Net[m] {
				order.WriteString(" net")
			}
			order.WriteString("\n")
		}
	}
	// A kernel with everything built in gets no order file: the guest
	// then loads nothing.
	if len(modules.Waves) > 0 {
		if err := file(ModuleOrder, 0o644, strings.NewReader(order.String()), int64(order.Len())); err != nil {
			return err
		}
	}
	if err := cw.Close(); err != nil {
		return err
	}
	return bw.Flush()
}
