printf '1 2 3\n4 5 6\n' | awk '{for (i=1;i<=NF;i++) a[i]=a[i] (NR>1?" ":"") $i} END {for (i=1;i<=3;i++) print a[i]}'
