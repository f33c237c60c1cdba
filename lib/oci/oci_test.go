package oci

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/docker/docker/client"
)

type fakeSaver struct{ archive []byte }

func (f fakeSaver) ImageSave(context.Context, []string, ...client.ImageSaveOption) (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(f.archive)), nil
}

type entry struct {
	name, link string
	data       []byte
}

func archive(entries ...entry) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		if e.link != "" {
			tw.WriteHeader(&tar.Header{Name: e.name, Typeflag: tar.TypeSymlink, Linkname: e.link})
			continue
		}
		tw.WriteHeader(&tar.Header{Name: e.name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(e.data))})
		tw.Write(e.data)
	}
	tw.Close()
	return buf.Bytes()
}

func layerTar(name, content string) []byte {
	return archive(entry{name: name, data: []byte(content)})
}

// legacyArchive is the docker-archive format: manifest.json, the config,
// one directory per layer; a repeated layer is a symbolic link.
func legacyArchive() []byte { return legacyArchiveWith(2) }

// legacyArchiveWith lists diffIDs layer diff IDs in the config (2 is right).
func legacyArchiveWith(diffIDs int) []byte {
	layer := layerTar("hello.txt", "hello")
	sum := sha256.Sum256(layer)
	var diffs []string
	for range diffIDs {
		diffs = append(diffs, "sha256:"+hex.EncodeToString(sum[:]))
	}
	cfg, _ := json.Marshal(map[string]any{"os": "linux", "architecture": "amd64", "config": map[string]any{"Env": []string{"A=1"}},
		"rootfs": map[string]any{"type": "layers", "diff_ids": diffs}})
	man, _ := json.Marshal([]map[string]any{{"Config": "cfg.json", "Layers": []string{"l1/layer.tar", "l2/layer.tar"}}})
	return archive(entry{name: "manifest.json", data: man}, entry{name: "cfg.json", data: cfg},
		entry{name: "l1/layer.tar", data: layer},
		entry{name: "l2/layer.tar", link: "../l1/layer.tar"})
}

func TestSaveDockerImageConvertsAnArchive(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "layout")
	os.Mkdir(dir, 0o755)
	digest, err := SaveDockerImage(context.Background(), fakeSaver{legacyArchive()}, "img", dir)
	if err != nil {
		t.Fatal(err)
	}
	img, err := Open(dir, digest)
	if err != nil {
		t.Fatal(err)
	}
	if len(img.Manifest.Layers) != 2 || img.Manifest.Layers[0].Digest != img.Manifest.Layers[1].Digest || img.Config.Config.Env[0] != "A=1" {
		t.Fatalf("manifest %+v", img.Manifest)
	}
	rootfs := filepath.Join(t.TempDir(), "rootfs")
	if err := img.Unpack(context.Background(), rootfs); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(rootfs, "hello.txt")); string(b) != "hello" {
		t.Fatalf("unpacked %q", b)
	}
	// The same content gives the same digest (the disk cache's key).
	dir2 := filepath.Join(t.TempDir(), "layout")
	os.Mkdir(dir2, 0o755)
	digest2, err := SaveDockerImage(context.Background(), fakeSaver{legacyArchive()}, "img", dir2)
	if err != nil || digest2 != digest {
		t.Fatalf("digests differ: %s %s %v", digest, digest2, err)
	}
}

func TestSaveDockerImageRefusesEscapes(t *testing.T) {
	for name, a := range map[string][]byte{
		"dotdot name":   archive(entry{name: "../evil", data: []byte("x")}),
		"absolute link": archive(entry{name: "l/layer.tar", link: "/etc/passwd"}),
		"escaping link": archive(entry{name: "l/layer.tar", link: "../../etc/passwd"}),
	} {
		dir := t.TempDir()
		_, err := SaveDockerImage(context.Background(), fakeSaver{a}, "img", dir)
		if err == nil || !strings.Contains(err.Error(), "leaves the archive") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestOpenRefusesTamperedBlobsAndOtherPlatforms(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "layout")
	os.Mkdir(dir, 0o755)
	digest, err := SaveDockerImage(context.Background(), fakeSaver{legacyArchive()}, "img", dir)
	if err != nil {
		t.Fatal(err)
	}
	img, _ := Open(dir, digest)
	cfgPath := filepath.Join(dir, "blobs", "sha256", strings.TrimPrefix(string(img.Manifest.Config.Digest), "sha256:"))
	os.WriteFile(cfgPath, []byte(`{"os":"linux","architecture":"arm64"}`), 0o644)
	if _, err := Open(dir, digest); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("tampered config: %v", err)
	}
	if _, err := Open(dir, "sha256:nothex"); err == nil {
		t.Fatal("a malformed digest must be refused")
	}
}

// A config with fewer diff IDs than layers would make umoci index out of
// range: Open refuses it.
func TestOpenRefusesMismatchedDiffIDs(t *testing.T) {
	dir := t.TempDir()
	_, err := SaveDockerImage(context.Background(), fakeSaver{legacyArchiveWith(1)}, "img", dir)
	if err == nil || !strings.Contains(err.Error(), "diff IDs") {
		t.Fatalf("got %v", err)
	}
}
