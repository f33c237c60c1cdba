package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shellbox/shellbox/lib/shell"
)

// ToolName is the one tool BashAgent offers.
const ToolName = "Bash"

// OutputLimit bounds the output one tool call returns (128 KiB).
const OutputLimit = 128 << 10

// Wait bounds, in milliseconds.
const (
	DefaultWaitMS = 10_000
	MaxWaitMS     = 30_000
)

// Tool is an OpenAI function tool.
type Tool struct {
	Type     string       `json:"type"`
	Function ToolFunction `json:"function"`
}

// ToolFunction describes the function.
type ToolFunction struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// BashTool is the tool of an interactive shell: start a command, or
// (without one) send input, interrupt, or read the running command.
func BashTool() Tool {
	return Tool{Type: "function", Function: ToolFunction{
		Name: ToolName,
		Description: "Run a command in a persistent Bash shell; the working directory, variables, functions and " +
			"background jobs persist between calls. Give `command` to start a command. A command still running " +
			"after `wait_ms` is reported with status \"running\": call again without `command` to read more of it, " +
			"with `input` to type into it (end with a newline to submit a line), or with `signal` \"interrupt\" to " +
			"send it Ctrl-C. Give at most one of command, input and signal.",
		Parameters: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"command": map[string]any{"type": "string", "description": "Bash command to start."},
				"input":   map[string]any{"type": "string", "description": "Text to send to the running command; include a newline to submit."},
				"signal":  map[string]any{"type": "string", "enum": []string{"interrupt"}, "description": "interrupt: send Ctrl-C to the running command."},
				"wait_ms": map[string]any{"type": "integer", "minimum": 0, "maximum": MaxWaitMS, "description": "How long to wait for the command, in milliseconds (default 10000)."},
			},
		},
	}}
}

// CommandTool is the tool of a non-interactive shell: every call runs one
// complete command.
func CommandTool() Tool {
	return Tool{Type: "function", Function: ToolFunction{
		Name:        ToolName,
		Description: "Run a shell command to completion and return its output (stdout then stderr) and exit code.",
		Parameters: map[string]any{
			"type":       "object",
			"properties": map[string]any{"command": map[string]any{"type": "string", "description": "Shell command to run."}},
			"required":   []string{"command"},
		},
	}}
}

// ToolResult is what a Bash call returns to the model.
type ToolResult struct {
	Output    string `json:"output"`
	Status    string `json:"status"`
	ExitCode  *int   `json:"exit_code"`
	Truncated bool   `json:"truncated"`
}

// argumentError is a tool call the model got wrong; it goes back to the
// model as the tool's answer.
type argumentError struct{ msg string }

func (e *argumentError) Error() string { return e.msg }

func badArgs(format string, a ...any) error { return &argumentError{fmt.Sprintf(format, a...)} }

type bashArgs struct {
	Command *string
	Input   *string
	Signal  *string
	Wait    time.Duration
}

func parseArgs(raw string, interactive bool) (bashArgs, error) {
	var fields map[string]json.RawMessage
	if strings.TrimSpace(raw) == "" {
		raw = "{}"
	}
	if err := json.Unmarshal([]byte(raw), &fields); err != nil {
		return bashArgs{}, badArgs("arguments are not a JSON object: %v", err)
	}
	var a bashArgs
	str := func(name string) (*string, error) {
		v, ok := fields[name]
		if !ok || string(v) == "null" {
			return nil, nil
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, badArgs("%s must be a string", name)
		}
		return &s, nil
	}
	var err error
	if a.Command, err = str("command"); err != nil {
		return a, err
	}
	if a.Input, err = str("input"); err != nil {
		return a, err
	}
	if a.Signal, err = str("signal"); err != nil {
		return a, err
	}
	a.Wait = DefaultWaitMS * time.Millisecond
	if v, ok := fields["wait_ms"]; ok && string(v) != "null" {
		var f float64
		if err := json.Unmarshal(v, &f); err != nil || f != float64(int64(f)) || f < 0 || f > MaxWaitMS {
			return a, badArgs("wait_ms must be an integer from 0 to %d", MaxWaitMS)
		}
		a.Wait = time.Duration(f) * time.Millisecond
	}
	for name := range fields {
		switch name {
		case "command", "input", "signal", "wait_ms":
		default:
			return a, badArgs("unknown argument %q", name)
		}
	}
	n := 0
	for _, p := range []*string{a.Command, a.Input, a.Signal} {
		if p != nil {
			n++
		}
	}
	if n > 1 {
		return a, badArgs("give at most one of command, input and signal")
	}
	if a.Signal != nil && *a.Signal != "interrupt" {
		return a, badArgs("signal must be \"interrupt\"")
	}
	if !interactive && a.Command == nil {
		return a, badArgs("command is required: this shell only runs complete commands")
	}
	return a, nil
}

// runTool performs one Bash call. A returned error that is not an
// argumentError (or a shell tool error) ends the run.
func runTool(ctx context.Context, sh shell.Session, call ToolCall) (string, error) {
	if call.Function.Name != ToolName {
		return "", badArgs("unknown tool %q: the only tool is %s", call.Function.Name, ToolName)
	}
	a, err := parseArgs(call.Function.Arguments, sh.Interactive())
	if err != nil {
		return "", err
	}
	var u shell.Update
	switch {
	case a.Command != nil:
		u, err = sh.Execute(ctx, *a.Command, a.Wait, OutputLimit)
	case a.Input != nil:
		if err = sh.Write(ctx, []byte(*a.Input)); err == nil {
			u, err = sh.Read(ctx, a.Wait, OutputLimit)
		}
	case a.Signal != nil:
		if err = sh.Interrupt(ctx); err == nil {
			u, err = sh.Read(ctx, a.Wait, OutputLimit)
		}
	default:
		u, err = sh.Read(ctx, a.Wait, OutputLimit)
	}
	if err != nil {
		if shell.IsToolError(err) {
			return "", &argumentError{err.Error()}
		}
		return "", err
	}
	out, _ := json.Marshal(ToolResult{Output: text(u.Output), Status: string(u.Status), ExitCode: u.ExitCode, Truncated: u.Truncated})
	return string(out), nil
}

// text is output as valid UTF-8 with \n line ends.
func text(b []byte) string {
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func toolErrorContent(err error) string {
	out, _ := json.Marshal(map[string]string{"error": err.Error()})
	return string(out)
}

func isArgumentError(err error) bool {
	var a *argumentError
	return errors.As(err, &a)
}
