package machine

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
)

// Constructor builds a factory from its JSON options (a backend's own
// configuration, which the contract does not interpret).
type Constructor func(options json.RawMessage) (Factory, error)

var (
	registryMu sync.RWMutex
	registry   = map[string]Constructor{}
)

// Register makes a backend available by name; backends call it from init.
func Register(name string, c Constructor) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[name]; dup {
		panic("machine: backend registered twice: " + name)
	}
	registry[name] = c
}

// Open builds the named backend's factory.
func Open(name string, options json.RawMessage) (Factory, error) {
	registryMu.RLock()
	c, ok := registry[name]
	registryMu.RUnlock()
	if !ok {
		return nil, &InvalidSpec{Field: "backend", Reason: fmt.Sprintf("unknown backend %q (known: %v)", name, Backends())}
	}
	return c(options)
}

// Backends lists the registered backend names.
func Backends() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
