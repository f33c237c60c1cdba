// Package remotemachine is the plumbing that the machines of the remote
// backends (lib/backends/daytona, lib/backends/iris) share around their
// service calls: a Lifetime, whose operations (Do) end when the machine
// closes, whose close runs once while later callers wait for it, and which
// reports an operation's failure as the caller should see it (Report); the
// Workdir prelude that makes the working directory with the first script;
// and the host side of file transfer: checking a transfer's paths, staging
// an upload at a temporary path (Stage), reading a download's probe
// (ParseProbe) and extracting a downloaded file as hostile input
// (ExtractFile).
package remotemachine
