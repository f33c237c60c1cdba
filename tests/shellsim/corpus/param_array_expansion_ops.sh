files=(a.txt b.txt c.log)
echo "${files[@]%.txt}"
echo "${files[@]/#/pre_}"
echo "${files[@]^^}"
