package command

import (
	"errors"
	"io/fs"
)

// Filesystem errors beyond those of io/fs. The VFS wraps them in *fs.PathError.
var (
	ErrIsDir    = errors.New("is a directory")
	ErrNotDir   = errors.New("not a directory")
	ErrNotEmpty = errors.New("directory not empty")
	ErrNoSpace  = errors.New("no space left on device")
	ErrLoop     = errors.New("too many levels of symbolic links")
	ErrReadOnly = errors.New("read-only file system")
	ErrCrossDev = errors.New("invalid cross-device link")
)

// Message is the text a GNU tool prints for err, without the path:
// "No such file or directory", "Is a directory", ...
func Message(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, ErrIsDir):
		return "Is a directory"
	case errors.Is(err, ErrNotDir):
		return "Not a directory"
	case errors.Is(err, ErrNotEmpty):
		return "Directory not empty"
	case errors.Is(err, ErrNoSpace):
		return "No space left on device"
	case errors.Is(err, ErrLoop):
		return "Too many levels of symbolic links"
	case errors.Is(err, ErrReadOnly):
		return "Read-only file system"
	case errors.Is(err, ErrCrossDev):
		return "Invalid cross-device link"
	case errors.Is(err, fs.ErrInvalid):
		return "Invalid argument"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
