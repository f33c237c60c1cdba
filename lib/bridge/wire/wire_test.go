package wire

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

func TestSecondsReadsNonFiniteMarkers(t *testing.T) {
	var v struct{ T *Seconds }
	for raw, check := range map[string]func(float64) bool{
		`{"T":"NaN"}`:       math.IsNaN,
		`{"T":"Infinity"}`:  func(f float64) bool { return math.IsInf(f, 1) },
		`{"T":"-Infinity"}`: func(f float64) bool { return math.IsInf(f, -1) },
		`{"T":1.5}`:         func(f float64) bool { return f == 1.5 },
	} {
		if err := json.Unmarshal([]byte(raw), &v); err != nil || !check(float64(*v.T)) {
			t.Errorf("%s: %v %v", raw, v.T, err)
		}
	}
	if err := json.Unmarshal([]byte(`{"T":"5"}`), &v); err == nil {
		t.Error("a string number was accepted")
	}
}

func TestSourceRoundTrips(t *testing.T) {
	for _, src := range []Source{
		{},
		{ShellSimBuiltins{}},
		{HostImage{ReadOnly: []string{"/opt"}, BinDirs: []string{}}},
		{PreparedImage{Layout: "/l", ManifestDigest: "sha256:ab", Source: Source{RegistryImage{Reference: "busybox"}}}},
		{PackageSpec{Tools: []string{"git"}}},
	} {
		data, err := json.Marshal(src)
		if err != nil {
			t.Fatal(err)
		}
		var back Source
		if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back, src) {
			t.Errorf("%s: got %#v (%v), want %#v", data, back, err, src)
		}
	}
	data, _ := json.Marshal(Source{ShellSimBuiltins{}})
	if string(data) != `{"type":"ShellSimBuiltins"}` {
		t.Errorf("empty variant: %s", data)
	}
	var s Source
	err := json.Unmarshal([]byte(`{"type":"Nope"}`), &s)
	if fe, ok := err.(*FieldError); !ok || fe.Field != "source" {
		t.Errorf("unknown variant: %v", err)
	}
}

func TestEveryMethodHasTypes(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range Methods {
		key := string(m.Object) + "." + m.Name
		if seen[key] {
			t.Errorf("%s listed twice", key)
		}
		seen[key] = true
		for _, v := range []any{m.Request, m.Reply} {
			if v == nil {
				continue
			}
			if _, err := json.Marshal(v); err != nil {
				t.Errorf("%s: %T does not marshal: %v", key, v, err)
			}
		}
	}
}

// FuzzSpec decodes hostile create requests: decoding never panics, and a
// spec that decodes marshals back to JSON that decodes to the same spec.
func FuzzSpec(f *testing.F) {
	for _, seed := range []string{
		`{"source":{"type":"HostImage","read_only":["/opt"]}}`,
		`{"source":{"type":"PreparedImage","layout":"/l","manifest_digest":"sha256:ab","source":{"type":"PreparedImage","source":{"type":"RegistryImage","reference":"x"}}}}`,
		`{"source":{"type":"ShellSimBuiltins"},"startup_timeout":"NaN","cpus":2}`,
		`{"source":{"type":7}}`,
		`{"source":[]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var s Spec
		if json.Unmarshal(data, &s) != nil {
			return
		}
		if s.StartupTimeout != nil && *s.StartupTimeout != *s.StartupTimeout {
			return // NaN: refused by validation, and unequal to itself
		}
		out, err := json.Marshal(s)
		if err != nil {
			return // an infinite startup_timeout has no JSON form
		}
		var back Spec
		if err := json.Unmarshal(out, &back); err != nil || !reflect.DeepEqual(normal(back), normal(s)) {
			t.Fatalf("%s -> %s: %v", data, out, err)
		}
	})
}

// normal makes empty and absent collections alike (omitempty drops them).
func normal(s Spec) Spec {
	if len(s.Env) == 0 {
		s.Env = nil
	}
	return s
}
