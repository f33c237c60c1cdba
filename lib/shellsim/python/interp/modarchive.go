package interp

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"io"
	"strings"
)

// _archive reads zip and tar archives and gzip streams from bytes; the
// Python modules zipfile, tarfile and gzip wrap it. Output sizes are checked
// against the memory limit before they are held.
func init() {
	registerNative("_archive", func(in *Interp, m *Module) {
		limitRead := func(r io.Reader) []byte {
			limit := in.mem.limit
			data, err := io.ReadAll(io.LimitReader(r, limit+1))
			if int64(len(data)) > limit {
				in.mem.need(in, limit+1)
			}
			if err != nil {
				in.Raise("OSError", "%s", err.Error())
			}
			in.charge(int64(len(data) / 16))
			return data
		}
		in.fn(m.Dict, "gzip_decompress", func(a []Value, kw []KW) Value {
			zr, err := gzip.NewReader(strings.NewReader(in.bytesOf(a[0])))
			if err != nil {
				c, _ := in.importModule("gzip", nil).Dict.GetStr("BadGzipFile")
				in.raiseExc(in.newExc(c.(*Class), Tuple{"Not a gzipped file"}))
			}
			return Bytes(limitRead(zr))
		})
		in.fn(m.Dict, "gzip_compress", func(a []Value, kw []KW) Value {
			var buf bytes.Buffer
			w := gzip.NewWriter(&buf)
			data := in.bytesOf(a[0])
			in.charge(int64(len(data) / 8))
			w.Write([]byte(data))
			w.Close()
			return Bytes(buf.String())
		})
		// zip_entries(data) -> [(name, size, is_dir)]
		in.fn(m.Dict, "zip_entries", func(a []Value, kw []KW) Value {
			data := in.bytesOf(a[0])
			zr, err := zip.NewReader(strings.NewReader(data), int64(len(data)))
			if err != nil {
				c, _ := in.importModule("zipfile", nil).Dict.GetStr("BadZipFile")
				in.raiseExc(in.newExc(c.(*Class), Tuple{"File is not a zip file"}))
			}
			var out []Value
			for _, f := range zr.File {
				out = append(out, Tuple{f.Name, int64(f.UncompressedSize64), strings.HasSuffix(f.Name, "/")})
			}
			return &List{V: orEmpty(out)}
		})
		in.fn(m.Dict, "zip_read", func(a []Value, kw []KW) Value {
			data := in.bytesOf(a[0])
			name := in.str(a[1])
			zr, err := zip.NewReader(strings.NewReader(data), int64(len(data)))
			if err != nil {
				in.Raise("ValueError", "File is not a zip file")
			}
			for _, f := range zr.File {
				if f.Name == name {
					rc, err := f.Open()
					if err != nil {
						in.Raise("OSError", "%s", err.Error())
					}
					defer rc.Close()
					return Bytes(limitRead(rc))
				}
			}
			in.raiseKeyError("There is no item named " + strRepr(name) + " in the archive")
			return nil
		})
		in.fn(m.Dict, "zip_create", func(a []Value, kw []KW) Value {
			var buf bytes.Buffer
			zw := zip.NewWriter(&buf)
			for _, item := range in.iterToSlice(a[0]) {
				pair := in.iterToSlice(item)
				w, err := zw.Create(in.str(pair[0]))
				if err != nil {
					in.Raise("ValueError", "%s", err.Error())
				}
				w.Write([]byte(in.bytesOf(pair[1])))
			}
			zw.Close()
			return Bytes(buf.String())
		})
		// tar_entries(data) -> [(name, size, type, mode, content)]
		in.fn(m.Dict, "tar_entries", func(a []Value, kw []KW) Value {
			raw := in.bytesOf(a[0])
			var r io.Reader = strings.NewReader(raw)
			switch {
			case strings.HasPrefix(raw, "\x1f\x8b"):
				zr, err := gzip.NewReader(r)
				if err != nil {
					in.Raise("OSError", "%s", err.Error())
				}
				r = bytes.NewReader(limitRead(zr))
			case strings.HasPrefix(raw, "BZh"):
				r = bytes.NewReader(limitRead(bzip2.NewReader(r)))
			}
			tr := tar.NewReader(r)
			var out []Value
			for {
				h, err := tr.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					c, _ := in.importModule("tarfile", nil).Dict.GetStr("ReadError")
					in.raiseExc(in.newExc(c.(*Class), Tuple{"file could not be opened successfully"}))
				}
				content := limitRead(tr)
				typ := "file"
				switch h.Typeflag {
				case tar.TypeDir:
					typ = "dir"
				case tar.TypeSymlink:
					typ = "sym"
				case tar.TypeLink:
					typ = "lnk"
				}
				out = append(out, Tuple{h.Name, h.Size, typ, h.Mode, Bytes(content), h.Linkname})
			}
			return &List{V: orEmpty(out)}
		})
	})
}
