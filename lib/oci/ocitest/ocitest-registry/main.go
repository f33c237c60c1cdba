// Command ocitest-registry serves an ocitest registry on loopback to tests
// outside Go (the Python tests of prepare_image), filled with images copied
// from any source lib/oci reads:
//
//	ocitest-registry DIR [SOURCE=REPO:TAG ...]
//
// It prints one JSON line {"host", "cert_dir", "auth_file", "refs": {REPO:TAG:
// full reference}} once the images are pushed, and serves until its stdin
// closes.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/shellbox/shellbox/lib/oci"
	"github.com/shellbox/shellbox/lib/oci/ocitest"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "ocitest-registry:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 1 {
		return fmt.Errorf("usage: ocitest-registry DIR [SOURCE=REPO:TAG ...]")
	}
	dir := args[0]
	r, err := ocitest.Start(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	refs := map[string]string{}
	for i, a := range args[1:] {
		src, repo, ok := strings.Cut(a, "=")
		if !ok {
			return fmt.Errorf("%q is not SOURCE=REPO:TAG", a)
		}
		ref, err := oci.ParseSource(src)
		if err != nil {
			return err
		}
		layout := filepath.Join(dir, fmt.Sprintf("push-%d", i))
		if _, err := oci.Pull(context.Background(), ref, layout, oci.PullOptions{}); err != nil {
			return fmt.Errorf("reading %s: %w", src, err)
		}
		if refs[repo], err = r.UploadLayout(layout, repo); err != nil {
			return fmt.Errorf("pushing %s: %w", repo, err)
		}
	}
	line, _ := json.Marshal(map[string]any{"host": r.Host, "cert_dir": r.CertDir, "auth_file": r.AuthFile, "refs": refs})
	fmt.Println(string(line))
	io.Copy(io.Discard, os.Stdin)
	return nil
}
