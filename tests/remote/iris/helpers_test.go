package iris_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
)

func httpClient() *http.Client { return &http.Client{} }

func bearer() connect.UnaryInterceptorFunc {
	return func(next connect.UnaryFunc) connect.UnaryFunc {
		return func(ctx context.Context, req connect.AnyRequest) (connect.AnyResponse, error) {
			req.Header().Set("Authorization", "Bearer "+token)
			return next(ctx, req)
		}
	}
}

// settledMachines is the number of the controller's task machines once no
// killed task's machine is still being removed (it fails the test after a
// minute).
func settledMachines(t *testing.T) int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for server.Releasing() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d killed tasks' machines still being removed after a minute", server.Releasing())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return server.Machines()
}
