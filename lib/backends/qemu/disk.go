package qemu

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/oci"
)

// diskFormat names the layout of a staged disk; a change that makes old
// disks unusable bumps it, which changes every cache key. The kernel and
// the guest program are not part of a disk (they boot from the initramfs),
// so they are not in its key.
const diskFormat = "disk-v1"

// imageMeta is a staged disk's image.json: the image's runtime defaults,
// with marin-shellbox's names where they exist.
type imageMeta struct {
	Env            []string            `json:"env"`
	Cwd            string              `json:"cwd"`
	User           string              `json:"user,omitempty"`
	ManifestDigest string              `json:"manifest_digest,omitempty"`
	Users          map[string]userInfo `json:"users,omitempty"`
	// Provenance of a bundle staged by shellbox stage, as marin-shellbox's.
	OCITag           string `json:"oci_tag,omitempty"`
	ImageReference   string `json:"image_reference,omitempty"`
	DockerfileSHA256 string `json:"dockerfile_sha256,omitempty"`
}

// userInfo is an account of the image's /etc/passwd.
type userInfo struct {
	UID  uint32 `json:"uid"`
	GID  uint32 `json:"gid"`
	Home string `json:"home"`
}

// stagedDisk is a root filesystem image ready to boot read-only (every
// machine writes to its own copy-on-write overlay).
type stagedDisk struct {
	path string
	meta imageMeta
}

// diskKey is the content address of a staged disk.
func diskKey(manifestDigest string, sizeMB int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s:%s:%d", diskFormat, manifestDigest, sizeMB)))
	return hex.EncodeToString(sum[:])
}

// stageImage returns the staged disk of a prepared image, building it once
// (one flock per key across processes, staged in a temporary directory and
// renamed into place), and its use lock, held: the disk stays in the cache
// until the lock is closed.
func (f *Factory) stageImage(ctx context.Context, src machine.PreparedImage, sizeMB int) (*stagedDisk, *os.File, error) {
	key := diskKey(src.ManifestDigest, sizeMB)
	disks := filepath.Join(f.cacheDir, "disks")
	final := filepath.Join(disks, key)
	hold, err := useLock(diskUseLock(f.cacheDir, key))
	if err != nil {
		return nil, nil, &machine.StartupError{Backend: Name, Err: err}
	}
	d, err := f.stageLocked(ctx, src, sizeMB, key, final)
	if err != nil {
		hold.Close()
		return nil, nil, err
	}
	return d, hold, nil
}

func (f *Factory) stageLocked(ctx context.Context, src machine.PreparedImage, sizeMB int, key, final string) (*stagedDisk, error) {
	img, err := oci.Open(src.Layout, src.ManifestDigest)
	if errors.Is(err, oci.ErrPlatform) {
		return nil, &machine.UnsupportedSpec{Backend: Name, Field: "source", Reason: err.Error()}
	}
	if err != nil {
		return nil, &machine.InvalidSpec{Field: "source", Reason: err.Error()}
	}
	if d, err := loadDisk(final); err == nil {
		return d, nil
	}
	disks := filepath.Dir(final)
	err = withLock(filepath.Join(disks, "."+key+".lock"), func() error {
		if _, err := loadDisk(final); err == nil {
			return nil
		}
		f.grew.Store(true)
		tmp, err := os.MkdirTemp(disks, ".stage-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		if err := buildDisk(ctx, img, tmp, sizeMB, imageMeta{}); err != nil {
			return err
		}
		return os.Rename(tmp, final)
	})
	if err != nil {
		return nil, &machine.StartupError{Backend: Name, Err: fmt.Errorf("staging %s: %w", src.ManifestDigest, err)}
	}
	return loadDisk(final)
}

// buildDisk unpacks img and writes rootfs.ext4 and image.json into dir;
// extra carries the provenance fields of image.json (the rest is the image's).
func buildDisk(ctx context.Context, img *oci.Image, dir string, sizeMB int, extra imageMeta) error {
	rootfs := filepath.Join(dir, "rootfs")
	if err := img.Unpack(ctx, rootfs); err != nil {
		return err
	}
	meta := extra
	meta.Env, meta.Cwd, meta.User = img.Config.Config.Env, img.Config.Config.WorkingDir, img.Config.Config.User
	meta.ManifestDigest, meta.Users = img.ManifestDigest, readUsers(rootfs)
	if meta.Cwd == "" {
		meta.Cwd = "/"
	}
	if err := makeExt4(ctx, rootfs, filepath.Join(dir, "rootfs.ext4"), sizeMB); err != nil {
		return err
	}
	os.RemoveAll(rootfs)
	data, _ := json.MarshalIndent(meta, "", "  ")
	return os.WriteFile(filepath.Join(dir, "image.json"), append(data, '\n'), 0o644)
}

// loadDisk reads a staged disk or bundle: rootfs.ext4 and image.json.
func loadDisk(dir string) (*stagedDisk, error) {
	d := &stagedDisk{path: filepath.Join(dir, "rootfs.ext4")}
	data, err := os.ReadFile(filepath.Join(dir, "image.json"))
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, &d.meta); err != nil {
		return nil, fmt.Errorf("%s/image.json: %w", dir, err)
	}
	if _, err := os.Stat(d.path); err != nil {
		return nil, err
	}
	if d.meta.Cwd == "" {
		d.meta.Cwd = "/"
	}
	return d, nil
}

// makeExt4 builds an ext4 image of sizeMB (a sparse file) holding the tree
// at root, with e2fsprogs' mkfs.ext4 -d: the reference implementation
// (hard links, devices, modes, owners, extended attributes), present on
// every Debian system, where no maintained Go ext4 writer exists. No
// journal: every machine writes to a throwaway overlay.
func makeExt4(ctx context.Context, root, disk string, sizeMB int) error {
	fh, err := os.Create(disk)
	if err != nil {
		return err
	}
	err = fh.Truncate(int64(sizeMB) << 20)
	fh.Close()
	if err != nil {
		return err
	}
	mkfs, err := exec.LookPath("mkfs.ext4")
	if err != nil {
		for _, p := range []string{"/usr/sbin/mkfs.ext4", "/sbin/mkfs.ext4"} {
			if _, serr := os.Stat(p); serr == nil {
				mkfs, err = p, nil
				break
			}
		}
		if err != nil {
			return fmt.Errorf("mkfs.ext4 (e2fsprogs) not found: %w", err)
		}
	}
	cmd := exec.CommandContext(ctx, mkfs, "-q", "-F", "-O", "^has_journal", "-L", "shellbox",
		"-E", "lazy_itable_init=1", "-d", root, disk)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("mkfs.ext4: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// readUsers reads the accounts of an unpacked image.
func readUsers(rootfs string) map[string]userInfo {
	fh, err := os.Open(filepath.Join(rootfs, "etc", "passwd"))
	if err != nil {
		return nil
	}
	defer fh.Close()
	users := map[string]userInfo{}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		f := strings.Split(sc.Text(), ":")
		if len(f) < 7 {
			continue
		}
		uid, err1 := strconv.ParseUint(f[2], 10, 32)
		gid, err2 := strconv.ParseUint(f[3], 10, 32)
		if err1 != nil || err2 != nil {
			continue
		}
		users[f[0]] = userInfo{UID: uint32(uid), GID: uint32(gid), Home: f[5]}
	}
	return users
}
