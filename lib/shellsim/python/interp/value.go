package interp

import (
	"math/big"

	"github.com/shellbox/shellbox/lib/shellsim/python/syntax"
)

// Value is any Python object. Builtin types are Go types:
// NoneType *noneType, bool bool, int int64 or *big.Int, float float64,
// str string, bytes Bytes, list *List, tuple Tuple, dict *Dict, set *Set,
// and the rest pointers to the structs below.
type Value = any

type noneType struct{}

// None is the Python None.
var None = &noneType{}

type ellipsisType struct{}

var Ellipsis = &ellipsisType{}

type notImplType struct{}

var NotImplemented = &notImplType{}

// Bytes is an immutable byte string.
type Bytes string

// List is a mutable sequence.
type List struct{ V []Value }

// Tuple is an immutable sequence.
type Tuple []Value

// Set is a set or frozenset.
type Set struct {
	D      *Dict // keys only
	Frozen bool
}

// Function is a user-defined function.
type Function struct {
	Def      *syntax.FuncDef
	Name     string
	Qualname string
	Defaults map[string]Value
	Outer    *Frame
	Globals  *Module
	Dict     *Dict
	Module   string
}

// Builtin is a function implemented in Go.
type Builtin struct {
	Name string
	Fn   func(in *Interp, args []Value, kw []KW) Value
	Self Value // bound receiver for methods of builtin types, or nil
}

// KW is one keyword argument.
type KW struct {
	Name string
	V    Value
}

// Method is a function bound to an instance.
type Method struct {
	Self Value
	Fn   Value
}

// Class is a class object (user-defined or builtin).
type Class struct {
	Name     string
	Qualname string
	Bases    []*Class
	MRO      []*Class
	Dict     *Dict
	Module   string
	Builtin  string // "" for user classes; "int", "list", "BaseException", ...
	Meta     *Class
}

// Instance is an instance of a user-defined class (or of an exception
// class). Base holds the builtin value when the class derives from dict,
// list, str or int.
type Instance struct {
	Cls  *Class
	Dict *Dict
	Base Value
	Exc  *ExcInfo
	id   int64
}

// ExcInfo is the state of an exception instance.
type ExcInfo struct {
	Args      Tuple
	Traceback []TBEntry
	Cause     *Instance
	Context   *Instance
	Suppress  bool
}

// TBEntry is one traceback line.
type TBEntry struct {
	File string
	Line int
	Name string
	Def  *syntax.FuncDef // the function of the frame, when it is one
}

// Module is a module object.
type Module struct {
	Name string
	Dict *Dict
	File string
}

// Property is a property descriptor.
type Property struct{ Get, Set, Del Value }

// StaticMethod and ClassMethod wrap functions in a class body.
type StaticMethod struct{ Fn Value }
type ClassMethod struct{ Fn Value }

// Super is the object returned by super().
type Super struct {
	Cls  *Class
	Self Value
}

// Range is a range object.
type Range struct{ Start, Stop, Step int64 }

// Slice is a slice object.
type Slice struct{ Start, Stop, Step Value }

// Iterator is a Go-implemented iterator.
type Iterator struct {
	Next func() (Value, bool)
	Name string
}

// Cell holds a box value for nonlocal assignment support in closures created
// by builtin helpers.
type BigInt = big.Int
