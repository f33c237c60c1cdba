//go:build !linux

package docker

import "context"

// Host tasks cannot be found here: the removal waits on the runtime.
func (f *Factory) initPID(context.Context, string) int { return 0 }

func killContainerTasks(string, int) int { return 0 }

func killContainerShim(string) bool { return false }

func taskLimitExhausted(string) bool { return false }

func initIsOf(string, int) bool { return false }

func initAlive(int) bool { return true }
