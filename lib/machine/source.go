package machine

import (
	"fmt"
	"strings"
)

// Source is an image source: where a machine's software comes from.
type Source interface {
	// Kind is the source's type name, e.g. "HostImage".
	Kind() string
}

// RegistryImage is an OCI registry reference such as ghcr.io/org/image:tag.
type RegistryImage struct {
	Reference string
}

// DockerfileSource is a Dockerfile and its build context.
type DockerfileSource struct {
	Context    string
	Dockerfile string
}

// DockerImage is an image that already exists in the local Docker daemon.
type DockerImage struct {
	Reference string
}

// PreparedImage is one linux/amd64 image resolved to an OCI layout on disk.
type PreparedImage struct {
	Layout         string
	ManifestDigest string
	Origin         Source
}

// HostImage is the host's own programs, read-only.
type HostImage struct {
	ReadOnly []string
	BinDirs  []string
	Mounts   []Mount
}

// Mount is a host file or directory a HostImage machine sees read-only at
// Guest.
type Mount struct {
	Host  string
	Guest string
}

// QemuBundle is a staged microVM runtime directory.
type QemuBundle struct {
	Path           string
	ImageReference string
}

// ShellSimBuiltins is ShellSim's built-in command set and nothing else.
type ShellSimBuiltins struct{}

// PackageSpec asks the backend to provide Python packages and tools.
type PackageSpec struct {
	PyPIPackages []string // nil: no Python at all
	Tools        []string
}

func (RegistryImage) Kind() string    { return "RegistryImage" }
func (DockerfileSource) Kind() string { return "DockerfileSource" }
func (DockerImage) Kind() string      { return "DockerImage" }
func (PreparedImage) Kind() string    { return "PreparedImage" }
func (HostImage) Kind() string        { return "HostImage" }
func (QemuBundle) Kind() string       { return "QemuBundle" }
func (ShellSimBuiltins) Kind() string { return "ShellSimBuiltins" }
func (PackageSpec) Kind() string      { return "PackageSpec" }

// validateSource refuses source fields no backend could use: host paths
// with NUL bytes, references with NUL bytes, malformed digests.
func validateSource(src Source) error {
	var texts []string
	switch v := src.(type) {
	case HostImage:
		texts = append(append(texts, v.ReadOnly...), v.BinDirs...)
	case PreparedImage:
		algorithm, hex, _ := strings.Cut(v.ManifestDigest, ":")
		if algorithm != "sha256" || len(hex) != 64 || strings.Trim(hex, "0123456789abcdef") != "" {
			return &InvalidSpec{Field: "source", Reason: fmt.Sprintf("manifest_digest must be sha256:<64 hex>, got %q", v.ManifestDigest)}
		}
		texts = append(texts, v.Layout)
		if v.Origin != nil {
			if err := validateSource(v.Origin); err != nil {
				return err
			}
		}
	case DockerfileSource:
		texts = append(texts, v.Context, v.Dockerfile)
	case RegistryImage:
		if strings.TrimSpace(v.Reference) == "" || strings.Contains(v.Reference, "://") {
			return &InvalidSpec{Field: "source", Reason: "RegistryImage requires a container image reference without a URL scheme"}
		}
		texts = append(texts, v.Reference)
	case DockerImage:
		texts = append(texts, v.Reference)
	case QemuBundle:
		texts = append(texts, v.Path, v.ImageReference)
	case PackageSpec:
		texts = append(append(texts, v.PyPIPackages...), v.Tools...)
	}
	for _, t := range texts {
		if err := checkText("source", "a source field", t, MaxArgStrlen); err != nil {
			return err
		}
	}
	return nil
}
