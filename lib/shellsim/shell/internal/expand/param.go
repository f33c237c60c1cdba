// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

func nodeLit(node syntax.Node) string {
	if word, ok := node.(*syntax.Word); ok {
		return word.Lit()
	}
	return ""
}

// UnsetParameterError is returned when a parameter expansion encounters an
// unset variable and [Config.NoUnset] has been set.
type UnsetParameterError struct {
	Node    *syntax.ParamExp
	Message string
}

func (u UnsetParameterError) Error() string {
	return fmt.Sprintf("%s: %s", u.Node.Param.Value, u.Message)
}

// FatalSubstError is a bad substitution that ends a non-interactive
// shell, as an unknown ${x@op} operator on a set parameter does in bash.
type FatalSubstError struct{ Text string }

func (e FatalSubstError) Error() string { return e.Text + ": bad substitution" }

// isFatalSubst reports a word that is only a FatalSubstMarker expansion.
func isFatalSubst(w *syntax.Word) bool {
	if w == nil || len(w.Parts) != 1 {
		return false
	}
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	return ok && pe.Param != nil && strings.HasPrefix(pe.Param.Value, FatalSubstMarker)
}

func overridingUnset(pe *syntax.ParamExp) bool {
	if pe.Exp == nil || isFatalSubst(pe.Exp.Word) {
		return false
	}
	switch pe.Exp.Op {
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull,
		syntax.DefaultUnset, syntax.DefaultUnsetOrNull,
		syntax.ErrorUnset, syntax.ErrorUnsetOrNull,
		syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return true
	}
	return false
}

func (cfg *Config) paramExp(pe *syntax.ParamExp) (string, error) {
	oldParam := cfg.curParam
	cfg.curParam = pe
	defer func() { cfg.curParam = oldParam }()

	if pe.Param == nil { // e.g. zsh's ${}
		return "", fmt.Errorf("unsupported")
	}
	name := pe.Param.Value
	if strings.HasPrefix(name, BadSubstMarker) {
		return "", fmt.Errorf("%s: bad substitution", name[len(BadSubstMarker):])
	}
	if strings.HasPrefix(name, FatalSubstMarker) {
		text := name[len(FatalSubstMarker):]
		if soft, ok := strings.CutPrefix(text, "\x01"); ok {
			// in a here-document: not fatal
			return "", fmt.Errorf("%s: bad substitution", soft)
		}
		return "", FatalSubstError{Text: text}
	}
	index := pe.Index
	switch name {
	case "@", "*":
		index = &syntax.Word{Parts: []syntax.WordPart{
			&syntax.Lit{Value: name},
		}}
	}
	// "*" expansions like ${*}, ${arr[*]}, or ${!prefix*} join their
	// elements with the first IFS character; others use a space.
	join := func(elems []string) string {
		if nodeLit(index) == "*" || pe.Names == syntax.NamesPrefix {
			return cfg.ifsJoin(elems)
		}
		return cfg.join(elems, " ")
	}
	var vr Variable
	// ShellSim: LINENO comes from the environment too, which knows the
	// current command's line (and keeps it inside trap handlers).
	vr = cfg.Env.Get(name)
	orig := vr
	if n, v := vr.Resolve(cfg.Env); n != "" {
		name, vr = n, v
	}
	if cfg.NoUnset && pe.Length && pe.Index != nil && name != "@" && name != "*" &&
		(!vr.IsSet() || (vr.Kind != Indexed && vr.Kind != Associative)) {
		// ShellSim: under set -u, bash's ${#name[sub]} of an unset or
		// scalar name fails the command without ending the shell
		return "", fmt.Errorf("%s: unbound variable", name)
	}
	if cfg.NoUnset && !vr.IsSet() && !overridingUnset(pe) && !(pe.Excl && pe.Names == 0 && pe.Index == nil) {
		// (${!x} of an unset x is an invalid indirect expansion instead)
		return "", cfg.unbound(pe)
	}

	var sliceOffset, sliceLen int
	if pe.Slice != nil {
		var err error
		what := name // bash names a list name[@] in its errors
		if l := nodeLit(index); (l == "@" || l == "*") && name != "@" && name != "*" {
			what += "[" + l + "]"
		}
		if pe.Slice.Offset != nil {
			sliceOffset, err = cfg.arithmTop(pe.Slice.Offset, syntax.Pos{}, syntax.Pos{}, what)
			if err != nil {
				return "", err
			}
		}
		if pe.Slice.Length != nil {
			sliceLen, err = cfg.arithmTop(pe.Slice.Length, syntax.Pos{}, syntax.Pos{}, what)
			if err != nil {
				return "", err
			}
			if l := nodeLit(index); sliceLen < 0 && (l == "@" || l == "*") {
				// ShellSim: bash refuses a negative length for arrays
				return "", cfg.substringError(pe.Slice.Length, sliceLen)
			}
		}
	}

	var (
		str   string
		elems []string

		indexAllElements bool // true if var has been accessed with * or @ index
		callVarInd       = true
		set              = vr.IsSet()
	)

	switch nodeLit(index) {
	case "@", "*":
		switch vr.Kind {
		case Unknown:
			elems = nil
			indexAllElements = true
		case Indexed:
			indexAllElements = true
			callVarInd = false
			elems = cfg.sliceElems(pe, vr.List, vr.Indexes, name == "@" || name == "*")
			str = join(elems)
		case Associative:
			// ShellSim: ${#A[@]} and friends see every value.
			indexAllElements = true
			callVarInd = false
			elems = cfg.sliceElems(pe, assocValues(vr.Map), assocIndexes, false)
			str = join(elems)
		}
	}
	if callVarInd {
		var err error
		str, set, err = cfg.varInd(vr, index)
		if errors.Is(err, errNegativeIndex) && pe.Length {
			// ${#a[-9]} fails the command (bash's array_length_reference
			// names the subscript text and its bracket)
			return "", fmt.Errorf("%s: bad array subscript", cfg.subscriptText(pe))
		}
		if errors.Is(err, errNegativeIndex) && cfg.Warn != nil {
			// bash warns and expands to nothing
			cfg.Warn(name + ": bad array subscript")
			str, set, err = "", false, nil
		}
		if err != nil {
			return "", err
		}
		if cfg.NoUnset && !set && pe.Index != nil && !pe.Length && !pe.Excl && !overridingUnset(pe) {
			// ShellSim: an element that does not exist is unbound
			return "", cfg.unbound(pe)
		}
	}
	if !indexAllElements {
		elems = []string{str}
	}

	switch {
	case pe.Length:
		n := len(elems)
		switch nodeLit(index) {
		case "@", "*":
		default:
			n = utf8.RuneCountInString(str)
		}
		str = strconv.Itoa(n)
	case pe.Excl:
		var strs []string
		switch {
		case pe.Names != 0:
			strs = cfg.namesByPrefix(pe.Param.Value)
		case orig.Kind == NameRef:
			strs = append(strs, orig.Str)
		case pe.Index != nil && vr.Kind == Indexed:
			strs = vr.indexedKeys()
		case pe.Index != nil && vr.Kind == Associative:
			strs = AssocKeys(vr.Map)
		case !vr.IsSet():
			return "", fmt.Errorf("%s: invalid indirect expansion", pe.Param.Value)
		case !validIndirect(str):
			// ShellSim: as bash, the value must name a parameter
			return "", fmt.Errorf("%s: invalid variable name", str)
		case !syntax.ValidName(str) || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil:
			// ShellSim: the value names a parameter, perhaps special,
			// positional or an array element (x=@, x='a[1]'); the
			// other operators apply to it
			return cfg.paramExp(indirectTarget(cfg, pe, str))
		default:
			vr = cfg.Env.Get(str)
			if cfg.NoUnset && !vr.IsSet() {
				return "", UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: "!" + pe.Param.Value}}, Message: "unbound variable"}
			}
			strs = append(strs, vr.String())
		}
		str = join(strs)
	case pe.Width:
		return "", fmt.Errorf("unsupported")
	case pe.IsSet:
		return "", fmt.Errorf("unsupported")
	case pe.Slice != nil:
		if callVarInd {
			// The offset and length are in characters, not bytes.
			rs := []rune(str)
			slicePos := func(n int) int {
				if n < 0 {
					n = len(rs) + n
					if n < 0 {
						n = len(rs)
					}
				} else if n > len(rs) {
					n = len(rs)
				}
				return n
			}
			if pe.Slice.Offset != nil {
				rs = rs[slicePos(sliceOffset):]
			}
			if pe.Slice.Length != nil {
				if sliceLen < 0 && len(rs)+sliceLen < 0 {
					return "", cfg.substringError(pe.Slice.Length, sliceLen)
				}
				rs = rs[:slicePos(sliceLen)]
			}
			str = string(rs)
		} // else, elems are already sliced
	case pe.Repl != nil:
		elems, err := cfg.replaceElems(pe.Repl, elems)
		if err != nil {
			return "", err
		}
		str = join(elems)
	case pe.Exp != nil && isFatalSubst(pe.Exp.Word):
		// bash checks ${name@op}'s operator only when name is set (an
		// array or $@: when it has elements)
		if indexAllElements {
			set = len(elems) > 0
		}
		if set {
			_, err := Literal(cfg, pe.Exp.Word)
			return "", err
		}
		str = ""
	case pe.Exp != nil:
		arg, err := Literal(cfg, pe.Exp.Word)
		if err != nil {
			return "", err
		}
		switch op := pe.Exp.Op; op {
		case syntax.AlternateUnsetOrNull:
			if str == "" {
				break
			}
			fallthrough
		case syntax.AlternateUnset:
			if set {
				str = arg
			}
		case syntax.DefaultUnset:
			if set {
				break
			}
			fallthrough
		case syntax.DefaultUnsetOrNull:
			if str == "" {
				str = arg
			}
		case syntax.ErrorUnset:
			if set {
				break
			}
			fallthrough
		case syntax.ErrorUnsetOrNull:
			if str == "" {
				msg := arg
				if msg == "" && op == syntax.ErrorUnset {
					msg = "parameter not set"
				} else if msg == "" {
					msg = "parameter null or not set"
				}
				return "", UnsetParameterError{
					Node:    pe,
					Message: msg,
				}
			}
		case syntax.AssignUnset:
			if set {
				break
			}
			fallthrough
		case syntax.AssignUnsetOrNull:
			if str == "" {
				if err := cfg.assignElem(name, vr, index, arg); err != nil {
					return "", AssignDefaultError{err}
				}
				str = arg
			}
		case syntax.RemSmallPrefix, syntax.RemLargePrefix,
			syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			str = join(cfg.removePatternElems(op, arg, elems))
		case syntax.UpperFirst, syntax.UpperAll,
			syntax.LowerFirst, syntax.LowerAll:
			str = join(cfg.caseConvElems(op, arg, elems))
		case syntax.OtherParamOps:
			if (arg == "U" || arg == "L") && !cfg.fits(len(str)) {
				return "", cfg.checkErr
			}
			if indexAllElements {
				// ShellSim: each element, with bash's quoting
				keys := elemKeys(vr)
				if name == "@" || name == "*" {
					keys = nil
				}
				str = join(cfg.transformList(arg, name, vr, keys, elems))
				break
			}
			switch arg {
			case "Q", "K", "k", "A", "E", "a":
				// a nameref's are its target's (name is resolved)
				str = cfg.transformOne(arg, name, vr, str, set)
			case "P":
				// TODO: implement prompt expansion (\u, \h, \w, etc.).
			case "U":
				if !cfg.fits(len(str)) {
					return "", cfg.checkErr
				}
				str = strings.ToUpper(str)
			case "u":
				rs := []rune(str)
				if len(rs) > 0 {
					rs[0] = unicode.ToUpper(rs[0])
					str = string(rs)
				}
			case "L":
				if !cfg.fits(len(str)) {
					return "", cfg.checkErr
				}
				str = strings.ToLower(str)
			default:
				panic(fmt.Sprintf("unexpected @%s param expansion", arg))
			}
		}
	}
	return str, nil
}

func removePattern(str, pat string, fromEnd, shortest bool) string {
	var mode pattern.Mode
	if shortest {
		mode |= pattern.Shortest
	}
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		return str
	}
	switch {
	case fromEnd && shortest:
		// use .* to get the right-most shortest match
		expr = ".*(" + expr + ")$"
	case fromEnd:
		// simple suffix
		expr = "(" + expr + ")$"
	default:
		// simple prefix
		expr = "^(" + expr + ")"
	}
	// no need to check error as Translate returns one
	rx := regexp.MustCompile(expr)
	if loc := rx.FindStringSubmatchIndex(str); loc != nil {
		// remove the original pattern (the submatch)
		str = str[:loc[2]] + str[loc[3]:]
	}
	return str
}

// The helpers below never modify elems in place, as it may alias a
// variable's list of elements.

// perElemOps applies pattern removal, replacement, or case conversion to
// each element, leaving them unchanged for any whole-expansion operator.
func (cfg *Config) perElemOps(pe *syntax.ParamExp, elems []string) ([]string, error) {
	switch {
	case pe.Repl != nil:
		return cfg.replaceElems(pe.Repl, elems)
	case pe.Exp != nil && isFatalSubst(pe.Exp.Word):
		if len(elems) > 0 {
			_, err := Literal(cfg, pe.Exp.Word)
			return nil, err
		}
		return []string{}, nil // no fields
	case pe.Exp != nil:
		arg, err := Literal(cfg, pe.Exp.Word)
		if err != nil {
			return nil, err
		}
		switch op := pe.Exp.Op; op {
		case syntax.RemSmallPrefix, syntax.RemLargePrefix,
			syntax.RemSmallSuffix, syntax.RemLargeSuffix:
			return cfg.removePatternElems(op, arg, elems), nil
		case syntax.UpperFirst, syntax.UpperAll,
			syntax.LowerFirst, syntax.LowerAll:
			return cfg.caseConvElems(op, arg, elems), nil
		case syntax.OtherParamOps:
			// ShellSim: "${a[@]@Q}" and friends, each element
			name := pe.Param.Value
			vr := cfg.Env.Get(name)
			keys := elemKeys(vr)
			if name == "@" || name == "*" {
				keys = nil
			}
			return cfg.transformList(arg, name, vr, keys, elems), nil
		}
	}
	return elems, nil
}

// replaceElems applies a ${var/pattern/repl} replacement to each element.
func (cfg *Config) replaceElems(repl *syntax.Replace, elems []string) ([]string, error) {
	orig, err := Pattern(cfg, repl.Orig)
	if err != nil {
		return nil, err
	}
	// ShellSim: bash anchors ${x/#p/r} at the start and ${x/%p/r} at the end.
	if !repl.All && (strings.HasPrefix(orig, "#") || strings.HasPrefix(orig, "%")) {
		return cfg.replaceAnchored(orig[0] == '#', orig[1:], repl, elems)
	}
	if orig == "" {
		return elems, nil // nothing to replace
	}
	with, err := Literal(cfg, repl.With)
	if err != nil {
		return nil, err
	}
	n := 1
	if repl.All {
		n = -1
	}
	out := make([]string, len(elems))
	for i, elem := range elems {
		locs := findAllIndex(orig, elem, n)
		// ShellSim: let the caller veto results too big for the memory limit
		// before they are built on the host.
		if size := int64(len(elem)) + int64(len(locs))*int64(len(with)); size > 1<<20 && cfg.Check != nil {
			if err := cfg.Check(size); err != nil {
				return nil, err
			}
		}
		sb := cfg.strBuilder()
		last := 0
		for _, loc := range locs {
			sb.WriteString(elem[last:loc[0]])
			sb.WriteString(with)
			last = loc[1]
		}
		sb.WriteString(elem[last:])
		out[i] = cfg.built(sb)
	}
	return out, nil
}

// removePatternElems applies a pattern removal operator to each element.
func (cfg *Config) removePatternElems(op syntax.ParExpOperator, arg string, elems []string) []string {
	suffix := op == syntax.RemSmallSuffix || op == syntax.RemLargeSuffix
	small := op == syntax.RemSmallPrefix || op == syntax.RemSmallSuffix
	out := make([]string, len(elems))
	for i, elem := range elems {
		out[i] = removePattern(elem, arg, suffix, small)
	}
	return out
}

// caseConvElems applies a case conversion operator to each element.
func (cfg *Config) caseConvElems(op syntax.ParExpOperator, arg string, elems []string) []string {
	caseFunc := unicode.ToLower
	if op == syntax.UpperFirst || op == syntax.UpperAll {
		caseFunc = unicode.ToUpper
	}
	all := op == syntax.UpperAll || op == syntax.LowerAll

	// empty string means '?'; nothing to do there
	expr, err := pattern.Regexp(arg, 0)
	if err != nil {
		return elems
	}
	rx := regexp.MustCompile(expr)

	out := make([]string, len(elems))
	for i, elem := range elems {
		if !cfg.fits(5 * len(elem)) { // the runes and the result
			return elems
		}
		rs := []rune(elem)
		for ri, r := range rs {
			if rx.MatchString(string(r)) {
				rs[ri] = caseFunc(r)
			}
			if !all {
				break // only the first character is considered
			}
		}
		out[i] = string(rs)
	}
	return out
}

// varInd expands an indexed variable expansion like ${a[i]}, also reporting
// whether the resulting element is set, which may be false for missing array
// elements such as the holes in a sparse array.
func (cfg *Config) varInd(vr Variable, idx syntax.ArithmExpr) (string, bool, error) {
	if idx == nil {
		switch vr.Kind {
		case Indexed:
			// A bare $a is the element at index zero, which may be unset.
			str, ok := vr.indexedVal(0)
			return str, ok, nil
		case Associative:
			str, ok := vr.Map["0"]
			return str, ok, nil
		}
		return vr.String(), vr.IsSet(), nil
	}
	switch vr.Kind {
	case String:
		n, err := cfg.subscript(idx)
		if err != nil {
			return "", false, err
		}
		if n == 0 {
			return vr.Str, vr.IsSet(), nil
		}
		if n < 0 && vr.IsSet() {
			// ShellSim: bash refuses a negative subscript of a scalar too
			return "", false, errNegativeIndex
		}
	case Indexed:
		switch nodeLit(idx) {
		case "*", "@":
			return cfg.join(vr.List, " "), vr.IsSet(), nil
		}
		i, err := cfg.subscript(idx)
		if err != nil {
			return "", false, err
		}
		if i < 0 {
			// Negative indices count from one past the maximum index.
			if i += IndexedMax(vr.List, vr.Indexes) + 1; i < 0 {
				return "", false, errNegativeIndex
			}
		}
		if str, ok := vr.indexedVal(i); ok {
			return str, true, nil
		}
	case Associative:
		switch lit := nodeLit(idx); lit {
		case "@", "*":
			strs := assocValues(vr.Map)
			if lit == "*" {
				return cfg.ifsJoin(strs), vr.IsSet(), nil
			}
			return cfg.join(strs, " "), vr.IsSet(), nil
		}
		val, err := AssocIndex(cfg, idx)
		if err != nil {
			return "", false, err
		}
		str, ok := vr.Map[val]
		return str, ok, nil
	}
	return "", false, nil
}

// assignElem assigns a variable via an expansion like ${a=val} or
// ${a[i]=val}, setting a single element when the variable is an array or is
// indexed, like Bash. ${a[i]=val} on a whole scalar converts it to an array.
func (cfg *Config) assignElem(name string, vr Variable, idx syntax.ArithmExpr, val string) error {
	wenv, ok := cfg.Env.(WriteEnviron)
	if !ok {
		return fmt.Errorf("environment is read-only")
	}
	arrayWise := false
	switch nodeLit(idx) {
	case "@", "*":
		// ${a[@]=val} assigns the element at index zero.
		arrayWise = true
		idx = nil
	}
	if idx == nil && !arrayWise && vr.Kind != Indexed && vr.Kind != Associative {
		// A plain scalar assignment like ${x=val}.
		return wenv.Set(name, Variable{Set: true, Kind: String, Str: val})
	}
	switch vr.Kind {
	case Associative:
		key := "0"
		if idx != nil {
			var err error
			if key, err = AssocIndex(cfg, idx); err != nil {
				return err
			}
		}
		vr.Map = maps.Clone(vr.Map)
		if vr.Map == nil {
			vr.Map = make(map[string]string, 1)
		}
		vr.Map[key] = val
	default: // assign a single indexed element
		i := 0
		if idx != nil {
			var err error
			if i, err = cfg.subscript(idx); err != nil {
				return err
			}
			if i < 0 {
				// Negative indices count from one past the maximum index.
				if i += IndexedMax(vr.List, vr.Indexes) + 1; i < 0 {
					return fmt.Errorf("negative array index")
				}
			}
		}
		list, indexes := slices.Clone(vr.List), slices.Clone(vr.Indexes)
		if vr.Kind == String {
			list, indexes = []string{vr.Str}, nil
		}
		list, indexes = SetIndexedElem(list, indexes, i, val)
		vr.Kind, vr.Str, vr.List, vr.Indexes = Indexed, "", list, indexes
	}
	vr.Set = true
	return wenv.Set(name, vr)
}

func (cfg *Config) namesByPrefix(prefix string) []string {
	var names []string
	for name := range cfg.Env.Each {
		if strings.HasPrefix(name, prefix) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// replaceAnchored implements ${x/#pat/rep} (prefix) and ${x/%pat/rep}
// (suffix) with the longest match, as bash does.
func (cfg *Config) replaceAnchored(prefix bool, pat string, repl *syntax.Replace, elems []string) ([]string, error) {
	with, err := Literal(cfg, repl.With)
	if err != nil {
		return nil, err
	}
	expr, err := pattern.Regexp(pat, pattern.EntireString)
	if err != nil {
		return elems, nil
	}
	rx, err := regexp.Compile("(?s)" + expr)
	if err != nil {
		return elems, nil
	}
	out := make([]string, len(elems))
	for i, elem := range elems {
		out[i] = elem
		if prefix {
			for end := len(elem); end >= 0; end-- {
				if rx.MatchString(elem[:end]) {
					out[i] = with + elem[end:]
					break
				}
			}
		} else {
			for start := 0; start <= len(elem); start++ {
				if rx.MatchString(elem[start:]) {
					out[i] = elem[:start] + with
					break
				}
			}
		}
	}
	return out, nil
}

// assocValues lists an associative array's values in AssocKeys order.
func assocValues(m map[string]string) []string {
	keys := AssocKeys(m)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}

// AssocKeys orders keys the way bash 5 walks its hash table (FNV-1 hash,
// 1024 buckets growing 4x past two entries per bucket), so that iteration
// is deterministic and usually matches bash; ties break by key.
func AssocKeys(m map[string]string) []string {
	keys := slices.Sorted(maps.Keys(m))
	nb := uint32(1024)
	for uint32(len(keys)) >= nb*2 {
		nb *= 4
	}
	bucket := func(k string) uint32 {
		h := uint32(2166136261)
		for i := 0; i < len(k); i++ {
			h *= 16777619
			h ^= uint32(k[i])
		}
		return h & (nb - 1)
	}
	slices.SortStableFunc(keys, func(a, b string) int {
		return int(bucket(a)) - int(bucket(b))
	})
	return keys
}

// AssocIndex expands a subscript of an associative array. The parser reads
// every subscript as arithmetic, so ${m[$r,$c]} arrives as a comma
// expression; bash treats it as the string "$r,$c" expanded (ShellSim).
func AssocIndex(cfg *Config, idx syntax.ArithmExpr) (string, error) {
	switch x := idx.(type) {
	case *syntax.Word:
		return Literal(cfg, x)
	case *syntax.BinaryArithm:
		l, err := AssocIndex(cfg, x.X)
		if err != nil {
			return "", err
		}
		r, err := AssocIndex(cfg, x.Y)
		if err != nil {
			return "", err
		}
		return l + x.Op.String() + r, nil
	case *syntax.UnaryArithm:
		v, err := AssocIndex(cfg, x.X)
		if err != nil {
			return "", err
		}
		if x.Post {
			return v + x.Op.String(), nil
		}
		return x.Op.String() + v, nil
	case *syntax.ParenArithm:
		v, err := AssocIndex(cfg, x.X)
		return "(" + v + ")", err
	}
	return "", fmt.Errorf("bad array subscript")
}

// substringError is bash's report of a negative ${x:o:len} length, named
// by the length's text as written.
func (cfg *Config) substringError(length syntax.ArithmExpr, n int) error {
	text, ok, _ := cfg.arithText(length, syntax.Pos{}, syntax.Pos{}, textRaw)
	if !ok {
		text = strconv.Itoa(n)
	}
	return fmt.Errorf("%s: substring expression < 0", text)
}

// unbound is set -u's error for pe, naming it as bash does: a[sub] with
// the subscript's text, $1 for a short positional parameter.
func (cfg *Config) unbound(pe *syntax.ParamExp) error {
	name := pe.Param.Value
	switch lit := nodeLit(pe.Index); {
	case pe.Index != nil && lit != "@" && lit != "*" && name != "@" && name != "*":
		name += "[" + cfg.subscriptText(pe)
	case pe.Short && name != "" && strings.Trim(name, "0123456789") == "":
		name = "$" + name
	}
	return UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: name}}, Message: "unbound variable"}
}

// subscriptText is the source text of the subscript of ${#name[sub]} and
// its closing bracket, as bash prints it in a subscript error: the
// blanks around sub are kept (the bracket ends just before the brace).
func (cfg *Config) subscriptText(pe *syntax.ParamExp) string {
	text, _, _ := cfg.arithText(pe.Index, syntax.Pos{}, syntax.Pos{}, textRaw)
	if open := pe.Param.End().Offset() + 1; pe.Index.Pos().Offset() > open {
		text = strings.Repeat(" ", int(pe.Index.Pos().Offset()-open)) + text
	}
	if end := pe.Index.End().Offset(); pe.Rbrace.IsValid() && pe.Rbrace.Offset() > end+1 && pe.Exp == nil && pe.Repl == nil && pe.Slice == nil {
		text += strings.Repeat(" ", int(pe.Rbrace.Offset()-end-1))
	}
	return text + "]"
}

// validIndirect reports whether s names a parameter ${!x} may expand: a
// variable, an array element, a positional or a special parameter.
var errNegativeIndex = errors.New("negative array index")

// indirectParam is the parameter expansion a valid indirect value names;
// an indexed subscript is evaluated as arithmetic text, so an error in it
// reads as bash's.
func indirectParam(cfg *Config, s string) *syntax.ParamExp {
	i := strings.IndexByte(s, '[')
	if i < 0 {
		return &syntax.ParamExp{Param: &syntax.Lit{Value: s}}
	}
	name, sub := s[:i], s[i+1:len(s)-1]
	idx := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: sub}}}
	if sub != "@" && sub != "*" && cfg.Env.Get(name).Kind != Associative {
		idx.Parts = append([]syntax.WordPart{&syntax.Lit{Value: DeferredArithMarker}}, idx.Parts...)
	}
	return &syntax.ParamExp{Param: &syntax.Lit{Value: name}, Index: idx}
}

// indirectTarget is ${!x...} with x's value s as the parameter.
func indirectTarget(cfg *Config, pe *syntax.ParamExp, s string) *syntax.ParamExp {
	t := indirectParam(cfg, s)
	pe2 := *pe
	pe2.Excl, pe2.Param, pe2.Index = false, t.Param, t.Index
	return &pe2
}

func validIndirect(s string) bool {
	if syntax.ValidName(s) {
		return true
	}
	if s != "" && strings.Trim(s, "0123456789") == "" {
		return true
	}
	if len(s) == 1 && strings.Contains("@*#?-$!", s) {
		return true
	}
	i := strings.IndexByte(s, '[')
	return i > 0 && strings.HasSuffix(s, "]") && syntax.ValidName(s[:i])
}

// AssignDefaultError is a failed assignment of ${name:=word} (ShellSim:
// bash's reader loop keeps a different status after it).
type AssignDefaultError struct{ Err error }

func (e AssignDefaultError) Error() string { return e.Err.Error() }

func (e AssignDefaultError) Unwrap() error { return e.Err }
