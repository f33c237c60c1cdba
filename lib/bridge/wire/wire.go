package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
)

// Seconds is a duration in seconds. Besides JSON numbers it reads "NaN",
// "Infinity" and "-Infinity" (Python's non-finite floats, which JSON lacks,
// sent as strings) so that they reach validation and are refused there,
// naming their field, instead of failing JSON parsing.
type Seconds float64

func (s *Seconds) UnmarshalJSON(data []byte) error {
	switch string(data) {
	case `"NaN"`:
		*s = Seconds(math.NaN())
	case `"Infinity"`:
		*s = Seconds(math.Inf(1))
	case `"-Infinity"`:
		*s = Seconds(math.Inf(-1))
	default:
		var f float64
		if err := json.Unmarshal(data, &f); err != nil {
			return err
		}
		*s = Seconds(f)
	}
	return nil
}

// FieldError is a request that cannot be decoded, naming its field.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string { return fmt.Sprintf("invalid %s: %s", e.Field, e.Reason) }

// Union describes a tagged union: a struct whose one field, Value, holds
// one of Variants, written as the variant's object with "type" set to the
// variant's Go type name.
type Union struct {
	Type     reflect.Type
	Field    string // the request field its errors name
	Variants []any
}

// Unions lists every tagged union of the wire (wiregen reads it).
var Unions = []Union{
	{reflect.TypeFor[Source](), "source", []any{RegistryImage{}, DockerfileSource{}, DockerImage{}, PreparedImage{},
		HostImage{}, QemuBundle{}, ShellSimBuiltins{}, PackageSpec{}}},
}

func marshalTagged(v any) ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	tag, _ := json.Marshal(reflect.TypeOf(v).Name())
	if bytes.Equal(body, []byte("{}")) {
		return append(append([]byte(`{"type":`), tag...), '}'), nil
	}
	return append(append(append([]byte(`{"type":`), tag...), ','), body[1:]...), nil
}

// unmarshalTagged decodes data into the variant of u its "type" names.
func unmarshalTagged(u Union, data []byte) (any, error) {
	if len(data) == 0 || string(data) == "null" {
		return nil, nil
	}
	var tag struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &tag); err != nil {
		return nil, &FieldError{Field: u.Field, Reason: err.Error()}
	}
	for _, v := range u.Variants {
		t := reflect.TypeOf(v)
		if t.Name() != tag.Type {
			continue
		}
		p := reflect.New(t)
		if err := json.Unmarshal(data, p.Interface()); err != nil {
			if fe, ok := err.(*FieldError); ok {
				return nil, fe
			}
			return nil, &FieldError{Field: u.Field, Reason: err.Error()}
		}
		return p.Elem().Interface(), nil
	}
	return nil, &FieldError{Field: u.Field, Reason: fmt.Sprintf("unknown image source type %q", tag.Type)}
}
