package iris_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/backends/iris"
	"github.com/shellbox/shellbox/lib/machine"
	"github.com/shellbox/shellbox/lib/remote/remotetest"
)

// A config marin-iris's validation accepts needs a worker image besides the
// controller; each case adds its controller and auth.
const workerDefaults = "platform:\n  manual: {}\ndefaults:\n  worker:\n    docker_image: shellbox/worker:1\n"

// clusterCase is a config and what ResolveCluster makes of it: a URL, or
// the refusal naming how marin-iris would reach the controller.
type clusterCase struct {
	name, yaml string
	url        string
	refusal    string // substring of the UnsupportedSpec reason
}

var clusterCases = []clusterCase{
	{name: "hostonly", yaml: workerDefaults + "controller:\n  manual:\n    host: 127.0.0.1\n", url: "http://127.0.0.1:10000"},
	{name: "hostport", yaml: workerDefaults + "controller:\n  manual:\n    host: 127.0.0.1\n    port: 4321\n", url: "http://127.0.0.1:4321"},
	{name: "address", yaml: "platform:\n  manual: {}\ndefaults:\n  worker:\n    docker_image: w:1\n    controller_address: http://${SHELLBOX_TEST_CTL}/\ncontroller:\n  manual:\n    host: ignored\n",
		url: "http://127.0.0.2:7777/"},
	{name: "iap", yaml: workerDefaults + "controller:\n  manual:\n    host: h\nauth:\n  iap:\n    url: https://iris.example\n", refusal: "IAP"},
	{name: "gcp", yaml: "platform:\n  gcp:\n    project_id: p\ndefaults:\n  worker:\n    docker_image: w:1\ncontroller:\n  gcp:\n    zone: z\n    service_account: sa@p.iam.gserviceaccount.com\n", refusal: "SSH tunnel"},
	{name: "coreweave", yaml: "platform:\n  coreweave:\n    region: r\nkubernetes_provider:\n  namespace: iris\n  controller_address: http://svc.iris.svc.cluster.local:10000\n" +
		"defaults:\n  worker:\n    docker_image: w:1\ncontroller:\n  coreweave:\n    port: 10000\n    service_name: svc\n", refusal: "port-forward"},
	{name: "laptop", yaml: "platform:\n  local: {}\ncontroller:\n  local:\n    port: 0\n", refusal: "local cluster"},
}

// writeCases puts each case's config in dir as <name>.yaml.
func writeCases(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range clusterCases {
		if err := os.WriteFile(filepath.Join(dir, c.name+".yaml"), []byte("name: "+c.name+"\n"+c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestResolveCluster(t *testing.T) {
	t.Setenv("SHELLBOX_TEST_CTL", "127.0.0.2:7777")
	first, second := t.TempDir(), t.TempDir()
	writeCases(t, second)
	for _, c := range clusterCases {
		for _, name := range []string{c.name, c.name + ".yaml", filepath.Join(second, c.name+".yaml")} {
			got, err := iris.ResolveCluster(name, []string{first, second})
			var unsupported *machine.UnsupportedSpec
			switch {
			case c.url != "" && (err != nil || got != c.url):
				t.Errorf("%s: got %q, %v; want %q", name, got, err, c.url)
			case c.refusal != "" && (!errors.As(err, &unsupported) || unsupported.Field != "cluster" || !strings.Contains(unsupported.Reason, c.refusal)):
				t.Errorf("%s: got %q, %v; want a refusal naming %q", name, got, err, c.refusal)
			}
		}
	}
	// The first directory wins, and .yml counts.
	if err := os.WriteFile(filepath.Join(first, "hostport.yml"), []byte(workerDefaults+"controller:\n  manual:\n    host: first\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := iris.ResolveCluster("hostport", []string{first, second}); err != nil || got != "http://first:10000" {
		t.Errorf("hostport with an earlier .yml: got %q, %v", got, err)
	}
	var invalid *machine.InvalidSpec
	for _, name := range []string{"nosuch", "", filepath.Join(first, "nosuch.yaml")} {
		if _, err := iris.ResolveCluster(name, []string{first, second}); !errors.As(err, &invalid) || invalid.Field != "cluster" {
			t.Errorf("%q: got %v, want an InvalidSpec of field cluster", name, err)
		}
	}
	if err := os.WriteFile(filepath.Join(first, "broken.yaml"), []byte("controller: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := iris.ResolveCluster("broken", []string{first}); !errors.As(err, &invalid) || invalid.Field != "cluster" {
		t.Errorf("a malformed config: got %v", err)
	}
}

// ClusterConfigDirs are the user's directory, then the Marin checkout's
// (found from the working directory as marin finds its root).
func TestClusterConfigDirs(t *testing.T) {
	home, root := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	if err := os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte("[tool.uv.workspace]\nmembers = [\"lib/*\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "lib", "iris", "src")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	// A member's pyproject (no workspace table) is not the root.
	if err := os.WriteFile(filepath.Join(root, "lib", "iris", "pyproject.toml"), []byte("[project]\nname = \"marin-iris\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	want := []string{filepath.Join(home, ".config", "marin", "clusters"), filepath.Join(root, "lib", "iris", "config")}
	if got := iris.ClusterConfigDirs(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// MarinIrisFullPythonEnv names a Python with marin-iris and all its
// dependencies (its CLI's cluster resolution needs them); without it the
// test makes (once, cached, about 520 MB) such an environment from PyPI.
const MarinIrisFullPythonEnv = "SHELLBOX_MARIN_IRIS_FULL_PYTHON"

// The resolver agrees with marin-iris's own: connect_controller gives the
// same controller address for every config shellbox reaches directly, from
// the same search directories (HOME and a Marin checkout); and marin-iris's
// config parser sees IAP or a tunnelled/local controller in every config
// shellbox refuses.
func TestResolveClusterAgreesWithMarinIris(t *testing.T) {
	py := remotetest.Venv(t, MarinIrisFullPythonEnv, "marin-iris-full-"+remotetest.MarinIrisVersion, remotetest.Python312(t),
		// Marin's releases need prereleases of its own packages; httpx 1.0 prereleases break it.
		[]string{"--pre", "marin-iris==" + remotetest.MarinIrisVersion, "httpx>=0.28.1,<1"})
	home, root := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("SHELLBOX_TEST_CTL", "127.0.0.2:7777")
	if err := os.WriteFile(filepath.Join(root, "pyproject.toml"), []byte("[tool.uv.workspace]\nmembers = []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Half the configs in the user's directory, half in the checkout's.
	writeCases(t, filepath.Join(root, "lib", "iris", "config"))
	for i, c := range clusterCases {
		if i%2 == 0 {
			if err := os.MkdirAll(filepath.Join(home, ".config", "marin", "clusters"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(filepath.Join(root, "lib", "iris", "config", c.name+".yaml"), filepath.Join(home, ".config", "marin", "clusters", c.name+".yaml")); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Chdir(root)
	// One interpreter for every case (importing marin-iris's CLI takes seconds): a line per case.
	const script = `
import sys
from iris.cli.connect import IRIS_CLUSTER_CONFIG_DIRS, connect_controller, iap_config
from iris.cluster.config import load_config
from rigging.config_discovery import resolve_cluster_config
for arg in sys.argv[1:]:
    name, direct = arg.split("=")
    if direct == "1":
        with connect_controller(cluster_name=name) as e:
            print(e.url)
    else:
        config = load_config(resolve_cluster_config(name, dirs=IRIS_CLUSTER_CONFIG_DIRS))
        print("iap" if iap_config(config) is not None else config.controller.controller_kind())
`
	args := []string{"-c", script}
	for _, c := range clusterCases {
		direct := "0"
		if c.url != "" {
			direct = "1"
		}
		args = append(args, c.name+"="+direct)
	}
	out, err := exec.Command(py, args...).Output()
	if err != nil {
		t.Fatalf("marin-iris: %v\n%s", err, exitStderr(err))
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(clusterCases) {
		t.Fatalf("marin-iris printed %q", out)
	}
	for i, c := range clusterCases {
		marin := lines[i]
		ours, err := iris.ResolveCluster(c.name, iris.ClusterConfigDirs())
		if c.url != "" {
			if !strings.Contains(marin, "://") {
				marin = "http://" + marin // a manual controller's host:port, which shellbox takes as http
			}
			if err != nil || ours != marin {
				t.Errorf("%s: ours %q, %v; marin-iris's %q", c.name, ours, err, marin)
			}
			continue
		}
		how := map[string]string{"iap": "IAP", "gcp": "SSH tunnel", "coreweave": "port-forward", "local": "local cluster"}[marin]
		var unsupported *machine.UnsupportedSpec
		if how == "" || !errors.As(err, &unsupported) || !strings.Contains(unsupported.Reason, how) {
			t.Errorf("%s: marin-iris sees %q; ours: %v", c.name, marin, err)
		}
	}
}

func exitStderr(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(ee.Stderr)
	}
	return ""
}
