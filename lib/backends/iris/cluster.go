package iris

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"

	"github.com/shellbox/shellbox/lib/machine"
)

// EnvClusterToken names the variable whose value marin-iris sends as the
// bearer token to a cluster named by its config (rigging's
// MARIN_CLUSTER_TOKEN).
const EnvClusterToken = "MARIN_CLUSTER_TOKEN"

// ClusterConfigDirs are the directories marin-iris searches, in order, for
// "<name>.yaml" when given a cluster name: the user's
// ~/.config/marin/clusters, then lib/iris/config of the Marin checkout
// around the working directory (if any).
func ClusterConfigDirs() []string {
	var dirs []string
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".config", "marin", "clusters"))
	}
	if root := marinRoot(); root != "" {
		dirs = append(dirs, filepath.Join(root, "lib", "iris", "config"))
	}
	return dirs
}

// marinRoot is the nearest directory at or above the working directory
// whose pyproject.toml declares a uv workspace, as marin finds its root.
func marinRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		var pp struct {
			Tool struct {
				UV map[string]any `toml:"uv"`
			} `toml:"tool"`
		}
		if _, err := toml.DecodeFile(filepath.Join(dir, "pyproject.toml"), &pp); err == nil {
			if _, ok := pp.Tool.UV["workspace"]; ok {
				return dir
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// clusterConfig is the part of an Iris cluster config (marin-iris's
// IrisClusterConfig YAML) that locates the controller.
type clusterConfig struct {
	Auth struct {
		IAP *struct {
			URL string `yaml:"url"`
		} `yaml:"iap"`
	} `yaml:"auth"`
	Defaults struct {
		Worker struct {
			ControllerAddress string `yaml:"controller_address"`
		} `yaml:"worker"`
	} `yaml:"defaults"`
	Controller struct {
		Manual *struct {
			Host string `yaml:"host"`
			Port int    `yaml:"port"`
		} `yaml:"manual"`
		GCP       *yaml.Node `yaml:"gcp"`
		Local     *yaml.Node `yaml:"local"`
		CoreWeave *yaml.Node `yaml:"coreweave"`
	} `yaml:"controller"`
}

// ResolveCluster finds the config of the cluster name (a config file's
// path, or a name searched for as <name>.yaml or <name>.yml in dirs, the
// first directory first) and returns its controller's URL as marin-iris's
// connect_controller does for a controller reached directly: the
// manual controller's defaults.worker.controller_address ($VARs expanded),
// else its host and port (default 10000). A controller marin-iris reaches
// through an SSH tunnel (gcp), a kubectl port-forward (coreweave), IAP, or
// by starting it in-process (local) is a *machine.UnsupportedSpec of field
// "cluster"; a missing or malformed config, a *machine.InvalidSpec.
func ResolveCluster(name string, dirs []string) (string, error) {
	path, err := findClusterConfig(name, dirs)
	if err != nil {
		return "", err
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", &machine.InvalidSpec{Field: "cluster", Reason: err.Error()}
	}
	var c clusterConfig
	if err := yaml.Unmarshal(raw, &c); err != nil {
		return "", &machine.InvalidSpec{Field: "cluster", Reason: fmt.Sprintf("%s: %v", path, err)}
	}
	unsupported := func(how string) error {
		return &machine.UnsupportedSpec{Backend: Backend, Field: "cluster", Reason: fmt.Sprintf(
			"the controller of cluster %q (%s) is reached %s, which marin-iris does and shellbox does not; "+
				"open it yourself and pass controller_url", name, path, how)}
	}
	ctl := c.Controller
	switch {
	case c.Auth.IAP != nil:
		return "", unsupported("through IAP (auth.iap) with Google-issued tokens")
	case ctl.Local != nil:
		return "", unsupported("by starting a local cluster in the client (controller.local)")
	case ctl.GCP != nil:
		return "", unsupported("through an SSH tunnel (controller.gcp)")
	case ctl.CoreWeave != nil:
		return "", unsupported("through a kubectl port-forward (controller.coreweave)")
	case ctl.Manual == nil:
		return "", &machine.InvalidSpec{Field: "cluster", Reason: fmt.Sprintf("%s names no controller (controller.manual, gcp, local or coreweave)", path)}
	}
	addr := os.Expand(c.Defaults.Worker.ControllerAddress, func(v string) string {
		// As Python's os.path.expandvars: an unset variable stays as written.
		if val, ok := os.LookupEnv(v); ok {
			return val
		}
		return "${" + v + "}"
	})
	if addr == "" {
		if ctl.Manual.Host == "" {
			return "", &machine.InvalidSpec{Field: "cluster", Reason: fmt.Sprintf("%s: controller.manual.host is empty", path)}
		}
		port := ctl.Manual.Port
		if port == 0 {
			port = 10000
		}
		addr = ctl.Manual.Host + ":" + strconv.Itoa(port)
	}
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	return addr, nil
}

// findClusterConfig is rigging's resolve_cluster_config: an existing file
// named by name, else the first <stem>.yaml or .yml in dirs.
func findClusterConfig(name string, dirs []string) (string, error) {
	if name == "" {
		return "", &machine.InvalidSpec{Field: "cluster", Reason: "empty cluster name"}
	}
	candidate := expandHome(name)
	if st, err := os.Stat(candidate); err == nil && st.Mode().IsRegular() {
		return candidate, nil
	}
	stem := name
	if ext := filepath.Ext(name); ext == ".yaml" || ext == ".yml" {
		stem = strings.TrimSuffix(filepath.Base(name), ext)
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(expandHome(dir))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				continue
			}
			return "", &machine.InvalidSpec{Field: "cluster", Reason: err.Error()}
		}
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			names = append(names, e.Name())
		}
		sort.Strings(names)
		for _, n := range names {
			if n == stem+".yaml" || n == stem+".yml" {
				return filepath.Join(expandHome(dir), n), nil
			}
		}
	}
	return "", &machine.InvalidSpec{Field: "cluster", Reason: fmt.Sprintf(
		"no config file for cluster %q in %s", name, strings.Join(dirs, ", "))}
}

func expandHome(p string) string {
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, p[1:])
		}
	}
	return p
}
