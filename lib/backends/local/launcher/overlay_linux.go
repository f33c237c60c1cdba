package launcher

import (
	"fmt"
	"strings"

	"golang.org/x/sys/unix"
)

// mountOverlays gives this process (the locked thread that forks
// bubblewrap) a mount namespace of its own and mounts each overlay
// (lower:upper:work:target) there. bubblewrap 0.8 has no --overlay; doing
// it here needs no newer bubblewrap, and the mounts need no cleanup: they
// exist only in this namespace, which ends with the launcher and the
// sandbox (that inherits it), however they end.
func mountOverlays(overlays []string) error {
	if len(overlays) == 0 {
		return nil
	}
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("a mount namespace for the overlays: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making the mounts private: %w", err)
	}
	for _, o := range overlays {
		parts := strings.Split(o, ":")
		if len(parts) != 4 {
			return fmt.Errorf("overlay %q is not lower:upper:work:target", o)
		}
		opts := fmt.Sprintf("lowerdir=%s,upperdir=%s,workdir=%s", parts[0], parts[1], parts[2])
		if err := unix.Mount("overlay", parts[3], "overlay", 0, opts); err != nil {
			return fmt.Errorf("mounting an overlay of %s on %s: %w", parts[0], parts[3], err)
		}
	}
	return nil
}
