printf 'x\nfoo\ny\nfoo bar\n' | grep -n foo | cut -d: -f1
