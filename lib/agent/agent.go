package agent

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/shellbox/shellbox/lib/shell"
)

// DefaultMaxTurns is the turn cap when Config.MaxTurns is 0.
const DefaultMaxTurns = 20

// DefaultSystemPrompt tells the model how to work.
const DefaultSystemPrompt = "You are an agent solving a task in a Linux machine. Use the Bash tool to inspect " +
	"the machine and to make the changes the task asks for. When the task is done, answer without calling a tool " +
	"and say briefly what you did."

// Config is one run's endpoint and limits.
type Config struct {
	BaseURL      string // e.g. http://127.0.0.1:8000/v1; /chat/completions is appended
	APIKey       string // sent only as the Authorization header
	Model        string // as given to Harbor; see EndpointModel
	MaxTurns     int
	SystemPrompt string
	// RequestTimeout bounds one completion request; 0 means 120 seconds.
	RequestTimeout time.Duration
	HTTPClient     *http.Client
	// Progress, when set, receives the run's counts after every model
	// answer and tool call (Messages left out), so a caller can report a
	// run that is cancelled midway.
	Progress func(Result)
}

// Result is what a run did; a run that failed still reports its progress.
type Result struct {
	InputTokens  int       `json:"n_input_tokens"`
	OutputTokens int       `json:"n_output_tokens"`
	ToolCalls    int       `json:"tool_calls"`
	Turns        int       `json:"turns"`
	FinalMessage string    `json:"final_message"`
	Messages     []Message `json:"messages"`
}

// TurnCapError: the model was still calling tools after MaxTurns turns.
type TurnCapError struct{ Turns int }

func (e *TurnCapError) Error() string {
	return fmt.Sprintf("BashAgent reached its turn cap of %d turns", e.Turns)
}

// providerPrefixes are routing prefixes of Harbor/LiteLLM model names that
// an OpenAI-compatible endpoint does not know.
var providerPrefixes = []string{"openai/", "hosted_vllm/"}

// EndpointModel is the model name to send to the endpoint: Harbor's model
// name without a provider routing prefix.
func EndpointModel(name string) string {
	for _, p := range providerPrefixes {
		if strings.HasPrefix(name, p) {
			return name[len(p):]
		}
	}
	return name
}

// Run drives sh until the model stops calling tools. Invalid tool calls
// are answered with an error message to the model; endpoint failures,
// shell failures and the turn cap end the run with an error.
func Run(ctx context.Context, cfg Config, instruction string, sh shell.Session) (Result, error) {
	if cfg.BaseURL == "" {
		return Result{}, errors.New("BashAgent needs base_url")
	}
	if cfg.Model == "" {
		return Result{}, errors.New("BashAgent needs a model name")
	}
	maxTurns := cfg.MaxTurns
	if maxTurns == 0 {
		maxTurns = DefaultMaxTurns
	}
	if maxTurns < 0 {
		return Result{}, fmt.Errorf("max_turns must be positive, got %d", maxTurns)
	}
	system := cfg.SystemPrompt
	if system == "" {
		system = DefaultSystemPrompt
	}
	hc := cfg.HTTPClient
	if hc == nil {
		// No proxy from the environment: the endpoint is what was configured.
		hc = &http.Client{Transport: &http.Transport{Proxy: nil}}
	}
	timeout := cfg.RequestTimeout
	if timeout == 0 {
		timeout = 120 * time.Second
	}
	c := &client{url: strings.TrimRight(cfg.BaseURL, "/") + "/chat/completions", key: cfg.APIKey, http: hc, timeout: timeout}
	tool := BashTool()
	if !sh.Interactive() {
		tool = CommandTool()
	}
	res := Result{Messages: []Message{
		{Role: "system", Content: &system},
		{Role: "user", Content: &instruction},
	}}
	model := EndpointModel(cfg.Model)
	report := func() {
		if cfg.Progress != nil {
			p := res
			p.Messages = nil
			cfg.Progress(p)
		}
	}
	for res.Turns < maxTurns {
		msg, usage, err := c.complete(ctx, completionRequest{Model: model, Messages: res.Messages, Tools: []Tool{tool}})
		if err != nil {
			return res, err
		}
		res.Turns++
		res.InputTokens += usage.PromptTokens
		res.OutputTokens += usage.CompletionTokens
		reply := Message{Role: "assistant", Content: msg.Content, ToolCalls: msg.ToolCalls}
		if reply.Content == nil {
			empty := ""
			reply.Content = &empty
		}
		res.Messages = append(res.Messages, reply)
		res.FinalMessage = *reply.Content
		report()
		if len(msg.ToolCalls) == 0 {
			return res, nil
		}
		for _, call := range msg.ToolCalls {
			content, err := runTool(ctx, sh, call)
			if err != nil {
				if !isArgumentError(err) {
					return res, err
				}
				content = toolErrorContent(err)
			}
			res.ToolCalls++
			res.Messages = append(res.Messages, Message{Role: "tool", Content: &content, ToolCallID: call.ID})
			report()
		}
	}
	return res, &TurnCapError{Turns: maxTurns}
}
