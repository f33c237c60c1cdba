package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"

	"github.com/shellbox/shellbox/lib/backends/qemu/qemutest"
	"github.com/shellbox/shellbox/lib/oci/ocitest"
	"github.com/shellbox/shellbox/tests/docker/dockertest"
)

// busyboxLayout is qemutest's busybox image (tagged "latest").
func busyboxLayout(t *testing.T) (layout, digest string) {
	t.Helper()
	img, err := qemutest.BusyboxLayout(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return img.Layout, img.ManifestDigest
}

// readBundle checks a bundle's files and returns its image.json.
func readBundle(t *testing.T, dir string, sizeMB int64) map[string]any {
	t.Helper()
	return readBundleFile(t, dir, sizeMB, "/srv/data.txt", "image data\n")
}

// readBundleFile is readBundle checking that the disk holds file with content.
func readBundleFile(t *testing.T, dir string, sizeMB int64, file, content string) map[string]any {
	t.Helper()
	st, err := os.Stat(filepath.Join(dir, "rootfs.ext4"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Size() != sizeMB<<20 {
		t.Fatalf("rootfs.ext4 is %d bytes, want %d MiB", st.Size(), sizeMB)
	}
	// The disk holds the image's files.
	debugfs, err := exec.LookPath("debugfs")
	if err != nil {
		debugfs = "/usr/sbin/debugfs"
	}
	out, err := exec.Command(debugfs, "-R", "cat "+file, filepath.Join(dir, "rootfs.ext4")).Output()
	if err != nil || string(out) != content {
		t.Fatalf("debugfs cat %s: %q, %v", file, out, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "image.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]any
	if err := json.Unmarshal(data, &meta); err != nil {
		t.Fatal(err)
	}
	return meta
}

func TestStageOutputBundle(t *testing.T) {
	layout, digest := busyboxLayout(t)
	out := filepath.Join(t.TempDir(), "bundle")
	// Options after IMAGE are options too.
	code, stdout, stderr := call(t, "", "stage", "oci:"+layout+":latest", "--output", out, "--disk-size-mb", "64")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.TrimSpace(stdout) != out {
		t.Fatalf("stdout %q, want %q", stdout, out)
	}
	meta := readBundle(t, out, 64)
	if meta["manifest_digest"] != digest || meta["cwd"] != "/srv" {
		t.Fatalf("image.json: %v", meta)
	}
	if env, _ := json.Marshal(meta["env"]); !strings.Contains(string(env), "IMAGE_VAR=from-image") {
		t.Fatalf("image.json env: %s", env)
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Fatalf("staging left %d entries beside the bundle", len(entries))
	}
	// A non-empty output is refused, not overwritten.
	if code, _, stderr := call(t, "", "stage", "--output", out, "oci:"+layout); code != ExitFailure || !strings.Contains(stderr, "not empty") {
		t.Fatalf("stage into a full output: exit %d: %s", code, stderr)
	}
}

// TestStageRegistryImage pulls docker://REF from a real registry on
// loopback (TLS with its own CA, basic authentication) into a bundle.
func TestStageRegistryImage(t *testing.T) {
	layout, _ := busyboxLayout(t)
	reg := ocitest.NewRegistry(t)
	ref := reg.PushLayout(t, layout, "shellbox/stage:v1")
	out := filepath.Join(t.TempDir(), "bundle")
	code, _, stderr := call(t, "", "stage", "docker://"+ref, "--authfile", reg.AuthFile, "--cert-dir", reg.CertDir,
		"--cache-dir", t.TempDir(), "--output", out, "--disk-size-mb", "32")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	readBundle(t, out, 32)
	// Without credentials the registry refuses.
	code, _, stderr = call(t, "", "stage", "docker://"+ref, "--authfile", filepath.Join(t.TempDir(), "none.json"), "--cert-dir", reg.CertDir,
		"--cache-dir", t.TempDir(), "--output", filepath.Join(t.TempDir(), "b"))
	if code != ExitFailure || !strings.Contains(stderr, "unauthorized") {
		t.Fatalf("without credentials: exit %d: %s", code, stderr)
	}
}

func TestStageCache(t *testing.T) {
	layout, digest := busyboxLayout(t)
	cache := t.TempDir()
	code, stdout, stderr := call(t, "", "stage", "--cache-dir", cache, "--disk-size-mb", "32", "oci:"+layout+"@"+digest)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	dir := strings.TrimSpace(stdout)
	if filepath.Dir(dir) != filepath.Join(cache, "disks") {
		t.Fatalf("staged into %s, not the cache %s", dir, cache)
	}
	if meta := readBundle(t, dir, 32); meta["manifest_digest"] != digest {
		t.Fatalf("image.json: %v", meta)
	}
	// The same image and size is the same cache entry; the only manifest
	// is found without a tag.
	code, again, stderr := call(t, "", "stage", "--cache-dir", cache, "--disk-size-mb", "32", "oci:"+layout)
	if code != ExitOK || strings.TrimSpace(again) != dir {
		t.Fatalf("second stage: exit %d, %q (want %q): %s", code, again, dir, stderr)
	}
}

func TestStageUsage(t *testing.T) {
	layout, _ := busyboxLayout(t)
	for _, args := range [][]string{
		{"stage"},
		{"stage", "oci:" + layout + ":no-such-tag"},
		{"stage", "oci:" + t.TempDir()},
		{"stage", "a", "b"},
		{"stage", "--compat", "--output", t.TempDir()},
		{"stage", "--compat", "--oci-layout", layout},
	} {
		if code, _, stderr := call(t, "", args...); code != ExitUsage || stderr == "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
}

func TestStageCompat(t *testing.T) {
	layout, digest := busyboxLayout(t)
	dockerfile := filepath.Join(t.TempDir(), "Dockerfile")
	os.WriteFile(dockerfile, []byte("FROM busybox\n"), 0o644)
	out := filepath.Join(t.TempDir(), "bundle")
	code, stdout, stderr := call(t, "", "stage", "--compat",
		"--qemu", "/usr/bin/qemu-system-x86_64", "--kernel", "/boot/vmlinuz", "--busybox", "/bin/busybox",
		"--firmware", "/nonexistent/firmware", "--libraries", "/nonexistent/lib",
		"--output", out, "--oci-layout", layout, "--oci-tag", "latest", "--disk-size-mb", "48",
		"--task-dockerfile", dockerfile, "--image-reference", "example.com/busybox@"+digest)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "ignoring --busybox --firmware --kernel --libraries --qemu") {
		t.Fatalf("no note of the ignored flags: %q", stderr)
	}
	if strings.TrimSpace(stdout) != out {
		t.Fatalf("stdout %q", stdout)
	}
	meta := readBundle(t, out, 48)
	sum := sha256.Sum256([]byte("FROM busybox\n"))
	want := map[string]any{"manifest_digest": digest, "oci_tag": "latest",
		"image_reference": "example.com/busybox@" + digest, "dockerfile_sha256": hex.EncodeToString(sum[:])}
	for k, v := range want {
		if meta[k] != v {
			t.Errorf("image.json %s = %v, want %v", k, meta[k], v)
		}
	}
}

func TestStageDockerImage(t *testing.T) {
	ctx := context.Background()
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	ref := fmt.Sprintf("shellbox-stage-test:%d", os.Getpid())
	if err := dockertest.ImportBusybox(ctx, cli, ref, map[string]string{"etc/stage-marker": "from docker\n"}); err != nil {
		t.Fatal(err)
	}
	defer cli.ImageRemove(ctx, ref, image.RemoveOptions{Force: true})
	out := filepath.Join(t.TempDir(), "bundle")
	code, stdout, stderr := call(t, "", "stage", "--cache-dir", t.TempDir(), "--output", out, "--disk-size-mb", "32", "docker:"+ref)
	if code != ExitOK || strings.TrimSpace(stdout) != out {
		t.Fatalf("exit %d, stdout %q: %s", code, stdout, stderr)
	}
	meta := readBundleFile(t, out, 32, "/etc/stage-marker", "from docker\n")
	if d, _ := meta["manifest_digest"].(string); !strings.HasPrefix(d, "sha256:") {
		t.Fatalf("image.json: %v", meta)
	}
	// An image the daemon lacks is a failure, not a usage error.
	if code, _, stderr := call(t, "", "stage", "--cache-dir", t.TempDir(), ref+"-missing"); code != ExitFailure || !strings.Contains(stderr, "missing") {
		t.Fatalf("missing image: exit %d: %s", code, stderr)
	}
}

// TestStageSignaturePolicy: --policy reaches the pull. The same image
// and cache: admitted under insecureAcceptAnything, then refused under
// reject (the layout cached under the first policy is not reused), with
// a message naming the image and the policy; a policy that does not
// parse is refused as the policy.
func TestStageSignaturePolicy(t *testing.T) {
	layout, _ := busyboxLayout(t)
	reg := ocitest.NewRegistry(t)
	ref := reg.PushLayout(t, layout, "shellbox/policy:v1")
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	accept := write("accept.json", `{"default": [{"type": "insecureAcceptAnything"}]}`)
	reject := write("reject.json", `{"default": [{"type": "insecureAcceptAnything"}], "transports": {"docker": {"`+reg.Host+`/shellbox/policy": [{"type": "reject"}]}}}`)
	broken := write("broken.json", `{"default": [{"type": "trustEverything"}]}`)
	cache := t.TempDir()
	stage := func(policy string) (int, string) {
		code, _, stderr := call(t, "", "stage", "docker://"+ref, "--authfile", reg.AuthFile, "--cert-dir", reg.CertDir,
			"--policy", policy, "--registries.d", t.TempDir(), "--cache-dir", cache, "--output", filepath.Join(t.TempDir(), "bundle"), "--disk-size-mb", "32")
		return code, stderr
	}
	if code, stderr := stage(accept); code != ExitOK {
		t.Fatalf("insecureAcceptAnything: exit %d: %s", code, stderr)
	}
	code, stderr := stage(reject)
	if code != ExitFailure || !strings.Contains(stderr, "docker://"+ref+" is refused by the signature policy "+reject) || !strings.Contains(stderr, "rejected by policy") {
		t.Fatalf("reject: exit %d: %s", code, stderr)
	}
	if code, stderr := stage(broken); code != ExitFailure || !strings.Contains(stderr, "policy") || !strings.Contains(stderr, broken) {
		t.Fatalf("broken policy: exit %d: %s", code, stderr)
	}
}
