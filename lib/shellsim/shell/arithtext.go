package shell

import (
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bash shows ((...)) and the parts of for ((init; cond; post)) as they were
// written, in set -x and in declare -f, where the parser's printer respaces
// them ("1+2" as "1 + 2"). The tree keeps no source, but it keeps every
// token's position: the text is rebuilt from the tokens, each at its
// offset, with the blanks between them.

type arithToken struct {
	pos  syntax.Pos
	hi   uint // the source offset after it
	text string
}

// wordExpander gives a word's expansion for set -x, or false to show it
// as written.
type wordExpander func(*syntax.Word) (string, bool)

// arithTokens appends the tokens of x in source order.
func arithTokens(x syntax.ArithmExpr, toks []arithToken, exp wordExpander) []arithToken {
	op := func(p syntax.Pos, text string) arithToken { return arithToken{p, p.Offset() + uint(len(text)), text} }
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		toks = arithTokens(x.X, toks, exp)
		toks = append(toks, op(x.OpPos, x.Op.String()))
		toks = arithTokens(x.Y, toks, exp)
	case *syntax.UnaryArithm:
		t := op(x.OpPos, x.Op.String())
		if x.Post {
			toks = append(arithTokens(x.X, toks, exp), t)
		} else {
			toks = arithTokens(x.X, append(toks, t), exp)
		}
	case *syntax.ParenArithm:
		toks = append(toks, op(x.Lparen, "("))
		toks = arithTokens(x.X, toks, exp)
		toks = append(toks, op(x.Rparen, ")"))
	case *syntax.Word:
		text, ok := "", false
		if exp != nil {
			text, ok = exp(x)
		}
		if !ok {
			text = wordText(x)
		}
		toks = append(toks, arithToken{x.Pos(), x.End().Offset(), text})
	}
	return toks
}

// arithText is x as written, from its first token to its last; for a
// deferred expression (checked when it runs) its kept text. exp, when
// set, expands the words as set -x shows them.
func arithText(x syntax.ArithmExpr, exp wordExpander) string {
	if x == nil {
		return ""
	}
	if isDeferredWord(x) {
		w := x.(*syntax.Word)
		if l, ok := w.Parts[len(w.Parts)-1].(*syntax.Lit); ok && len(w.Parts) == 2 {
			return strings.TrimSpace(l.Value)
		}
		return strings.TrimSpace(nodeText(&syntax.Word{Parts: w.Parts[1:]}))
	}
	toks := arithTokens(x, nil, exp)
	sort.SliceStable(toks, func(i, j int) bool { return toks[i].pos.Offset() < toks[j].pos.Offset() })
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			prev := toks[i-1]
			// a line break between tokens is kept (the token starts
			// its line at its column)
			if nl := strings.Count(prev.text, "\n"); t.pos.Line() > prev.pos.Line()+uint(nl) {
				b.WriteString(strings.Repeat("\n", int(t.pos.Line()-prev.pos.Line())-nl))
				b.WriteString(blanks(1, t.pos.Col()))
			} else {
				b.WriteString(blanks(prev.hi, t.pos.Offset()))
			}
		}
		b.WriteString(t.text)
	}
	return b.String()
}

// traceWord expands an arithmetic operand for set -x as bash shows it
// (bash expands the whole expression before it evaluates it); words whose
// expansion has effects (command substitutions, arithmetic, assigning or
// failing defaults) are shown as written, not expanded twice.
func (sh *Shell) traceWord(w *syntax.Word) (string, bool) {
	pure := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp:
			pure = false
		case *syntax.ParamExp:
			if !n.Dollar.IsValid() {
				pure = false // a[1]: a name, shown as written
			}
			if n.Exp != nil {
				switch n.Exp.Op {
				case syntax.AssignUnset, syntax.AssignUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
					pure = false
				}
			}
		}
		return pure
	})
	if !pure {
		return "", false
	}
	s, err := sh.literal(w)
	return s, err == nil
}

// blanks is to-from spaces, for the gaps around an expression (none when
// the positions do not say).
func blanks(from, to uint) string {
	if to <= from {
		return ""
	}
	return strings.Repeat(" ", int(to-from))
}

// arithCmdText is the text between (( and )), blanks included.
func arithCmdText(c *syntax.ArithmCmd, exp wordExpander) string {
	if c.X == nil {
		return blanks(c.Left.Offset()+2, c.Right.Offset())
	}
	if isDeferredWord(c.X) {
		return arithText(c.X, nil)
	}
	return blanks(c.Left.Offset()+2, c.X.Pos().Offset()) + arithText(c.X, exp) + blanks(c.X.End().Offset(), c.Right.Offset())
}

// cStyleParts are init, cond and post as bash keeps them: leading blanks
// dropped, trailing ones kept, "1" for an omitted one. The ';'s between
// the parts are not in the tree: the blanks between a part and the next
// written one (or "))") are taken as split evenly around each ';'
// ("i = 0 ; i < 3", "i=0; i<3").
func cStyleParts(l *syntax.CStyleLoop, exp wordExpander) [3]string {
	exprs := [3]syntax.ArithmExpr{l.Init, l.Cond, l.Post}
	var parts [3]string
	for i, x := range exprs {
		if x == nil {
			parts[i] = "1"
			continue
		}
		parts[i] = arithText(x, exp)
		if isDeferredWord(x) {
			continue
		}
		next, semis := l.Rparen.Offset(), uint(2-i)
		for j := i + 1; j < 3; j++ {
			if exprs[j] != nil {
				next, semis = exprs[j].Pos().Offset(), uint(j-i)
				break
			}
		}
		if end := x.End().Offset(); next >= end+semis {
			if semis == 0 {
				parts[i] += blanks(end, next)
			} else {
				parts[i] += blanks(0, (next-end-semis)/(2*semis))
			}
		}
	}
	return parts
}
