printf '# comment\nkey=1\n\n# other\nkey2=2\n' > conf
grep -v '^#' conf | grep -v '^$'
grep -vc '^#' conf
