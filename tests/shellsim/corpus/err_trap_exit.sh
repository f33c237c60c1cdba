trap 'echo "cleanup on exit"' EXIT
echo "working"
exit 0
