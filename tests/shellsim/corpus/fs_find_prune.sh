mkdir -p repo/.git/objects repo/src
touch repo/.git/objects/o1 repo/src/app.go repo/README
find repo -path repo/.git -prune -o -type f -print | sort
