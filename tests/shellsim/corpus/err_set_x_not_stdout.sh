set -x
v=1
set +x
echo "v=$v"
