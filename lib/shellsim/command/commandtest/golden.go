package commandtest

import "testing"

// Golden is one table-driven command case: run Args with Stdin over Files
// and expect exactly Stdout, Stderr and Status; when CheckFile is set, that
// file must then hold CheckWant.
type Golden struct {
	Name      string
	Args      []string
	Stdin     string
	Files     map[string]string
	Stdout    string
	Stderr    string
	Status    int
	CheckFile string
	CheckWant string
}

// RunGoldens runs each case as a subtest in a fresh environment. Test
// files usually declare `type golden commandtest.Golden` so their tables
// can be written positionally.
func RunGoldens[G ~struct {
	Name      string
	Args      []string
	Stdin     string
	Files     map[string]string
	Stdout    string
	Stderr    string
	Status    int
	CheckFile string
	CheckWant string
}](t *testing.T, cases []G) {
	t.Helper()
	for _, c := range cases {
		tc := Golden(c)
		t.Run(tc.Name, func(t *testing.T) {
			e := New(t)
			for name, content := range tc.Files {
				e.WriteFile(name, content)
			}
			out, errs, st := e.Run(tc.Args, tc.Stdin)
			if out != tc.Stdout || errs != tc.Stderr || st != tc.Status {
				t.Errorf("%q:\n got stdout %q stderr %q status %d\nwant stdout %q stderr %q status %d",
					tc.Args, out, errs, st, tc.Stdout, tc.Stderr, tc.Status)
			}
			if tc.CheckFile != "" {
				if got := e.ReadFile(tc.CheckFile); got != tc.CheckWant {
					t.Errorf("%s = %q, want %q", tc.CheckFile, got, tc.CheckWant)
				}
			}
		})
	}
}
