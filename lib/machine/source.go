package machine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Source is an image source: where a machine's software comes from.
type Source interface {
	// Kind is the source's Python class name, e.g. "HostImage".
	Kind() string
}

// RegistryImage is an OCI registry reference such as ghcr.io/org/image:tag.
type RegistryImage struct {
	Reference string `json:"reference"`
}

// DockerfileSource is a Dockerfile and its build context.
type DockerfileSource struct {
	Context    string `json:"context"`
	Dockerfile string `json:"dockerfile"`
}

// DockerImage is an image that already exists in the local Docker daemon.
type DockerImage struct {
	Reference string `json:"reference"`
}

// PreparedImage is one linux/amd64 image resolved to an OCI layout on disk.
type PreparedImage struct {
	Layout         string `json:"layout"`
	ManifestDigest string `json:"manifest_digest"`
	Origin         Source `json:"-"`
}

// HostImage is the host's own programs, read-only.
type HostImage struct {
	ReadOnly []string `json:"read_only"`
	BinDirs  []string `json:"bin_dirs"`
	Mounts   []Mount  `json:"mounts"`
}

// Mount is a host file or directory a HostImage machine sees read-only at
// Guest.
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

// PackageSpec asks the backend to provide Python packages and tools.
type PackageSpec struct {
	PyPIPackages []string `json:"pypi_packages"` // nil: no Python at all
	Tools        []string `json:"tools"`
}

func (RegistryImage) Kind() string    { return "RegistryImage" }
func (DockerfileSource) Kind() string { return "DockerfileSource" }
func (DockerImage) Kind() string      { return "DockerImage" }
func (PreparedImage) Kind() string    { return "PreparedImage" }
func (HostImage) Kind() string        { return "HostImage" }
func (QemuBundle) Kind() string       { return "QemuBundle" }
func (ShellSimBuiltins) Kind() string { return "ShellSimBuiltins" }
func (PackageSpec) Kind() string      { return "PackageSpec" }

// DecodeSource reads the tagged JSON form {"type": "HostImage", ...}.
func DecodeSource(data []byte) (Source, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, &InvalidSpec{Field: "source", Reason: "a machine needs an image source"}
	}
	var tag struct {
		Type   string          `json:"type"`
		Source json.RawMessage `json:"source"`
	}
	if err := json.Unmarshal(data, &tag); err != nil {
		return nil, &InvalidSpec{Field: "source", Reason: err.Error()}
	}
	var src Source
	var err error
	decode := func(v Source) Source {
		err = json.Unmarshal(data, v)
		return v
	}
	switch tag.Type {
	case "RegistryImage":
		v := decode(&RegistryImage{}).(*RegistryImage)
		if err == nil && (strings.TrimSpace(v.Reference) == "" || strings.Contains(v.Reference, "://")) {
			return nil, &InvalidSpec{Field: "source", Reason: "RegistryImage requires a container image reference without a URL scheme"}
		}
		src = *v
	case "DockerfileSource":
		src = *decode(&DockerfileSource{}).(*DockerfileSource)
	case "DockerImage":
		src = *decode(&DockerImage{}).(*DockerImage)
	case "PreparedImage":
		v := *decode(&PreparedImage{}).(*PreparedImage)
		if err == nil && len(tag.Source) > 0 && string(tag.Source) != "null" {
			v.Origin, err = DecodeSource(tag.Source)
		}
		src = v
	case "HostImage":
		src = *decode(&HostImage{}).(*HostImage)
	case "QemuBundle":
		src = *decode(&QemuBundle{}).(*QemuBundle)
	case "ShellSimBuiltins":
		src = ShellSimBuiltins{}
	case "PackageSpec":
		src = *decode(&PackageSpec{}).(*PackageSpec)
	default:
		return nil, &InvalidSpec{Field: "source", Reason: fmt.Sprintf("unknown image source type %q", tag.Type)}
	}
	if err != nil {
		return nil, &InvalidSpec{Field: "source", Reason: err.Error()}
	}
	return src, nil
}

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
