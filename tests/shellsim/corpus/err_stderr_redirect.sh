ls nosuchfile 2>/dev/null || echo "ls failed"
ls nosuchfile 2>&1 | grep -c "No such file"
{ echo out; echo err >&2; } 2>/dev/null
