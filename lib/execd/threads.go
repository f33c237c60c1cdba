package execd

import (
	"runtime"
	"sync"
)

// ReserveThreads makes the Go runtime start n more OS threads now and keep
// them idle for later. The helper shares its machine's task limit (a pids
// cgroup) with the commands it runs; when a fork bomb has used the whole
// limit, the runtime cannot create a thread, and it treats that as fatal.
// The runtime takes an idle thread before it creates one, so threads made
// while there is room keep the helper alive when there is none.
func ReserveThreads(n int) {
	var locked, exited sync.WaitGroup
	release := make(chan struct{})
	locked.Add(n)
	exited.Add(n)
	for range n {
		go func() {
			defer exited.Done()
			// A goroutine locked to its thread and blocked holds that thread,
			// so the others need threads of their own.
			runtime.LockOSThread()
			locked.Done()
			<-release
			// Unlocked before it ends, the thread goes to the idle pool
			// instead of exiting.
			runtime.UnlockOSThread()
		}()
	}
	locked.Wait()
	close(release)
	exited.Wait()
}
