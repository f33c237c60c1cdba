printf 'z\nx\ny\n' > in.txt
mapfile -t lines < in.txt
echo "${#lines[@]} ${lines[1]}"
sorted=($(sort in.txt))
echo "${sorted[*]}"
