package shell

import (
	"bytes"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// bashPrinter renders a function body the way bash's declare -f and type
// do (print_cmd.c): one command a line, each but a group's last ended by
// ';', "if ...; then", "for ...;" with "do" on its own line, case items
// with ";;" on a line of their own, blanks around redirection operators.
// Constructs it does not know are printed by the parser's printer.
type bashPrinter struct {
	b      strings.Builder
	indent int
}

func (p *bashPrinter) newline() {
	p.b.WriteByte('\n')
	p.b.WriteString(strings.Repeat(" ", p.indent))
}

// list prints statements one a line; every one but the last (unless
// last is set) is followed by ';'.
func (p *bashPrinter) list(stmts []*syntax.Stmt, last bool) {
	for i, st := range stmts {
		if i > 0 && !stmts[i-1].Background {
			p.newline()
		} else if i > 0 {
			p.b.WriteByte(' ') // bash keeps the command after "cmd &" on its line
		}
		p.stmt(st)
		if i < len(stmts)-1 || last {
			p.semicolon()
		}
	}
}

// semicolon ends a command with ';' unless it already ends a line or in &.
func (p *bashPrinter) semicolon() {
	s := p.b.String()
	if strings.HasSuffix(s, ";") || strings.HasSuffix(s, "&") || strings.HasSuffix(s, "\n") {
		return
	}
	p.b.WriteByte(';')
}

func (p *bashPrinter) stmt(st *syntax.Stmt) {
	if st.Negated {
		p.b.WriteString("! ")
	}
	p.command(st.Cmd)
	for _, r := range st.Redirs {
		p.b.WriteByte(' ')
		p.redirect(r)
	}
	if st.Background {
		p.b.WriteString(" &")
	}
}

func (p *bashPrinter) redirect(r *syntax.Redirect) {
	if r.N != nil {
		p.b.WriteString(r.N.Value)
	}
	if r.N == nil && r.Op == syntax.DplOut {
		p.b.WriteByte('1') // bash names the descriptor of >&N
	} else if r.N == nil && r.Op == syntax.DplIn {
		p.b.WriteByte('0')
	}
	p.b.WriteString(r.Op.String())
	if r.Op == syntax.DplOut || r.Op == syntax.DplIn {
		p.b.WriteString(wordText(r.Word))
		return
	}
	p.b.WriteString(" " + wordText(r.Word))
}

func (p *bashPrinter) command(c syntax.Command) {
	switch c := c.(type) {
	case *syntax.Block:
		p.b.WriteString("{ ")
		p.indent += 4
		p.newline()
		p.list(c.Stmts, false)
		p.indent -= 4
		p.newline()
		p.b.WriteString("}")
	case *syntax.Subshell:
		p.b.WriteString("( ")
		p.inline(c.Stmts)
		p.b.WriteString(" )")
	case *syntax.IfClause:
		p.ifClause(c, "if ")
		p.newline()
		p.b.WriteString("fi")
	case *syntax.ForClause:
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			p.b.WriteString("for " + l.Name.Value)
			if l.InPos.IsValid() {
				p.b.WriteString(" in")
				for _, w := range l.Items {
					p.b.WriteString(" " + wordText(w))
				}
			}
			p.b.WriteByte(';')
		case *syntax.CStyleLoop:
			parts := cStyleParts(l, nil)
			p.b.WriteString("for ((" + strings.Join(parts[:], "; ") + "))")
		}
		p.newline()
		p.b.WriteString("do")
		p.body(c.Do)
		p.newline()
		p.b.WriteString("done")
	case *syntax.WhileClause:
		if c.Until {
			p.b.WriteString("until ")
		} else {
			p.b.WriteString("while ")
		}
		p.inline(c.Cond)
		p.semicolon()
		p.b.WriteString(" do")
		p.body(c.Do)
		p.newline()
		p.b.WriteString("done")
	case *syntax.CaseClause:
		p.b.WriteString("case " + wordText(c.Word) + " in ")
		p.indent += 4
		for _, it := range c.Items {
			p.newline()
			pats := make([]string, len(it.Patterns))
			for i, w := range it.Patterns {
				pats[i] = wordText(w)
			}
			p.b.WriteString(strings.Join(pats, " | ") + ")")
			if len(it.Stmts) > 0 {
				p.indent += 4
				p.newline()
				p.list(it.Stmts, false)
				p.indent -= 4
			} else {
				p.b.WriteByte('\n') // an empty line for an empty item
			}
			p.newline()
			p.b.WriteString(it.Op.String())
		}
		p.indent -= 4
		p.newline()
		p.b.WriteString("esac")
	case *syntax.BinaryCmd:
		p.stmt(c.X)
		p.b.WriteString(" " + c.Op.String() + " ")
		p.stmt(c.Y)
	case *syntax.ArithmCmd:
		p.b.WriteString("((" + arithCmdText(c, nil) + "))")
	default:
		p.b.WriteString(nodeText(c))
	}
}

// body prints a loop or branch body one level in, each command ended by ';'.
func (p *bashPrinter) body(stmts []*syntax.Stmt) {
	p.indent += 4
	p.newline()
	p.list(stmts, true)
	p.indent -= 4
}

func (p *bashPrinter) ifClause(c *syntax.IfClause, kw string) {
	p.b.WriteString(kw)
	p.inline(c.Cond)
	p.semicolon()
	p.b.WriteString(" then")
	p.body(c.Then)
	switch e := c.Else; {
	case e == nil:
	case len(e.Cond) == 0:
		p.newline()
		p.b.WriteString("else")
		p.body(e.Then)
	default:
		// bash keeps elif as an if nested in else
		p.newline()
		p.b.WriteString("else")
		p.indent += 4
		p.newline()
		p.ifClause(e, "if ")
		p.newline()
		p.b.WriteString("fi;")
		p.indent -= 4
	}
}

// inline prints a condition list on the current line.
func (p *bashPrinter) inline(stmts []*syntax.Stmt) {
	for i, st := range stmts {
		if i > 0 {
			p.b.WriteString("; ")
		}
		p.stmt(st)
	}
}

// nodeText is the parser's printing of a node on one line.
func nodeText(n syntax.Node) string {
	var b bytes.Buffer
	syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, n)
	return strings.TrimSpace(b.String())
}

func wordText(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	return nodeText(w)
}

// bashFuncBody renders a function body as bash does; ok is false for
// bodies with here-documents, which keep the parser's printing.
func bashFuncBody(body *syntax.Stmt) (string, bool) {
	ok := true
	syntax.Walk(body, func(n syntax.Node) bool {
		if r, isRedir := n.(*syntax.Redirect); isRedir && r.Hdoc != nil {
			ok = false
		}
		return ok
	})
	if !ok {
		return "", false
	}
	var p bashPrinter
	if _, isBlock := body.Cmd.(*syntax.Block); !isBlock {
		// f() ( ... ): bash wraps it in a group
		p.b.WriteString("{ ")
		p.indent = 4
		p.newline()
		p.stmt(body)
		p.indent = 0
		p.newline()
		p.b.WriteString("}")
		return p.b.String(), true
	}
	p.stmt(body)
	return p.b.String(), true
}
