nums=(10 20 30 40 50)
echo "${nums[@]:1:3}"
echo "${nums[@]: -2}"
