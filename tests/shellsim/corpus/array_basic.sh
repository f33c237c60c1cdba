arr=(one two three)
echo "${arr[0]}"
echo "${arr[@]}"
echo "${#arr[@]}"
arr+=(four)
echo "${arr[3]} ${#arr[@]}"
