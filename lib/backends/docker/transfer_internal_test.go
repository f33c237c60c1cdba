package docker

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestUploadStreamErrorReachesHTTP: an error of the tar writer (archive/tar's
// headerError is an uncomparable slice type) ends the request body with an
// error net/http can handle; it used to panic in net/http's write loop,
// where no recover reaches, and abort the embedding process.
func TestUploadStreamErrorReachesHTTP(t *testing.T) {
	src := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(src, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(io.Discard, r.Body) }))
	defer srv.Close()
	body := rewrittenUpload(context.Background(), src, nil, "a\x00b")
	defer body.Close()
	req, err := http.NewRequest(http.MethodPut, srv.URL, body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err == nil {
		resp.Body.Close()
	}
	perr := body.err()
	if perr == nil {
		t.Fatal("the producer's error was lost")
	}
	var se *streamError
	if errors.As(perr, &se) {
		t.Fatalf("the producer's error stays wrapped: %v", perr)
	}
	t.Logf("request: %v; producer: %v", err, perr)
}

// TestExecUploadProducerErrorEnds: when the tar stream fails mid-way on the
// exec path (gVisor's), the tar inside the container gets a hang-up and the
// upload returns the producer's error; it used to wait for more input
// forever.
func TestExecUploadProducerErrorEnds(t *testing.T) {
	eachRuntime(t, func(t *testing.T, _ *Factory, m *Machine) {
		ctx := context.Background()
		src := filepath.Join(t.TempDir(), "f")
		if err := os.WriteFile(src, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		start := time.Now()
		err := m.uploadExec(cctx, src, "/tmp", "a\x00b")
		if err == nil || cctx.Err() != nil {
			t.Fatalf("after %v: %v", time.Since(start), err)
		}
		t.Logf("%v: %v", time.Since(start), err)
	})
}
