package files

import (
	"testing"
)

func TestTree(t *testing.T) {
	f := []string{"a/b/c=", "a/d=", "e=", ".h=", "l->e"}
	runTable(t, []tc{
		{name: "default", files: f, args: "tree", out: ".\n├── a\n│   ├── b\n│   │   └── c\n│   └── d\n├── e\n└── l -> e\n\n2 directories, 4 files\n"},
		{name: "level", files: f, args: "tree -L 1 a", out: "a\n├── b\n└── d\n\n1 directory, 1 file\n"},
		{name: "dirs", files: f, args: "tree -d", out: ".\n└── a\n    └── b\n\n2 directories\n"},
		{name: "all", files: f, args: "tree -a --noreport -L 1", out: ".\n├── .h\n├── a\n├── e\n└── l -> e\n"},
	})
}
