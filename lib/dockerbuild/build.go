package dockerbuild

import (
	"archive/tar"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/pkg/jsonmessage"
	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"

	"github.com/shellbox/shellbox/lib/machine"
)

// ImageBuilder is the part of the Docker Engine API client that builds.
type ImageBuilder interface {
	ImageBuild(ctx context.Context, buildContext io.Reader, options build.ImageBuildOptions) (build.ImageBuildResponse, error)
}

// Build builds src with the daemon's classic builder and layer cache,
// sending the context directory as a tar stream, and returns the image
// id. A context, Dockerfile or .dockerignore that cannot be used gives a
// *machine.InvalidSpec; a failed build an error carrying the end of its
// output.
func Build(ctx context.Context, cli ImageBuilder, src machine.DockerfileSource, labels map[string]string) (string, error) {
	contextDir, err := filepath.Abs(src.Context)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(contextDir)
	if err != nil || !st.IsDir() {
		return "", &machine.InvalidSpec{Field: "source", Reason: fmt.Sprintf("build context %s is not a directory", src.Context)}
	}
	dockerfile := src.Dockerfile
	if dockerfile == "" {
		dockerfile = filepath.Join(contextDir, "Dockerfile")
	} else if !filepath.IsAbs(dockerfile) {
		// A relative Dockerfile is taken relative to the context, as the
		// docker CLI does with -f inside the context.
		if _, err := os.Stat(dockerfile); err != nil {
			dockerfile = filepath.Join(contextDir, dockerfile)
		}
	}
	dockerfile, err = filepath.Abs(dockerfile)
	if err != nil {
		return "", err
	}
	dfData, err := os.ReadFile(dockerfile)
	if err != nil {
		return "", &machine.InvalidSpec{Field: "source", Reason: fmt.Sprintf("reading Dockerfile: %v", err)}
	}
	// A Dockerfile outside the context travels inside the tar under a
	// name of its own.
	dfName := ""
	if rel, err := filepath.Rel(contextDir, dockerfile); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		dfName = filepath.ToSlash(rel)
	}
	extra := ""
	if dfName == "" {
		extra = ".shellbox-dockerfile-" + rand.Text()
		dfName = extra
	}

	excludes, err := readDockerignore(contextDir, dockerfile)
	if err != nil {
		return "", &machine.InvalidSpec{Field: "source", Reason: err.Error()}
	}
	excludes = keepBuildFiles(excludes, dfName, extra != "")
	pm, err := patternmatcher.New(excludes)
	if err != nil {
		return "", &machine.InvalidSpec{Field: "source", Reason: fmt.Sprintf(".dockerignore: %v", err)}
	}

	pr, pw := io.Pipe()
	go func() {
		if err := writeBuildContext(ctx, pw, contextDir, pm, extra, dfData); err != nil {
			pw.CloseWithError(fmt.Errorf("build context: %w", err))
		}
		pw.Close()
	}()
	defer pr.Close()
	resp, err := cli.ImageBuild(ctx, pr, build.ImageBuildOptions{
		Dockerfile:  dfName,
		Remove:      true,
		ForceRemove: true,
		Labels:      labels,
		Version:     build.BuilderV1,
	})
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	id, err := ReadJSONStream(resp.Body)
	if err != nil {
		return "", err
	}
	if id == "" {
		return "", errors.New("the daemon reported no image id")
	}
	return id, nil
}

// readDockerignore reads the build context's exclusion patterns as the
// docker CLI does: <Dockerfile>.dockerignore beside the Dockerfile when it
// exists (the per-Dockerfile ignore file), else .dockerignore at the root of
// the context; no file means no exclusions.
func readDockerignore(contextDir, dockerfile string) ([]string, error) {
	for _, p := range []string{dockerfile + ".dockerignore", filepath.Join(contextDir, ".dockerignore")} {
		fh, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", p, err)
		}
		patterns, err := ignorefile.ReadAll(fh)
		fh.Close()
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", p, err)
		}
		return patterns, nil
	}
	return nil, nil
}

// keepBuildFiles re-includes the Dockerfile (when it lives in the context)
// and .dockerignore if the patterns exclude them, as the docker CLI does:
// the daemon needs the Dockerfile, and reads .dockerignore to drop both
// from the context the build sees.
func keepBuildFiles(excludes []string, dfName string, dfOutside bool) []string {
	if len(excludes) == 0 {
		return excludes
	}
	keep := []string{".dockerignore"}
	if !dfOutside {
		keep = append(keep, dfName)
	}
	for _, name := range keep {
		if excluded, _ := patternmatcher.MatchesOrParentMatches(name, excludes); excluded {
			excludes = append(excludes, "!"+name)
		}
	}
	return excludes
}

// writeBuildContext tars dir (symbolic links as links, never followed),
// leaving out what pm excludes, and, when extraName is set, adds the
// Dockerfile under that name. An excluded directory is not entered unless
// an exception pattern ("!dir/keep") may re-include something below it.
func writeBuildContext(ctx context.Context, w io.Writer, dir string, pm *patternmatcher.PatternMatcher, extraName string, dockerfile []byte) error {
	tw := tar.NewWriter(w)
	buf := make([]byte, 32<<10)
	parents := map[string]patternmatcher.MatchInfo{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." {
			return err
		}
		if len(pm.Patterns()) > 0 {
			excluded, info, err := pm.MatchesUsingParentResults(rel, parents[filepath.Dir(rel)])
			if err != nil {
				return fmt.Errorf(".dockerignore: %w", err)
			}
			if d.IsDir() {
				parents[rel] = info
			}
			if excluded {
				if !d.IsDir() || !mayReinclude(pm, rel) {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				// Walk on without the directory's own entry: the
				// re-included files below bring their parents along.
				return nil
			}
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		link := ""
		if info.Mode()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(p); err != nil {
				return err
			}
		}
		if !info.Mode().IsRegular() && !info.IsDir() && link == "" {
			return nil // devices, sockets and fifos have no place in a context
		}
		hdr, err := tar.FileInfoHeader(info, link)
		if err != nil {
			return err
		}
		hdr.Name = filepath.ToSlash(rel)
		if info.IsDir() {
			hdr.Name += "/"
		}
		hdr.Uid, hdr.Gid, hdr.Uname, hdr.Gname = 0, 0, "", ""
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if info.Mode().IsRegular() {
			fh, err := os.Open(p)
			if err != nil {
				return err
			}
			_, err = io.CopyBuffer(tw, io.LimitReader(fh, info.Size()), buf)
			fh.Close()
			return err
		}
		return nil
	})
	if err != nil {
		return err
	}
	if extraName != "" {
		if err := tw.WriteHeader(&tar.Header{Name: extraName, Mode: 0o644, Size: int64(len(dockerfile)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		if _, err := tw.Write(dockerfile); err != nil {
			return err
		}
	}
	return tw.Close()
}

// mayReinclude reports whether an exception pattern could re-include
// something below the excluded directory rel (the rule the Docker client's
// archiver applies): a pattern with wildcards before its last element is
// taken to possibly match, a literal one must lie below rel.
func mayReinclude(pm *patternmatcher.PatternMatcher, rel string) bool {
	if !pm.Exclusions() {
		return false
	}
	dirSlash := filepath.ToSlash(rel) + "/"
	for _, pat := range pm.Patterns() {
		if !pat.Exclusion() {
			continue
		}
		text := filepath.ToSlash(pat.String())
		if strings.HasPrefix(text+"/", dirSlash) || strings.ContainsAny(text, "*?[\\") {
			return true
		}
	}
	return false
}

var builtRE = regexp.MustCompile(`Successfully built ([0-9a-f]{12,64})`)

// ReadJSONStream drains a pull or build progress stream, returning the
// image id it announces and the first error it reports (with the last
// build output for context).
func ReadJSONStream(r io.Reader) (string, error) {
	dec := json.NewDecoder(r)
	var id string
	var tail []string
	for {
		var msg jsonmessage.JSONMessage
		if err := dec.Decode(&msg); err != nil {
			if errors.Is(err, io.EOF) {
				return id, nil
			}
			return id, err
		}
		if msg.Error != nil || msg.ErrorMessage != "" {
			text := msg.ErrorMessage
			if msg.Error != nil {
				text = msg.Error.Message
			}
			if len(tail) > 0 {
				text += "\n" + strings.Join(tail, "")
			}
			return id, errors.New(text)
		}
		if msg.Aux != nil {
			var aux struct {
				ID string `json:"ID"`
			}
			if json.Unmarshal(*msg.Aux, &aux) == nil && aux.ID != "" {
				id = aux.ID
			}
		}
		if msg.Stream != "" {
			if m := builtRE.FindStringSubmatch(msg.Stream); m != nil && id == "" {
				id = m[1]
			}
			tail = append(tail, msg.Stream)
			if len(tail) > 20 {
				tail = tail[1:]
			}
		}
	}
}
