package jq

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/itchyny/gojq"

	"github.com/shellbox/shellbox/lib/shellsim/command"
)

// jq - command-line JSON processor
//
//	jq [-nrjacsSeRM] [--tab|--indent N] [--arg N V] [--argjson N JSON]
//	   [--slurpfile N F] [--rawfile N F] [--args|--jsonargs] [-f FILE | FILTER] [FILE...]
//
// The language is gojq's (a faithful pure-Go jq); the command line, output
// format (jq 1.6 numbers, 2-space indent, input key order), diagnostics
// and exit codes are jq 1.6's. Objects are iterated and printed in their
// input order (gojq sorts keys; see prelude.go), and object merges keep
// jq's order: `+`, `*`, add, `+=` and `*=` keep the left object's keys and
// append the right's new ones (see merge.go). Differences that remain:
// some runtime error texts are gojq's (always so for the message that
// try/catch receives); an object that gojq builds or changes key by key
// (reduce with .[$k] = v, setpath, del, path updates such as .a.b = 1)
// gets a guessed order (that of a known object with its keys, else a known
// order followed by the new keys sorted), which can differ from jq's,
// notably for changes of merged objects; $__loc__ is missing; and colour,
// --seq, --stream and modules are not modeled.

// runLimit bounds one jq run in host time, as a last resort against
// queries that loop without producing output (gojq has no step hook to
// charge fuel from).
const runLimit = 20 * time.Second

type jqOpts struct {
	nullInput, raw, join, ascii, compact, slurp, exitStatus, sortKeys, rawInput, tab bool
	indent                                                                           int
	filter                                                                           string
	hasFilter                                                                        bool
	files                                                                            []string
	varNames                                                                         []string
	varValues                                                                        []any
	named                                                                            map[string]any
	namedKeys                                                                        []string
	positional                                                                       []any
}

const jqUsageTail = "Use jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n"

// Jq runs jq.
func Jq(inv *command.Invocation) int {
	if inv.Sys.Charge(100) != nil {
		return 1
	}
	order := newKeyOrder()
	o, st := parseArgs(inv, order)
	if st >= 0 {
		return st
	}
	if err := command.CheckSyntaxNest(o.filter); err != nil {
		return compileError(inv, o.filter, err)
	}
	query, err := gojq.Parse(o.filter)
	if err != nil {
		return compileError(inv, o.filter, err)
	}
	collectQueryOrders(query, order)
	rewriteQuery(query)
	rewriteOperators(query)
	defs, err := gojq.Parse(prelude)
	if err != nil {
		panic(err)
	}
	collectQueryOrders(defs, order)
	rewriteOperators(defs)
	query.FuncDefs = append(defs.FuncDefs, query.FuncDefs...)

	enc := &encoder{indent: "  ", sortKeys: o.sortKeys, ascii: o.ascii, order: order}
	if o.tab {
		enc.indent = "\t"
	} else if o.indent >= 0 {
		enc.indent = strings.Repeat(" ", o.indent)
	}
	if o.compact {
		enc.indent = ""
	}

	in := &inputs{inv: inv, order: order, raw: o.rawInput, slurpRaw: o.rawInput && o.slurp}
	status := in.load(o.files)
	defer func() {
		if in.release != nil {
			in.release()
		}
	}()
	if status < 0 {
		return 1
	}
	code, err := gojq.Compile(query,
		gojq.WithVariables(append(o.varNames, "$ARGS")),
		gojq.WithEnvironLoader(inv.Env.Environ),
		gojq.WithInputIter(in),
		gojq.WithFunction(addFunc, 2, 2, func(_ any, args []any) any {
			return order.add(args[0], args[1])
		}),
		gojq.WithFunction(mulFunc, 2, 2, func(_ any, args []any) any {
			return order.mul(args[0], args[1])
		}),
		gojq.WithFunction("_shellsim_now", 0, 0, func(any, []any) any {
			return float64(inv.Sys.Now().UnixNano()) / 1e9
		}),
		gojq.WithFunction("_shellsim_debug", 0, 0, func(v any, _ []any) any {
			var b bytes.Buffer
			(&encoder{order: order}).encode(&b, []any{"DEBUG:", v}, 0)
			fmt.Fprintf(inv.Stderr, "%s\n", b.Bytes())
			return v
		}),
		gojq.WithFunction("_shellsim_stderr", 0, 0, func(v any, _ []any) any {
			var b bytes.Buffer
			(&encoder{order: order}).encode(&b, v, 0)
			inv.Stderr.Write(b.Bytes())
			return v
		}),
		gojq.WithFunction("_shellsim_keys_unsorted", 0, 0, func(v any, _ []any) any {
			m, ok := v.(map[string]any)
			if !ok {
				if a, isArr := v.([]any); isArr {
					out := make([]any, len(a))
					for i := range a {
						out[i] = i
					}
					return out
				}
				return fmt.Errorf("%s (%s) has no keys", typeName(v), compact(order, v))
			}
			ks := order.keys(m, false)
			out := make([]any, len(ks))
			for i, k := range ks {
				out[i] = k
			}
			return out
		}),
		gojq.WithFunction("_shellsim_from_entries", 0, 0, func(v any, _ []any) any {
			return fromEntries(order, v)
		}),
		gojq.WithFunction("_shellsim_tojson", 0, 0, func(v any, _ []any) any {
			return compact(order, v)
		}),
		gojq.WithFunction("_shellsim_fromjson", 0, 0, func(v any, _ []any) any {
			s, ok := v.(string)
			if !ok {
				return fmt.Errorf("%s (%s) cannot be parsed as JSON", typeName(v), compact(order, v))
			}
			d := newDecoder([]byte(s), order)
			x, err := d.next()
			if err != nil {
				return fmt.Errorf("%s (while parsing '%s')", err, s)
			}
			return x
		}),
		gojq.WithFunction("_shellsim_input_line_number", 0, 0, func(any, []any) any {
			return in.lineNumber()
		}),
		gojq.WithFunction("_shellsim_filename", 0, 0, func(any, []any) any {
			if in.file == "" || in.file == "-" {
				return nil
			}
			return in.file
		}),
	)
	if err != nil {
		return compileError(inv, o.filter, err)
	}
	args := map[string]any{"positional": o.positional, "named": o.named}
	order.remember(args, []string{"positional", "named"})
	if len(o.namedKeys) > 0 {
		order.remember(o.named, o.namedKeys)
	}
	values := append(o.varValues, args)

	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	r := &runner{inv: inv, o: o, enc: enc, in: in, code: code, values: values, ctx: ctx}
	var runStatus int
	switch {
	case o.nullInput:
		runStatus = r.run(nil)
	case o.slurp && !o.rawInput:
		all := []any{}
		for {
			v, err := in.nextValue()
			if err == io.EOF {
				break
			}
			if err != nil {
				r.parseFailed(err)
				return 4
			}
			all = append(all, v)
		}
		runStatus = r.run(all)
	default:
		for {
			v, err := in.nextValue()
			if err == io.EOF {
				break
			}
			if err != nil {
				if r.stopped {
					return 1
				}
				// jq 1.6 exits 4 after an input parse error.
				r.parseFailed(err)
				runStatus = 4
				break
			}
			if s := r.run(v); s != 0 {
				runStatus = s
			}
			if r.stopped || r.halted {
				break
			}
		}
	}
	if r.stopped {
		return 1
	}
	if r.halted {
		return r.haltCode
	}
	if runStatus != 0 {
		return runStatus
	}
	if status != 0 {
		return status
	}
	if o.exitStatus {
		switch {
		case !r.any:
			return 4
		case r.last == nil || r.last == false:
			return 1
		}
	}
	return 0
}

// runner runs the compiled filter on each input and prints the results.
type runner struct {
	inv      *command.Invocation
	o        *jqOpts
	enc      *encoder
	in       *inputs
	code     *gojq.Code
	values   []any
	ctx      context.Context
	any      bool
	last     any
	stopped  bool
	halted   bool
	haltCode int
}

func (r *runner) where() string {
	if r.o.nullInput && r.in.consumed == 0 {
		return "<unknown>"
	}
	name := r.in.file
	if name == "" || name == "-" {
		name = "<stdin>"
	}
	return fmt.Sprintf("%s:%d", name, r.in.lines)
}

func (r *runner) parseFailed(err error) {
	var pe *parseError
	if errors.As(err, &pe) {
		fmt.Fprintf(r.inv.Stderr, "parse error: %s\n", pe)
		return
	}
	fmt.Fprintf(r.inv.Stderr, "jq: error (at %s): %s\n", r.where(), err)
}

// run applies the filter to v; it returns 5 when an error was reported.
func (r *runner) run(v any) int {
	iter := r.code.RunWithContext(r.ctx, v, r.values...)
	var buf bytes.Buffer
	for {
		x, ok := iter.Next()
		if !ok {
			return 0
		}
		if err, isErr := x.(error); isErr {
			return r.fail(err)
		}
		r.any, r.last = true, x
		buf.Reset()
		if s, isStr := x.(string); isStr && (r.o.raw || r.o.join) {
			buf.WriteString(s)
		} else {
			r.enc.encode(&buf, x, 0)
		}
		if !r.o.join {
			buf.WriteByte('\n')
		}
		if r.inv.Sys.Charge(int64(10+buf.Len())) != nil {
			r.stopped = true
			return 1
		}
		if _, err := r.inv.Stdout.Write(buf.Bytes()); err != nil {
			r.stopped = true
			return 1
		}
	}
}

func (r *runner) fail(err error) int {
	var halt *gojq.HaltError
	if errors.As(err, &halt) {
		r.halted, r.haltCode = true, halt.ExitCode()
		if v := halt.Value(); v != nil {
			if s, ok := v.(string); ok {
				io.WriteString(r.inv.Stderr, s)
			} else {
				var b bytes.Buffer
				(&encoder{order: r.enc.order}).encode(&b, v, 0)
				b.WriteByte('\n')
				r.inv.Stderr.Write(b.Bytes())
			}
		}
		return r.haltCode
	}
	if errors.Is(err, context.DeadlineExceeded) {
		r.inv.Sys.Partial("jq runaway query")
		fmt.Fprintf(r.inv.Stderr, "jq: error (at %s): execution time limit exceeded\n", r.where())
		r.halted, r.haltCode = true, 5
		return 5
	}
	var pe *parseError
	if errors.As(err, &pe) {
		r.parseFailed(err)
		return 2
	}
	msg := jqMessage(err.Error())
	var ve gojq.ValueError
	if errors.As(err, &ve) {
		switch v := ve.Value().(type) {
		case string:
			msg = v
		case nil:
			msg = "null (null)"
		default:
			var b bytes.Buffer
			(&encoder{order: r.enc.order}).encode(&b, v, 0)
			fmt.Fprintf(r.inv.Stderr, "jq: error (at %s) (not a string): %s\n", r.where(), b.Bytes())
			return 5
		}
	}
	fmt.Fprintf(r.inv.Stderr, "jq: error (at %s): %s\n", r.where(), msg)
	return 5
}

var notDefined = regexp.MustCompile(`^function not defined: (.*)$`)

// compileError reports a filter that does not parse or compile, jq style.
func compileError(inv *command.Invocation, filter string, err error) int {
	msg := err.Error()
	var pe *gojq.ParseError
	switch {
	case errors.As(err, &pe):
		tok := pe.Token
		if tok == "" {
			msg = "syntax error, unexpected $end"
		} else {
			msg = fmt.Sprintf("syntax error, unexpected %s", tok)
		}
		msg += " (Unix shell quoting issues?)"
	case notDefined.MatchString(msg):
		msg = notDefined.ReplaceAllString(msg, "$1 is not defined")
	case strings.HasPrefix(msg, "variable not defined: "):
		msg = strings.TrimPrefix(msg, "variable not defined: ") + " is not defined"
	}
	fmt.Fprintf(inv.Stderr, "jq: error: %s at <top-level>, line 1:\n%s\njq: 1 compile error\n", msg, filter)
	return 3
}

// collectQueryOrders records the key order of every object construction
// with literal keys in the query, walking gojq's AST by reflection so that
// every node type is covered without listing them.
func collectQueryOrders(q *gojq.Query, order *keyOrder) {
	objType := reflect.TypeOf(&gojq.Object{})
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			if v.Type() == objType {
				var keys []string
				for _, kv := range v.Interface().(*gojq.Object).KeyVals {
					switch {
					case kv.KeyString != nil && len(kv.KeyString.Queries) == 0:
						keys = append(keys, kv.KeyString.Str)
					case kv.Key != "":
						keys = append(keys, strings.TrimPrefix(kv.Key, "$"))
					default:
						keys = nil
					}
					if keys == nil {
						break
					}
				}
				if len(keys) > 0 {
					order.rememberSet(keys)
				}
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(q))
}

// parseArgs reads jq's command line; a status >= 0 means exit with it.
func parseArgs(inv *command.Invocation, order *keyOrder) (*jqOpts, int) {
	o := &jqOpts{indent: -1, named: map[string]any{}, positional: []any{}}
	usage := func(format string, a ...any) (*jqOpts, int) {
		fmt.Fprintf(inv.Stderr, "jq: "+format+"\n", a...)
		fmt.Fprint(inv.Stderr, jqUsageTail)
		return nil, 2
	}
	args := inv.Args[1:]
	restMode := "" // "args" or "jsonargs"
	fromFile := ""
	addVar := func(name string, v any) {
		o.varNames = append(o.varNames, "$"+name)
		o.varValues = append(o.varValues, v)
		if _, dup := o.named[name]; !dup {
			o.namedKeys = append(o.namedKeys, name)
		}
		o.named[name] = v
	}
	parseJSON := func(text string) (any, error) {
		d := newDecoder([]byte(text), order)
		v, err := d.next()
		if err != nil {
			return nil, err
		}
		if _, err := d.next(); err != io.EOF {
			return nil, errors.New("extra data")
		}
		return v, nil
	}
	readFile := func(name string) ([]byte, error) {
		return inv.FS.ReadFile(inv.Abs(name))
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		need := func(n int) ([]string, bool) {
			if i+n >= len(args) {
				return nil, false
			}
			v := args[i+1 : i+1+n]
			i += n
			return v, true
		}
		if len(a) < 2 || a[0] != '-' || a == "--" {
			if a == "--" {
				// jq 1.6 has no "--" handling beyond treating it as a
				// positional; keep the rest as operands.
				for _, rest := range args[i+1:] {
					o.operand(rest, restMode)
				}
				break
			}
			if !o.hasFilter && fromFile == "" {
				o.filter, o.hasFilter = a, true
				continue
			}
			if o.hasFilter && len(o.varNames) > 0 {
			}
			if err := o.operandJSON(a, restMode, parseJSON); err != nil {
				return usage("Invalid JSON text passed to --jsonargs")
			}
			continue
		}
		if strings.HasPrefix(a, "--") {
			switch a[2:] {
			case "null-input":
				o.nullInput = true
			case "raw-output":
				o.raw = true
			case "join-output":
				o.raw, o.join = true, true
			case "ascii-output":
				o.ascii = true
			case "compact-output":
				o.compact = true
			case "slurp":
				o.slurp = true
			case "exit-status":
				o.exitStatus = true
			case "sort-keys":
				o.sortKeys = true
			case "raw-input":
				o.rawInput = true
			case "monochrome-output":
			case "tab":
				o.tab = true
			case "indent":
				v, ok := need(1)
				if !ok {
					return usage("--indent takes one parameter")
				}
				n, err := strconv.Atoi(v[0])
				if err != nil || n < 0 || n > 7 {
					fmt.Fprintf(inv.Stderr, "jq: Cannot indent more than 7 characters\n")
					fmt.Fprint(inv.Stderr, jqUsageTail)
					return nil, 2
				}
				o.indent = n
			case "arg":
				v, ok := need(2)
				if !ok {
					return usage("--arg takes two parameters (e.g. --arg varname value)")
				}
				addVar(v[0], v[1])
			case "argjson":
				v, ok := need(2)
				if !ok {
					return usage("--argjson takes two parameters (e.g. --argjson varname text)")
				}
				x, err := parseJSON(v[1])
				if err != nil {
					return usage("Invalid JSON text passed to --argjson")
				}
				addVar(v[0], x)
			case "slurpfile", "rawfile":
				v, ok := need(2)
				if !ok {
					return usage("--%s takes two parameters (e.g. --%s varname filename)", a[2:], a[2:])
				}
				data, err := readFile(v[1])
				if err != nil {
					fmt.Fprintf(inv.Stderr, "jq: Bad JSON in --%s %s %s: Could not open %s: %s\n", a[2:], v[0], v[1], v[1], command.Message(err))
					return nil, 2
				}
				if a[2:] == "rawfile" {
					addVar(v[0], string(data))
					continue
				}
				d := newDecoder(data, order)
				all := []any{}
				for {
					x, err := d.next()
					if err == io.EOF {
						break
					}
					if err != nil {
						fmt.Fprintf(inv.Stderr, "jq: Bad JSON in --slurpfile %s %s: %s\n", v[0], v[1], err)
						return nil, 2
					}
					all = append(all, x)
				}
				addVar(v[0], all)
			case "args":
				restMode = "args"
			case "jsonargs":
				restMode = "jsonargs"
			case "from-file":
				v, ok := need(1)
				if !ok {
					return usage("-f takes a parameter")
				}
				fromFile = v[0]
			case "help":
				fmt.Fprint(inv.Stdout, "Usage:\tjq [OPTIONS] FILTER [FILES...]\n\tjq [OPTIONS] --args FILTER [ARGUMENTS...]\n\tjq [OPTIONS] --jsonargs FILTER [JSON_VALUES...]\n")
				return nil, 0
			case "version":
				fmt.Fprintln(inv.Stdout, "jq-1.6")
				return nil, 0
			default:
				inv.Sys.Partial("jq " + a)
				return usage("Unknown option %s", a)
			}
			continue
		}
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'n':
				o.nullInput = true
			case 'r':
				o.raw = true
			case 'j':
				o.raw, o.join = true, true
			case 'a':
				o.ascii = true
			case 'c':
				o.compact = true
			case 's':
				o.slurp = true
			case 'e':
				o.exitStatus = true
			case 'S':
				o.sortKeys = true
			case 'R':
				o.rawInput = true
			case 'M':
			case 'h':
				fmt.Fprint(inv.Stdout, "Usage:\tjq [OPTIONS] FILTER [FILES...]\n")
				return nil, 0
			case 'V':
				fmt.Fprintln(inv.Stdout, "jq-1.6")
				return nil, 0
			case 'f':
				v, ok := need(1)
				if !ok {
					return usage("-f takes a parameter")
				}
				fromFile = v[0]
			default:
				inv.Sys.Partial("jq -" + string(a[j]))
				return usage("Unknown option %s", a)
			}
		}
	}
	if fromFile != "" {
		data, err := readFile(fromFile)
		if err != nil {
			fmt.Fprintf(inv.Stderr, "jq: error: Could not open %s: %s\n", fromFile, command.Message(err))
			return nil, 2
		}
		if o.hasFilter {
			// With -f the first operand is an input file, not the filter.
			o.files = append([]string{o.filter}, o.files...)
		}
		o.filter, o.hasFilter = string(data), true
	}
	if !o.hasFilter && restMode == "" {
		// Without a filter and without a terminal, jq 1.6 runs ".".
		o.filter, o.hasFilter = ".", true
	}
	if !o.hasFilter {
		fmt.Fprint(inv.Stderr, "Usage:\tjq [OPTIONS] FILTER [FILES...]\n\tjq [OPTIONS] --args FILTER [ARGUMENTS...]\n\tjq [OPTIONS] --jsonargs FILTER [JSON_VALUES...]\n\n")
		fmt.Fprint(inv.Stderr, "jq is a tool for processing JSON inputs, applying the given filter to\nits JSON text inputs and producing the filter's results as JSON on\nstandard output.\n\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq\n")
		return nil, 2
	}
	return o, -1
}

func (o *jqOpts) operand(a, mode string) {
	switch mode {
	case "args":
		o.positional = append(o.positional, a)
	default:
		o.files = append(o.files, a)
	}
}

func (o *jqOpts) operandJSON(a, mode string, parse func(string) (any, error)) error {
	if mode != "jsonargs" {
		o.operand(a, mode)
		return nil
	}
	v, err := parse(a)
	if err != nil {
		return err
	}
	o.positional = append(o.positional, v)
	return nil
}

// inputs is the stream of input values, shared by the main loop and the
// input/inputs builtins (it implements gojq.Iter).
type inputs struct {
	inv           *command.Invocation
	order         *keyOrder
	raw, slurpRaw bool
	dec           *decoder
	data          []byte
	lines         int // newlines read so far (for error locations)
	file          string
	rawLines      []string
	rawPos        int
	consumed      int
	release       func()
}

// load reads every input file into memory (they are charged and reserved
// once); a negative status means stop.
func (in *inputs) load(files []string) int {
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	var all []byte
	for _, f := range files {
		var data []byte
		var err error
		if f == "-" {
			data, err = io.ReadAll(in.inv.Stdin)
		} else {
			data, err = in.inv.FS.ReadFile(in.inv.Abs(f))
		}
		if err != nil {
			fmt.Fprintf(in.inv.Stderr, "jq: error: Could not open file %s: %s\n", f, command.Message(err))
			status = 2
			continue
		}
		in.file = f
		all = append(all, data...)
	}
	if in.inv.Sys.Charge(int64(len(all))) != nil {
		return -1
	}
	rel, err := in.inv.Sys.Reserve(int64(4 * len(all)))
	in.release = rel
	if err != nil {
		return -1
	}
	in.data = all
	in.lines = bytes.Count(all, []byte("\n"))
	if in.raw {
		if in.slurpRaw {
			in.rawLines = []string{string(all)}
		} else {
			s := string(all)
			s = strings.TrimSuffix(s, "\n")
			if len(all) > 0 {
				in.rawLines = strings.Split(s, "\n")
			}
		}
	} else {
		in.dec = newDecoder(all, in.order)
	}
	return status
}

// nextValue returns the next input value or io.EOF.
func (in *inputs) nextValue() (any, error) {
	if in.raw {
		if in.rawPos >= len(in.rawLines) {
			return nil, io.EOF
		}
		in.rawPos++
		in.consumed++
		return in.rawLines[in.rawPos-1], nil
	}
	v, err := in.dec.next()
	if err == nil {
		in.consumed++
	}
	return v, err
}

// Next implements gojq.Iter for input and inputs.
func (in *inputs) Next() (any, bool) {
	v, err := in.nextValue()
	if err == io.EOF {
		return nil, false
	}
	if err != nil {
		return err, true
	}
	return v, true
}

// compact encodes v as one-line JSON with the known key order.
func compact(order *keyOrder, v any) string {
	var b bytes.Buffer
	(&encoder{order: order}).encode(&b, v, 0)
	return b.String()
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case int, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "number"
}

// fromEntries is jq 1.6's from_entries, keeping the entries' order.
func fromEntries(order *keyOrder, v any) any {
	arr, ok := v.([]any)
	if !ok {
		return fmt.Errorf("Cannot iterate over %s", typeName(v))
	}
	m := map[string]any{}
	var keys []string
	for _, e := range arr {
		em, ok := e.(map[string]any)
		if !ok {
			return fmt.Errorf("Cannot index %s with \"key\"", typeName(e))
		}
		var k any
		for _, name := range []string{"key", "k", "name", "Name", "K", "Key"} {
			if x, ok := em[name]; ok && x != nil && x != false {
				k = x
				break
			}
		}
		var ks string
		switch x := k.(type) {
		case string:
			ks = x
		case nil:
			return fmt.Errorf("Cannot use null (null) as object key")
		default:
			ks = compact(order, x)
		}
		val, has := em["value"]
		if !has {
			val = em["v"]
		}
		if _, dup := m[ks]; !dup {
			keys = append(keys, ks)
		}
		m[ks] = val
	}
	order.remember(m, keys)
	return m
}

// walkTerms calls fn on every term of q, children before parents.
func walkTerms(q *gojq.Query, fn func(*gojq.Term)) { walkNodes(q, fn) }

// walkNodes calls fn on every node of type T in q, children before
// parents, by reflection over gojq's AST so that no node type is missed.
func walkNodes[T any](q *gojq.Query, fn func(*T)) {
	nodeType := reflect.TypeFor[*T]()
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || seen[v.Pointer()] {
				return
			}
			seen[v.Pointer()] = true
			walk(v.Elem())
			if v.Type() == nodeType {
				fn(v.Interface().(*T))
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i))
				}
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(q))
}
