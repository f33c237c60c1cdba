items=("a b" "c" "d e f")
for it in "${items[@]}"; do echo "<$it>"; done
for it in ${items[@]}; do echo "[$it]"; done
