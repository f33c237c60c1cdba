// Package docker is the shellbox backend that runs each machine as one
// container of a Docker daemon, driven only through the Docker Engine API.
//
// Every command runs under a small shell wrapper (runScript) that receives
// a per-run nonce and the command on stdin, starts the command under
// setsid in its own process group, reports that group on the first line
// of stdout, and after the command exited prints the nonce with the exit
// status on stdout and stderr. The host therefore knows the group to kill
// on a timeout or a cancellation (then confirms with a root probe that no
// member is alive), and knows when both streams are complete even while
// background processes keep them open.
//
// Because the wrapper takes its command from stdin, it can be started
// before the command is known: the container's main process runs the
// machine's first command (no exec on the create path), and a small pool
// of spare execs (Config.SpareExecs, DefaultSpareExecs) waits for the
// next ones: a Run that takes one starts its replacement at once, so
// back-to-back Runs do not wait for the runtime to spawn a process in the
// container.
//
// The main process's stdin is the owner's lifeline (primaryScript): it
// also kills process groups on request without forking (a fork bomb at the
// container's task limit leaves no task for an exec), and when the owning
// process ends, however it ends, the daemon closes that stdin and the
// container stops. Containers carry their owner's identity (LabelOwner);
// a factory started later on the same host removes those of dead owners.
// Each container's tasks are bounded (Options.PidsLimit, DefaultPidsLimit).
//
// A container that dies under its machine (an OOM kill, a gVisor sandbox
// ended by a fork bomb, a `docker kill` from outside) is noticed by the
// factory's stop watch (stopwatch.go): the daemon's "die" events, and on
// a local daemon the container's init process itself, since a wedged shim
// can go on reporting a dead sandbox as running. Every exec still waiting
// on that container is then cut, and calls fail with MachineTerminated
// instead of waiting for streams the runtime may never end. A removal
// that a dead runtime blocks ends the container's shim as a last resort.
//
// Images: a RegistryImage is pulled only when the daemon lacks it, with the
// credentials of the Docker login configuration ($DOCKER_CONFIG/config.json
// or ~/.docker/config.json, credential helpers included); a
// DockerfileSource sends its context as the docker CLI would, leaving out
// what .dockerignore (or <Dockerfile>.dockerignore) excludes.
//
// The same factory, given the runsc runtime, is the gVisor backend,
// registered as "gvisor" (GvisorConfig); files then move with tar inside
// the sandbox, since the daemon's archive endpoints cannot see a gVisor
// sandbox's writes.
//
// Task groups (task.go): under runc the members share the primary's
// network namespace; under gVisor each member joins a gate of its own and
// the gates are linked by a private hub (grouphub_linux.go).
package docker
