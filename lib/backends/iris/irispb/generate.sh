#!/usr/bin/env bash
# Regenerates the Go code from proto/ (protoc from grpcio-tools, protoc-gen-go
# and protoc-gen-connect-go on PATH):
#   python -m venv /tmp/protoc && /tmp/protoc/bin/pip install grpcio-tools
#   GOBIN=/tmp/gobin go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
#   GOBIN=/tmp/gobin go install connectrpc.com/connect/cmd/protoc-gen-connect-go@v1.21.1
#   PATH=/tmp/gobin:$PATH PROTOC="/tmp/protoc/bin/python -m grpc_tools.protoc" ./generate.sh
# To update proto/, take the .proto files from a newer marin-iris wheel
# (pip download --no-deps marin-iris; they are under iris/rpc/).
set -euo pipefail
cd "$(dirname "$0")"
M=github.com/shellbox/shellbox/lib/backends/iris/irispb
opts=()
for p in controller:cluster job:job iris_logging:logging time:time query:query vm:vm; do
  opts+=("--go_opt=M${p%%:*}.proto=$M/${p##*:}" "--connect-go_opt=M${p%%:*}.proto=$M/${p##*:}")
done
${PROTOC:-protoc} -Iproto --go_out=. --go_opt=module=$M --connect-go_out=. --connect-go_opt=module=$M "${opts[@]}" \
  controller.proto job.proto iris_logging.proto time.proto query.proto vm.proto
