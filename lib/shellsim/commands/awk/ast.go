package awk

// Expressions.
type expr interface{}

type (
	numLit   struct{ v float64 }
	strLit   struct{ s string }
	regexLit struct{ src string } // compiled (and cached) by the interpreter
	// varRef names a variable: a global (local false) or a function
	// parameter/local of the current frame.
	varRef struct {
		name  string
		local bool
		idx   int
	}
	fieldRef  struct{ index expr }
	indexExpr struct {
		arr  *varRef
		subs []expr
	}
	assignExpr struct {
		lhs expr // *varRef, *fieldRef or *indexExpr
		op  tok  // tAssign or an op-assign token
		rhs expr
	}
	condExpr   struct{ c, a, b expr }
	binaryExpr struct {
		op   tok // arithmetic, comparison; tString for concatenation
		l, r expr
	}
	andExpr   struct{ l, r expr }
	orExpr    struct{ l, r expr }
	matchExpr struct {
		l, re expr
		neg   bool
	}
	inExpr struct {
		subs []expr
		arr  *varRef
	}
	unaryExpr struct {
		op tok // tMinus, tPlus, tNot
		x  expr
	}
	incDecExpr struct {
		x     expr
		pre   bool
		delta float64
	}
	callExpr struct {
		name string
		fn   *function
		args []expr
	}
	builtinExpr struct {
		name string
		args []expr
	}
	getlineExpr struct {
		kind tok  // 0 plain, tLT from a file, tPipe from a command
		lv   expr // nil: $0
		src  expr
	}
	groupExpr struct{ x expr }
)

// Statements.
type stmt interface{}

type (
	exprStmt  struct{ x expr }
	printStmt struct {
		printf bool
		args   []expr
		redir  tok // 0, tGT, tAppend, tPipe
		dest   expr
	}
	ifStmt struct {
		c    expr
		then stmt
		els  stmt
	}
	whileStmt struct {
		c    expr
		body stmt
	}
	doStmt struct {
		body stmt
		c    expr
	}
	forStmt struct {
		init stmt
		c    expr
		post stmt
		body stmt
	}
	forInStmt struct {
		v    expr
		arr  *varRef
		body stmt
	}
	blockStmt    []stmt
	nextStmt     struct{}
	nextfileStmt struct{}
	exitStmt     struct{ x expr }
	returnStmt   struct{ x expr }
	breakStmt    struct{}
	continueStmt struct{}
	deleteStmt   struct {
		arr  *varRef
		subs []expr // nil: the whole array
	}
)

type item struct {
	pat, pat2 expr // nil pat: always; pat2: range end
	isRange   bool
	body      blockStmt
	noBody    bool // print $0
	inRange   bool
}

type function struct {
	name    string
	params  []string
	body    blockStmt
	defined bool
}

type program struct {
	begin    []blockStmt
	end      []blockStmt
	items    []*item
	funcs    map[string]*function
	globals  map[string]int
	nglobals int
}
