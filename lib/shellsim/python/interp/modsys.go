package interp

import (
	"errors"
	"io/fs"
	"math"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

func (in *Interp) fn(d *Dict, name string, f func(a []Value, kw []KW) Value) {
	d.SetStr(name, &Builtin{Name: name, Fn: func(in *Interp, a []Value, kw []KW) Value { return f(a, kw) }})
}

// simpleObject builds an instance of a hidden class with attributes.
func (in *Interp) simpleObject(cls string, attrs map[string]Value, order ...string) *Instance {
	c, ok := in.hiddenTypes[cls]
	if !ok {
		c = in.newBuiltinClass(cls, in.objectClass())
		c.Builtin = ""
		in.hiddenTypes[cls] = c
	}
	inst := &Instance{Cls: c, Dict: NewDict(), id: in.newID()}
	for _, k := range order {
		inst.Dict.SetStr(k, attrs[k])
	}
	for k, v := range attrs {
		if _, ok := inst.Dict.GetStr(k); !ok {
			inst.Dict.SetStr(k, v)
		}
	}
	return inst
}

func (in *Interp) codeObject(f *Function) Value {
	var names []Value
	argc := 0
	for _, p := range f.Def.Params {
		names = append(names, p.Name)
		if p.Kind == 'p' || p.Kind == 'o' {
			argc++
		}
	}
	file := ""
	if f.Globals != nil {
		file = f.Globals.File
	}
	return in.simpleObject("code", map[string]Value{"co_varnames": Tuple(names), "co_argcount": int64(argc),
		"co_name": f.Name, "co_filename": file, "co_firstlineno": int64(f.Def.Line), "co_qualname": f.Qualname})
}

func init() {
	registerNative("sys", func(in *Interp, m *Module) {
		d := m.Dict
		argv := make([]Value, len(in.argv))
		for i, a := range in.argv {
			argv[i] = a
		}
		d.SetStr("argv", &List{V: argv})
		d.SetStr("path", in.path)
		d.SetStr("modules", in.modulesDict())
		d.SetStr("executable", "/usr/bin/python3")
		d.SetStr("platform", "linux")
		d.SetStr("byteorder", "little")
		d.SetStr("maxsize", int64(math.MaxInt64))
		d.SetStr("maxunicode", int64(0x10ffff))
		d.SetStr("version", "3.13.0 (main, Jan  1 2025, 00:00:00) [ShellSim]")
		vi := in.simpleObject("version_info", map[string]Value{"major": int64(3), "minor": int64(13), "micro": int64(0), "releaselevel": "final", "serial": int64(0)})
		d.SetStr("version_info", Tuple{int64(3), int64(13), int64(0), "final", int64(0)})
		_ = vi
		d.SetStr("hexversion", int64(0x030d00f0))
		d.SetStr("implementation", in.simpleObject("implementation", map[string]Value{"name": "cpython", "cache_tag": "cpython-313"}))
		d.SetStr("prefix", "/usr")
		d.SetStr("base_prefix", "/usr")
		d.SetStr("exec_prefix", "/usr")
		d.SetStr("flags", in.simpleObject("flags", map[string]Value{"optimize": int64(0), "verbose": int64(0), "interactive": int64(0), "dont_write_bytecode": int64(1)}))
		d.SetStr("dont_write_bytecode", true)
		d.SetStr("stdout", in.sysStream("stdout"))
		d.SetStr("stderr", in.sysStream("stderr"))
		d.SetStr("stdin", in.sysStream("stdin"))
		d.SetStr("__stdout__", in.sysStream("stdout"))
		d.SetStr("__stderr__", in.sysStream("stderr"))
		d.SetStr("__stdin__", in.sysStream("stdin"))
		d.SetStr("builtin_module_names", Tuple{"builtins", "sys"})
		d.SetStr("float_info", in.simpleObject("float_info", map[string]Value{"max": math.MaxFloat64, "min": 2.2250738585072014e-308, "epsilon": 2.220446049250313e-16, "dig": int64(15)}))
		in.fn(d, "exit", func(a []Value, kw []KW) Value {
			var code Value = None
			if len(a) > 0 {
				code = a[0]
			}
			in.raiseExc(in.newExcWithInit("SystemExit", code, len(a) > 0))
			return nil
		})
		in.fn(d, "getrecursionlimit", func(a []Value, kw []KW) Value { return int64(MaxDepth) })
		in.fn(d, "setrecursionlimit", func(a []Value, kw []KW) Value { in.Partial("sys.setrecursionlimit"); return None })
		in.fn(d, "getsizeof", func(a []Value, kw []KW) Value {
			w := &walker{seen: map[any]struct{}{}, budget: 1 << 40}
			w.value(a[0])
			return w.size
		})
		in.fn(d, "exc_info", func(a []Value, kw []KW) Value {
			if len(in.excStack) == 0 {
				return Tuple{None, None, None}
			}
			e := in.excStack[len(in.excStack)-1]
			return Tuple{e.Cls, e, None}
		})
		in.fn(d, "exception", func(a []Value, kw []KW) Value {
			if len(in.excStack) == 0 {
				return None
			}
			return in.excStack[len(in.excStack)-1]
		})
		in.fn(d, "getdefaultencoding", func(a []Value, kw []KW) Value { return "utf-8" })
		in.fn(d, "getfilesystemencoding", func(a []Value, kw []KW) Value { return "utf-8" })
		in.fn(d, "intern", func(a []Value, kw []KW) Value { return a[0] })
		in.fn(d, "_getframe", func(a []Value, kw []KW) Value {
			depth := 0
			if len(a) > 0 {
				depth = int(in.toInt64(a[0]))
			}
			i := len(in.frames) - 1 - depth
			if i < 0 {
				in.Raise("ValueError", "call stack is not deep enough")
			}
			return in.frameObject(i)
		})
		in.fn(d, "set_int_max_str_digits", func(a []Value, kw []KW) Value { return None })
		in.fn(d, "audit", func(a []Value, kw []KW) Value { return None })
		d.SetStr("warnoptions", &List{})
	})
	registerNative("atexit", func(in *Interp, m *Module) {
		in.fn(m.Dict, "register", func(a []Value, kw []KW) Value {
			fn, args := a[0], a[1:]
			in.exitHooks = append(in.exitHooks, &Builtin{Name: "atexit", Fn: func(in *Interp, _ []Value, _ []KW) Value {
				return in.call(fn, args, kw)
			}})
			return fn
		})
		in.fn(m.Dict, "unregister", func(a []Value, kw []KW) Value { return None })
	})
	registerNative("os", func(in *Interp, m *Module) { in.setupOS(m) })
	registerNative("os.path", func(in *Interp, m *Module) { in.setupOSPath(m) })
	registerNative("posixpath", func(in *Interp, m *Module) { in.setupOSPath(m) })
	registerNative("time", func(in *Interp, m *Module) { in.setupTime(m) })
	registerNative("errno", func(in *Interp, m *Module) {
		for k, v := range map[string]int64{"ENOENT": 2, "EEXIST": 17, "EACCES": 13, "EPERM": 1, "EISDIR": 21, "ENOTDIR": 20,
			"ENOTEMPTY": 39, "EINVAL": 22, "ENOSPC": 28, "EPIPE": 32, "EAGAIN": 11, "EBADF": 9, "EINTR": 4, "ECHILD": 10} {
			m.Dict.SetStr(k, v)
		}
	})
}

func (in *Interp) frameObject(i int) Value {
	f := in.frames[i]
	globals := f.Globals.Dict
	var locals Value
	switch f.Kind {
	case 'm':
		locals = globals
	case 'c':
		locals = f.ClsNS
	default:
		d := NewDict()
		for k, v := range f.Locals {
			d.SetStr(k, v)
		}
		locals = d
	}
	var back Value = None
	if i > 0 {
		back = &Builtin{Name: "f_back", Fn: func(in *Interp, a []Value, kw []KW) Value { return in.frameObject(i - 1) }}
	}
	code := in.simpleObject("code", map[string]Value{"co_name": f.Name, "co_filename": f.Globals.File})
	obj := in.simpleObject("frame", map[string]Value{"f_globals": globals, "f_locals": locals, "f_lineno": int64(f.Line), "f_code": code})
	if i > 0 {
		obj.Dict.SetStr("f_back", in.frameObjectLazy(i-1))
	} else {
		obj.Dict.SetStr("f_back", back)
	}
	return obj
}

func (in *Interp) frameObjectLazy(i int) Value {
	if i < 0 {
		return None
	}
	return in.frameObject(i)
}

func (in *Interp) modulesDict() *Dict {
	d := NewDict()
	names := make([]string, 0, len(in.modules))
	for k := range in.modules {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		d.SetStr(k, in.modules[k])
	}
	return d
}

// ---- os ----

func (in *Interp) environ() *Dict {
	if in.env != nil {
		return in.env
	}
	in.env = NewDict()
	for _, kv := range in.inv.Env.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		in.env.SetStr(k, v)
	}
	return in.env
}

func (in *Interp) statResult(fi command.FileInfo) Value {
	mt := float64(fi.ModTime.UnixNano()) / 1e9
	mode := int64(fi.Mode.Perm())
	switch {
	case fi.Mode.IsDir():
		mode |= 0o040000
	case fi.Mode&fs.ModeSymlink != 0:
		mode |= 0o120000
	case fi.Mode&fs.ModeNamedPipe != 0:
		mode |= 0o010000
	case fi.Mode&fs.ModeCharDevice != 0:
		mode |= 0o020000
	default:
		mode |= 0o100000
	}
	if fi.Mode&fs.ModeSetuid != 0 {
		mode |= 0o4000
	}
	if fi.Mode&fs.ModeSetgid != 0 {
		mode |= 0o2000
	}
	if fi.Mode&fs.ModeSticky != 0 {
		mode |= 0o1000
	}
	return in.simpleObject("os.stat_result", map[string]Value{"st_mode": mode, "st_size": fi.Size, "st_mtime": mt,
		"st_atime": mt, "st_ctime": mt, "st_uid": int64(fi.UID), "st_gid": int64(fi.GID), "st_nlink": int64(fi.Nlink),
		"st_ino": int64(fi.Ino), "st_dev": int64(1), "st_mtime_ns": fi.ModTime.UnixNano()})
}

func (in *Interp) setupOS(m *Module) {
	d := m.Dict
	d.SetStr("name", "posix")
	d.SetStr("sep", "/")
	d.SetStr("pathsep", ":")
	d.SetStr("linesep", "\n")
	d.SetStr("curdir", ".")
	d.SetStr("pardir", "..")
	d.SetStr("extsep", ".")
	d.SetStr("devnull", "/dev/null")
	d.SetStr("environ", in.environ())
	d.SetStr("error", in.builtinClass("OSError"))
	for k, v := range map[string]int64{"O_RDONLY": 0, "O_WRONLY": 1, "O_RDWR": 2, "O_CREAT": 64, "O_TRUNC": 512, "O_APPEND": 1024,
		"F_OK": 0, "R_OK": 4, "W_OK": 2, "X_OK": 1, "SEEK_SET": 0, "SEEK_CUR": 1, "SEEK_END": 2} {
		d.SetStr(k, v)
	}
	p := in.importModule("os.path", nil)
	d.SetStr("path", p)
	fsys := in.inv.FS
	in.fn(d, "getcwd", func(a []Value, kw []KW) Value { return in.cwd })
	in.fn(d, "getcwdb", func(a []Value, kw []KW) Value { return Bytes(in.cwd) })
	in.fn(d, "chdir", func(a []Value, kw []KW) Value {
		pth := in.pathArg(a[0])
		ap := in.abs(pth)
		fi, err := fsys.Stat(ap)
		if err != nil {
			in.osError(err, pth)
		}
		if !fi.IsDir() {
			in.osError(&fs.PathError{Err: command.ErrNotDir}, pth)
		}
		in.cwd = ap
		return None
	})
	getenv := func(a []Value, kw []KW) Value {
		a = in.args("getenv", a, kw, []string{"key", "default"}, 1)
		if v, ok := in.environ().GetStr(in.str(a[0])); ok {
			return v
		}
		if a[1] == nil {
			return None
		}
		return a[1]
	}
	in.fn(d, "getenv", getenv)
	in.fn(d, "putenv", func(a []Value, kw []KW) Value { in.environ().SetStr(in.str(a[0]), in.str(a[1])); return None })
	in.fn(d, "unsetenv", func(a []Value, kw []KW) Value { in.environ().DelStr(in.str(a[0])); return None })
	in.fn(d, "listdir", func(a []Value, kw []KW) Value {
		pth := "."
		if len(a) > 0 && a[0] != None {
			pth = in.pathArg(a[0])
		}
		ents, err := fsys.ReadDir(in.abs(pth))
		if err != nil {
			in.osError(err, pth)
		}
		out := make([]Value, len(ents))
		for i, e := range ents {
			out[i] = e.Name
		}
		in.charge(int64(len(ents)))
		return &List{V: out}
	})
	in.fn(d, "scandir", func(a []Value, kw []KW) Value {
		pth := "."
		if len(a) > 0 && a[0] != None {
			pth = in.pathArg(a[0])
		}
		ents, err := fsys.ReadDir(in.abs(pth))
		if err != nil {
			in.osError(err, pth)
		}
		out := make([]Value, len(ents))
		for i, e := range ents {
			e := e
			full := command.Join(pth, e.Name)
			if pth == "." {
				full = "./" + e.Name
			}
			isDir := e.IsDir()
			isLink := e.Mode&fs.ModeSymlink != 0
			if isLink {
				if fi, err := fsys.Stat(in.abs(full)); err == nil {
					isDir = fi.IsDir()
				}
			}
			out[i] = in.simpleObject("posix.DirEntry", map[string]Value{
				"name": e.Name, "path": full,
				"is_dir":     &Builtin{Name: "is_dir", Fn: func(in *Interp, a []Value, kw []KW) Value { return isDir }},
				"is_file":    &Builtin{Name: "is_file", Fn: func(in *Interp, a []Value, kw []KW) Value { return !isDir && e.Mode.IsRegular() || (isLink && !isDir) }},
				"is_symlink": &Builtin{Name: "is_symlink", Fn: func(in *Interp, a []Value, kw []KW) Value { return isLink }},
				"stat":       &Builtin{Name: "stat", Fn: func(in *Interp, a []Value, kw []KW) Value { return in.statResult(e) }},
			})
		}
		l := &List{V: out}
		it := in.iter(l)
		return in.simpleObject("ScandirIterator", map[string]Value{
			"__iter__":  &Builtin{Name: "__iter__", Fn: func(in *Interp, a []Value, kw []KW) Value { return it }},
			"__enter__": &Builtin{Name: "__enter__", Fn: func(in *Interp, a []Value, kw []KW) Value { return it }},
			"__exit__":  &Builtin{Name: "__exit__", Fn: func(in *Interp, a []Value, kw []KW) Value { return None }},
			"close":     &Builtin{Name: "close", Fn: func(in *Interp, a []Value, kw []KW) Value { return None }},
		})
	})
	in.fn(d, "mkdir", func(a []Value, kw []KW) Value {
		pth := in.pathArg(a[0])
		if err := fsys.Mkdir(in.abs(pth), 0o755); err != nil {
			in.osError(err, pth)
		}
		return None
	})
	in.fn(d, "makedirs", func(a []Value, kw []KW) Value {
		a = in.args("makedirs", a, kw, []string{"name", "mode", "exist_ok"}, 1)
		pth := in.pathArg(a[0])
		ap := in.abs(pth)
		if fi, err := fsys.Stat(ap); err == nil {
			if a[2] != nil && in.truthy(a[2]) && fi.IsDir() {
				return None
			}
			in.osError(&fs.PathError{Err: fs.ErrExist}, pth)
		}
		if err := fsys.MkdirAll(ap, 0o755); err != nil {
			in.osError(err, pth)
		}
		return None
	})
	rm := func(a []Value, kw []KW) Value {
		pth := in.pathArg(a[0])
		ap := in.abs(pth)
		if fi, err := fsys.Lstat(ap); err == nil && fi.IsDir() {
			in.osError(&fs.PathError{Err: command.ErrIsDir}, pth)
		}
		if err := fsys.Remove(ap); err != nil {
			in.osError(err, pth)
		}
		return None
	}
	in.fn(d, "remove", rm)
	in.fn(d, "unlink", rm)
	in.fn(d, "rmdir", func(a []Value, kw []KW) Value {
		pth := in.pathArg(a[0])
		ap := in.abs(pth)
		if fi, err := fsys.Lstat(ap); err == nil && !fi.IsDir() {
			in.osError(&fs.PathError{Err: command.ErrNotDir}, pth)
		}
		if err := fsys.Remove(ap); err != nil {
			in.osError(err, pth)
		}
		return None
	})
	in.fn(d, "removedirs", func(a []Value, kw []KW) Value {
		pth := in.pathArg(a[0])
		if err := fsys.Remove(in.abs(pth)); err != nil {
			in.osError(err, pth)
		}
		return None
	})
	ren := func(a []Value, kw []KW) Value {
		src, dst := in.pathArg(a[0]), in.pathArg(a[1])
		if err := fsys.Rename(in.abs(src), in.abs(dst)); err != nil {
			in.osError(err, src)
		}
		return None
	}
	in.fn(d, "rename", ren)
	in.fn(d, "replace", ren)
	in.fn(d, "stat", func(a []Value, kw []KW) Value {
		pth := in.pathArg(a[0])
		fi, err := fsys.Stat(in.abs(pth))
		if err != nil {
			in.osError(err, pth)
		}
		return in.statResult(fi)
	})
	in.fn(d, "lstat", func(a []Value, kw []KW) Value {
		pth := in.pathArg(a[0])
		fi, err := fsys.Lstat(in.abs(pth))
		if err != nil {
			in.osError(err, pth)
		}
		return in.statResult(fi)
	})
	in.fn(d, "chmod", func(a []Value, kw []KW) Value {
		pth := in.pathArg(a[0])
		if err := fsys.Chmod(in.abs(pth), fs.FileMode(in.toInt64(a[1])&0o7777)); err != nil {
			in.osError(err, pth)
		}
		return None
	})
	in.fn(d, "utime", func(a []Value, kw []KW) Value {
		pth := in.pathArg(a[0])
		t := in.sys.Now()
		if len(a) > 1 && a[1] != None {
			tt := in.iterToSlice(a[1])
			f, _ := in.toFloat(tt[1])
			t = time.Unix(0, int64(f*1e9)).UTC()
		}
		if err := fsys.Chtimes(in.abs(pth), t); err != nil {
			in.osError(err, pth)
		}
		return None
	})
	in.fn(d, "symlink", func(a []Value, kw []KW) Value {
		if err := fsys.Symlink(in.pathArg(a[0]), in.abs(in.pathArg(a[1]))); err != nil {
			in.osError(err, in.pathArg(a[1]))
		}
		return None
	})
	in.fn(d, "readlink", func(a []Value, kw []KW) Value {
		t, err := fsys.Readlink(in.abs(in.pathArg(a[0])))
		if err != nil {
			in.osError(err, in.pathArg(a[0]))
		}
		return t
	})
	in.fn(d, "access", func(a []Value, kw []KW) Value {
		fi, err := fsys.Stat(in.abs(in.pathArg(a[0])))
		if err != nil {
			return false
		}
		mode := in.toInt64(a[1])
		if mode&1 != 0 && fi.Mode.Perm()&0o111 == 0 && !fi.IsDir() {
			return false
		}
		return true
	})
	in.fn(d, "walk", func(a []Value, kw []KW) Value {
		a = in.args("walk", a, kw, []string{"top", "topdown", "onerror", "followlinks"}, 1)
		top := in.pathArg(a[0])
		topdown := a[1] == nil || in.truthy(a[1])
		var out []Value
		var walk func(dir string, depth int)
		walk = func(dir string, depth int) {
			if depth > 256 {
				return
			}
			ents, err := fsys.ReadDir(in.abs(dir))
			if err != nil {
				return
			}
			in.charge(int64(len(ents)) + 1)
			var dirs, files []Value
			for _, e := range ents {
				isDir := e.IsDir()
				if e.Mode&fs.ModeSymlink != 0 {
					if fi, err := fsys.Stat(in.abs(command.Join(dir, e.Name))); err == nil && fi.IsDir() {
						isDir = true
					}
				}
				if isDir {
					dirs = append(dirs, e.Name)
				} else {
					files = append(files, e.Name)
				}
			}
			dl := &List{V: dirs}
			if dl.V == nil {
				dl.V = []Value{}
			}
			entry := Tuple{dir, dl, &List{V: orEmpty(files)}}
			if topdown {
				out = append(out, entry)
			}
			for _, sd := range dl.V {
				child := dir + "/" + sd.(string)
				if strings.HasSuffix(dir, "/") {
					child = dir + sd.(string)
				}
				if fi, err := fsys.Lstat(in.abs(child)); err == nil && fi.Mode&fs.ModeSymlink != 0 {
					continue
				}
				walk(child, depth+1)
			}
			if !topdown {
				out = append(out, entry)
			}
		}
		walk(top, 0)
		return &Iterator{Name: "generator", Next: func() (Value, bool) {
			if len(out) == 0 {
				return nil, false
			}
			v := out[0]
			out = out[1:]
			return v, true
		}}
	})
	in.fn(d, "getpid", func(a []Value, kw []KW) Value { return int64(in.sys.PID()) })
	in.fn(d, "getppid", func(a []Value, kw []KW) Value { return int64(in.sys.PPID()) })
	in.fn(d, "getuid", func(a []Value, kw []KW) Value { return int64(in.sys.Users().UID()) })
	in.fn(d, "geteuid", func(a []Value, kw []KW) Value { return int64(in.sys.Users().UID()) })
	in.fn(d, "getgid", func(a []Value, kw []KW) Value { return int64(in.sys.Users().GID()) })
	in.fn(d, "getlogin", func(a []Value, kw []KW) Value {
		n, _ := in.sys.Users().UserName(in.sys.Users().UID())
		return n
	})
	in.fn(d, "cpu_count", func(a []Value, kw []KW) Value { return int64(1) })
	in.fn(d, "urandom", func(a []Value, kw []KW) Value {
		n := in.toInt64(a[0])
		b := make([]byte, n)
		r := in.rng()
		for i := range b {
			b[i] = byte(r.next() >> 24)
		}
		return Bytes(b)
	})
	in.fn(d, "fspath", func(a []Value, kw []KW) Value { return in.pathArg(a[0]) })
	in.fn(d, "get_terminal_size", func(a []Value, kw []KW) Value {
		return in.simpleObject("terminal_size", map[string]Value{"columns": int64(80), "lines": int64(24)})
	})
	in.fn(d, "system", func(a []Value, kw []KW) Value {
		st, _ := in.sys.Exec(command.ExecRequest{Args: []string{"sh", "-c", in.str(a[0])}, Dir: in.cwd, Env: in.envList(),
			Stdout: in.streamWriter("stdout"), Stderr: in.streamWriter("stderr")})
		return int64(st << 8)
	})
	in.fn(d, "kill", func(a []Value, kw []KW) Value {
		in.Unsupported("os.kill")
		in.Raise("PermissionError", "[Errno 1] Operation not permitted")
		return nil
	})
	in.fn(d, "_exit", func(a []Value, kw []KW) Value { panic(exitError{code: int(in.toInt64(a[0]))}) })
	in.fn(d, "fsencode", func(a []Value, kw []KW) Value { return Bytes(in.pathArg(a[0])) })
	in.fn(d, "fsdecode", func(a []Value, kw []KW) Value { return in.pathArg(a[0]) })
	in.fn(d, "isatty", func(a []Value, kw []KW) Value { return false })
	in.fn(d, "umask", func(a []Value, kw []KW) Value { return int64(0o022) })
	in.fn(d, "uname", func(a []Value, kw []KW) Value {
		return in.simpleObject("posix.uname_result", map[string]Value{"sysname": "Linux", "nodename": in.sys.Hostname(), "release": "6.1.0", "version": "#1 SMP", "machine": "x86_64"})
	})
}

func orEmpty(v []Value) []Value {
	if v == nil {
		return []Value{}
	}
	return v
}

func (in *Interp) envList() []string {
	var out []string
	for _, kv := range in.environ().Items() {
		out = append(out, in.str(kv[0])+"="+in.str(kv[1]))
	}
	return out
}

func (in *Interp) setupOSPath(m *Module) {
	d := m.Dict
	fsys := in.inv.FS
	d.SetStr("sep", "/")
	in.fn(d, "join", func(a []Value, kw []KW) Value {
		if len(a) == 0 {
			in.Raise("TypeError", "join() missing 1 required positional argument: 'a'")
		}
		res := in.pathArg(a[0])
		for _, x := range a[1:] {
			p := in.pathArg(x)
			if strings.HasPrefix(p, "/") {
				res = p
			} else if res == "" || strings.HasSuffix(res, "/") {
				res += p
			} else {
				res += "/" + p
			}
		}
		return res
	})
	exists := func(follow bool, pred func(command.FileInfo) bool) func(a []Value, kw []KW) Value {
		return func(a []Value, kw []KW) Value {
			var pth string
			if err := in.catch(func() { pth = in.pathArg(a[0]) }); err != nil {
				return false
			}
			if pth == "" {
				return false
			}
			var fi command.FileInfo
			var err error
			if follow {
				fi, err = fsys.Stat(in.abs(pth))
			} else {
				fi, err = fsys.Lstat(in.abs(pth))
			}
			return err == nil && pred(fi)
		}
	}
	in.fn(d, "exists", exists(true, func(command.FileInfo) bool { return true }))
	in.fn(d, "lexists", exists(false, func(command.FileInfo) bool { return true }))
	in.fn(d, "isfile", exists(true, func(fi command.FileInfo) bool { return fi.Mode.IsRegular() }))
	in.fn(d, "isdir", exists(true, func(fi command.FileInfo) bool { return fi.IsDir() }))
	in.fn(d, "islink", exists(false, func(fi command.FileInfo) bool { return fi.Mode&fs.ModeSymlink != 0 }))
	in.fn(d, "ismount", func(a []Value, kw []KW) Value { return in.pathArg(a[0]) == "/" })
	in.fn(d, "isabs", func(a []Value, kw []KW) Value { return strings.HasPrefix(in.pathArg(a[0]), "/") })
	in.fn(d, "basename", func(a []Value, kw []KW) Value {
		p := in.pathArg(a[0])
		return p[strings.LastIndexByte(p, '/')+1:]
	})
	in.fn(d, "dirname", func(a []Value, kw []KW) Value {
		p := in.pathArg(a[0])
		i := strings.LastIndexByte(p, '/') + 1
		head := p[:i]
		if head != "" && strings.Trim(head, "/") != "" {
			head = strings.TrimRight(head, "/")
		}
		return head
	})
	in.fn(d, "split", func(a []Value, kw []KW) Value {
		p := in.pathArg(a[0])
		i := strings.LastIndexByte(p, '/') + 1
		head, tail := p[:i], p[i:]
		if head != "" && strings.Trim(head, "/") != "" {
			head = strings.TrimRight(head, "/")
		}
		return Tuple{head, tail}
	})
	in.fn(d, "splitext", func(a []Value, kw []KW) Value {
		p := in.pathArg(a[0])
		base := p[strings.LastIndexByte(p, '/')+1:]
		i := strings.LastIndexByte(base, '.')
		if i <= 0 || strings.Trim(base[:i], ".") == "" {
			return Tuple{p, ""}
		}
		cut := len(p) - len(base) + i
		return Tuple{p[:cut], p[cut:]}
	})
	norm := func(p string) string {
		if p == "" {
			return "."
		}
		lead := ""
		if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") {
			lead = "/"
		}
		c := path.Clean(p)
		return lead + c
	}
	in.fn(d, "normpath", func(a []Value, kw []KW) Value { return norm(in.pathArg(a[0])) })
	in.fn(d, "abspath", func(a []Value, kw []KW) Value { return in.abs(in.pathArg(a[0])) })
	in.fn(d, "realpath", func(a []Value, kw []KW) Value {
		ap := in.abs(in.pathArg(a[0]))
		if r, err := fsys.Realpath(ap); err == nil {
			return r
		}
		return ap
	})
	in.fn(d, "relpath", func(a []Value, kw []KW) Value {
		target := in.abs(in.pathArg(a[0]))
		start := in.cwd
		if len(a) > 1 && a[1] != None {
			start = in.abs(in.pathArg(a[1]))
		}
		return relPath(start, target)
	})
	in.fn(d, "expanduser", func(a []Value, kw []KW) Value {
		p := in.pathArg(a[0])
		if p == "~" || strings.HasPrefix(p, "~/") {
			home, ok := in.environ().GetStr("HOME")
			if !ok {
				home = "/root"
			}
			return in.str(home) + p[1:]
		}
		return p
	})
	in.fn(d, "expandvars", func(a []Value, kw []KW) Value {
		p := in.pathArg(a[0])
		return expandVars(p, func(k string) (string, bool) {
			v, ok := in.environ().GetStr(k)
			if !ok {
				return "", false
			}
			return in.str(v), true
		})
	})
	size := func(field string) func(a []Value, kw []KW) Value {
		return func(a []Value, kw []KW) Value {
			pth := in.pathArg(a[0])
			fi, err := fsys.Stat(in.abs(pth))
			if err != nil {
				in.osError(err, pth)
			}
			if field == "size" {
				return fi.Size
			}
			return float64(fi.ModTime.UnixNano()) / 1e9
		}
	}
	in.fn(d, "getsize", size("size"))
	in.fn(d, "getmtime", size("mtime"))
	in.fn(d, "getctime", size("mtime"))
	in.fn(d, "getatime", size("mtime"))
	in.fn(d, "commonprefix", func(a []Value, kw []KW) Value {
		items := in.iterToSlice(a[0])
		if len(items) == 0 {
			return ""
		}
		pre := in.pathArg(items[0])
		for _, x := range items[1:] {
			s := in.pathArg(x)
			for !strings.HasPrefix(s, pre) {
				pre = pre[:len(pre)-1]
			}
		}
		return pre
	})
	in.fn(d, "commonpath", func(a []Value, kw []KW) Value {
		items := in.iterToSlice(a[0])
		if len(items) == 0 {
			in.Raise("ValueError", "commonpath() arg is an empty sequence")
		}
		parts := strings.Split(path.Clean(in.pathArg(items[0])), "/")
		for _, x := range items[1:] {
			o := strings.Split(path.Clean(in.pathArg(x)), "/")
			n := 0
			for n < len(parts) && n < len(o) && parts[n] == o[n] {
				n++
			}
			parts = parts[:n]
		}
		r := strings.Join(parts, "/")
		if r == "" && strings.HasPrefix(in.pathArg(items[0]), "/") {
			return "/"
		}
		return r
	})
	in.fn(d, "samefile", func(a []Value, kw []KW) Value {
		x, _ := fsys.Realpath(in.abs(in.pathArg(a[0])))
		y, _ := fsys.Realpath(in.abs(in.pathArg(a[1])))
		return x == y
	})
}

func relPath(start, target string) string {
	s := strings.Split(strings.Trim(start, "/"), "/")
	t := strings.Split(strings.Trim(target, "/"), "/")
	if len(s) == 1 && s[0] == "" {
		s = nil
	}
	if len(t) == 1 && t[0] == "" {
		t = nil
	}
	n := 0
	for n < len(s) && n < len(t) && s[n] == t[n] {
		n++
	}
	var parts []string
	for i := n; i < len(s); i++ {
		parts = append(parts, "..")
	}
	parts = append(parts, t[n:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

func expandVars(s string, get func(string) (string, bool)) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		j := i + 1
		brace := s[j] == '{'
		if brace {
			j++
		}
		k := j
		for k < len(s) && (s[k] == '_' || s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z' || s[k] >= '0' && s[k] <= '9') {
			k++
		}
		name := s[j:k]
		if brace {
			if k >= len(s) || s[k] != '}' {
				b.WriteByte(s[i])
				continue
			}
			k++
		}
		if v, ok := get(name); ok && name != "" {
			b.WriteString(v)
		} else {
			b.WriteString(s[i:k])
		}
		i = k - 1
	}
	return b.String()
}

// ---- time ----

func (in *Interp) setupTime(m *Module) {
	d := m.Dict
	in.fn(d, "time", func(a []Value, kw []KW) Value { return float64(in.sys.Now().UnixNano()) / 1e9 })
	in.fn(d, "time_ns", func(a []Value, kw []KW) Value { return in.sys.Now().UnixNano() })
	mono := func(a []Value, kw []KW) Value { return float64(in.sys.Uptime()) / 1e9 }
	in.fn(d, "monotonic", mono)
	in.fn(d, "perf_counter", mono)
	in.fn(d, "process_time", mono)
	in.fn(d, "monotonic_ns", func(a []Value, kw []KW) Value { return int64(in.sys.Uptime()) })
	in.fn(d, "perf_counter_ns", func(a []Value, kw []KW) Value { return int64(in.sys.Uptime()) })
	in.fn(d, "sleep", func(a []Value, kw []KW) Value {
		f, ok := in.toFloat(a[0])
		if !ok {
			in.Raise("TypeError", "'%s' object cannot be interpreted as an integer", in.typeName(a[0]))
		}
		if f < 0 {
			in.Raise("ValueError", "sleep length must be non-negative")
		}
		in.flushFuel()
		// Like a real sleep, end a little past the deadline (Linux's 50µs
		// timer slack): monotonic() differences are floats and must not
		// come out below the requested time.
		if err := in.sys.Sleep(time.Duration(f*1e9) + 50*time.Microsecond); err != nil {
			panic(stop{err})
		}
		return None
	})
	tm := func(t time.Time) Value {
		yd := int64(t.YearDay())
		wd := (int64(t.Weekday()) + 6) % 7
		return in.structTime(t, wd, yd)
	}
	in.fn(d, "gmtime", func(a []Value, kw []KW) Value {
		t := in.sys.Now().UTC()
		if len(a) > 0 && a[0] != None {
			f, _ := in.toFloat(a[0])
			t = time.Unix(0, int64(f*1e9)).UTC()
		}
		return tm(t)
	})
	in.fn(d, "localtime", func(a []Value, kw []KW) Value {
		t := in.sys.Now().UTC()
		if len(a) > 0 && a[0] != None {
			f, _ := in.toFloat(a[0])
			t = time.Unix(0, int64(f*1e9)).UTC()
		}
		return tm(t)
	})
	in.fn(d, "strftime", func(a []Value, kw []KW) Value {
		t := in.sys.Now().UTC()
		if len(a) > 1 {
			t = in.timeFromStruct(a[1])
		}
		return strftime(in.str(a[0]), t)
	})
	in.fn(d, "mktime", func(a []Value, kw []KW) Value { return float64(in.timeFromStruct(a[0]).Unix()) })
	in.fn(d, "ctime", func(a []Value, kw []KW) Value {
		t := in.sys.Now().UTC()
		if len(a) > 0 && a[0] != None {
			f, _ := in.toFloat(a[0])
			t = time.Unix(int64(f), 0).UTC()
		}
		return t.Format("Mon Jan _2 15:04:05 2006")
	})
	d.SetStr("timezone", int64(0))
	d.SetStr("altzone", int64(0))
	d.SetStr("daylight", int64(0))
	d.SetStr("tzname", Tuple{"UTC", "UTC"})
}

func (in *Interp) structTime(t time.Time, wd, yd int64) Value {
	vals := Tuple{int64(t.Year()), int64(t.Month()), int64(t.Day()), int64(t.Hour()), int64(t.Minute()), int64(t.Second()), wd, yd, int64(0)}
	o := in.simpleObject("time.struct_time", map[string]Value{"tm_year": vals[0], "tm_mon": vals[1], "tm_mday": vals[2],
		"tm_hour": vals[3], "tm_min": vals[4], "tm_sec": vals[5], "tm_wday": vals[6], "tm_yday": vals[7], "tm_isdst": vals[8]})
	o.Base = vals
	return o
}

func (in *Interp) timeFromStruct(v Value) time.Time {
	p := in.iterToSlice(v)
	if len(p) < 6 {
		in.Raise("TypeError", "time tuple must have 9 elements")
	}
	g := func(i int) int { return int(in.toInt64(p[i])) }
	return time.Date(g(0), time.Month(g(1)), g(2), g(3), g(4), g(5), 0, time.UTC)
}

// strftime formats t with C strftime directives.
func strftime(f string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'Y':
			b.WriteString(pad(t.Year(), 4))
		case 'y':
			b.WriteString(pad(t.Year()%100, 2))
		case 'm':
			b.WriteString(pad(int(t.Month()), 2))
		case 'd':
			b.WriteString(pad(t.Day(), 2))
		case 'H':
			b.WriteString(pad(t.Hour(), 2))
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			b.WriteString(pad(h, 2))
		case 'M':
			b.WriteString(pad(t.Minute(), 2))
		case 'S':
			b.WriteString(pad(t.Second(), 2))
		case 'f':
			b.WriteString(pad(t.Nanosecond()/1000, 6))
		case 'p':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'A':
			b.WriteString(t.Weekday().String())
		case 'b', 'h':
			b.WriteString(t.Month().String()[:3])
		case 'B':
			b.WriteString(t.Month().String())
		case 'j':
			b.WriteString(pad(t.YearDay(), 3))
		case 'w':
			b.WriteString(pad(int(t.Weekday()), 1))
		case 'u':
			w := int(t.Weekday())
			if w == 0 {
				w = 7
			}
			b.WriteString(pad(w, 1))
		case 'z':
			b.WriteString("+0000")
		case 'Z':
			b.WriteString("UTC")
		case 'e':
			b.WriteString(padSpace(t.Day(), 2))
		case 'c':
			b.WriteString(t.Format("Mon Jan _2 15:04:05 2006"))
		case 'x':
			b.WriteString(t.Format("01/02/06"))
		case 'X':
			b.WriteString(t.Format("15:04:05"))
		case 'D':
			b.WriteString(t.Format("01/02/06"))
		case 'F':
			b.WriteString(pad(t.Year(), 4) + "-" + pad(int(t.Month()), 2) + "-" + pad(t.Day(), 2))
		case 'T':
			b.WriteString(t.Format("15:04:05"))
		case 'R':
			b.WriteString(t.Format("15:04"))
		case 's':
			b.WriteString(itoa(int(t.Unix())))
		case 'U':
			b.WriteString(pad((t.YearDay()+6-int(t.Weekday()))/7, 2))
		case 'W':
			b.WriteString(pad((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2))
		case 'V':
			_, w := t.ISOWeek()
			b.WriteString(pad(w, 2))
		case 'G':
			y, _ := t.ISOWeek()
			b.WriteString(pad(y, 4))
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var buf [24]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

func pad(n, w int) string {
	s := itoa(n)
	for len(s) < w {
		s = "0" + s
	}
	return s
}

func padSpace(n, w int) string {
	s := itoa(n)
	for len(s) < w {
		s = " " + s
	}
	return s
}

var _ = errors.New
