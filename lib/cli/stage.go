package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/shellbox/shellbox/lib/backends/qemu"
	"github.com/shellbox/shellbox/lib/machine"
)

const stageSynopsis = `stage [options] IMAGE

Stages IMAGE as a QEMU disk (rootfs.ext4 + image.json) and prints its
directory, a QemuBundle path: in the QEMU image cache, where machines of the
same image find it, or in --output. IMAGE is oci:LAYOUT[:TAG] or
oci:LAYOUT@sha256:DIGEST (an OCI layout), docker://REF (pulled from its
registry), docker:REF or REF (an image of the local Docker daemon).

"shellbox stage --compat" takes marin-shellbox's shellbox-stage flags instead.`

// stage is `shellbox stage`.
func stage(ctx context.Context, args []string, stdio IO) int {
	if len(args) > 0 && args[0] == "--compat" {
		return stageCompat(ctx, args[1:], stdio)
	}
	fs := newFlags("stage", stageSynopsis, stdio)
	size := fs.Int("disk-size-mb", 0, "the disk's size in MiB (default 2048)")
	output := fs.String("output", "", "write the bundle into this directory (absent or empty) instead of the cache")
	cacheDir := fs.String("cache-dir", "", "the QEMU image cache (default ~/.cache/shellbox/qemu)")
	authfile := fs.String("authfile", "", "registry credentials for docker:// images (default: containers/image's lookup, ~/.docker/config.json included)")
	certDir := fs.String("cert-dir", "", "the registry's CA (ca.crt) and client certificates for docker:// images (default /etc/containers/certs.d/HOST:PORT)")
	policy := fs.String("policy", "", "the containers-policy.json docker:// images must satisfy (default: the host's, /etc/containers/policy.json; none: every image is accepted)")
	registriesDir := fs.String("registries.d", "", "the registries.d saying where docker:// images' signatures are (default: containers/image's, /etc/containers/registries.d)")
	// Options may follow IMAGE.
	var positional []string
	for rest := args; ; {
		if code, done := parse(fs, rest, stdio, ExitUsage); done {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		positional = append(positional, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(positional) != 1 {
		fmt.Fprintf(stdio.Stderr, "shellbox stage: expected one IMAGE, got %d\n", len(positional))
		fs.Usage()
		return ExitUsage
	}
	src, err := stageSource(positional[0])
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "shellbox stage: %v\n", err)
		return ExitUsage
	}
	return doStage(ctx, stdio, src, qemu.StageOptions{CacheDir: *cacheDir, DiskSizeMB: *size, Output: *output, AuthFile: *authfile, RegistryCertDir: *certDir,
		Policy: *policy, RegistriesDir: *registriesDir})
}

// stageSource reads IMAGE.
func stageSource(image string) (machine.Source, error) {
	if rest, ok := strings.CutPrefix(image, "oci:"); ok {
		layout, digest, pinned := strings.Cut(rest, "@")
		tag := ""
		if !pinned {
			// A tag follows the last colon of the last path element.
			if i := strings.LastIndex(rest, ":"); i > strings.LastIndex(rest, "/") {
				layout, tag = rest[:i], rest[i+1:]
			}
		}
		return ociSource(layout, tag, digest)
	}
	if ref, ok := strings.CutPrefix(image, "docker://"); ok {
		return machine.RegistryImage{Reference: ref}, nil
	}
	ref := strings.TrimPrefix(image, "docker:")
	if ref == "" {
		return nil, fmt.Errorf("%q names no image", image)
	}
	return machine.DockerImage{Reference: ref}, nil
}

// ociSource is the image of an OCI layout named by digest, else by tag.
func ociSource(layout, tag, digest string) (machine.Source, error) {
	if layout == "" {
		return nil, fmt.Errorf("an OCI image needs a layout directory")
	}
	abs, err := filepath.Abs(layout)
	if err != nil {
		return nil, err
	}
	if digest == "" {
		if digest, err = qemu.ResolveTag(abs, tag); err != nil {
			return nil, err
		}
	}
	return machine.PreparedImage{Layout: abs, ManifestDigest: digest}, nil
}

func doStage(ctx context.Context, stdio IO, src machine.Source, o qemu.StageOptions) int {
	var dir string
	err := step(stdio, "staging", []any{"image", describe(src)}, func() (err error) {
		dir, err = qemu.Stage(ctx, src, o)
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return ExitInterrupted
		}
		fmt.Fprintf(stdio.Stderr, "shellbox stage: %v\n", err)
		return ExitFailure
	}
	fmt.Fprintln(stdio.Stdout, dir)
	return ExitOK
}

func describe(src machine.Source) string {
	switch s := src.(type) {
	case machine.PreparedImage:
		return s.Layout + "@" + s.ManifestDigest
	case machine.DockerImage:
		return s.Reference
	case machine.RegistryImage:
		return "docker://" + s.Reference
	}
	return src.Kind()
}

// stageCompat is marin-shellbox's shellbox-stage command line. A bundle
// here is only the image's disk: QEMU, the kernel and the guest come from
// the host when a machine starts, BusyBox and firmware are not needed and
// umoci is a library, so those flags are accepted and ignored.
func stageCompat(ctx context.Context, args []string, stdio IO) int {
	fs := flag.NewFlagSet("shellbox-stage", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: shellbox-stage --output DIR --oci-layout LAYOUT [--oci-tag TAG] [options]\n\noptions:\n")
		fs.PrintDefaults()
	}
	ignored := []string{"qemu", "kernel", "busybox", "firmware", "libraries", "umoci"}
	for _, name := range ignored {
		fs.String(name, "", "accepted for marin-shellbox compatibility and ignored")
	}
	output := fs.String("output", "", "the bundle directory to write (required)")
	layout := fs.String("oci-layout", "", "the OCI layout of the image (required)")
	tag := fs.String("oci-tag", "", "the image's tag in the layout (default: its only manifest)")
	size := fs.Int("disk-size-mb", 0, "the disk's size in MiB (default 2048)")
	dockerfile := fs.String("task-dockerfile", "", "the task's Dockerfile, whose sha256 image.json records")
	reference := fs.String("image-reference", "", "the image's registry reference, recorded in image.json")
	if code, done := parse(fs, args, stdio, ExitUsage); done {
		return code
	}
	var given []string
	fs.Visit(func(f *flag.Flag) {
		for _, name := range ignored {
			if f.Name == name {
				given = append(given, "--"+name)
			}
		}
	})
	if len(given) > 0 {
		fmt.Fprintf(stdio.Stderr, "shellbox-stage: ignoring %s: the bundle holds only the image's disk; QEMU, the kernel and the guest come from the host\n", strings.Join(given, " "))
	}
	usage := func(msg string) int {
		fmt.Fprintf(stdio.Stderr, "shellbox-stage: %s\n", msg)
		fs.SetOutput(stdio.Stderr)
		fs.Usage()
		return ExitUsage
	}
	switch {
	case fs.NArg() > 0:
		return usage(fmt.Sprintf("unexpected arguments %q", fs.Args()))
	case *output == "":
		return usage("--output is required")
	case *layout == "":
		return usage("--oci-layout is required: a bundle is an image's disk")
	}
	src, err := ociSource(*layout, *tag, "")
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "shellbox-stage: %v\n", err)
		return ExitUsage
	}
	o := qemu.StageOptions{DiskSizeMB: *size, Output: *output, OCITag: *tag, ImageReference: *reference}
	if *dockerfile != "" {
		data, err := os.ReadFile(*dockerfile)
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "shellbox-stage: %v\n", err)
			return ExitUsage
		}
		sum := sha256.Sum256(data)
		o.DockerfileSHA256 = hex.EncodeToString(sum[:])
	}
	return doStage(ctx, stdio, src, o)
}
