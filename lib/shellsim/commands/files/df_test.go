package files

import "testing"

func TestDf(t *testing.T) {
	e := setup(t, []string{"big=" + string(make([]byte, 10000))})
	e.FS.SetQuota(1 << 20)
	quota, used := e.Sys.Disk()
	if quota != 1<<20 || used <= 0 {
		t.Fatalf("disk %d %d", quota, used)
	}
	out, errs, st := e.Run([]string{"df"}, "")
	want := "Filesystem     1K-blocks      Used Available Use% Mounted on\n" +
		"shellsim            1024" + pad(used) + "\n"
	if st != 0 || errs != "" || out != want {
		t.Errorf("df:\n%q\nwant\n%q", out, want)
	}
	out, _, _ = e.Run([]string{"df", "-h", "."}, "")
	if out[:len("Filesystem      Size  Used Avail Use% Mounted on\nshellsim       1.0M")] != "Filesystem      Size  Used Avail Use% Mounted on\nshellsim       1.0M" {
		t.Errorf("df -h: %q", out)
	}
	_, errs, st = e.Run([]string{"df", "nosuch"}, "")
	if st != 1 || errs != "df: nosuch: No such file or directory\n" {
		t.Errorf("df nosuch: %q %d", errs, st)
	}
}

// pad renders df's Used, Available and Use% columns for a 1 MiB disk.
func pad(used int64) string {
	q := int64(1 << 20)
	pct := (used*100 + q - 1) / q
	return sprintf("%10d %9d %3d%% /", (used+1023)/1024, (q-used)/1024, pct)
}
