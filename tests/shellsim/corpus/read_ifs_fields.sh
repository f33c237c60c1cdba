echo "john:25:engineer" | { IFS=: read -r name age job; echo "$name|$age|$job"; }
