// Package boot prepares what a shellbox microVM boots: the kernel as an
// uncompressed ELF vmlinux (QEMU's microvm machine starts it directly
// through its PVH entry point, with no firmware) and an initramfs holding
// the guest agent as /init plus the kernel modules it needs.
package boot

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// Kernel is a Linux kernel and the directory of its modules.
type Kernel struct {
	// Image is a bzImage (vmlinuz) or an ELF vmlinux.
	Image string
	// Modules is /lib/modules/<release>, or "" for a kernel that has
	// everything built in.
	Modules string
}

// kernelGlob finds Debian's cloud kernels (linux-image-cloud-amd64): their
// virtio drivers are modules, ext4 is built in and they have a PVH entry.
const kernelGlob = "/boot/vmlinuz-*-cloud-amd64"

// FindKernel returns the newest installed Debian cloud kernel that has its
// modules directory.
func FindKernel() (Kernel, error) {
	images, _ := filepath.Glob(kernelGlob)
	sort.Slice(images, func(i, j int) bool { return versionLess(images[j], images[i]) })
	for _, img := range images {
		release := strings.TrimPrefix(filepath.Base(img), "vmlinuz-")
		mods := filepath.Join("/lib/modules", release)
		if _, err := os.Stat(filepath.Join(mods, "modules.dep")); err == nil {
			return Kernel{Image: img, Modules: mods}, nil
		}
	}
	return Kernel{}, fmt.Errorf("no Debian cloud kernel with modules found (%s and /lib/modules/<release>): install linux-image-cloud-amd64", kernelGlob)
}

// versionLess orders kernel file names by their dotted numbers.
func versionLess(a, b string) bool {
	na, nb := numbers(a), numbers(b)
	for i := 0; i < len(na) && i < len(nb); i++ {
		if na[i] != nb[i] {
			return na[i] < nb[i]
		}
	}
	return len(na) < len(nb)
}

func numbers(s string) []int {
	var out []int
	cur, in := 0, false
	for _, c := range s {
		if c >= '0' && c <= '9' {
			cur, in = cur*10+int(c-'0'), true
			continue
		}
		if in {
			out = append(out, cur)
		}
		cur, in = 0, false
	}
	if in {
		out = append(out, cur)
	}
	return out
}

// xenPhys32Entry is the ELF note type of the PVH entry point
// (XEN_ELFNOTE_PHYS32_ENTRY); QEMU's -kernel needs it to boot a vmlinux.
const xenPhys32Entry = 18

// Vmlinux returns the kernel as an uncompressed ELF image with a PVH entry:
// an ELF file as is, a bzImage with its compressed payload (gzip, zstd or
// LZ4, located through the boot protocol's setup header) decompressed.
func Vmlinux(image string) ([]byte, error) {
	data, err := os.ReadFile(image)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte(elf.ELFMAG)) {
		if data, err = decompressBzImage(data); err != nil {
			return nil, fmt.Errorf("%s: %w", image, err)
		}
	}
	if err := checkPVH(data); err != nil {
		return nil, fmt.Errorf("%s: %w", image, err)
	}
	return data, nil
}

// decompressBzImage extracts the payload of an x86 bzImage (boot protocol
// 2.08 or newer: payload_offset at 0x248, payload_length at 0x24c, counted
// from the protected-mode code after the setup sectors).
func decompressBzImage(data []byte) ([]byte, error) {
	if len(data) < 0x250 || string(data[0x202:0x206]) != "HdrS" {
		return nil, errors.New("neither an ELF vmlinux nor an x86 bzImage")
	}
	if binary.LittleEndian.Uint16(data[0x206:]) < 0x208 {
		return nil, errors.New("bzImage boot protocol older than 2.08 has no payload offset")
	}
	setupSects := int(data[0x1f1])
	if setupSects == 0 {
		setupSects = 4
	}
	start := (setupSects + 1) * 512
	off := start + int(binary.LittleEndian.Uint32(data[0x248:]))
	n := int(binary.LittleEndian.Uint32(data[0x24c:]))
	if off < 0 || n <= 0 || off+n > len(data) {
		return nil, errors.New("bzImage payload lies outside the file")
	}
	payload := data[off : off+n]
	var r io.Reader
	switch {
	case bytes.HasPrefix(payload, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		zr.Multistream(false)
		r = zr
	case bytes.HasPrefix(payload, []byte{0x28, 0xb5, 0x2f, 0xfd}):
		zr, err := zstd.NewReader(bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		defer zr.Close()
		r = zr
	case bytes.HasPrefix(payload, []byte{0x02, 0x21, 0x4c, 0x18}): // LZ4 legacy frame, as the kernel writes it
		r = lz4.NewReader(bytes.NewReader(payload))
	default:
		return nil, fmt.Errorf("unsupported bzImage compression (payload starts % x)", payload[:min(6, len(payload))])
	}
	out, err := io.ReadAll(r)
	if err != nil && !(len(out) > 0 && bytes.HasPrefix(out, []byte(elf.ELFMAG))) {
		return nil, fmt.Errorf("decompressing the kernel: %w", err)
	}
	if !bytes.HasPrefix(out, []byte(elf.ELFMAG)) {
		return nil, errors.New("the decompressed bzImage payload is not an ELF file")
	}
	return out, nil
}

// checkPVH verifies the ELF image has the PVH entry note.
func checkPVH(data []byte) error {
	f, err := elf.NewFile(bytes.NewReader(data))
	if err != nil {
		return err
	}
	for _, p := range f.Progs {
		if p.Type != elf.PT_NOTE {
			continue
		}
		notes, err := io.ReadAll(p.Open())
		if err != nil {
			continue
		}
		for len(notes) >= 12 {
			nameSz := binary.LittleEndian.Uint32(notes[0:])
			descSz := binary.LittleEndian.Uint32(notes[4:])
			typ := binary.LittleEndian.Uint32(notes[8:])
			name := notes[12:min(len(notes), 12+int(nameSz))]
			if typ == xenPhys32Entry && bytes.HasPrefix(name, []byte("Xen")) {
				return nil
			}
			adv := 12 + align4(int(nameSz)) + align4(int(descSz))
			if adv > len(notes) {
				break
			}
			notes = notes[adv:]
		}
	}
	return errors.New("the kernel has no PVH entry note (CONFIG_PVH): QEMU cannot boot it without firmware")
}

func align4(n int) int { return (n + 3) &^ 3 }

// ModuleClosure lists the module files (paths relative to dir) needed for
// the named modules, dependencies first, from dir's modules.dep; names
// that are built in (modules.builtin) or unknown-but-built-in are skipped.
func ModuleClosure(dir string, names []string) ([]string, error) {
	deps := map[string][]string{} // relative path -> dependency paths
	byName := map[string]string{} // module name -> relative path
	f, err := os.Open(filepath.Join(dir, "modules.dep"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		mod, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		deps[mod] = strings.Fields(rest)
		byName[moduleName(mod)] = mod
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	builtin := map[string]bool{}
	if b, err := os.ReadFile(filepath.Join(dir, "modules.builtin")); err == nil {
		for _, l := range strings.Fields(string(b)) {
			builtin[moduleName(l)] = true
		}
	}
	var order []string
	seen := map[string]bool{}
	var visit func(string)
	visit = func(mod string) {
		if seen[mod] {
			return
		}
		seen[mod] = true
		// modules.dep lists a module's dependencies so that loading them
		// from last to first satisfies each before its users.
		d := deps[mod]
		for i := len(d) - 1; i >= 0; i-- {
			visit(d[i])
		}
		order = append(order, mod)
	}
	for _, n := range names {
		n = strings.ReplaceAll(n, "-", "_")
		if mod, ok := byName[n]; ok {
			visit(mod)
			continue
		}
		if !builtin[n] {
			return nil, fmt.Errorf("kernel module %s is neither in %s/modules.dep nor built in", n, dir)
		}
	}
	return order, nil
}

// ModuleWaves groups modules (ModuleClosure's order, paths relative to
// dir) into load waves: each module depends only on modules of earlier
// waves, so the modules of one wave may load at the same time.
func ModuleWaves(dir string, order []string) ([][]string, error) {
	f, err := os.Open(filepath.Join(dir, "modules.dep"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	deps := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if mod, rest, ok := strings.Cut(sc.Text(), ":"); ok {
			deps[mod] = strings.Fields(rest)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	wave := map[string]int{}
	var waves [][]string
	for _, m := range order { // dependencies come first in order
		w := 0
		for _, d := range deps[m] {
			if dw, ok := wave[d]; ok {
				w = max(w, dw+1)
			}
		}
		wave[m] = w
		for len(waves) <= w {
			waves = append(waves, nil)
		}
		waves[w] = append(waves[w], m)
	}
	return waves, nil
}

// moduleName is a module's name from its path: base name without .ko and
// compression suffixes, with dashes as underscores.
func moduleName(p string) string {
	b := filepath.Base(p)
	if i := strings.Index(b, ".ko"); i >= 0 {
		b = b[:i]
	}
	return strings.ReplaceAll(b, "-", "_")
}

// ParsesCmdlineDevices says whether a vmlinux has the virtio-mmio driver
// built in with its virtio_mmio.device= parameter
// (CONFIG_VIRTIO_MMIO_CMDLINE_DEVICES): the name of a built-in driver's
// parameter is a string of the kernel image. Such a kernel needs no ACPI
// to find microvm's devices: with ACPI off QEMU lists them on the command
// line.
func ParsesCmdlineDevices(vmlinux []byte) bool {
	return bytes.Contains(vmlinux, []byte("virtio_mmio.device\x00"))
}
