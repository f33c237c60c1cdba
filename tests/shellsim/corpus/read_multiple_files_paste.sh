printf '1\n2\n' > a; printf 'x\ny\n' > b
while read -r l1 && read -r l2 <&3; do echo "$l1-$l2"; done < a 3< b
