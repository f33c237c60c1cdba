package daytonad

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/shellbox/shellbox/lib/backends/daytona"
	"github.com/shellbox/shellbox/lib/machine"
)

// Config configures a Server.
type Config struct {
	// APIKey is the bearer token every request must carry.
	APIKey string
	// Factory creates the machines behind sandboxes.
	Factory machine.Factory
	// Source maps a snapshot's image name to a machine source; nil means
	// machine.RegistryImage.
	Source func(image string) (machine.Source, error)
	// Resources passes a sandbox's cpu and memory to its machine (a
	// backend that cannot bound them, like local, needs false).
	Resources bool
	// MaxOutput bounds the merged output an execute reply carries
	// (0: 64 MiB).
	MaxOutput int
	// OrganizationID is reported on every object ("" : a fixed id).
	OrganizationID string
	// TTLUnit is how long a "minute" of ttlMinutes lasts (0: a minute;
	// tests shorten it).
	TTLUnit time.Duration
}

// Server holds the sandboxes and snapshots of one API.
type Server struct {
	cfg Config

	mu        sync.Mutex
	sandboxes map[string]*sandbox // by id
	snapshots map[string]*snapshot
	closed    bool
}

type sandbox struct {
	ttl     *time.Timer // deletes the sandbox when its TTL ends
	mu      sync.Mutex
	obj     daytona.Sandbox
	m       machine.Machine
	home    string
	session map[string]*session
}

type snapshot struct {
	obj daytona.Snapshot
}

// New builds a server; Handler serves it.
func New(cfg Config) (*Server, error) {
	if cfg.APIKey == "" {
		return nil, errors.New("daytonad: an API key is required")
	}
	if cfg.Factory == nil {
		return nil, errors.New("daytonad: a machine factory is required")
	}
	if cfg.Source == nil {
		cfg.Source = func(image string) (machine.Source, error) { return machine.RegistryImage{Reference: image}, nil }
	}
	if cfg.MaxOutput <= 0 {
		cfg.MaxOutput = 64 << 20
	}
	if cfg.OrganizationID == "" {
		cfg.OrganizationID = "shellbox"
	}
	if cfg.TTLUnit <= 0 {
		cfg.TTLUnit = time.Minute
	}
	return &Server{cfg: cfg, sandboxes: map[string]*sandbox{}, snapshots: map[string]*snapshot{}}, nil
}

// Handler serves the API under /api and the toolbox under /toolbox.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/sandbox", s.createSandbox)
	mux.HandleFunc("GET /api/sandbox", s.listSandboxes)
	mux.HandleFunc("GET /api/sandbox/{id}", s.getSandbox)
	mux.HandleFunc("DELETE /api/sandbox/{id}", s.deleteSandbox)
	mux.HandleFunc("POST /api/sandbox/{id}/start", s.startStop(daytona.StateStarted))
	mux.HandleFunc("POST /api/sandbox/{id}/stop", s.startStop(daytona.StateStopped))
	mux.HandleFunc("GET /api/sandbox/{id}/toolbox-proxy-url", s.toolboxProxyURL)
	mux.HandleFunc("POST /api/snapshots", s.createSnapshot)
	mux.HandleFunc("GET /api/snapshots", s.listSnapshots)
	mux.HandleFunc("GET /api/snapshots/{id}", s.getSnapshot)
	mux.HandleFunc("DELETE /api/snapshots/{id}", s.deleteSnapshot)
	s.toolboxRoutes(mux)
	return s.auth(mux)
}

// Sandboxes is the number of live sandboxes.
func (s *Server) Sandboxes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sandboxes)
}

// Close deletes every sandbox.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	sbs := s.sandboxes
	s.sandboxes = map[string]*sandbox{}
	s.mu.Unlock()
	var errs []error
	for _, sb := range sbs {
		if sb.ttl != nil {
			sb.ttl.Stop()
		}
		errs = append(errs, sb.m.Close(ctx))
	}
	return errors.Join(errs...)
}

// apiError writes the error shape of the API (NestJS's HttpException body
// with the path and time Daytona's filter adds).
func apiError(w http.ResponseWriter, r *http.Request, status int, format string, args ...any) {
	writeJSON(w, status, daytona.APIError{
		StatusCode: status, Message: fmt.Sprintf(format, args...), Error_: http.StatusText(status),
		Path: r.URL.Path, Timestamp: time.Now().UTC().Format(time.RFC3339Nano),
	})
}

// toolboxError writes the toolbox daemon's error shape.
func toolboxError(w http.ResponseWriter, r *http.Request, status int, format string, args ...any) {
	code := strings.ToUpper(strings.ReplaceAll(http.StatusText(status), " ", "_"))
	writeJSON(w, status, daytona.APIError{
		StatusCode: status, Message: fmt.Sprintf(format, args...), Code: code,
		Path: r.URL.Path, Method: r.Method, Timestamp: time.Now().UTC().Format(time.RFC3339Nano),
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) auth(next http.Handler) http.Handler {
	want := []byte("Bearer " + s.cfg.APIKey)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			apiError(w, r, http.StatusUnauthorized, "Unauthorized")
			return
		}
		next.ServeHTTP(w, r)
	})
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func now() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }

// baseURL is the server's address as the client reached it.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 16<<20)).Decode(v); err != nil {
		apiError(w, r, http.StatusBadRequest, "invalid request body: %v", err)
		return false
	}
	return true
}

var (
	cidrRe   = regexp.MustCompile(`^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})/(\d{1,2})$`)
	domainRe = regexp.MustCompile(`^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,}$`)
)

// checkList validates an allow list as the API does: comma separated,
// at most 10 entries, each matching re.
func checkList(field, list string, re *regexp.Regexp) error {
	n := 0
	for _, e := range strings.Split(list, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if !re.MatchString(e) {
			return fmt.Errorf("invalid %s entry %q", field, e)
		}
		n++
	}
	if n > 10 {
		return fmt.Errorf("%s allows at most 10 entries", field)
	}
	return nil
}

// imageOf reads the only Dockerfile this server builds: a single FROM.
func imageOf(dockerfile string) (string, error) {
	var image string
	for _, line := range strings.Split(dockerfile, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if strings.EqualFold(f[0], "FROM") && len(f) >= 2 && image == "" {
			image = f[1]
			continue
		}
		return "", fmt.Errorf("this server builds only Dockerfiles made of one FROM line, not %q", line)
	}
	if image == "" {
		return "", errors.New("the Dockerfile has no FROM line")
	}
	return image, nil
}

func (s *Server) findSnapshot(idOrName string) *snapshot {
	if sn, ok := s.snapshots[idOrName]; ok {
		return sn
	}
	for _, sn := range s.snapshots {
		if sn.obj.Name == idOrName {
			return sn
		}
	}
	return nil
}

func (s *Server) findSandbox(idOrName string) *sandbox {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sb, ok := s.sandboxes[idOrName]; ok {
		return sb
	}
	for _, sb := range s.sandboxes {
		if sb.obj.Name == idOrName {
			return sb
		}
	}
	return nil
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

func (s *Server) createSnapshot(w http.ResponseWriter, r *http.Request) {
	var req daytona.CreateSnapshot
	if !decode(w, r, &req) {
		return
	}
	if req.Name == "" {
		apiError(w, r, http.StatusBadRequest, "name must be a string")
		return
	}
	image := req.ImageName
	if req.BuildInfo != nil {
		var err error
		if image, err = imageOf(req.BuildInfo.DockerfileContent); err != nil {
			apiError(w, r, http.StatusBadRequest, "%v", err)
			return
		}
	}
	if image == "" {
		apiError(w, r, http.StatusBadRequest, "either imageName or buildInfo must be given")
		return
	}
	if strings.HasSuffix(image, ":latest") && req.BuildInfo == nil {
		apiError(w, r, http.StatusBadRequest, "Images with tag \":latest\" are not allowed")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.findSnapshot(req.Name) != nil {
		apiError(w, r, http.StatusConflict, "Snapshot with name %s already exists", req.Name)
		return
	}
	t := now()
	sn := &snapshot{obj: daytona.Snapshot{
		ID: newID(), OrganizationID: s.cfg.OrganizationID, Name: req.Name, ImageName: image,
		State: daytona.SnapshotActive, Entrypoint: req.Entrypoint,
		CPU: float64(intOr(req.CPU, 1)), GPU: float64(intOr(req.GPU, 0)), Mem: float64(intOr(req.Memory, 1)),
		Disk: float64(intOr(req.Disk, 3)), CreatedAt: t, UpdatedAt: t, BuildInfo: req.BuildInfo,
	}}
	s.snapshots[sn.obj.ID] = sn
	writeJSON(w, http.StatusOK, sn.obj)
}

func (s *Server) getSnapshot(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	sn := s.findSnapshot(r.PathValue("id"))
	s.mu.Unlock()
	if sn == nil {
		apiError(w, r, http.StatusNotFound, "Snapshot with ID or name %s not found", r.PathValue("id"))
		return
	}
	writeJSON(w, http.StatusOK, sn.obj)
}

func (s *Server) deleteSnapshot(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sn := s.findSnapshot(r.PathValue("id"))
	if sn == nil {
		apiError(w, r, http.StatusNotFound, "Snapshot with ID %s not found", r.PathValue("id"))
		return
	}
	delete(s.snapshots, sn.obj.ID)
	w.WriteHeader(http.StatusOK)
}

func (s *Server) listSnapshots(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	items := []daytona.Snapshot{}
	for _, sn := range s.snapshots {
		items = append(items, sn.obj)
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"items": items, "total": len(items), "page": 1, "totalPages": 1})
}

func (s *Server) createSandbox(w http.ResponseWriter, r *http.Request) {
	var req daytona.CreateSandbox
	if !decode(w, r, &req) {
		return
	}
	cpu, mem, disk, gpu := req.CPU, req.Memory, req.Disk, req.GPU
	var image, snapName string
	switch {
	case req.Snapshot != "" && req.BuildInfo != nil:
		apiError(w, r, http.StatusBadRequest, "Cannot specify both snapshot and buildInfo")
		return
	case req.BuildInfo != nil:
		var err error
		if image, err = imageOf(req.BuildInfo.DockerfileContent); err != nil {
			apiError(w, r, http.StatusBadRequest, "%v", err)
			return
		}
	default:
		s.mu.Lock()
		sn := s.findSnapshot(req.Snapshot)
		s.mu.Unlock()
		if sn == nil {
			apiError(w, r, http.StatusNotFound, "Snapshot %s not found. Did you add it through the Daytona Dashboard?", req.Snapshot)
			return
		}
		if sn.obj.State != daytona.SnapshotActive {
			apiError(w, r, http.StatusBadRequest, "Snapshot %s is %s", req.Snapshot, sn.obj.State)
			return
		}
		image, snapName = sn.obj.ImageName, sn.obj.Name
		c, m, d, g := int(sn.obj.CPU), int(sn.obj.Mem), int(sn.obj.Disk), int(sn.obj.GPU)
		cpu, mem, disk, gpu = &c, &m, &d, &g
	}
	if req.NetworkAllowList != nil && strings.TrimSpace(*req.NetworkAllowList) != "" {
		if err := checkList("networkAllowList", *req.NetworkAllowList, cidrRe); err != nil {
			apiError(w, r, http.StatusBadRequest, "%v", err)
			return
		}
		apiError(w, r, http.StatusBadRequest, "networkAllowList is not supported by this server: a shellbox machine has the network or not")
		return
	}
	if req.DomainAllowList != nil && strings.TrimSpace(*req.DomainAllowList) != "" {
		if err := checkList("domainAllowList", *req.DomainAllowList, domainRe); err != nil {
			apiError(w, r, http.StatusBadRequest, "%v", err)
			return
		}
		apiError(w, r, http.StatusBadRequest, "domainAllowList is not supported by this server: a shellbox machine has the network or not")
		return
	}
	if gpu != nil && *gpu > 0 {
		apiError(w, r, http.StatusBadRequest, "GPU sandboxes are not available on this server")
		return
	}
	src, err := s.cfg.Source(image)
	if err != nil {
		apiError(w, r, http.StatusBadRequest, "image %s: %v", image, err)
		return
	}
	spec := machine.Spec{Source: src, Env: req.Env, Network: machine.NetworkAllow}
	if req.NetworkBlockAll != nil && *req.NetworkBlockAll {
		spec.Network = machine.NetworkDeny
	}
	if s.cfg.Resources {
		if cpu != nil {
			spec.CPUs = cpu
		}
		if mem != nil {
			mb := *mem * 1024
			spec.MemoryMB = &mb
		}
	}
	if err := spec.Validate(); err != nil {
		apiError(w, r, http.StatusBadRequest, "%v", err)
		return
	}
	id := newID()
	name := req.Name
	if name == "" {
		name = id
	}
	s.mu.Lock()
	for _, other := range s.sandboxes {
		if other.obj.Name == name {
			s.mu.Unlock()
			apiError(w, r, http.StatusConflict, "Sandbox with name %s already exists", name)
			return
		}
	}
	s.mu.Unlock()
	m, err := s.cfg.Factory.Create(r.Context(), spec)
	if err != nil {
		status := http.StatusInternalServerError
		if k := machine.KindOf(err); k == machine.KindInvalid || k == machine.KindUnsupported {
			status = http.StatusBadRequest
		}
		apiError(w, r, status, "creating the sandbox: %v", err)
		return
	}
	t := now()
	user := req.User
	if user == "" {
		user = "root"
	}
	labels := req.Labels
	if labels == nil {
		labels = map[string]string{}
	}
	env := req.Env
	if env == nil {
		env = map[string]string{}
	}
	sb := &sandbox{m: m, session: map[string]*session{}, obj: daytona.Sandbox{
		ID: id, OrganizationID: s.cfg.OrganizationID, Name: name, Snapshot: snapName, User: user,
		Env: env, Labels: labels, Public: req.Public != nil && *req.Public,
		NetworkBlockAll: spec.Network == machine.NetworkDeny, Target: req.Target,
		CPU: float64(intOr(cpu, 1)), Memory: float64(intOr(mem, 1)), Disk: float64(intOr(disk, 3)),
		State: daytona.StateStarted, DesiredState: "started", AutoStopInterval: intOr(req.AutoStopInterval, 15),
		AutoDeleteInterval: intOr(req.AutoDeleteInterval, -1), CreatedAt: t, UpdatedAt: t,
		ToolboxProxyURL: baseURL(r) + "/toolbox",
	}}
	if sb.obj.Target == "" {
		sb.obj.Target = "local"
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		m.Close(context.WithoutCancel(r.Context()))
		apiError(w, r, http.StatusServiceUnavailable, "the server is shutting down")
		return
	}
	if req.TTLMinutes != nil && *req.TTLMinutes > 0 {
		d := time.Duration(*req.TTLMinutes) * s.cfg.TTLUnit
		sb.obj.AutoDestroyAt = time.Now().Add(d).UTC().Format("2006-01-02T15:04:05.000Z")
		sb.ttl = time.AfterFunc(d, func() { _ = s.remove(context.Background(), sb) })
	}
	s.sandboxes[id] = sb
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, sb.obj)
}

func (s *Server) getSandbox(w http.ResponseWriter, r *http.Request) {
	sb := s.findSandbox(r.PathValue("id"))
	if sb == nil {
		apiError(w, r, http.StatusNotFound, "Sandbox with ID or name %s not found", r.PathValue("id"))
		return
	}
	sb.mu.Lock()
	obj := sb.obj
	sb.mu.Unlock()
	writeJSON(w, http.StatusOK, obj)
}

func (s *Server) listSandboxes(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	items := []daytona.Sandbox{}
	for _, sb := range s.sandboxes {
		sb.mu.Lock()
		items = append(items, sb.obj)
		sb.mu.Unlock()
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, items)
}

func (s *Server) deleteSandbox(w http.ResponseWriter, r *http.Request) {
	sb := s.findSandbox(r.PathValue("id"))
	if sb == nil {
		apiError(w, r, http.StatusNotFound, "Sandbox with ID or name %s not found", r.PathValue("id"))
		return
	}
	err := s.remove(context.WithoutCancel(r.Context()), sb)
	sb.mu.Lock()
	obj := sb.obj
	sb.mu.Unlock()
	if err != nil {
		apiError(w, r, http.StatusInternalServerError, "deleting the sandbox: %v", err)
		return
	}
	writeJSON(w, http.StatusOK, obj)
}

// remove deletes a sandbox (on request, or when its TTL ends) and closes
// its machine.
func (s *Server) remove(ctx context.Context, sb *sandbox) error {
	s.mu.Lock()
	if s.sandboxes[sb.obj.ID] != sb {
		s.mu.Unlock()
		return nil // already removed
	}
	delete(s.sandboxes, sb.obj.ID)
	s.mu.Unlock()
	if sb.ttl != nil {
		sb.ttl.Stop()
	}
	err := sb.m.Close(ctx)
	sb.mu.Lock()
	sb.obj.State, sb.obj.DesiredState, sb.obj.UpdatedAt = daytona.StateDestroyed, "destroyed", now()
	sb.mu.Unlock()
	return err
}

// startStop moves a sandbox between started and stopped. A stopped
// sandbox keeps its machine (and so its files and processes) but refuses
// toolbox calls.
func (s *Server) startStop(state daytona.SandboxState) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		sb := s.findSandbox(r.PathValue("id"))
		if sb == nil {
			apiError(w, r, http.StatusNotFound, "Sandbox with ID or name %s not found", r.PathValue("id"))
			return
		}
		sb.mu.Lock()
		sb.obj.State, sb.obj.DesiredState, sb.obj.UpdatedAt = state, string(state), now()
		obj := sb.obj
		sb.mu.Unlock()
		writeJSON(w, http.StatusOK, obj)
	}
}

func (s *Server) toolboxProxyURL(w http.ResponseWriter, r *http.Request) {
	if s.findSandbox(r.PathValue("id")) == nil {
		apiError(w, r, http.StatusNotFound, "Sandbox with ID or name %s not found", r.PathValue("id"))
		return
	}
	writeJSON(w, http.StatusOK, daytona.ToolboxProxyURL{URL: baseURL(r) + "/toolbox"})
}
