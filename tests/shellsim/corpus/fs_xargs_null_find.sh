mkdir 'with space'
touch 'with space/a file.txt' 'with space/b.txt'
find 'with space' -type f -print0 | xargs -0 -n 1 basename | sort
