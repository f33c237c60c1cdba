package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/bridge/wire"
)

// checkedIn is the generated module, from this package's directory.
const checkedIn = "../../../../python/shellbox/_wire.py"

// TestCheckedInModuleIsCurrent fails when lib/bridge/wire changed without
// `go generate ./lib/bridge/wire` (CI runs go test ./...).
func TestCheckedInModuleIsCurrent(t *testing.T) {
	want, err := Generate("..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(checkedIn)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run `go generate ./lib/bridge/wire`", filepath.Clean(checkedIn))
	}
	if !bytes.HasPrefix(got, []byte(Header)) {
		t.Fatal("the generated module lacks its header")
	}
}

// TestModuleImports checks that the generated module is valid Python that
// round-trips a request and a reply (with the python3 on PATH, which must
// be 3.11 or later, as the package needs).
func TestModuleImports(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal(err)
	}
	code, err := Generate("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "wire.py"), code, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `
import sys
assert sys.version_info >= (3, 11), sys.version
import wire
c = wire.Command(argv=("echo", b"\xff"), cwd=None, timeout=1.5)
assert wire._encode_Command(c) == {"argv": ["echo", "\udcff"], "env": {}, "timeout": 1.5}, wire._encode_Command(c)
r = wire.RunReply.from_json({"exit_code": None, "stdout_truncated": True, "stderr_truncated": False, "reason": "timed_out"})
assert r.reason is wire.ExitReason.TIMED_OUT and r.stop_reason is None and r.exit_code is None
s = wire.Spec(source=wire.PreparedImage("/l", "sha256:ab", wire.RegistryImage("busybox")))
assert wire._encode_Spec(s)["source"] == {"type": "PreparedImage", "layout": "/l", "manifest_digest": "sha256:ab",
    "source": {"type": "RegistryImage", "reference": "busybox"}}
assert wire._decode_Source(wire._encode_Source(s.source)) == s.source
assert wire._encode_Route(wire.Route("http://x/*", body=b"hi"))["body"] == "aGk="
assert wire.Route.from_json(wire.Route("p", body=b"hi").to_json()).body == b"hi"
import dataclasses, json
for name, cls in vars(wire).items():
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and name != "Method":
        v = cls()
        assert cls.from_json(json.loads(json.dumps(v.to_json()))) == v, name
print("ok")
`
	cmd := exec.Command(python, "-c", script)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || string(bytes.TrimSpace(out)) != "ok" {
		t.Fatalf("%v: %s", err, out)
	}
}

// TestABIPageListsEveryMethod keeps cgo/ABI.md's method table in step with
// wire.Methods.
func TestABIPageListsEveryMethod(t *testing.T) {
	page, err := os.ReadFile("../../../../cgo/ABI.md")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(string(page), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 {
			continue
		}
		object := strings.TrimSpace(cells[1])
		for _, name := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(cells[2], -1) {
			listed[object+"."+name[1]] = true
		}
	}
	for _, m := range wire.Methods {
		if key := string(m.Object) + "." + m.Name; !listed[key] {
			t.Errorf("cgo/ABI.md does not list %s", key)
		}
	}
}
