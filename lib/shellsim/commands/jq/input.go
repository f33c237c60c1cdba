package jq

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// decoder reads a stream of JSON values, keeping object key order in a
// keyOrder (encoding/json's Token stream is used rather than Unmarshal
// because Unmarshal into maps forgets the order).
type decoder struct {
	dec   *json.Decoder
	data  []byte
	order *keyOrder
}

func newDecoder(data []byte, order *keyOrder) *decoder {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return &decoder{dec: d, data: data, order: order}
}

// next returns the next value, io.EOF at the end, or a *parseError.
func (d *decoder) next() (any, error) {
	v, err := d.value()
	if err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		return nil, d.wrap(err)
	}
	return v, nil
}

func (d *decoder) value() (any, error) {
	tok, err := d.dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			arr := []any{}
			for d.dec.More() {
				v, err := d.value()
				if err != nil {
					return nil, eofIsUnexpected(err)
				}
				arr = append(arr, v)
			}
			if _, err := d.dec.Token(); err != nil {
				return nil, eofIsUnexpected(err)
			}
			return arr, nil
		case '{':
			obj := map[string]any{}
			var keys []string
			for d.dec.More() {
				kt, err := d.dec.Token()
				if err != nil {
					return nil, eofIsUnexpected(err)
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("Object keys must be strings")
				}
				v, err := d.value()
				if err != nil {
					return nil, eofIsUnexpected(err)
				}
				if _, dup := obj[k]; !dup {
					keys = append(keys, k)
				}
				obj[k] = v
			}
			if _, err := d.dec.Token(); err != nil {
				return nil, eofIsUnexpected(err)
			}
			d.order.remember(obj, keys)
			return obj, nil
		}
		return nil, fmt.Errorf("Unmatched '%c'", rune(t))
	case json.Number:
		return number(string(t)), nil
	}
	return tok, nil
}

func eofIsUnexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// number converts a JSON number the way jq 1.6 holds it: a double (small
// integers stay ints, which gojq handles faster and identically).
func number(s string) any {
	if !strings.ContainsAny(s, ".eE") && len(s) < 16 {
		if n, err := strconv.Atoi(s); err == nil {
			return n
		}
	}
	f, _ := strconv.ParseFloat(s, 64) // overflow gives ±Inf, printed as ±DBL_MAX like jq
	return f
}

// parseError is an input error, printed as jq prints it.
type parseError struct {
	msg       string
	line, col int
}

func (e *parseError) Error() string {
	return fmt.Sprintf("%s at line %d, column %d", e.msg, e.line, e.col)
}

func (d *decoder) wrap(err error) error {
	data := d.data
	var se *json.SyntaxError
	msg, pos := "Invalid literal", len(data)
	switch {
	case errors.As(err, &se):
		// The error's Offset counts from where the decoder's buffer began;
		// the token starts at the first non-space after InputOffset.
		start := min(int(d.dec.InputOffset()), len(data))
		for start < len(data) && strings.IndexByte(" \t\r\n,:", data[start]) >= 0 {
			start++
		}
		text := se.Error()
		switch {
		case strings.Contains(text, "unexpected end"):
			msg, pos = "Unfinished JSON term at EOF", len(data)
			return d.at(msg, pos)
		case strings.Contains(text, "looking for beginning of value") && start < len(data) && strings.IndexByte("]}", data[start]) >= 0:
			return d.at(fmt.Sprintf("Unmatched '%c'", data[start]), start+1)
		case strings.Contains(text, "looking for beginning of value"):
			msg = "Invalid numeric literal"
			if start < len(data) && strings.IndexByte("tfn", data[start]) >= 0 {
				msg = "Invalid literal"
			}
		default:
			msg = "Expected separator between values"
		}
		// jq reports the position just past the character that ended the
		// offending token, or "at EOF" when the input ended first.
		end := start
		for end < len(data) && strings.IndexByte(" \t\r\n[]{},:\"", data[end]) < 0 {
			end++
		}
		if end >= len(data) {
			return d.at(msg+" at EOF", len(data))
		}
		return d.at(msg, end+1)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return d.at("Unfinished JSON term at EOF", len(data))
	}
	return d.at(err.Error(), pos)
}

func (d *decoder) at(msg string, off int) error {
	off = min(off, len(d.data))
	line := 1 + bytes.Count(d.data[:off], []byte("\n"))
	col := off - (bytes.LastIndexByte(d.data[:off], '\n') + 1)
	return &parseError{msg: msg, line: line, col: col}
}

// lineNumber is jq's input_line_number: the newlines the parser has read.
func (in *inputs) lineNumber() int {
	if in.dec == nil {
		return in.rawPos
	}
	// jq reads its input in 64 KiB blocks and counts the newlines of
	// every block it has read so far.
	off := int(in.dec.dec.InputOffset())
	off = min(len(in.data), (off/65536+1)*65536)
	return bytes.Count(in.data[:off], []byte("\n"))
}
