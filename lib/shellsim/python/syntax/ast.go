package syntax

// Node positions are source lines; every node knows its line for
// tracebacks and for pytest's failure report.

// Expr is an expression node.
type Expr interface{ exprNode() }

// Stmt is a statement node.
type Stmt interface{ stmtNode() }

type (
	NameExpr struct {
		Line int
		Id   string
	}
	Const struct {
		Line int
		Kind byte // 'i' int text, 'f' float text, 's' str, 'b' bytes, 'N' None, 'T' True, 'F' False, 'E' Ellipsis
		Val  string
		Lit  any // the interpreter's value, computed once
	}
	// FString is an f-string: literal parts interleaved with formatted values.
	FString struct {
		Line  int
		Parts []Expr // *Const (str) or *FormattedValue
	}
	FormattedValue struct {
		Line       int
		Value      Expr
		Conversion byte // 0, 'r', 's', 'a'
		Spec       Expr // nil or *FString
		Text       string
	}
	Attribute struct {
		Line  int
		Value Expr
		Attr  string
	}
	Subscript struct {
		Line  int
		Value Expr
		Index Expr
	}
	Slice struct {
		Line             int
		Lower, Upper, St Expr
	}
	Call struct {
		Line int
		Func Expr
		Args []Expr // may contain *Starred
		Kw   []Keyword
	}
	Keyword struct {
		Name  string // "" for **expr
		Value Expr
	}
	BinOp struct {
		Line        int
		Op          string
		Left, Right Expr
	}
	UnaryOp struct {
		Line    int
		Op      string // "-", "+", "~", "not"
		Operand Expr
	}
	BoolOp struct {
		Line   int
		Op     string // "and" / "or"
		Values []Expr
	}
	Compare struct {
		Line  int
		Left  Expr
		Ops   []string // "<", "in", "not in", "is", "is not", ...
		Comps []Expr
	}
	IfExp struct {
		Line             int
		Test, Body, Else Expr
	}
	Lambda struct {
		Line int
		Fn   *FuncDef
	}
	ListExpr struct {
		Line int
		Elts []Expr
	}
	TupleExpr struct {
		Line int
		Elts []Expr
	}
	SetExpr struct {
		Line int
		Elts []Expr
	}
	DictExpr struct {
		Line   int
		Keys   []Expr // nil key: **value
		Values []Expr
	}
	Comp struct {
		Line  int
		Kind  byte // 'l', 's', 'd', 'g'
		Elt   Expr
		Value Expr // dict comprehension value
		Gens  []CompFor
	}
	CompFor struct {
		Target Expr
		Iter   Expr
		Ifs    []Expr
	}
	Starred struct {
		Line  int
		Value Expr
	}
	DoubleStarred struct{ Value Expr }
	Yield         struct {
		Line  int
		Value Expr // may be nil
		From  bool
	}
	NamedExpr struct {
		Line   int
		Target string
		Value  Expr
	}
	Await struct {
		Line  int
		Value Expr
	}
)

func (*NameExpr) exprNode()       {}
func (*Const) exprNode()          {}
func (*FString) exprNode()        {}
func (*FormattedValue) exprNode() {}
func (*Attribute) exprNode()      {}
func (*Subscript) exprNode()      {}
func (*Slice) exprNode()          {}
func (*Call) exprNode()           {}
func (*BinOp) exprNode()          {}
func (*UnaryOp) exprNode()        {}
func (*BoolOp) exprNode()         {}
func (*Compare) exprNode()        {}
func (*IfExp) exprNode()          {}
func (*Lambda) exprNode()         {}
func (*ListExpr) exprNode()       {}
func (*TupleExpr) exprNode()      {}
func (*SetExpr) exprNode()        {}
func (*DictExpr) exprNode()       {}
func (*Comp) exprNode()           {}
func (*Starred) exprNode()        {}
func (*DoubleStarred) exprNode()  {}
func (*Yield) exprNode()          {}
func (*NamedExpr) exprNode()      {}
func (*Await) exprNode()          {}

// Param is one function parameter.
type Param struct {
	Name    string
	Default Expr // nil: required
	Kind    byte // 'p' positional-or-keyword, 'o' positional-only, 'k' keyword-only, '*' var-positional, '~' var-keyword
}

type (
	ExprStmt struct {
		Line  int
		Value Expr
	}
	Assign struct {
		Line    int
		Targets []Expr
		Value   Expr
	}
	AugAssign struct {
		Line   int
		Target Expr
		Op     string
		Value  Expr
	}
	AnnAssign struct {
		Line   int
		Target Expr
		Ann    Expr
		Value  Expr // may be nil
		Ann2   string
	}
	Delete struct {
		Line    int
		Targets []Expr
	}
	Pass     struct{ Line int }
	Break    struct{ Line int }
	Continue struct{ Line int }
	Return   struct {
		Line  int
		Value Expr
	}
	Raise struct {
		Line       int
		Exc, Cause Expr
	}
	Global struct {
		Line  int
		Names []string
	}
	Nonlocal struct {
		Line  int
		Names []string
	}
	Import struct {
		Line  int
		Names []Alias
	}
	ImportFrom struct {
		Line   int
		Module string
		Level  int
		Names  []Alias // Name "*" for star import
	}
	Alias struct{ Name, As string }
	If    struct {
		Line int
		Test Expr
		Body []Stmt
		Else []Stmt
	}
	While struct {
		Line int
		Test Expr
		Body []Stmt
		Else []Stmt
	}
	For struct {
		Line   int
		Target Expr
		Iter   Expr
		Body   []Stmt
		Else   []Stmt
	}
	Try struct {
		Line     int
		Body     []Stmt
		Handlers []Handler
		Else     []Stmt
		Finally  []Stmt
	}
	Handler struct {
		Line int
		Type Expr // nil: bare except
		Name string
		Body []Stmt
	}
	With struct {
		Line  int
		Items []WithItem
		Body  []Stmt
	}
	WithItem struct {
		Ctx  Expr
		Vars Expr
	}
	FuncDef struct {
		Line       int
		Name       string
		Params     []Param
		Body       []Stmt
		Decorators []Expr
		IsGen      bool
		IsLambda   bool
		Doc        string
		Scope      *Scope
		Src        []string // source lines from the first decorator, for pytest reports
		StartLine  int      // line of the first decorator (or of the def)
		EndLine    int
	}
	ClassDef struct {
		Line       int
		Name       string
		Bases      []Expr
		Kw         []Keyword
		Body       []Stmt
		Decorators []Expr
		Scope      *Scope
	}
	Assert struct {
		Line int
		Test Expr
		Msg  Expr
		Text string // source text of the test, for messages
	}
)

func (*ExprStmt) stmtNode()   {}
func (*Assign) stmtNode()     {}
func (*AugAssign) stmtNode()  {}
func (*AnnAssign) stmtNode()  {}
func (*Delete) stmtNode()     {}
func (*Pass) stmtNode()       {}
func (*Break) stmtNode()      {}
func (*Continue) stmtNode()   {}
func (*Return) stmtNode()     {}
func (*Raise) stmtNode()      {}
func (*Global) stmtNode()     {}
func (*Nonlocal) stmtNode()   {}
func (*Import) stmtNode()     {}
func (*ImportFrom) stmtNode() {}
func (*If) stmtNode()         {}
func (*While) stmtNode()      {}
func (*For) stmtNode()        {}
func (*Try) stmtNode()        {}
func (*With) stmtNode()       {}
func (*FuncDef) stmtNode()    {}
func (*ClassDef) stmtNode()   {}
func (*Assert) stmtNode()     {}

// Scope is the result of name analysis for a function or class body:
// which names are local, declared global, or nonlocal.
type Scope struct {
	Locals   map[string]bool
	Globals  map[string]bool
	Nonlocal map[string]bool
}

// Module is a parsed source file.
type Module struct {
	Body  []Stmt
	Lines []string
}
