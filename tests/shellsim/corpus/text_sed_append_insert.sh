printf 'one\ntwo\nthree\n' > f
sed '2a\
inserted after two' f
sed '1i\
header' f
