mkdir -p one/two
pushd one > /dev/null
basename "$PWD"
pushd two > /dev/null
basename "$PWD"
popd > /dev/null
basename "$PWD"
popd > /dev/null
[ -d one ] && echo "home again"
