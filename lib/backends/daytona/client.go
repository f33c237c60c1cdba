package daytona

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

// DefaultAPIURL is the hosted service's API, used when neither the options
// nor DAYTONA_API_URL name one.
const DefaultAPIURL = "https://app.daytona.io/api"

// Environment variables the official SDK reads, read the same way here.
const (
	EnvAPIKey = "DAYTONA_API_KEY"
	EnvAPIURL = "DAYTONA_API_URL"
	EnvTarget = "DAYTONA_TARGET"
	// envServerURL is the SDK's deprecated name for EnvAPIURL.
	envServerURL = "DAYTONA_SERVER_URL"
)

// ClientConfig configures a Client; empty fields are read from the
// environment as the SDK reads them.
type ClientConfig struct {
	APIKey string
	APIURL string
	Target string
	// HTTP is the transport; nil means a client of this package's own.
	HTTP *http.Client
}

// Client calls the Daytona API and the toolbox API of its sandboxes. Every
// method is one HTTP request.
type Client struct {
	apiURL string
	apiKey string
	target string
	http   *http.Client
}

// NewClient checks the configuration and builds a Client; it does not
// contact the service.
func NewClient(cfg ClientConfig) (*Client, error) {
	if cfg.APIKey == "" {
		cfg.APIKey = os.Getenv(EnvAPIKey)
	}
	if cfg.APIURL == "" {
		cfg.APIURL = os.Getenv(EnvAPIURL)
	}
	if cfg.APIURL == "" {
		cfg.APIURL = os.Getenv(envServerURL)
	}
	if cfg.APIURL == "" {
		cfg.APIURL = DefaultAPIURL
	}
	if cfg.Target == "" {
		cfg.Target = os.Getenv(EnvTarget)
	}
	if cfg.APIKey == "" {
		return nil, fmt.Errorf("daytona: no API key (set %s or pass api_key)", EnvAPIKey)
	}
	u, err := url.Parse(cfg.APIURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("daytona: the API URL %q is not an http(s) URL", cfg.APIURL)
	}
	hc := cfg.HTTP
	if hc == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 16
		hc = &http.Client{Transport: tr}
	}
	return &Client{apiURL: strings.TrimRight(cfg.APIURL, "/"), apiKey: cfg.APIKey, target: cfg.Target, http: hc}, nil
}

// Target is the region sandboxes are created in ("" : the organization's
// default).
func (c *Client) Target() string { return c.target }

// CloseIdleConnections releases the client's pooled connections.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

func (c *Client) newRequest(ctx context.Context, method, u string, body io.Reader, contentType string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("X-Daytona-Source", "shellbox-go")
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req, nil
}

// doJSON sends in (nil: no body) and decodes the reply into out (nil:
// discarded).
func (c *Client) doJSON(ctx context.Context, method, u string, in, out any) error {
	var body io.Reader
	ct := ""
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body, ct = bytes.NewReader(b), "application/json"
	}
	req, err := c.newRequest(ctx, method, u, body, ct)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := checkStatus(resp); err != nil {
		return err
	}
	if out == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return fmt.Errorf("daytona: decoding the reply of %s %s: %w", method, u, err)
	}
	return nil
}

// checkStatus turns a non-2xx reply into an *APIError.
func checkStatus(resp *http.Response) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	e := &APIError{}
	if json.Unmarshal(b, e) != nil || e.Message == "" {
		e = &APIError{Message: strings.TrimSpace(string(b))}
	}
	e.StatusCode = resp.StatusCode
	return e
}

func asAPIError(err error, target **APIError) bool { return errors.As(err, target) }

func (c *Client) api(parts ...string) string {
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return c.apiURL + "/" + strings.Join(parts, "/")
}

// CreateSandbox is POST /sandbox. The target of the client is used unless
// req names one.
func (c *Client) CreateSandbox(ctx context.Context, req CreateSandbox) (*Sandbox, error) {
	if req.Target == "" {
		req.Target = c.target
	}
	var s Sandbox
	if err := c.doJSON(ctx, http.MethodPost, c.api("sandbox"), req, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// GetSandbox is GET /sandbox/{idOrName}.
func (c *Client) GetSandbox(ctx context.Context, id string) (*Sandbox, error) {
	var s Sandbox
	if err := c.doJSON(ctx, http.MethodGet, c.api("sandbox", id), nil, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// DeleteSandbox is DELETE /sandbox/{idOrName}.
func (c *Client) DeleteSandbox(ctx context.Context, id string) error {
	return c.doJSON(ctx, http.MethodDelete, c.api("sandbox", id), nil, nil)
}

// StartSandbox is POST /sandbox/{idOrName}/start.
func (c *Client) StartSandbox(ctx context.Context, id string) error {
	return c.doJSON(ctx, http.MethodPost, c.api("sandbox", id, "start"), nil, nil)
}

// StopSandbox is POST /sandbox/{idOrName}/stop.
func (c *Client) StopSandbox(ctx context.Context, id string) error {
	return c.doJSON(ctx, http.MethodPost, c.api("sandbox", id, "stop"), nil, nil)
}

// WaitSandbox polls the sandbox as the SDK does (every 0.1 s, growing
// by 1.1 up to 1 s) until it reaches want; error and build_failed end the
// wait with an error.
func (c *Client) WaitSandbox(ctx context.Context, id string, want SandboxState) (*Sandbox, error) {
	delay := 100 * time.Millisecond
	for {
		s, err := c.GetSandbox(ctx, id)
		if err != nil {
			return nil, err
		}
		switch s.State {
		case want:
			return s, nil
		case StateError, StateBuildFailed:
			return s, fmt.Errorf("daytona: sandbox %s is %s: %s", id, s.State, s.ErrorReason)
		}
		if err := sleep(ctx, delay); err != nil {
			return nil, err
		}
		delay = min(time.Duration(float64(delay)*1.1), time.Second)
	}
}

// GetSnapshot is GET /snapshots/{idOrName}.
func (c *Client) GetSnapshot(ctx context.Context, name string) (*Snapshot, error) {
	var s Snapshot
	if err := c.doJSON(ctx, http.MethodGet, c.api("snapshots", name), nil, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// CreateSnapshot is POST /snapshots.
func (c *Client) CreateSnapshot(ctx context.Context, req CreateSnapshot) (*Snapshot, error) {
	var s Snapshot
	if err := c.doJSON(ctx, http.MethodPost, c.api("snapshots"), req, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// DeleteSnapshot is DELETE /snapshots/{id}.
func (c *Client) DeleteSnapshot(ctx context.Context, id string) error {
	return c.doJSON(ctx, http.MethodDelete, c.api("snapshots", id), nil, nil)
}

// Toolbox returns the toolbox client of s, asking the API for the proxy
// URL when the sandbox object has none.
func (c *Client) Toolbox(ctx context.Context, s *Sandbox) (*Toolbox, error) {
	proxy := s.ToolboxProxyURL
	if proxy == "" {
		var u ToolboxProxyURL
		if err := c.doJSON(ctx, http.MethodGet, c.api("sandbox", s.ID, "toolbox-proxy-url"), nil, &u); err != nil {
			return nil, err
		}
		proxy = u.URL
	}
	return &Toolbox{c: c, base: strings.TrimRight(proxy, "/") + "/" + url.PathEscape(s.ID)}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Toolbox calls the toolbox API of one sandbox (through the proxy).
type Toolbox struct {
	c    *Client
	base string
}

func (t *Toolbox) url(p string, query url.Values) string {
	u := t.base + p
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	return u
}

// Execute is POST /process/execute.
func (t *Toolbox) Execute(ctx context.Context, req ExecuteRequest) (ExecuteResponse, error) {
	var r ExecuteResponse
	err := t.c.doJSON(ctx, http.MethodPost, t.url("/process/execute", nil), req, &r)
	return r, err
}

// CreateSession is POST /process/session.
func (t *Toolbox) CreateSession(ctx context.Context, id string) error {
	return t.c.doJSON(ctx, http.MethodPost, t.url("/process/session", nil), CreateSessionRequest{SessionID: id}, nil)
}

// SessionExecute is POST /process/session/{id}/exec.
func (t *Toolbox) SessionExecute(ctx context.Context, session string, req SessionExecuteRequest) (SessionExecuteResponse, error) {
	var r SessionExecuteResponse
	err := t.c.doJSON(ctx, http.MethodPost, t.url("/process/session/"+url.PathEscape(session)+"/exec", nil), req, &r)
	return r, err
}

// DeleteSession is DELETE /process/session/{id}.
func (t *Toolbox) DeleteSession(ctx context.Context, session string) error {
	return t.c.doJSON(ctx, http.MethodDelete, t.url("/process/session/"+url.PathEscape(session), nil), nil, nil)
}

// Upload streams r to path in the sandbox as the SDK's upload_file_stream
// does: POST /files/bulk-upload, multipart fields files[0].path and
// files[0].file.
func (t *Toolbox) Upload(ctx context.Context, path string, r io.Reader) error {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := func() error {
			if err := mw.WriteField("files[0].path", path); err != nil {
				return err
			}
			fw, err := mw.CreateFormFile("files[0].file", path)
			if err != nil {
				return err
			}
			if _, err := io.Copy(fw, r); err != nil {
				return err
			}
			return mw.Close()
		}()
		pw.CloseWithError(err)
	}()
	req, err := t.c.newRequest(ctx, http.MethodPost, t.url("/files/bulk-upload", nil), pr, mw.FormDataContentType())
	if err != nil {
		pr.CloseWithError(err)
		return err
	}
	resp, err := t.c.http.Do(req)
	pr.CloseWithError(errors.New("daytona: upload ended"))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := checkStatus(resp); err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return nil
}

// Download streams the file at path as the SDK's download_file_stream
// does: POST /files/bulk-download, whose multipart reply holds a part
// named "file" with the contents or one named "error" with a JSON error.
// The caller closes the reader.
func (t *Toolbox) Download(ctx context.Context, path string) (io.ReadCloser, error) {
	b, _ := json.Marshal(DownloadRequest{Paths: []string{path}})
	req, err := t.c.newRequest(ctx, http.MethodPost, t.url("/files/bulk-download", nil), bytes.NewReader(b), "application/json")
	if err != nil {
		return nil, err
	}
	resp, err := t.c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if err := checkStatus(resp); err != nil {
		resp.Body.Close()
		return nil, err
	}
	mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		resp.Body.Close()
		return nil, fmt.Errorf("daytona: bulk-download replied with Content-Type %q", resp.Header.Get("Content-Type"))
	}
	mr := multipart.NewReader(resp.Body, params["boundary"])
	part, err := mr.NextPart()
	if err != nil {
		resp.Body.Close()
		return nil, fmt.Errorf("daytona: bulk-download of %s: %w", path, err)
	}
	switch part.FormName() {
	case "file":
		return &partReader{Reader: part, body: resp.Body}, nil
	case "error":
		raw, _ := io.ReadAll(io.LimitReader(part, 64<<10))
		resp.Body.Close()
		e := &APIError{}
		if json.Unmarshal(raw, e) != nil || e.Message == "" {
			e = &APIError{Message: strings.TrimSpace(string(raw)), StatusCode: http.StatusInternalServerError}
		}
		if e.StatusCode == 0 {
			e.StatusCode = http.StatusInternalServerError
		}
		return nil, e
	}
	resp.Body.Close()
	return nil, fmt.Errorf("daytona: bulk-download replied with a part named %q", part.FormName())
}

type partReader struct {
	io.Reader
	body io.Closer
}

func (p *partReader) Close() error { return p.body.Close() }
