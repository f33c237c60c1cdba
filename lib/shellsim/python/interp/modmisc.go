package interp

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"hash/adler32"
	"hash/crc32"
	"io"
	"math"
	"math/big"
	"strings"

	"github.com/shellbox/shellbox/lib/shellsim/command"
	"github.com/shellbox/shellbox/lib/shellsim/python/syntax"
)

// ---- random: MT19937 as CPython seeds and draws it ----

type mt struct {
	s   [624]uint32
	idx int
}

func (m *mt) initGenrand(s uint32) {
	m.s[0] = s
	for i := 1; i < 624; i++ {
		m.s[i] = 1812433253*(m.s[i-1]^(m.s[i-1]>>30)) + uint32(i)
	}
	m.idx = 624
}

func (m *mt) initByArray(key []uint32) {
	m.initGenrand(19650218)
	i, j := 1, 0
	k := 624
	if len(key) > k {
		k = len(key)
	}
	for ; k > 0; k-- {
		m.s[i] = (m.s[i] ^ ((m.s[i-1] ^ (m.s[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= 624 {
			m.s[0] = m.s[623]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k = 623; k > 0; k-- {
		m.s[i] = (m.s[i] ^ ((m.s[i-1] ^ (m.s[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= 624 {
			m.s[0] = m.s[623]
			i = 1
		}
	}
	m.s[0] = 0x80000000
	m.idx = 624
}

func (m *mt) next() uint32 {
	if m.idx >= 624 {
		for i := 0; i < 624; i++ {
			y := (m.s[i] & 0x80000000) | (m.s[(i+1)%624] & 0x7fffffff)
			v := m.s[(i+397)%624] ^ (y >> 1)
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			m.s[i] = v
		}
		m.idx = 0
	}
	y := m.s[m.idx]
	m.idx++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

func (m *mt) random() float64 {
	a, b := m.next()>>5, m.next()>>6
	return (float64(a)*67108864.0 + float64(b)) * (1.0 / 9007199254740992.0)
}

func (m *mt) getrandbits(k int) *big.Int {
	if k <= 32 {
		return big.NewInt(int64(m.next() >> (32 - k)))
	}
	words := (k-1)/32 + 1
	ws := make([]uint32, words)
	for i := 0; i < words; i++ {
		r := m.next()
		if k < 32 {
			r >>= 32 - k
		}
		ws[i] = r
		k -= 32
	}
	out := new(big.Int)
	for i := words - 1; i >= 0; i-- {
		out.Lsh(out, 32)
		out.Or(out, big.NewInt(int64(ws[i])))
	}
	return out
}

func (m *mt) seed(in *Interp, v Value) {
	var n *big.Int
	switch x := v.(type) {
	case *noneType:
		n = big.NewInt(0)
	case string:
		h := sha512.Sum512([]byte(x))
		n = new(big.Int).SetBytes(append([]byte(x), h[:]...))
	case Bytes:
		h := sha512.Sum512([]byte(x))
		n = new(big.Int).SetBytes(append([]byte(x), h[:]...))
	case float64:
		n = big.NewInt(int64(math.Float64bits(x)))
	default:
		n = new(big.Int).Abs(toBig(in.toIntValue(v)))
	}
	var key []uint32
	b := new(big.Int).Set(n)
	mask := big.NewInt(0xffffffff)
	for b.Sign() > 0 {
		key = append(key, uint32(new(big.Int).And(b, mask).Uint64()))
		b.Rsh(b, 32)
	}
	if len(key) == 0 {
		key = []uint32{0}
	}
	m.initByArray(key)
}

func (in *Interp) rng() *mt {
	if in.mt == nil {
		in.mt = &mt{}
		in.mt.initGenrand(5489)
	}
	return in.mt
}

func init() {
	registerNative("_random", func(in *Interp, m *Module) {
		states := map[int64]*mt{}
		in.fn(m.Dict, "new", func(a []Value, kw []KW) Value {
			st := &mt{}
			st.seed(in, argOr(a, 0, None))
			id := in.newID()
			states[id] = st
			return id
		})
		in.fn(m.Dict, "seed", func(a []Value, kw []KW) Value {
			states[in.toInt64(a[0])].seed(in, argOr(a, 1, None))
			return None
		})
		in.fn(m.Dict, "random", func(a []Value, kw []KW) Value { return states[in.toInt64(a[0])].random() })
		in.fn(m.Dict, "getrandbits", func(a []Value, kw []KW) Value {
			k := int(in.toInt64(a[1]))
			if k < 0 {
				in.Raise("ValueError", "number of bits must be non-negative")
			}
			if k == 0 {
				return int64(0)
			}
			if k > 1<<20 {
				in.Raise("MemoryError", "")
			}
			return normInt(states[in.toInt64(a[0])].getrandbits(k))
		})
		in.fn(m.Dict, "getstate", func(a []Value, kw []KW) Value {
			st := states[in.toInt64(a[0])]
			t := make(Tuple, 625)
			for i, v := range st.s {
				t[i] = int64(v)
			}
			t[624] = int64(st.idx)
			return t
		})
		in.fn(m.Dict, "setstate", func(a []Value, kw []KW) Value {
			st := states[in.toInt64(a[0])]
			t := in.iterToSlice(a[1])
			for i := 0; i < 624 && i < len(t); i++ {
				st.s[i] = uint32(in.toInt64(t[i]))
			}
			if len(t) > 624 {
				st.idx = int(in.toInt64(t[624]))
			}
			return None
		})
	})

	registerNative("hashlib", func(in *Interp, m *Module) {
		mk := func(name string, f func() hash.Hash) {
			in.fn(m.Dict, name, func(a []Value, kw []KW) Value {
				h := f()
				if len(a) > 0 {
					h.Write([]byte(in.bytesOf(a[0])))
				}
				return in.hashObject(name, h)
			})
		}
		mk("md5", md5.New)
		mk("sha1", sha1.New)
		mk("sha256", sha256.New)
		mk("sha224", sha256.New224)
		mk("sha512", sha512.New)
		mk("sha384", sha512.New384)
		in.fn(m.Dict, "new", func(a []Value, kw []KW) Value {
			name := strings.ToLower(in.str(a[0]))
			f, ok := m.Dict.GetStr(name)
			if !ok {
				in.Raise("ValueError", "unsupported hash type %s", name)
			}
			return in.call(f, a[1:], nil)
		})
		m.Dict.SetStr("algorithms_available", &Set{D: NewDict()})
		m.Dict.SetStr("algorithms_guaranteed", &Set{D: NewDict()})
	})

	registerNative("base64", func(in *Interp, m *Module) {
		enc := func(name string, e *base64.Encoding) {
			in.fn(m.Dict, name+"encode", func(a []Value, kw []KW) Value {
				return Bytes(e.EncodeToString([]byte(in.bytesOf(a[0]))))
			})
			in.fn(m.Dict, name+"decode", func(a []Value, kw []KW) Value {
				var s string
				if str, ok := a[0].(string); ok {
					s = str
				} else {
					s = in.bytesOf(a[0])
				}
				s = strings.Map(func(r rune) rune {
					if r == '\n' || r == '\r' || r == ' ' {
						return -1
					}
					return r
				}, s)
				out, err := e.DecodeString(s)
				if err != nil {
					c, _ := in.importModule("binascii", nil).Dict.GetStr("Error")
					in.raiseExc(in.newExc(c.(*Class), Tuple{"Incorrect padding"}))
				}
				return Bytes(out)
			})
		}
		enc("b64", base64.StdEncoding)
		enc("standard_b64", base64.StdEncoding)
		enc("urlsafe_b64", base64.URLEncoding)
		in.fn(m.Dict, "b16encode", func(a []Value, kw []KW) Value {
			return Bytes(strings.ToUpper(hex.EncodeToString([]byte(in.bytesOf(a[0])))))
		})
		in.fn(m.Dict, "b16decode", func(a []Value, kw []KW) Value {
			b, err := hex.DecodeString(in.strOrBytes(a[0]))
			if err != nil {
				in.Raise("ValueError", "Non-base16 digit found")
			}
			return Bytes(b)
		})
		in.fn(m.Dict, "encodebytes", func(a []Value, kw []KW) Value {
			s := base64.StdEncoding.EncodeToString([]byte(in.bytesOf(a[0])))
			var b strings.Builder
			for len(s) > 76 {
				b.WriteString(s[:76] + "\n")
				s = s[76:]
			}
			if s != "" {
				b.WriteString(s + "\n")
			}
			return Bytes(b.String())
		})
	})

	registerNative("binascii", func(in *Interp, m *Module) {
		m.Dict.SetStr("Error", in.buildClass("Error", "Error", "binascii", []*Class{in.builtinClass("ValueError")}, NewDict(), nil))
		in.fn(m.Dict, "hexlify", func(a []Value, kw []KW) Value { return Bytes(hex.EncodeToString([]byte(in.bytesOf(a[0])))) })
		in.fn(m.Dict, "unhexlify", func(a []Value, kw []KW) Value {
			b, err := hex.DecodeString(in.strOrBytes(a[0]))
			if err != nil {
				in.Raise("ValueError", "Non-hexadecimal digit found")
			}
			return Bytes(b)
		})
		in.fn(m.Dict, "crc32", func(a []Value, kw []KW) Value {
			c := uint32(0)
			if len(a) > 1 {
				c = uint32(in.toInt64(a[1]))
			}
			return int64(crc32.Update(c, crc32.IEEETable, []byte(in.bytesOf(a[0]))))
		})
	})

	registerNative("zlib", func(in *Interp, m *Module) {
		m.Dict.SetStr("error", in.buildClass("error", "error", "zlib", []*Class{in.builtinClass("Exception")}, NewDict(), nil))
		in.fn(m.Dict, "crc32", func(a []Value, kw []KW) Value {
			c := uint32(0)
			if len(a) > 1 {
				c = uint32(in.toInt64(a[1]))
			}
			return int64(crc32.Update(c, crc32.IEEETable, []byte(in.bytesOf(a[0]))))
		})
		in.fn(m.Dict, "adler32", func(a []Value, kw []KW) Value {
			return int64(adler32.Checksum([]byte(in.bytesOf(a[0]))))
		})
		in.fn(m.Dict, "compress", func(a []Value, kw []KW) Value {
			in.Partial("zlib.compress (stream bytes may differ from C zlib)")
			data := in.bytesOf(a[0])
			in.charge(int64(len(data) / 8))
			var buf bytes.Buffer
			level := -1
			if len(a) > 1 {
				level = int(in.toInt64(a[1]))
			}
			w, err := zlib.NewWriterLevel(&buf, level)
			if err != nil {
				in.Raise("ValueError", "Bad compression level")
			}
			w.Write([]byte(data))
			w.Close()
			return Bytes(buf.String())
		})
		in.fn(m.Dict, "decompress", func(a []Value, kw []KW) Value {
			data := in.bytesOf(a[0])
			r, err := zlib.NewReader(strings.NewReader(data))
			if err != nil {
				c, _ := m.Dict.GetStr("error")
				in.raiseExc(in.newExc(c.(*Class), Tuple{"Error -3 while decompressing data: incorrect header check"}))
			}
			limit := in.mem.limit
			out, err := io.ReadAll(io.LimitReader(r, limit+1))
			if int64(len(out)) > limit {
				in.mem.need(in, limit+1)
			}
			if err != nil {
				c, _ := m.Dict.GetStr("error")
				in.raiseExc(in.newExc(c.(*Class), Tuple{"Error -3 while decompressing data"}))
			}
			in.charge(int64(len(out) / 8))
			return Bytes(out)
		})
	})

	registerNative("struct", func(in *Interp, m *Module) {
		m.Dict.SetStr("error", in.buildClass("error", "error", "struct", []*Class{in.builtinClass("Exception")}, NewDict(), nil))
		in.fn(m.Dict, "pack", func(a []Value, kw []KW) Value { return Bytes(in.structPack(in.str(a[0]), a[1:])) })
		in.fn(m.Dict, "unpack", func(a []Value, kw []KW) Value { return in.structUnpack(in.str(a[0]), in.bytesOf(a[1])) })
		in.fn(m.Dict, "calcsize", func(a []Value, kw []KW) Value {
			_, items := structLayout(in, in.str(a[0]))
			n := 0
			for _, it := range items {
				n += it.size * it.count
			}
			return int64(n)
		})
	})

	registerNative("_pytest_support", func(in *Interp, m *Module) {
		in.fn(m.Dict, "set_assert_mode", func(a []Value, kw []KW) Value { in.pytest = in.truthy(a[0]); return None })
		in.fn(m.Dict, "params", func(a []Value, kw []KW) Value {
			f, ok := a[0].(*Function)
			if !ok {
				if mth, ok := a[0].(*Method); ok {
					f, _ = mth.Fn.(*Function)
				}
			}
			if f == nil {
				return &List{V: []Value{}}
			}
			var out []Value
			for _, p := range f.Def.Params {
				if p.Kind == 'p' || p.Kind == 'k' || p.Kind == 'o' {
					_, hasDef := f.Defaults[p.Name]
					out = append(out, Tuple{p.Name, hasDef})
				}
			}
			return &List{V: orEmpty(out)}
		})
		in.fn(m.Dict, "source", func(a []Value, kw []KW) Value {
			f, ok := a[0].(*Function)
			if !ok {
				return &List{V: []Value{}}
			}
			out := make([]Value, len(f.Def.Src))
			for i, l := range f.Def.Src {
				out[i] = l
			}
			return Tuple{&List{V: out}, int64(f.Def.StartLine)}
		})
		in.fn(m.Dict, "format_exc", func(a []Value, kw []KW) Value {
			exc := a[0].(*Instance)
			var b strings.Builder
			in.formatException(&b, exc, 0)
			return b.String()
		})
		in.fn(m.Dict, "exc_line", func(a []Value, kw []KW) Value { return in.excLine(a[0].(*Instance)) })
		in.fn(m.Dict, "tb", func(a []Value, kw []KW) Value {
			exc := a[0].(*Instance)
			var out []Value
			if exc.Exc != nil {
				for _, t := range exc.Exc.Traceback {
					var src Value = None
					if t.Def != nil && t.Def.Src != nil {
						lines := make([]Value, len(t.Def.Src))
						for i, l := range t.Def.Src {
							lines[i] = l
						}
						src = Tuple{&List{V: lines}, int64(t.Def.StartLine)}
					}
					out = append(out, Tuple{t.File, int64(t.Line), t.Name, src})
				}
			}
			return &List{V: orEmpty(out)}
		})
		in.fn(m.Dict, "source_line", func(a []Value, kw []KW) Value {
			return in.sourceLine(in.str(a[0]), int(in.toInt64(a[1])))
		})
		in.fn(m.Dict, "exec_file", func(a []Value, kw []KW) Value {
			// import a test file as a module under the given name
			name, file := in.str(a[0]), in.str(a[1])
			data := in.readFile(file)
			dir := file[:strings.LastIndexByte(file, '/')+1]
			if dir == "" {
				dir = "."
			}
			mod := in.newModule(name, file)
			in.modules[name] = mod
			in.execSource(string(data), file, mod)
			return mod
		})
		in.fn(m.Dict, "walltime", func(a []Value, kw []KW) Value { return float64(in.sys.Uptime()) / 1e9 })
		in.fn(m.Dict, "partial", func(a []Value, kw []KW) Value { in.Partial(in.str(a[0])); return None })
		in.fn(m.Dict, "unsupported", func(a []Value, kw []KW) Value { in.Unsupported(in.str(a[0])); return None })
		in.fn(m.Dict, "is_generator_function", func(a []Value, kw []KW) Value {
			f, ok := a[0].(*Function)
			return ok && f.Def.IsGen
		})
		in.fn(m.Dict, "parse_check", func(a []Value, kw []KW) Value {
			_, err := syntax.Parse(in.str(a[0]))
			if err != nil {
				return err.Error()
			}
			return None
		})
	})
}

func (in *Interp) strOrBytes(v Value) string {
	if s, ok := v.(string); ok {
		return s
	}
	return in.bytesOf(v)
}

func (in *Interp) hashObject(name string, h hash.Hash) Value {
	var obj *Instance
	obj = in.simpleObject("_hashlib.HASH", map[string]Value{
		"name":        name,
		"digest_size": int64(h.Size()),
		"block_size":  int64(h.BlockSize()),
		"update": &Builtin{Name: "update", Fn: func(in *Interp, a []Value, kw []KW) Value {
			data := in.bytesOf(a[0])
			in.charge(int64(len(data) / 64))
			h.Write([]byte(data))
			return None
		}},
		"hexdigest": &Builtin{Name: "hexdigest", Fn: func(in *Interp, a []Value, kw []KW) Value { return hex.EncodeToString(h.Sum(nil)) }},
		"digest":    &Builtin{Name: "digest", Fn: func(in *Interp, a []Value, kw []KW) Value { return Bytes(h.Sum(nil)) }},
	})
	return obj
}

type structItem struct {
	code  byte
	size  int
	count int
}

type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

func structLayout(in *Interp, f string) (byteOrder, []structItem) {
	var order byteOrder = binary.LittleEndian
	if len(f) > 0 && strings.IndexByte("<>!=@", f[0]) >= 0 {
		if f[0] == '>' || f[0] == '!' {
			order = binary.BigEndian
		}
		f = f[1:]
	}
	sizes := map[byte]int{'x': 1, 'c': 1, 'b': 1, 'B': 1, '?': 1, 'h': 2, 'H': 2, 'i': 4, 'I': 4, 'l': 4, 'L': 4, 'q': 8, 'Q': 8, 'f': 4, 'd': 8, 's': 1, 'e': 2}
	var items []structItem
	count := -1
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c >= '0' && c <= '9' {
			if count < 0 {
				count = 0
			}
			count = count*10 + int(c-'0')
			if count > 1<<20 {
				in.Raise("struct.error", "total struct size too long")
			}
			continue
		}
		if c == ' ' {
			continue
		}
		sz, ok := sizes[c]
		if !ok {
			c2, _ := in.importModule("struct", nil).Dict.GetStr("error")
			in.raiseExc(in.newExc(c2.(*Class), Tuple{"bad char in struct format"}))
		}
		n := 1
		if count >= 0 {
			n = count
		}
		if c == 's' {
			items = append(items, structItem{code: 's', size: n, count: 1})
		} else {
			items = append(items, structItem{code: c, size: sz, count: n})
		}
		count = -1
	}
	return order, items
}

func (in *Interp) structPack(f string, args []Value) string {
	order, items := structLayout(in, f)
	var b []byte
	ai := 0
	next := func() Value {
		if ai >= len(args) {
			c, _ := in.importModule("struct", nil).Dict.GetStr("error")
			in.raiseExc(in.newExc(c.(*Class), Tuple{"pack expected more items for packing"}))
		}
		ai++
		return args[ai-1]
	}
	for _, it := range items {
		for k := 0; k < it.count; k++ {
			switch it.code {
			case 'x':
				b = append(b, 0)
			case 's':
				s := []byte(in.bytesOf(next()))
				buf := make([]byte, it.size)
				copy(buf, s)
				b = append(b, buf...)
			case 'c':
				b = append(b, in.bytesOf(next())[0])
			case '?':
				if in.truthy(next()) {
					b = append(b, 1)
				} else {
					b = append(b, 0)
				}
			case 'f':
				fv, _ := in.toFloat(next())
				b = order.AppendUint32(b, math.Float32bits(float32(fv)))
			case 'd':
				fv, _ := in.toFloat(next())
				b = order.AppendUint64(b, math.Float64bits(fv))
			default:
				v := uint64(in.toInt64(next()))
				switch it.size {
				case 1:
					b = append(b, byte(v))
				case 2:
					b = order.AppendUint16(b, uint16(v))
				case 4:
					b = order.AppendUint32(b, uint32(v))
				case 8:
					b = order.AppendUint64(b, v)
				}
			}
		}
	}
	return string(b)
}

func (in *Interp) structUnpack(f string, data string) Value {
	order, items := structLayout(in, f)
	total := 0
	for _, it := range items {
		total += it.size * it.count
	}
	if total != len(data) {
		c, _ := in.importModule("struct", nil).Dict.GetStr("error")
		in.raiseExc(in.newExc(c.(*Class), Tuple{"unpack requires a buffer of " + itoa(total) + " bytes"}))
	}
	var out Tuple
	p := []byte(data)
	for _, it := range items {
		for k := 0; k < it.count; k++ {
			chunk := p[:it.size]
			p = p[it.size:]
			switch it.code {
			case 'x':
			case 's':
				out = append(out, Bytes(chunk))
			case 'c':
				out = append(out, Bytes(chunk))
			case '?':
				out = append(out, chunk[0] != 0)
			case 'f':
				out = append(out, float64(math.Float32frombits(order.Uint32(chunk))))
			case 'd':
				out = append(out, math.Float64frombits(order.Uint64(chunk)))
			case 'b':
				out = append(out, int64(int8(chunk[0])))
			case 'B':
				out = append(out, int64(chunk[0]))
			case 'h':
				out = append(out, int64(int16(order.Uint16(chunk))))
			case 'H':
				out = append(out, int64(order.Uint16(chunk)))
			case 'i', 'l':
				out = append(out, int64(int32(order.Uint32(chunk))))
			case 'I', 'L':
				out = append(out, int64(order.Uint32(chunk)))
			case 'q':
				out = append(out, int64(order.Uint64(chunk)))
			case 'Q':
				out = append(out, normInt(new(big.Int).SetUint64(order.Uint64(chunk))))
			}
		}
	}
	return out
}

// streamWriter adapts sys.stdout/sys.stderr (possibly replaced by Python
// objects) to an io.Writer for child processes.
func (in *Interp) streamWriter(name string) io.Writer {
	v := in.sysStream(name)
	if f, ok := v.(*File); ok && f.out != nil {
		return f.out
	}
	return writerFunc(func(p []byte) (int, error) {
		in.call(in.getAttr(v, "write"), []Value{string(p)}, nil)
		return len(p), nil
	})
}

type writerFunc func(p []byte) (int, error)

func (w writerFunc) Write(p []byte) (int, error) { return w(p) }

var _ = command.ErrStopped
