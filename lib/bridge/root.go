package bridge

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/shellbox/shellbox/lib/helpers"
	"github.com/shellbox/shellbox/lib/machine"
)

func (b *Bridge) rootCall(ctx context.Context, method string, req []byte) (Reply, error) {
	switch method {
	case "configure":
		var r struct {
			BinDir string `json:"bin_dir"`
		}
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		helpers.SetDir(r.BinDir)
		return Reply{}, nil
	case "backends":
		return Reply{Header: machine.Backends()}, nil
	case "open_factory":
		var r struct {
			Backend string          `json:"backend"`
			Options json.RawMessage `json:"options"`
		}
		if err := decode(req, &r); err != nil {
			return Reply{}, err
		}
		f, err := machine.Open(r.Backend, r.Options)
		if err != nil {
			return Reply{}, err
		}
		return Reply{Header: handleReply{b.Add(&factoryObject{bridge: b, factory: f})}}, nil
	}
	if extra, ok := extraRoot[method]; ok {
		return extra(b, ctx, req)
	}
	return Reply{}, unknownMethod("root", method)
}

type handleReply struct {
	Handle uint64 `json:"handle"`
}

func decode(req []byte, v any) error {
	if len(req) == 0 {
		req = []byte("{}")
	}
	if err := json.Unmarshal(req, v); err != nil {
		return &machine.InvalidSpec{Field: "request", Reason: err.Error()}
	}
	return nil
}

func unknownMethod(kind, method string) error {
	return &machine.InvalidSpec{Field: "method", Reason: fmt.Sprintf("%s has no method %q", kind, method)}
}
