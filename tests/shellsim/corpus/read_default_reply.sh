echo "value" | { read; echo "REPLY=$REPLY"; }
