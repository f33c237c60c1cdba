trap 'echo "error on line $LINENO"' ERR
false
echo "continues"
