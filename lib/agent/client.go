package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Message is one chat message as the endpoint sees it.
type Message struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ToolCall is one function call the model asked for.
type ToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Usage is the token count of one completion.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

type completionRequest struct {
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
	Tools    []Tool    `json:"tools"`
}

type completionResponse struct {
	Choices []struct {
		Message Message `json:"message"`
	} `json:"choices"`
	Usage *Usage `json:"usage"`
}

// HTTPError is a non-2xx answer of the endpoint; Body is its start.
type HTTPError struct {
	Status int
	Body   string
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("chat completions endpoint answered HTTP %d: %s", e.Status, e.Body)
}

// maxErrorBody bounds the part of an error answer kept in HTTPError.
const maxErrorBody = 8 << 10

// maxResponse bounds a completion answer read into memory.
const maxResponse = 64 << 20

// client talks to one OpenAI-compatible endpoint.
type client struct {
	url     string
	key     string
	http    *http.Client
	timeout time.Duration
}

func (c *client) complete(ctx context.Context, req completionRequest) (Message, Usage, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return Message{}, Usage{}, err
	}
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return Message{}, Usage{}, err
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.http.Do(hreq)
	if err != nil {
		return Message{}, Usage{}, fmt.Errorf("chat completions request: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return Message{}, Usage{}, &HTTPError{Status: resp.StatusCode, Body: strings.TrimSpace(string(data))}
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return Message{}, Usage{}, fmt.Errorf("reading the chat completion: %w", err)
	}
	if len(data) > maxResponse {
		return Message{}, Usage{}, fmt.Errorf("chat completion larger than %d bytes", maxResponse)
	}
	var out completionResponse
	if err := json.Unmarshal(data, &out); err != nil {
		return Message{}, Usage{}, fmt.Errorf("decoding the chat completion: %w", err)
	}
	if len(out.Choices) == 0 {
		return Message{}, Usage{}, fmt.Errorf("chat completion has no choices: %.200s", data)
	}
	var u Usage
	if out.Usage != nil {
		u = *out.Usage
	}
	return out.Choices[0].Message, u, nil
}
