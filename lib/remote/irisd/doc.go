// Package irisd is a loopback Iris controller: it serves the parts of
// Iris's ControllerService (Connect RPC, binary proto or JSON) that run
// jobs (LaunchJob, GetJobStatus, GetJobState, ListTasks, GetTaskStatus,
// TerminateJob, ExecInContainer), with one shellbox machine per task.
//
// A task's machine comes from Config.Factory (Config.SandboxFactory for the
// SANDBOX profile, a gVisor factory on a real cluster); the job's egress
// policy becomes the machine's network (NONE: none, INTERNET and CLUSTER:
// the machine's network, this controller having no cluster to hide).
// A task is BUILDING (its job RUNNING, as at the real controller) while its
// machine is made, then RUNNING. The entrypoint runs as the machine's
// command; its end ends the task
// (SUCCEEDED or FAILED) and removes the machine; TerminateJob kills it
// (KILLED), and so does the job's timeout. As at the real controller, whose
// TerminateJob records the kill and leaves stopping the container to the
// worker, TerminateJob returns once the task is KILLED and the machine is
// removed in the background (Machines counts it until then; Close waits
// for it). ExecInContainer runs its argv in
// the task's machine with at most Config.ExecSlots running at once; a call
// beyond them is shed with RESOURCE_EXHAUSTED before anything runs, as the
// real controller's exec pool does.
package irisd
