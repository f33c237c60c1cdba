pids=()
for code in 0 1 2; do (exit $code) & pids+=($!); done
fails=0
for p in "${pids[@]}"; do wait "$p" || fails=$((fails+1)); done
echo "failures: $fails"
