package iris_test

import (
	"context"
	"net/http"

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
