mkdir -p a/b c
touch a/one.txt a/b/two.txt c/three.log a/b/four.TXT
find . -name '*.txt' | sort
find . -iname '*.txt' | sort
