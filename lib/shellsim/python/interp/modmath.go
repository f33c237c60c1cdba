package interp

import (
	"errors"
	"io"
	"io/fs"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

func init() {
	registerNative("math", func(in *Interp, m *Module) {
		d := m.Dict
		d.SetStr("pi", math.Pi)
		d.SetStr("e", math.E)
		d.SetStr("tau", 2*math.Pi)
		d.SetStr("inf", math.Inf(1))
		d.SetStr("nan", math.NaN())
		fl := func(v Value) float64 {
			f, ok := in.toFloat(v)
			if !ok {
				in.Raise("TypeError", "must be real number, not %s", in.typeName(v))
			}
			return f
		}
		domain := func(f float64) Value {
			if math.IsNaN(f) {
				in.Raise("ValueError", "math domain error")
			}
			return f
		}
		f1 := func(name string, f func(float64) float64) {
			in.fn(d, name, func(a []Value, kw []KW) Value {
				nargs(in, name, a, 1, 1)
				x := fl(a[0])
				r := f(x)
				if math.IsNaN(r) && !math.IsNaN(x) {
					in.Raise("ValueError", "math domain error")
				}
				if math.IsInf(r, 0) && !math.IsInf(x, 0) && name != "log" {
					in.Raise("OverflowError", "math range error")
				}
				return r
			})
		}
		for n, f := range map[string]func(float64) float64{"sin": math.Sin, "cos": math.Cos, "tan": math.Tan, "asin": math.Asin,
			"acos": math.Acos, "atan": math.Atan, "sinh": math.Sinh, "cosh": math.Cosh, "tanh": math.Tanh, "exp": math.Exp,
			"fabs": math.Abs, "log10": math.Log10, "log2": math.Log2, "log1p": math.Log1p, "expm1": math.Expm1,
			"erf": math.Erf, "erfc": math.Erfc, "gamma": math.Gamma, "asinh": math.Asinh, "acosh": math.Acosh, "atanh": math.Atanh,
			"degrees": func(x float64) float64 { return x * 180 / math.Pi }, "radians": func(x float64) float64 { return x * math.Pi / 180 },
			"cbrt": math.Cbrt, "exp2": math.Exp2} {
			f1(n, f)
		}
		in.fn(d, "sqrt", func(a []Value, kw []KW) Value {
			x := fl(a[0])
			if x < 0 {
				in.Raise("ValueError", "math domain error")
			}
			return math.Sqrt(x)
		})
		in.fn(d, "log", func(a []Value, kw []KW) Value {
			nargs(in, "log", a, 1, 2)
			var x float64
			if b, ok := a[0].(*big.Int); ok && b.Sign() > 0 {
				bl := b.BitLen()
				sh := new(big.Int).Rsh(b, uint(max(bl-60, 0)))
				x0, _ := new(big.Float).SetInt(sh).Float64()
				r := math.Log(x0) + float64(max(bl-60, 0))*math.Ln2
				if len(a) > 1 {
					r /= math.Log(fl(a[1]))
				}
				return r
			}
			x = fl(a[0])
			if x <= 0 {
				in.Raise("ValueError", "math domain error")
			}
			if len(a) > 1 {
				b := fl(a[1])
				return math.Log(x) / math.Log(b)
			}
			return math.Log(x)
		})
		in.fn(d, "pow", func(a []Value, kw []KW) Value { return domain(math.Pow(fl(a[0]), fl(a[1]))) })
		in.fn(d, "atan2", func(a []Value, kw []KW) Value { return math.Atan2(fl(a[0]), fl(a[1])) })
		in.fn(d, "hypot", func(a []Value, kw []KW) Value {
			s := 0.0
			for _, x := range a {
				f := fl(x)
				s += f * f
			}
			if len(a) == 2 {
				return math.Hypot(fl(a[0]), fl(a[1]))
			}
			return math.Sqrt(s)
		})
		in.fn(d, "fmod", func(a []Value, kw []KW) Value { return domain(math.Mod(fl(a[0]), fl(a[1]))) })
		in.fn(d, "copysign", func(a []Value, kw []KW) Value { return math.Copysign(fl(a[0]), fl(a[1])) })
		toInt := func(name string, f func(float64) float64) {
			in.fn(d, name, func(a []Value, kw []KW) Value {
				nargs(in, name, a, 1, 1)
				if isInt(a[0]) {
					return in.toIntValue(a[0])
				}
				if x, ok := a[0].(*Instance); ok {
					if m := in.lookupClassAttr(x.Cls, "__"+name+"__"); m != nil {
						return in.call(in.bindAttr(x, m, x.Cls), nil, nil)
					}
				}
				return in.toIntValue(f(fl(a[0])))
			})
		}
		toInt("floor", math.Floor)
		toInt("ceil", math.Ceil)
		toInt("trunc", math.Trunc)
		in.fn(d, "isnan", func(a []Value, kw []KW) Value { return math.IsNaN(fl(a[0])) })
		in.fn(d, "isinf", func(a []Value, kw []KW) Value { return math.IsInf(fl(a[0]), 0) })
		in.fn(d, "isfinite", func(a []Value, kw []KW) Value {
			f := fl(a[0])
			return !math.IsInf(f, 0) && !math.IsNaN(f)
		})
		in.fn(d, "isclose", func(a []Value, kw []KW) Value {
			a2 := in.args("isclose", a, kw, []string{"a", "b", "rel_tol", "abs_tol"}, 2)
			x, y := fl(a2[0]), fl(a2[1])
			rel, abs := 1e-9, 0.0
			if a2[2] != nil {
				rel = fl(a2[2])
			}
			if a2[3] != nil {
				abs = fl(a2[3])
			}
			if x == y {
				return true
			}
			if math.IsInf(x, 0) || math.IsInf(y, 0) {
				return false
			}
			diff := math.Abs(x - y)
			return diff <= math.Abs(rel*y) || diff <= math.Abs(rel*x) || diff <= abs
		})
		in.fn(d, "factorial", func(a []Value, kw []KW) Value {
			if _, ok := a[0].(float64); ok {
				in.Raise("TypeError", "'float' object cannot be interpreted as an integer")
			}
			n := in.toInt64(a[0])
			if n < 0 {
				in.Raise("ValueError", "factorial() not defined for negative values")
			}
			if n > 20000 {
				in.Raise("MemoryError", "")
			}
			in.charge(n)
			return normInt(new(big.Int).MulRange(1, max(n, 1)))
		})
		in.fn(d, "gcd", func(a []Value, kw []KW) Value {
			r := new(big.Int)
			for _, x := range a {
				r.GCD(nil, nil, r, new(big.Int).Abs(toBig(in.toIntValue(x))))
			}
			return normInt(r)
		})
		in.fn(d, "lcm", func(a []Value, kw []KW) Value {
			r := big.NewInt(1)
			for _, x := range a {
				v := new(big.Int).Abs(toBig(in.toIntValue(x)))
				if v.Sign() == 0 {
					return int64(0)
				}
				g := new(big.Int).GCD(nil, nil, r, v)
				r.Mul(r, v).Div(r, g)
			}
			return normInt(r)
		})
		in.fn(d, "comb", func(a []Value, kw []KW) Value {
			n, k := in.toInt64(a[0]), in.toInt64(a[1])
			if n < 0 || k < 0 {
				in.Raise("ValueError", "n must be a non-negative integer")
			}
			if k > n {
				return int64(0)
			}
			in.charge(k)
			return normInt(new(big.Int).Binomial(n, k))
		})
		in.fn(d, "perm", func(a []Value, kw []KW) Value {
			n := in.toInt64(a[0])
			k := n
			if len(a) > 1 && a[1] != None {
				k = in.toInt64(a[1])
			}
			if k > n {
				return int64(0)
			}
			in.charge(k)
			return normInt(new(big.Int).MulRange(n-k+1, max(n, 1)))
		})
		in.fn(d, "isqrt", func(a []Value, kw []KW) Value {
			v := toBig(in.toIntValue(a[0]))
			if v.Sign() < 0 {
				in.Raise("ValueError", "isqrt() argument must be nonnegative")
			}
			return normInt(new(big.Int).Sqrt(v))
		})
		in.fn(d, "prod", func(a []Value, kw []KW) Value {
			var acc Value = int64(1)
			for _, k := range kw {
				if k.Name == "start" {
					acc = k.V
				}
			}
			for _, v := range in.iterToSlice(a[0]) {
				acc = in.binop("*", acc, v)
			}
			return acc
		})
		in.fn(d, "fsum", func(a []Value, kw []KW) Value {
			var parts []float64
			for _, v := range in.iterToSlice(a[0]) {
				x := fl(v)
				i := 0
				for _, y := range parts {
					if math.Abs(x) < math.Abs(y) {
						x, y = y, x
					}
					hi := x + y
					lo := y - (hi - x)
					if lo != 0 {
						parts[i] = lo
						i++
					}
					x = hi
				}
				parts = append(parts[:i], x)
			}
			s := 0.0
			for _, p := range parts {
				s += p
			}
			return s
		})
		in.fn(d, "modf", func(a []Value, kw []KW) Value {
			i, f := math.Modf(fl(a[0]))
			return Tuple{f, i}
		})
		in.fn(d, "frexp", func(a []Value, kw []KW) Value {
			f, e := math.Frexp(fl(a[0]))
			return Tuple{f, int64(e)}
		})
		in.fn(d, "ldexp", func(a []Value, kw []KW) Value { return math.Ldexp(fl(a[0]), int(in.toInt64(a[1]))) })
		in.fn(d, "dist", func(a []Value, kw []KW) Value {
			p, q := in.iterToSlice(a[0]), in.iterToSlice(a[1])
			s := 0.0
			for i := range p {
				x := fl(p[i]) - fl(q[i])
				s += x * x
			}
			return math.Sqrt(s)
		})
	})

	registerNative("_subprocess", func(in *Interp, m *Module) {
		// run(args, input, cwd, env, timeout, shell) -> (status, stdout, stderr, timed_out)
		in.fn(m.Dict, "run", func(a []Value, kw []KW) Value {
			a = in.args("run", a, kw, []string{"args", "input", "cwd", "env", "timeout", "capture_out", "capture_err", "merge_err", "stdin_null"}, 1)
			var argv []string
			for _, x := range in.iterToSlice(a[0]) {
				argv = append(argv, in.pathArg(x))
			}
			if len(argv) == 0 {
				in.Raise("IndexError", "list index out of range")
			}
			if !in.commandExists(argv[0]) {
				in.osError(&fs.PathError{Op: "exec", Path: argv[0], Err: fs.ErrNotExist}, argv[0])
			}
			req := command.ExecRequest{Args: argv, Dir: in.cwd}
			if a[2] != nil && a[2] != None {
				req.Dir = in.abs(in.pathArg(a[2]))
			}
			if a[3] != nil && a[3] != None {
				var env []string
				for _, kv := range in.mappingItems(a[3]) {
					env = append(env, in.str(kv[0])+"="+in.str(kv[1]))
				}
				req.Env = env
			} else {
				req.Env = in.envList()
			}
			if a[1] != nil && a[1] != None {
				req.Stdin = strings.NewReader(in.strOrBytes(a[1]))
			} else if a[8] != nil && in.truthy(a[8]) {
				req.Stdin = strings.NewReader("")
			} else {
				req.Stdin = in.Stdin.asReader(in)
			}
			var outB, errB limitedBuf
			outB.in, errB.in = in, in
			if a[5] != nil && in.truthy(a[5]) {
				req.Stdout = &outB
			} else {
				req.Stdout = in.streamWriter("stdout")
			}
			switch {
			case a[7] != nil && in.truthy(a[7]):
				req.Stderr = req.Stdout
			case a[6] != nil && in.truthy(a[6]):
				req.Stderr = &errB
			default:
				req.Stderr = in.streamWriter("stderr")
			}
			if a[4] != nil && a[4] != None {
				f, _ := in.toFloat(a[4])
				req.Timeout = time.Duration(f * 1e9)
			}
			in.flushFuel()
			st, err := in.sys.Exec(req)
			timedOut := false
			if err != nil {
				switch {
				case errorsIs(err, command.ErrTimedOut):
					timedOut = true
				case errorsIs(err, command.ErrNotFound):
					in.osError(&notFound{}, argv[0])
				case errorsIs(err, command.ErrStopped):
					panic(stop{err})
				}
			}
			return Tuple{int64(st), Bytes(outB.b), Bytes(errB.b), timedOut}
		})
	})
}

// shellBuiltins run without a program file.
var shellBuiltins = map[string]bool{"echo": true, "printf": true, "test": true, "[": true, "true": true, "false": true,
	"pwd": true, "cd": true, "kill": true, "type": true, "command": true, "read": true, "exit": true, ":": true, "export": true}

// commandExists mirrors execvp's lookup: a path must exist; a bare name must
// be a command ShellSim provides or an executable on PATH.
func (in *Interp) commandExists(name string) bool {
	base := name[strings.LastIndexByte(name, '/')+1:]
	known := shellBuiltins[base] || base == "sh" || base == "bash" || base == "dash" || base == "zsh"
	if !known && base != "" {
		// ask the shell, which knows the machine's command table
		st, _ := in.sys.Exec(command.ExecRequest{Args: []string{"sh", "-c", "command -v -- '" + strings.ReplaceAll(base, "'", "'\\''") + "'"},
			Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard})
		known = st == 0
	}
	if strings.Contains(name, "/") {
		if _, err := in.inv.FS.Stat(in.abs(name)); err == nil {
			return true
		}
		switch name[:strings.LastIndexByte(name, '/')+1] {
		case "/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/":
			return known
		}
		return false
	}
	if known {
		return true
	}
	path, _ := in.environ().GetStr("PATH")
	p, _ := path.(string)
	if p == "" {
		p = "/usr/bin:/bin"
	}
	for _, d := range strings.Split(p, ":") {
		if fi, err := in.inv.FS.Stat(command.Join(in.abs(d), name)); err == nil && !fi.IsDir() {
			return true
		}
	}
	return false
}

type notFound struct{}

func (*notFound) Error() string { return "no such file or directory" }
func (*notFound) Is(t error) bool {
	return t.Error() == "file does not exist"
}

// limitedBuf collects child output, charged to the modeled memory.
type limitedBuf struct {
	in *Interp
	b  []byte
}

func (l *limitedBuf) Write(p []byte) (int, error) {
	l.in.mem.add(l.in, int64(len(p)))
	l.b = append(l.b, p...)
	return len(p), nil
}

func (b *bufReader) asReader(in *Interp) *stdinReader { return &stdinReader{b: b, in: in} }

type stdinReader struct {
	b  *bufReader
	in *Interp
}

func (r *stdinReader) Read(p []byte) (int, error) {
	if len(r.b.buf) == 0 && !r.b.fill(r.in) {
		return 0, ioEOF
	}
	n := copy(p, r.b.buf)
	r.b.buf = r.b.buf[n:]
	return n, nil
}

var ioEOF = io.EOF

func errorsIs(err, target error) bool { return errors.Is(err, target) }
