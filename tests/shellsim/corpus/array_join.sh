parts=(usr local bin)
joined=$(IFS=/; echo "${parts[*]}")
echo "/$joined"
