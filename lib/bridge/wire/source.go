package wire

// Source is an image source: one of the variants below, written as the
// variant's object with "type" naming it ({"type": "HostImage", ...}).
// A nil Value is null (no source).
type Source struct{ Value any }

func (s Source) MarshalJSON() ([]byte, error) { return marshalTagged(s.Value) }

func (s *Source) UnmarshalJSON(data []byte) error {
	v, err := unmarshalTagged(Unions[0], data)
	s.Value = v
	return err
}

// RegistryImage is an OCI registry reference such as ghcr.io/org/image:tag.
type RegistryImage struct {
	Reference string `json:"reference"`
}

// DockerfileSource is a Dockerfile and its build context (host paths).
type DockerfileSource struct {
	Context    string `json:"context"`
	Dockerfile string `json:"dockerfile"`
}

// DockerImage is an image that already exists in the local Docker daemon.
type DockerImage struct {
	Reference string `json:"reference"`
}

// PreparedImage is one linux/amd64 image resolved to an OCI layout on disk,
// pinned by manifest digest; source is where it came from.
type PreparedImage struct {
	Layout         string `json:"layout"`
	ManifestDigest string `json:"manifest_digest"`
	Source         Source `json:"source"`
}

// HostImage is the host's own programs, read-only, plus extra read-only
// directories, mounts (a host path read-only at a guest path) and program
// directories put first on PATH.
type HostImage struct {
	ReadOnly []string `json:"read_only"`
	BinDirs  []string `json:"bin_dirs"`
	Mounts   []Mount  `json:"mounts"`
}

// Mount is a host file or directory seen read-only at guest.
type Mount struct {
	Host  string `json:"host"`
	Guest string `json:"guest"`
}

// QemuBundle is a staged microVM runtime directory.
type QemuBundle struct {
	Path           string `json:"path"`
	ImageReference string `json:"image_reference,omitempty"`
}

// ShellSimBuiltins is ShellSim's built-in command set and nothing else.
type ShellSimBuiltins struct{}

// PackageSpec asks the backend for Python packages and tools
// (pypi_packages null: no Python at all).
type PackageSpec struct {
	PyPIPackages []string `json:"pypi_packages"`
	Tools        []string `json:"tools"`
}
