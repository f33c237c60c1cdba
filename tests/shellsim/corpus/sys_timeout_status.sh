timeout 0.2 sleep 3
echo "timed out: $?"
timeout 2 true
echo "ok: $?"
timeout 2 false
echo "child fail: $?"
timeout -s KILL 0.1 sleep 3
echo "killed: $?"
timeout 2 nonexistent_cmd_q 2>/dev/null
echo "missing: $?"
