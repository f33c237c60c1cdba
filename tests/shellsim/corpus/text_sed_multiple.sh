printf 'a=1\nb=2\nc=3\n' | sed -e 's/=/: /' -e 's/^/key /'
