// Package task runs task groups: several machines (members) that reach each
// other by name over a private network and nothing else, one of them the
// primary that agents drive, the others services started from their
// image's entrypoint or a given command. A group is created, probed for
// readiness and torn down as one; it never outlives any of its members.
//
// A group's members share one network policy: all NetworkDeny (the
// private network only) or all NetworkAllow (also the backend's route out);
// a one-member task takes any policy its factory does.
//
// A backend hosts multi-member groups by implementing Host; every backend
// hosts the one-member case through its plain machine.Factory.
package task
