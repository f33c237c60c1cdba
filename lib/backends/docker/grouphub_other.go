//go:build !linux

package docker

import "errors"

type groupHub struct{}

func newGroupHub() (*groupHub, error) { return nil, hubSupported() }

func (h *groupHub) attach(id string, pid, member int, ifname, addr string, prefix int) error {
	return hubSupported()
}

func (h *groupHub) close() {}

func hubSupported() error {
	return errors.New("a gVisor task group links its members through network namespaces, which only Linux has")
}
