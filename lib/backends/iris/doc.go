// Package iris is the Iris backend: machines that are single-task jobs on
// an Iris cluster (Marin's job system), driven over Connect RPC with the
// message types generated from Iris's protobuf definitions (irispb).
//
// A machine is a job whose one task idles in the SANDBOX container profile
// (gVisor, no cluster credentials) with the egress policy of the spec's
// network; every command, and every file transfer (base64 in 64 KiB chunks,
// as an exec argument is bounded by Linux's 128 KiB MAX_ARG_STRLEN), is an
// ExecInContainer of a shell wrapper (lib/remote/shwrap). A call the
// controller shed (RESOURCE_EXHAUSTED: it ran nothing) is retried with
// backoff; any other failure is not, since the command may have run. When
// an exec fails and the task is no longer running the machine reports
// machine.ErrTerminated. Commands run as the container's user: Iris offers
// no user switch, and there are no process sessions.
//
// A factory reaches its controller by URL, or by a cluster name resolved as
// marin-iris resolves it (ResolveCluster): the cluster's YAML config names a
// manual controller; controllers marin-iris reaches through tunnels or IAP
// are refused here (the Python factory hands those to marin-iris).
//
// lib/remote/irisd is a controller of ours speaking the same protocol,
// whose tasks are shellbox machines; the tests run this client against it.
package iris
