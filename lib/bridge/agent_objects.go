package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/shellbox/shellbox/lib/agent"
	"github.com/shellbox/shellbox/lib/bridge/wire"
	"github.com/shellbox/shellbox/lib/machine"
)

func init() {
	extraRoot["run_agent"] = runAgent
}

// runAgent: {"shell", "base_url", "api_key", "model", "max_turns",
// "instruction", "system_prompt"} runs BashAgent's loop on a shell handle.
// The reply carries the run's progress even when it failed, with the
// failure as "error": {"kind", "message", "status"?}, so the caller can
// record tokens and messages before raising. Only cancellation is an error
// of the call itself.
func runAgent(b *Bridge, ctx context.Context, req []byte) (Reply, error) {
	var r wire.RunAgentRequest
	if err := decode(req, &r); err != nil {
		return Reply{}, err
	}
	o, ok := b.lookup(r.Shell)
	if !ok {
		return Reply{}, fmt.Errorf("handle %d: %w", r.Shell, machine.ErrClosed)
	}
	so, ok := o.(*shellObject)
	if !ok {
		return Reply{}, &machine.InvalidSpec{Field: "shell", Reason: fmt.Sprintf("handle %d is not a shell session", r.Shell)}
	}
	so.setProgress(agent.Result{})
	res, err := agent.Run(ctx, agent.Config{
		BaseURL: r.BaseURL, APIKey: r.APIKey, Model: r.Model, MaxTurns: r.MaxTurns, SystemPrompt: r.SystemPrompt,
		Progress: so.setProgress,
	}, r.Instruction, so.session)
	if err != nil && ctx.Err() != nil {
		return Reply{}, ctx.Err()
	}
	var fail *wire.AgentError
	if err != nil {
		var (
			turnCap *agent.TurnCapError
			httpErr *agent.HTTPError
		)
		switch {
		case errors.As(err, &turnCap):
			fail = &wire.AgentError{Kind: wire.TurnCapExhausted, Message: err.Error()}
		case errors.As(err, &httpErr):
			fail = &wire.AgentError{Kind: wire.HTTPError, Message: err.Error(), Status: httpErr.Status}
		default:
			fail = &wire.AgentError{Kind: wire.AgentErrorKind(ErrorKind(err)), Message: err.Error()}
		}
	}
	return Reply{Header: wire.RunAgentReply{AgentResult: agentResult(res), Error: fail}}, nil
}

// agentResult is an agent run's progress on the wire.
func agentResult(r agent.Result) wire.AgentResult {
	messages, _ := json.Marshal(r.Messages)
	return wire.AgentResult{NInputTokens: r.InputTokens, NOutputTokens: r.OutputTokens, ToolCalls: r.ToolCalls,
		Turns: r.Turns, FinalMessage: r.FinalMessage, Messages: messages}
}
