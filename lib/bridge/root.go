package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/helpers"
	"github.com/shellbox/shellbox/lib/machine"
)

func (b *Bridge) rootCall(ctx context.Context, method string, req []byte) (Reply, error) {
	switch method {
	case "configure":
		var r wire.ConfigureRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		helpers.SetDir(r.BinDir)
		return Reply{}, nil
	case "backends":
		return Reply{Header: wire.BackendList(machine.Backends())}, nil
	case "test_panic":
		// A deliberate bug, for the tests that show a panic cannot take
		// down the host process; it exists only with SHELLBOX_TEST_HOOKS=1.
		if os.Getenv("SHELLBOX_TEST_HOOKS") == "1" {
			panic("test_panic was called")
		}
	case "open_factory":
		var r wire.OpenFactoryRequest
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		f, err := machine.Open(r.Backend, r.Options)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Header: wire.HandleReply{Handle: b.Add(&factoryObject{bridge: b, factory: f})}}, nil
	}
	if extra, ok := extraRoot[method]; ok {
		return extra(b, ctx, req)
	}
	return Reply{}, unknownMethod("root", method)
}

// handleReply is wire.HandleReply, under the name the bridge's files use.
type handleReply = wire.HandleReply

// decode reads a request. Errors name the request's top-level field: a
// value of the wrong type, and bytes that are not UTF-8 (JSON decoding
// would replace them silently; the Python package passes a string's
// undecodable bytes through so that they are refused here).
func decode(req []byte, v any) error {
	if len(req) == 0 {
		req = []byte("{}")
	}
	if err := json.Unmarshal(req, v); err != nil {
		var invalid *machine.InvalidSpec
		if errors.As(err, &invalid) {
			return invalid
		}
		var field *wire.FieldError
		if errors.As(err, &field) {
			return &machine.InvalidSpec{Field: field.Field, Reason: field.Reason}
		}
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return &machine.InvalidSpec{Field: jsonField(typeErr.Field),
				Reason: fmt.Sprintf("cannot unmarshal a JSON %s into %s", typeErr.Value, typeErr.Type)}
		}
		return &machine.InvalidSpec{Field: "request", Reason: err.Error()}
	}
	if !utf8.Valid(req) {
		return &machine.InvalidSpec{Field: invalidUTF8Field(req), Reason: "is not valid UTF-8"}
	}
	return nil
}

// jsonField is the request key of a decoding error's field path, which
// names embedded Go structs (capitalised) before the JSON keys.
func jsonField(path string) string {
	for part := range strings.SplitSeq(path, ".") {
		if part != "" && !unicode.IsUpper(rune(part[0])) {
			return part
		}
	}
	return "request"
}

// invalidUTF8Field names the top-level field of a JSON object that holds
// bytes that are not UTF-8.
func invalidUTF8Field(req []byte) string {
	var fields map[string]json.RawMessage
	if json.Unmarshal(req, &fields) != nil {
		return "request"
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !utf8.Valid(fields[name]) {
			return name
		}
	}
	return "request"
}

func unknownMethod(kind, method string) error {
	return &machine.InvalidSpec{Field: "method", Reason: fmt.Sprintf("%s has no method %q", kind, method)}
}
