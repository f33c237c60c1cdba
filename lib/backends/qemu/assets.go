package qemu

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"golang.org/x/sys/unix"

	"github.com/shellbox/shellbox/lib/backends/qemu/boot"
	"github.com/shellbox/shellbox/lib/helpers"
)

// bootAssets are what every machine of a factory boots: the kernel as an
// uncompressed vmlinux and the initramfs with the guest program.
type bootAssets struct {
	vmlinux   string
	initramfs string
	// kernelID and guestID identify the kernel image and guest build.
	kernelID, guestID string
	// cmdlineDevices says the kernel finds virtio-mmio devices on its
	// command line (see machineOptions).
	cmdlineDevices bool
}

// KernelEnv names a kernel with every driver the guest needs built in (as
// .ci/kernel.sh builds it); it takes precedence over the packaged kernel
// and Debian's.
const KernelEnv = "SHELLBOX_QEMU_KERNEL"

// packagedKernel is where a wheel carries the built kernel, relative to
// the directory of its helpers (python/shellbox/_bin).
const packagedKernel = "../_kernel/vmlinux"

// findKernel chooses the kernel when the options name none: $KernelEnv,
// the kernel packaged beside the helpers, then Debian's cloud kernel (whose
// drivers are modules).
func findKernel() (kernelSource, error) {
	if p := os.Getenv(KernelEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return kernelSource{}, fmt.Errorf("%s: %w", KernelEnv, err)
		}
		return kernelSource{image: p, origin: KernelEnv}, nil
	}
	if guest, err := helpers.Path("shellbox-guest"); err == nil {
		p := filepath.Join(filepath.Dir(guest), packagedKernel)
		if _, err := os.Stat(p); err == nil {
			return kernelSource{image: filepath.Clean(p), origin: "packaged with shellbox"}, nil
		}
	}
	k, err := boot.FindKernel()
	if err != nil {
		return kernelSource{}, err
	}
	return kernelSource{image: k.Image, modules: k.Modules, origin: "Debian's linux-image-cloud-amd64"}, nil
}

// describe names the kernel for `shellbox doctor`: its file, where the
// choice came from and how the guest gets its drivers.
func (k kernelSource) describe() string {
	drivers := "drivers built in"
	if k.modules != "" {
		drivers = "modules from " + k.modules
	}
	origin := k.origin
	if origin == "" {
		origin = "the factory's kernel option"
	}
	return fmt.Sprintf("%s (%s; %s)", k.image, origin, drivers)
}

// bootAssets prepares the boot assets once per factory, cached on disk
// under a key of the kernel's and the guest program's contents.
func (f *Factory) bootAssets() (*bootAssets, error) {
	f.assetsOnce.Do(func() { f.assets, f.assetsErr = f.prepareAssets() })
	return f.assets, f.assetsErr
}

func fileID(p string) (string, error) {
	fh, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer fh.Close()
	h := sha256.New()
	if _, err := io.Copy(h, fh); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (f *Factory) prepareAssets() (*bootAssets, error) {
	a := &bootAssets{}
	var err error
	if a.kernelID, err = fileID(f.kernel.image); err != nil {
		return nil, fmt.Errorf("kernel: %w", err)
	}
	if a.guestID, err = fileID(f.guest); err != nil {
		return nil, fmt.Errorf("guest program: %w", err)
	}
	sum := sha256.Sum256([]byte("boot-v4\x00" + a.kernelID + "\x00" + f.kernel.modules + "\x00" + a.guestID))
	dir := filepath.Join(f.cacheDir, "boot", hex.EncodeToString(sum[:16]))
	a.vmlinux = filepath.Join(dir, "vmlinux")
	a.initramfs = filepath.Join(dir, "initramfs.cpio")
	devicesMark := filepath.Join(dir, "cmdline-devices")
	if _, err := os.Stat(a.initramfs); err == nil {
		_, err := os.Stat(devicesMark)
		a.cmdlineDevices = err == nil
		return a, nil
	}
	err = withLock(dir+".lock", func() error {
		if _, err := os.Stat(a.initramfs); err == nil {
			return nil // another process made them meanwhile
		}
		tmp, err := os.MkdirTemp(filepath.Dir(dir), ".boot-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		vmlinux, err := boot.Vmlinux(f.kernel.image)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, "vmlinux"), vmlinux, 0o644); err != nil {
			return err
		}
		if boot.ParsesCmdlineDevices(vmlinux) {
			if err := os.WriteFile(filepath.Join(tmp, filepath.Base(devicesMark)), nil, 0o644); err != nil {
				return err
			}
		}
		var mods boot.Modules
		if f.kernel.modules != "" {
			if mods, err = guestModules(f.kernel.modules); err != nil {
				return err
			}
		}
		out, err := os.Create(filepath.Join(tmp, "initramfs.cpio"))
		if err != nil {
			return err
		}
		if err := boot.WriteInitramfs(out, f.guest, f.kernel.modules, mods); err != nil {
			out.Close()
			return err
		}
		if err := out.Close(); err != nil {
			return err
		}
		return os.Rename(tmp, dir)
	})
	if err != nil {
		return nil, fmt.Errorf("preparing the boot assets: %w", err)
	}
	_, err = os.Stat(devicesMark)
	a.cmdlineDevices = err == nil
	return a, nil
}

// guestModules are the modules the guest loads from the initramfs, in
// waves, the network card's marked.
func guestModules(dir string) (boot.Modules, error) {
	base, err := boot.ModuleClosure(dir, boot.GuestModules)
	if err != nil {
		return boot.Modules{}, err
	}
	all, err := boot.ModuleClosure(dir, append(append([]string(nil), boot.GuestModules...), boot.NetModules...))
	if err != nil {
		return boot.Modules{}, err
	}
	mods := boot.Modules{Net: map[string]bool{}}
	for _, m := range all {
		mods.Net[m] = !slices.Contains(base, m)
	}
	mods.Waves, err = boot.ModuleWaves(dir, all)
	return mods, err
}

// withLock runs fn holding an exclusive flock on lockPath (created, with
// its parent, as needed): concurrent creators in any process stage once.
func withLock(lockPath string, fn func() error) error {
	if err := os.MkdirAll(filepath.Dir(lockPath), 0o755); err != nil {
		return err
	}
	l, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return err
	}
	defer l.Close()
	for {
		err = unix.Flock(int(l.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return err
	}
	defer unix.Flock(int(l.Fd()), unix.LOCK_UN)
	return fn()
}
