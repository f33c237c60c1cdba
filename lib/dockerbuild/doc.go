// Package dockerbuild builds a DockerfileSource through the Docker Engine
// API (no docker CLI): the build context is tarred as the docker CLI sends
// it (.dockerignore or <Dockerfile>.dockerignore applied, the Dockerfile
// and .dockerignore always kept, links never followed), the classic
// builder runs with the daemon's layer cache, and the image id comes from
// the progress stream. The Docker backend runs its machines from the
// result; the QEMU backend exports it into an OCI layout.
package dockerbuild
