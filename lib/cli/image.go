package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/shellbox/shellbox/lib/machine"
)

const imageHelp = `the machine's image: "host" (the host's programs, local), "builtins" ` +
	`(ShellSim's commands), "docker:REF" (an image in the Docker daemon), "dockerfile:DIR" ` +
	`(DIR/Dockerfile, built), "oci:LAYOUT@sha256:DIGEST" (an OCI layout), "qemu:DIR" (a staged ` +
	`QemuBundle) or a registry reference (pulled; a Docker image for qemu). Default: host for ` +
	`local, builtins for shellsim`

// parseImage turns --image into the source backend takes.
func parseImage(backend, image string) (machine.Source, error) {
	if image == "" {
		switch backend {
		case "local":
			return machine.HostImage{}, nil
		case "shellsim":
			return machine.ShellSimBuiltins{}, nil
		}
		return nil, fmt.Errorf("the %s backend needs --image", backend)
	}
	kind, rest, _ := strings.Cut(image, ":")
	switch {
	case image == "host":
		return machine.HostImage{}, nil
	case image == "builtins":
		return machine.ShellSimBuiltins{}, nil
	case kind == "docker" && rest != "":
		return machine.DockerImage{Reference: rest}, nil
	case kind == "dockerfile" && rest != "":
		return dockerfile(rest)
	case kind == "qemu" && rest != "":
		abs, err := filepath.Abs(rest)
		return machine.QemuBundle{Path: abs}, err
	case kind == "oci" && rest != "":
		layout, digest, ok := strings.Cut(rest, "@")
		if !ok {
			return nil, fmt.Errorf("%q: an OCI image is oci:LAYOUT@sha256:DIGEST", image)
		}
		abs, err := filepath.Abs(layout)
		return machine.PreparedImage{Layout: abs, ManifestDigest: digest}, err
	}
	if backend == "qemu" {
		return machine.DockerImage{Reference: image}, nil
	}
	return machine.RegistryImage{Reference: image}, nil
}

func dockerfile(dir string) (machine.Source, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(abs, "Dockerfile")); err != nil {
		return nil, fmt.Errorf("no Dockerfile in %s: %w", abs, err)
	}
	return machine.DockerfileSource{Context: abs, Dockerfile: "Dockerfile"}, nil
}

// harborTask is the part of a Harbor task.toml that says where the task's
// environment comes from.
type harborTask struct {
	Environment struct {
		DockerImage string `toml:"docker_image"`
		Workdir     string `toml:"workdir"`
	} `toml:"environment"`
}

// taskSource is a Harbor task directory's environment: its task.toml's
// [environment] docker_image when set, else environment/Dockerfile built
// with environment/ as the context. qemu takes the image as a DockerImage.
// workdir is the task's [environment] workdir ("" when it sets none).
func taskSource(backend, dir string) (src machine.Source, workdir string, err error) {
	var t harborTask
	path := filepath.Join(dir, "task.toml")
	if _, err := toml.DecodeFile(path, &t); err != nil {
		return nil, "", fmt.Errorf("reading the Harbor task %s: %w", path, err)
	}
	workdir = t.Environment.Workdir
	if ref := t.Environment.DockerImage; ref != "" {
		if backend == "qemu" {
			return machine.DockerImage{Reference: ref}, workdir, nil
		}
		return machine.RegistryImage{Reference: ref}, workdir, nil
	}
	src, err = dockerfile(filepath.Join(dir, "environment"))
	if err != nil {
		return nil, "", errors.New("the task's task.toml has no [environment] docker_image and " + err.Error())
	}
	return src, workdir, nil
}
