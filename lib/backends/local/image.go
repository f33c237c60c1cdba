package local

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/apex/log"
	ispec "github.com/opencontainers/image-spec/specs-go/v1"
	rspec "github.com/opencontainers/runtime-spec/specs-go"
	"github.com/opencontainers/umoci/oci/cas/dir"
	"github.com/opencontainers/umoci/oci/layer"

	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/task"
)

var digestRE = regexp.MustCompile(`^sha256:([0-9a-f]{64})$`)

// imageSystemDirs are the image's top-level directories a machine sees
// read-only; every other top-level entry is copied into the machine's own
// writable root (bubblewrap 0.8 has no overlay mounts).
var imageSystemDirs = map[string]bool{"usr": true, "bin": true, "sbin": true, "lib": true, "lib32": true,
	"lib64": true, "libx32": true, "etc": true, "opt": true, "var": true, "boot": true}

// skipImageDirs are replaced by the sandbox's own mounts.
var skipImageDirs = map[string]bool{"proc": true, "sys": true, "dev": true, ".shellbox": true}

// quietUmoci turns off umoci's per-layer progress logging.
var quietUmoci sync.Once

// unpackedImage is a cached root filesystem and its image config.
type unpackedImage struct {
	rootfs string
	config ispec.ImageConfig
}

// readVerified reads a blob and checks it against its digest.
func readVerified(layout, digest string) ([]byte, error) {
	m := digestRE.FindStringSubmatch(digest)
	if m == nil {
		return nil, fmt.Errorf("digest %q is not sha256:<64 hex digits>", digest)
	}
	data, err := os.ReadFile(filepath.Join(layout, "blobs", "sha256", m[1]))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	if hex.EncodeToString(sum[:]) != m[1] {
		return nil, fmt.Errorf("blob %s does not match its digest", digest)
	}
	return data, nil
}

// unpack verifies the image and returns its cached root filesystem,
// unpacking it on first use (into a temporary directory, then renamed, so
// concurrent creators agree).
func (f *Factory) unpack(ctx context.Context, src machine.PreparedImage) (*unpackedImage, error) {
	invalid := func(err error) error { return &machine.InvalidSpec{Field: "source", Reason: err.Error()} }
	manifestData, err := readVerified(src.Layout, src.ManifestDigest)
	if err != nil {
		return nil, invalid(fmt.Errorf("manifest: %w", err))
	}
	var manifest ispec.Manifest
	if err := json.Unmarshal(manifestData, &manifest); err != nil {
		return nil, invalid(fmt.Errorf("manifest: %w", err))
	}
	configData, err := readVerified(src.Layout, string(manifest.Config.Digest))
	if err != nil {
		return nil, invalid(fmt.Errorf("image config: %w", err))
	}
	var img ispec.Image
	if err := json.Unmarshal(configData, &img); err != nil {
		return nil, invalid(fmt.Errorf("image config: %w", err))
	}
	if img.OS != "linux" || img.Architecture != "amd64" {
		return nil, &machine.UnsupportedSpec{Backend: Name, Field: "source", Reason: "only linux/amd64 images are supported"}
	}
	key := strings.Replace(src.ManifestDigest, ":", "-", 1)
	final := filepath.Join(f.cacheDir, key)
	out := &unpackedImage{rootfs: filepath.Join(final, "rootfs"), config: img.Config}

	f.unpackMu.Lock()
	mu := f.unpacks[key]
	if mu == nil {
		mu = &sync.Mutex{}
		f.unpacks[key] = mu
	}
	f.unpackMu.Unlock()
	mu.Lock()
	defer mu.Unlock()
	if st, err := os.Stat(out.rootfs); err == nil && st.IsDir() {
		return out, nil
	}
	if err := os.MkdirAll(f.cacheDir, 0o755); err != nil {
		return nil, &machine.StartupError{Backend: Name, Err: err}
	}
	tmp, err := os.MkdirTemp(f.cacheDir, ".unpack-")
	if err != nil {
		return nil, &machine.StartupError{Backend: Name, Err: err}
	}
	defer removeTree(tmp)
	engine, err := dir.Open(src.Layout)
	if err != nil {
		return nil, invalid(fmt.Errorf("opening the layout: %w", err))
	}
	defer engine.Close()
	mapOpts := layer.MapOptions{}
	if !f.root {
		mapOpts = layer.MapOptions{Rootless: true,
			UIDMappings: []rspec.LinuxIDMapping{{HostID: uint32(f.uid), ContainerID: 0, Size: 1}},
			GIDMappings: []rspec.LinuxIDMapping{{HostID: uint32(f.gid), ContainerID: 0, Size: 1}}}
	}
	quietUmoci.Do(func() { log.SetLevel(log.WarnLevel) })
	opts := &layer.UnpackOptions{OnDiskFormat: layer.DirRootfs{MapOptions: mapOpts}}
	if err := layer.UnpackRootfs(ctx, engine, filepath.Join(tmp, "rootfs"), manifest, opts); err != nil {
		return nil, &machine.StartupError{Backend: Name, Err: fmt.Errorf("unpacking %s: %w", src.ManifestDigest, err)}
	}
	if err := os.Rename(tmp, final); err != nil {
		if _, serr := os.Stat(out.rootfs); serr != nil {
			return nil, &machine.StartupError{Backend: Name, Err: err}
		}
	}
	return out, nil
}

func (f *Factory) imageLayout(ctx context.Context, src machine.PreparedImage, spec machine.Spec) (*layoutPlan, error) {
	img, err := f.unpack(ctx, src)
	if err != nil {
		return nil, err
	}
	users := userDB{passwd: filepath.Join(img.rootfs, "etc", "passwd"), group: filepath.Join(img.rootfs, "etc", "group")}
	var defUser *ident
	if u := img.config.User; u != "" && u != "root" && u != "0" && u != "0:0" {
		id, err := users.lookup(u)
		if err != nil {
			return nil, &machine.UnsupportedSpec{Backend: Name, Field: "source", Reason: fmt.Sprintf("image user: %v", err)}
		}
		if id.uid != 0 {
			defUser = &id
		}
	}
	var readOnly []string
	entries, err := os.ReadDir(img.rootfs)
	if err != nil {
		return nil, &machine.StartupError{Backend: Name, Err: err}
	}
	for _, e := range entries {
		if imageSystemDirs[e.Name()] {
			readOnly = append(readOnly, "/"+e.Name())
		}
	}
	workdir := spec.Workdir
	if workdir == "" {
		workdir = img.config.WorkingDir
	}
	if workdir == "" {
		workdir = "/"
	}
	workdir = path.Clean(workdir)
	writable := []string{"/var/tmp"}
	if workdir != "/" && underAny(workdir, readOnly) && !underAny(workdir, writable) {
		return nil, &machine.UnsupportedSpec{Backend: Name, Field: "workdir", Reason: fmt.Sprintf("%s is inside a read-only image directory", workdir)}
	}
	mdir, root, lock, err := newMachineDir()
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*layoutPlan, error) {
		removeTree(mdir)
		lock.Close()
		return nil, &machine.StartupError{Backend: Name, Err: err}
	}
	var mounts []string
	var links []string
	mounts = append(mounts, "--bind", root, "/")
	for _, e := range entries {
		name := e.Name()
		full := filepath.Join(img.rootfs, name)
		switch {
		case skipImageDirs[name]:
		case e.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(full)
			if err != nil {
				return fail(err)
			}
			if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
				return fail(err)
			}
			if imageSystemDirs[strings.TrimPrefix(path.Clean("/"+target), "/")] || strings.HasPrefix(path.Clean("/"+target), "/usr/") {
				links = append(links, "/"+name)
			}
		case imageSystemDirs[name] && e.IsDir():
			mounts = append(mounts, "--ro-bind", full, "/"+name)
		default:
			if err := copyTree(full, filepath.Join(root, name)); err != nil {
				return fail(err)
			}
		}
	}
	for _, d := range []string{"tmp"} {
		if err := mkdirMode(filepath.Join(root, d), fs.ModeSticky|0o777); err != nil {
			return fail(err)
		}
	}
	for _, d := range []string{"root", "home", "run"} {
		if _, err := os.Lstat(filepath.Join(root, d)); errors.Is(err, fs.ErrNotExist) {
			if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
				return fail(err)
			}
		}
	}
	if st, err := os.Stat(filepath.Join(img.rootfs, "var", "tmp")); err == nil && st.IsDir() {
		vt := filepath.Join(mdir, "vartmp")
		if err := mkdirMode(vt, fs.ModeSticky|0o777); err != nil {
			return fail(err)
		}
		mounts = append(mounts, "--bind", vt, "/var/tmp")
	}
	if workdir != "/" && !underAny(workdir, writable) {
		if err := os.MkdirAll(filepath.Join(root, workdir), 0o755); err != nil {
			return fail(err)
		}
	}
	mounts = append(mounts, "--dev", "/dev")
	mounts = append(mounts, procAndSys()...)
	mounts = append(mounts, "--perms", "1777", "--tmpfs", "/dev/shm")
	home := "/root"
	if defUser != nil && defUser.home != "" {
		home = defUser.home
	}
	env := map[string]string{"PATH": defaultPath, "HOME": home}
	for _, kv := range img.config.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	if f.opts.HashSeed != nil {
		env["PYTHONHASHSEED"] = *f.opts.HashSeed
	}
	plan := &layoutPlan{dir: mdir, lock: lock, mounts: mounts, readOnly: readOnly, links: links, workdir: workdir,
		baseEnv: env, users: users, defUser: defUser, userns: !f.root}
	plan.image = task.ImageService{Entrypoint: img.config.Entrypoint, Cmd: img.config.Cmd, Cwd: img.config.WorkingDir}
	if !f.root && defUser != nil {
		// Without root the sandbox has one uid, mapped to the caller: make
		// it the image's user.
		plan.sandboxUID, plan.sandboxGID = defUser.uid, defUser.gid
	}
	return plan, nil
}

// copyTree copies a directory tree (files, directories, symbolic links,
// modes and, as root, owners) from the image into a machine's root.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			if err := os.Mkdir(out, 0o700); err != nil {
				return err
			}
		case d.Type()&fs.ModeSymlink != 0:
			t, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(t, out)
		case d.Type().IsRegular():
			in, err := os.Open(p)
			if err != nil {
				return err
			}
			defer in.Close()
			o, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if err != nil {
				return err
			}
			if _, err := io.Copy(o, in); err != nil {
				o.Close()
				return err
			}
			if err := o.Close(); err != nil {
				return err
			}
		default:
			return nil
		}
		if s, ok := statOwner(info); ok && os.Geteuid() == 0 {
			os.Lchown(out, s.uid, s.gid)
		}
		return os.Chmod(out, info.Mode()&(fs.ModePerm|fs.ModeSticky|fs.ModeSetuid|fs.ModeSetgid))
	})
}
