a=(short "a longer element")
echo "${#a[1]}"
echo "${#a[0]}"
