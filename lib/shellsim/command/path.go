package command

import "path"

// Join resolves p against dir: absolute p is cleaned, relative p is joined.
func Join(dir, p string) string {
	if p == "" {
		return dir
	}
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}
