// Package compose turns a Docker Compose project (a Harbor task's
// environment/docker-compose.yaml over Harbor's base file) into a task
// group spec: each service becomes a member, the primary service (Harbor's
// "main") the member agents drive. Files are parsed and merged by
// compose-spec/compose-go, the reference implementation's loader; keys a
// group cannot honour are refused naming the key.
package compose
