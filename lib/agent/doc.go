// Package agent is BashAgent's loop: it asks an OpenAI-compatible
// chat-completions endpoint for the next step, runs the Bash tool calls it
// gets in a persistent shell.Session, and sends back their results until
// the model answers without a tool call or the turn cap is reached. Model
// credentials stay in this process: only tool commands reach the machine.
package agent
