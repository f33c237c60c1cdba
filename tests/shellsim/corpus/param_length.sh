s="hello world"
echo "${#s}"
empty=""
echo "${#empty}"
