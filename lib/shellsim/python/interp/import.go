package interp

import (
	"embed"
	"errors"
	"io/fs"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/python/syntax"
)

//go:embed all:lib
var libFS embed.FS

// nativeModules are modules implemented in Go.
var nativeModules = map[string]func(in *Interp, m *Module){}

func registerNative(name string, f func(in *Interp, m *Module)) { nativeModules[name] = f }

// unsupportedModules fail loudly at import: their absence must not look like
// a different bug.
var unsupportedModules = map[string]string{
	"numpy": "numpy", "pandas": "pandas", "requests": "requests", "sqlite3": "sqlite3", "pickle": "pickle",
	"threading": "threading", "multiprocessing": "multiprocessing", "socket": "socket", "asyncio": "asyncio",
	"ctypes": "ctypes", "ssl": "ssl", "tkinter": "tkinter", "concurrent": "concurrent", "selectors": "selectors",
	"yaml": "yaml", "scipy": "scipy", "matplotlib": "matplotlib", "http": "http", "urllib": "urllib",
	"xml": "xml", "email": "email", "sklearn": "sklearn", "torch": "torch", "decimal": "decimal",
}

// importModule imports a dotted module name, returning the leaf module.
func (in *Interp) importModule(name string, fr *Frame) *Module {
	parts := strings.Split(name, ".")
	var m *Module
	for i := range parts {
		full := strings.Join(parts[:i+1], ".")
		m = in.importOne(full, m)
	}
	return m
}

func (in *Interp) resolveSub(m *Module, name string) Value {
	return in.modules[name]
}

func (in *Interp) importOne(full string, parent *Module) *Module {
	if m, ok := in.modules[full]; ok {
		return m
	}
	if in.loading[full] {
		if m, ok := in.modules[full]; ok {
			return m
		}
	}
	in.charge(200)
	// VFS first for user modules (script dir and sys.path), then the
	// stdlib, as CPython does for names that are not builtin modules.
	if f, ok := nativeModules[full]; ok {
		m := &Module{Name: full, Dict: NewDict()}
		m.Dict.SetStr("__name__", full)
		in.modules[full] = m
		f(in, m)
		in.bindParent(full, m)
		return m
	}
	if src, file, pkg, ok := in.findSource(full, parent); ok {
		return in.loadSource(full, src, file, pkg)
	}
	if src, err := libFS.ReadFile("lib/" + strings.ReplaceAll(full, ".", "/") + ".py"); err == nil {
		return in.loadSource(full, string(src), "/usr/lib/python3.14/"+strings.ReplaceAll(full, ".", "/")+".py", false)
	}
	if src, err := libFS.ReadFile("lib/" + strings.ReplaceAll(full, ".", "/") + "/__init__.py"); err == nil {
		return in.loadSource(full, string(src), "/usr/lib/python3.14/"+strings.ReplaceAll(full, ".", "/")+"/__init__.py", true)
	}
	top := strings.SplitN(full, ".", 2)[0]
	if _, bad := unsupportedModules[top]; bad {
		in.Unsupported("import " + top)
	}
	exc := in.newExc(in.builtinClass("ModuleNotFoundError"), Tuple{"No module named '" + full + "'"})
	exc.Dict.SetStr("name", full)
	in.raiseExc(exc)
	return nil
}

func (in *Interp) bindParent(full string, m *Module) {
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		if p, ok := in.modules[full[:i]]; ok {
			p.Dict.SetStr(full[i+1:], m)
		}
	}
}

// findSource looks for name.py or name/__init__.py on sys.path (or in the
// parent package's directory).
func (in *Interp) findSource(full string, parent *Module) (src, file string, pkg bool, ok bool) {
	var dirs []string
	leaf := full
	if parent != nil {
		leaf = full[strings.LastIndexByte(full, '.')+1:]
		if p, ok := parent.Dict.GetStr("__path__"); ok {
			for _, d := range in.iterToSlice(p) {
				dirs = append(dirs, in.str(d))
			}
		}
		if len(dirs) == 0 {
			return "", "", false, false
		}
	} else {
		for _, d := range in.sysPath() {
			dirs = append(dirs, d)
		}
	}
	for _, d := range dirs {
		if strings.HasPrefix(d, "/usr/lib/python3.14") {
			continue
		}
		base := command.Join(in.abs(d), leaf)
		if data, err := in.inv.FS.ReadFile(base + ".py"); err == nil {
			return string(data), base + ".py", false, true
		}
		if data, err := in.inv.FS.ReadFile(base + "/__init__.py"); err == nil {
			return string(data), base + "/__init__.py", true, true
		} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, command.ErrNotDir) {
			continue
		}
		if fi, err := in.inv.FS.Stat(base); err == nil && fi.IsDir() && parent == nil {
			// namespace package
			if _, isStd := nativeModules[full]; !isStd {
				if _, err := libFS.ReadFile("lib/" + full + ".py"); err != nil {
					return "", base, true, true
				}
			}
		}
	}
	return "", "", false, false
}

func (in *Interp) sysPath() []string {
	if m, ok := in.modules["sys"]; ok {
		if p, ok := m.Dict.GetStr("path"); ok {
			var out []string
			for _, v := range in.iterToSlice(p) {
				if s, ok := v.(string); ok {
					out = append(out, s)
				}
			}
			return out
		}
	}
	var out []string
	for _, v := range in.path.V {
		out = append(out, v.(string))
	}
	return out
}

func (in *Interp) loadSource(full, src, file string, pkg bool) *Module {
	m := in.newModule(full, file)
	if pkg {
		dir := file
		if strings.HasSuffix(file, "/__init__.py") {
			dir = strings.TrimSuffix(file, "/__init__.py")
		}
		m.Dict.SetStr("__path__", &List{V: []Value{dir}})
		m.Dict.SetStr("__package__", full)
	} else if i := strings.LastIndexByte(full, '.'); i >= 0 {
		m.Dict.SetStr("__package__", full[:i])
	} else {
		m.Dict.SetStr("__package__", "")
	}
	in.modules[full] = m
	in.loading[full] = true
	ok := false
	defer func() {
		delete(in.loading, full)
		if !ok {
			delete(in.modules, full)
		}
	}()
	in.bindParent(full, m)
	if src != "" || !pkg || strings.HasSuffix(file, ".py") {
		in.execSource(src, file, m)
	}
	ok = true
	return m
}

func (in *Interp) execImportFrom(fr *Frame, s *syntax.ImportFrom) {
	modName := s.Module
	if s.Level > 0 {
		pkg := ""
		if p, ok := fr.Globals.Dict.GetStr("__package__"); ok {
			pkg, _ = p.(string)
		}
		if pkg == "" {
			if n, ok := fr.Globals.Dict.GetStr("__name__"); ok && n != "__main__" {
				ns := n.(string)
				if i := strings.LastIndexByte(ns, '.'); i >= 0 {
					pkg = ns[:i]
				}
			}
		}
		parts := strings.Split(pkg, ".")
		if pkg == "" || s.Level-1 > len(parts)-1 {
			in.Raise("ImportError", "attempted relative import with no known parent package")
		}
		base := strings.Join(parts[:len(parts)-(s.Level-1)], ".")
		if modName != "" {
			modName = base + "." + modName
		} else {
			modName = base
		}
	}
	m := in.importModule(modName, fr)
	for _, a := range s.Names {
		if a.Name == "*" {
			if all, ok := m.Dict.GetStr("__all__"); ok {
				for _, n := range in.iterToSlice(all) {
					in.storeName(fr, in.str(n), in.getAttr(m, in.str(n)))
				}
				continue
			}
			for _, kv := range m.Dict.Items() {
				k := kv[0].(string)
				if !strings.HasPrefix(k, "_") {
					in.storeName(fr, k, kv[1])
				}
			}
			continue
		}
		v, ok := m.Dict.GetStr(a.Name)
		if !ok {
			// a submodule
			var sub *Module
			exc := in.catch(func() { sub = in.importModule(modName+"."+a.Name, fr) })
			if exc != nil {
				if isSubclass(exc.Exc.Cls, in.builtinClass("ModuleNotFoundError")) {
					e := in.newExc(in.builtinClass("ImportError"), Tuple{"cannot import name '" + a.Name + "' from '" + modName + "' (" + orUnknown(m.File) + ")"})
					in.raiseExc(e)
				}
				panic(exc)
			}
			v = sub
		}
		name := a.Name
		if a.As != "" {
			name = a.As
		}
		in.storeName(fr, name, v)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown location"
	}
	return s
}
