echo "k1=v1;k2=v2;k3=v3" | awk '{n = split($0, parts, ";"); for (i = 1; i <= n; i++) print i, parts[i]}'
