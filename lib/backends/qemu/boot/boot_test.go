package boot

import (
	"bytes"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cavaliergopher/cpio"
)

func TestVmlinuxFromTheInstalledCloudKernel(t *testing.T) {
	k, err := FindKernel()
	if err != nil {
		t.Fatalf("these tests need linux-image-cloud-amd64: %v", err)
	}
	v, err := Vmlinux(k.Image)
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(v))
	if err != nil || f.Machine != elf.EM_X86_64 {
		t.Fatalf("not an x86-64 ELF: %v", err)
	}
	// An ELF input is passed through unchanged.
	p := filepath.Join(t.TempDir(), "vmlinux")
	os.WriteFile(p, v, 0o644)
	v2, err := Vmlinux(p)
	if err != nil || !bytes.Equal(v, v2) {
		t.Fatalf("ELF pass-through: %v", err)
	}
}

func TestVmlinuxRefusesWhatIsNotAKernel(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"text":        []byte("hello"),
		"truncated":   append(make([]byte, 0x202), []byte("HdrS")...),
		"elf-no-note": elfWithoutNote(t),
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		if _, err := Vmlinux(p); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// elfWithoutNote is a real ELF file without the PVH note: the test binary.
func elfWithoutNote(t *testing.T) []byte {
	exe, _ := os.Executable()
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestModuleClosureOrdersDependenciesFirst(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "modules.dep"), []byte(strings.Join([]string{
		"kernel/a/virtio_mmio.ko: kernel/v/virtio.ko kernel/v/virtio_ring.ko",
		"kernel/v/virtio.ko: kernel/v/virtio_ring.ko",
		"kernel/v/virtio_ring.ko:",
		"kernel/c/virtio-rng.ko: kernel/v/virtio.ko kernel/v/virtio_ring.ko",
	}, "\n")+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "modules.builtin"), []byte("kernel/fs/ext4/ext4.ko\n"), 0o644)
	got, err := ModuleClosure(dir, []string{"virtio_mmio", "virtio_rng", "ext4"})
	if err != nil {
		t.Fatal(err)
	}
	want := "kernel/v/virtio_ring.ko kernel/v/virtio.ko kernel/a/virtio_mmio.ko kernel/c/virtio-rng.ko"
	if strings.Join(got, " ") != want {
		t.Fatalf("got %v", got)
	}
	if _, err := ModuleClosure(dir, []string{"nonexistent"}); err == nil {
		t.Fatal("an unknown module must be an error")
	}
	waves, err := ModuleWaves(dir, got)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(waves) != "[[kernel/v/virtio_ring.ko] [kernel/v/virtio.ko] [kernel/a/virtio_mmio.ko kernel/c/virtio-rng.ko]]" {
		t.Fatalf("waves %v", waves)
	}
}

func TestInitramfsHoldsInitModulesAndOrder(t *testing.T) {
	dir := t.TempDir()
	guest := filepath.Join(dir, "guest")
	os.WriteFile(guest, []byte("guest program"), 0o755)
	os.MkdirAll(filepath.Join(dir, "mods", "kernel", "v"), 0o755)
	os.WriteFile(filepath.Join(dir, "mods", "kernel", "v", "virtio.ko"), []byte("module"), 0o644)
	var buf bytes.Buffer
	os.WriteFile(filepath.Join(dir, "mods", "kernel", "v", "virtio_net.ko"), []byte("net module"), 0o644)
	mods := Modules{Waves: [][]string{{"kernel/v/virtio.ko"}, {"kernel/v/virtio_net.ko"}}, Net: map[string]bool{"kernel/v/virtio_net.ko": true}}
	if err := WriteInitramfs(&buf, guest, filepath.Join(dir, "mods"), mods); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	r := cpio.NewReader(&buf)
	for {
		h, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(r)
		files[h.Name] = string(data)
		if h.Name == "init" && h.Mode.Perm() != 0o755 {
			t.Errorf("init mode %v", h.Mode)
		}
	}
	if files["init"] != "guest program" || files["lib/modules/virtio.ko"] != "module" ||
		files["lib/modules/virtio_net.ko"] != "net module" ||
		files[ModuleOrder] != "/lib/modules/virtio.ko\n-\n/lib/modules/virtio_net.ko net\n" {
		t.Fatalf("got %v", files)
	}
	if err := WriteInitramfs(io.Discard, guest, dir, Modules{Waves: [][]string{{"x.ko.xz"}}}); err == nil {
		t.Fatal("a compressed module must be refused")
	}
}
