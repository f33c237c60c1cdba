package execd

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellbox/shellbox/lib/machine"
)

func TestFraming(t *testing.T) {
	var buf bytes.Buffer
	payload := bytes.Repeat([]byte("x"), 200<<10)
	dataWriter{&buf}.Write(payload)
	writeFrame(&buf, FrameDataEnd, nil)
	writeFrame(&buf, FrameOK, mustJSON(Ack{}))
	br := bufio.NewReader(&buf)
	dr := &dataReader{r: br}
	got, err := io.ReadAll(dr)
	if err != nil || !bytes.Equal(got, payload) {
		t.Fatalf("data: %d bytes, %v", len(got), err)
	}
	typ, p, err := readFrame(br, nil)
	if err != nil || typ != FrameOK || string(p) != `{}` {
		t.Fatalf("ok frame: %q %q %v", typ, p, err)
	}
	// Oversized and truncated frames are errors.
	if _, _, err := readFrame(bufio.NewReader(bytes.NewReader([]byte{'D', 0xff, 0xff, 0xff, 0xff})), nil); err == nil {
		t.Fatal("oversized frame accepted")
	}
	if _, _, err := readFrame(bufio.NewReader(bytes.NewReader([]byte{'D', 0, 0, 0, 9, 'a'})), nil); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated frame: %v", err)
	}
	// A failure inside a data stream surfaces as the typed error.
	buf.Reset()
	writeFrame(&buf, FrameFailure, mustJSON(failureOf(&machine.PathError{Op: "download", Path: "/x", Reason: "gone", NotFound: true})))
	_, err = io.ReadAll(&dataReader{r: bufio.NewReader(&buf)})
	var f *Failure
	var pe *machine.PathError
	if !errors.As(err, &f) || !errors.As(f.Err("local"), &pe) || !pe.NotFound {
		t.Fatalf("failure: %v", err)
	}
}

func TestParseStat(t *testing.T) {
	state, pgrp, ok := parseStat([]byte("42 (a (weird) name) S 1 77 77 0 -1"))
	if !ok || state != 'S' || pgrp != 77 {
		t.Fatalf("got %c %d %v", state, pgrp, ok)
	}
}

func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "prog"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(dir, "noexec"), []byte(""), 0o644)
	env := []string{"PATH=/nonexistent:" + dir}
	if p, _, err := lookPath("prog", env, "/"); err != nil || p != filepath.Join(dir, "prog") {
		t.Fatalf("prog: %q %v", p, err)
	}
	if _, code, _ := lookPath("missing", env, "/"); code != 127 {
		t.Fatalf("missing: %d", code)
	}
	if _, code, _ := lookPath("noexec", env, "/"); code != 126 {
		t.Fatalf("noexec: %d", code)
	}
	if p, _, err := lookPath("./prog", nil, dir); err != nil || p != filepath.Join(dir, "prog") {
		t.Fatalf("relative: %q %v", p, err)
	}
}

func TestCheckGuestPath(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "real"), 0o755)
	os.Symlink("real", filepath.Join(dir, "allowed"))
	os.Symlink("/etc", filepath.Join(dir, "planted"))
	allowed := []string{filepath.Join(dir, "allowed")}
	for p, ok := range map[string]bool{
		filepath.Join(dir, "real", "x"):      true,
		filepath.Join(dir, "allowed", "x"):   true,
		filepath.Join(dir, "planted", "x"):   false,
		filepath.Join(dir, "planted"):        false,
		filepath.Join(dir, "allowed"):        false, // the link itself
		dir + "/real/../planted/x":           false,
		"relative/path":                      false,
		filepath.Join(dir, "missing", "a/b"): true,
	} {
		err := checkGuestPath("upload", p, allowed)
		if (err == nil) != ok {
			t.Errorf("%s: %v", p, err)
		}
		if err != nil && !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error does not name the path: %v", p, err)
		}
	}
}
